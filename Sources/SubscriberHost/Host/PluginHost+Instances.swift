import SubscriberDelivery
import SubscriberKit

extension PluginHost {
    /// The in-process subscriber object registered as `name` (at creation or by
    /// ``add(_:whenResponseDelivered:)``), as `type`; nil when no subscriber has that name, it was
    /// removed, it is another type, or it is a plugin's. A plugin's subscriber lives in the plugin's
    /// own image, behind the C contract: its Swift object cannot be handed across, so tests and apps
    /// reach it through events, its options and its logs.
    public func subscriber<Subscriber: AnyObject>(named name: String, as type: Subscriber.Type = Subscriber.self) -> Subscriber? {
        guard let registration = dispatcher.subscribers.first(where: { $0.name == name }),
              case .inProcess = registration.kind else { return nil }
        return registration.subscriber as? Subscriber
    }

    /// Every in-process subscriber object of `type` the host made, in dispatch order.
    public func subscribers<Subscriber: AnyObject>(of type: Subscriber.Type) -> [Subscriber] {
        dispatcher.subscribers.compactMap { registration in
            guard case .inProcess = registration.kind else { return nil }
            return registration.subscriber as? Subscriber
        }
    }
}
