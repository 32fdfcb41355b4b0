import SubscriberKit

/// A subscriber as the dispatcher sees it: its name, the object, its priority and the events it
/// responds to. Statically registered subscribers and loaded plugin subscribers both become one.
public struct SubscriberRegistration {
    /// The subscriber's name (output, reports, logs).
    public var name: String
    /// The subscriber.
    public var subscriber: any AppDelegateSubscriber
    /// Higher goes first; equal priorities keep registration order. Default 0.
    public var priority: Int
    /// The events it responds to; nil means all. A loaded C subscriber passes its non-NULL vtable
    /// entries. Events outside the set skip it entirely: it is not called and has no answer row.
    public var respondingEvents: Set<LifecycleEvent>?

    /// A registration.
    public init(name: String, subscriber: any AppDelegateSubscriber, priority: Int = 0,
                respondingEvents: Set<LifecycleEvent>? = nil) {
        self.name = name
        self.subscriber = subscriber
        self.priority = priority
        self.respondingEvents = respondingEvents
    }

    /// Makes a subscriber of `type` with a context from the host: `sink` for its logs, the app's
    /// info and its manifest `options`. `name` defaults to the type's `subscriberName`.
    @MainActor
    public init(_ type: any InstantiableSubscriber.Type, name: String? = nil, application: Application,
                options: JSONValue = [:], sink: any SubscriberLogSink, priority: Int = 0) {
        let name = name ?? type.subscriberName
        let subscriber = type.init(context: sink.context(for: name, application: application, options: options))
        self.init(name: name, subscriber: subscriber, priority: priority)
    }

    /// Whether it responds to `event`.
    public func responds(to event: LifecycleEvent) -> Bool {
        respondingEvents?.contains(event) ?? true
    }

    /// `registrations` in dispatch order: as given, then a stable sort by priority, higher first.
    public static func ordered(_ registrations: [SubscriberRegistration]) -> [SubscriberRegistration] {
        // Array.sort is not documented as stable; the index breaks ties explicitly.
        registrations.enumerated()
            .sorted { lhs, rhs in
                lhs.element.priority != rhs.element.priority
                    ? lhs.element.priority > rhs.element.priority
                    : lhs.offset < rhs.offset
            }
            .map(\.element)
    }
}
