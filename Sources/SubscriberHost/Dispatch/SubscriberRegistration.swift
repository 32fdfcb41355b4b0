import SubscriberKit

/// A subscriber as the dispatcher sees it: its name, its priority, and its handler of each event it
/// responds to. In-process subscribers and loaded plugin subscribers both become one.
@MainActor
public struct SubscriberRegistration {
    /// The subscriber's name (output, reports, logs).
    public var name: String
    /// Higher goes first; equal priorities keep registration order. Default 0.
    public var priority: Int
    /// The subscriber object (an in-process subscriber, or a loaded ``CSubscriber``); kept alive
    /// while registered.
    public let subscriber: AnyObject
    /// Its handler of each event, by event index; nil for the events it does not respond to.
    package let handlers: [EventHandler?]

    /// Registers an in-process `subscriber` under `name`: it receives the events whose protocols its
    /// type adopts.
    public init(name: String, subscriber: any AppDelegateSubscriber, priority: Int = 0) {
        self.name = name
        self.priority = priority
        self.subscriber = subscriber
        self.handlers = subscriber.eventHandlers()
    }

    /// Registers a subscriber loaded from a plugin, under `name` (default: the name it was created
    /// with): it receives the events whose vtable entries are set.
    package init(_ subscriber: CSubscriber, name: String? = nil, priority: Int = 0) {
        self.name = name ?? subscriber.name
        self.priority = priority
        self.subscriber = subscriber
        self.handlers = subscriber.handlers
    }

    /// Makes a subscriber of `type` with a context from the host: `sink` for its logs, the app's
    /// info and its manifest `options`. `name` defaults to the type's `subscriberName`.
    public init(_ type: any InstantiableSubscriber.Type, name: String? = nil, application: Application,
                options: JSONValue = [:], sink: any SubscriberLogSink, priority: Int = 0) {
        let name = name ?? type.subscriberName
        let subscriber = type.init(context: sink.context(for: name, application: application, options: options))
        self.init(name: name, subscriber: subscriber, priority: priority)
    }

    /// The events it responds to, in table order.
    public var respondingEvents: [LifecycleEvent] {
        zip(LifecycleEvent.allCases, handlers).compactMap { $1 == nil ? nil : $0 }
    }

    /// Whether it responds to `event`.
    public func responds(to event: LifecycleEvent) -> Bool { handlers[event.index] != nil }

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
