import SubscriberDelivery
import SubscriberKit

/// A subscriber as the dispatcher sees it: its name, its priority, and what it responds to.
/// In-process subscribers and loaded plugin subscribers both become one.
@MainActor
package struct SubscriberRegistration {
    /// The subscriber's name (output, reports, logs).
    package var name: String
    /// Higher goes first; equal priorities keep registration order. Default 0.
    package var priority: Int
    /// The subscribers it is called after, by name: each of them comes first, whatever the
    /// priorities (``ordered(_:)``). A name no subscriber has constrains nothing once the host runs
    /// (a subscriber added later, or removed); a host refuses one when it is made.
    package var after: [String] = []
    /// The subscribers it is called before, by name (the same rules as ``after``).
    package var before: [String] = []
    /// Its place in registration order, the last tie-break of dispatch order (the dispatcher's
    /// count of registrations when it was registered).
    package var sequence = 0
    /// The subscriber object (an in-process subscriber, or a loaded ``CSubscriber``); kept alive
    /// while registered.
    package let subscriber: AnyObject
    /// How the dispatcher calls it.
    package let kind: Kind

    /// How a registered subscriber is called.
    package enum Kind {
        /// An in-process subscriber: its handler of each event, by event index.
        case inProcess(handlers: [AnyEventHandler?])
        /// A loaded subscriber: its C entries.
        case loaded(CSubscriber)
        /// A subscriber reached through a transport of its own (``ResponderTransport``), boxed.
        case transport(TransportBox)
    }

    /// Registers an in-process `subscriber` under `name`: it receives the events whose protocols its
    /// type adopts.
    package init(name: String, subscriber: any AppDelegateSubscriber, priority: Int = 0) {
        self.name = name
        self.priority = priority
        self.subscriber = subscriber
        self.kind = .inProcess(handlers: subscriber.eventHandlers())
    }

    /// Registers `subscriber` under `name` with `handlers` by event index (nil: does not respond):
    /// handlers that are not the witnesses of a Swift type's protocols (``EventRow/erasedHandler(_:)``).
    package init(name: String, subscriber: AnyObject, handlers: [AnyEventHandler?], priority: Int = 0) {
        precondition(handlers.count == EventTable.rows.count, "one handler (or nil) per event")
        self.name = name
        self.priority = priority
        self.subscriber = subscriber
        self.kind = .inProcess(handlers: handlers)
    }

    /// Registers a subscriber loaded from a plugin, under `name` (default: the name it was created
    /// with): it receives the events whose vtable entries are set.
    package init(_ subscriber: CSubscriber, name: String? = nil, priority: Int = 0) {
        self.name = name ?? subscriber.name
        self.priority = priority
        self.subscriber = subscriber
        self.kind = .loaded(subscriber)
    }

    /// Registers `transport` under `name`: it receives the events it says it responds to, through
    /// its own way of reaching its subscriber.
    package init(name: String, transport: any ResponderTransport, priority: Int = 0) {
        self.name = name
        self.priority = priority
        self.subscriber = transport
        self.kind = .transport(TransportBox(transport))
    }

    /// Makes a subscriber of `type` with a context from the host: `sink` for its logs, the app's
    /// info and its manifest `options`. `name` defaults to the type's `subscriberName`.
    package init(_ type: any InstantiableSubscriber.Type, name: String? = nil, application: Application,
                options: JSONValue = [:], sink: any SubscriberLogSink, priority: Int = 0) {
        let name = name ?? type.subscriberName
        let subscriber = type.init(context: sink.context(for: name, application: application, options: options))
        self.init(name: name, subscriber: subscriber, priority: priority)
    }

    /// How to call it for `event`; nil when it does not respond to it. Nothing is retained: the
    /// registration keeps the subscriber, its handlers and its struct alive.
    package func target(for event: LifecycleEvent) -> Responder.Target? {
        switch kind {
        case .inProcess(let handlers):
            handlers[event.index].map { .inProcess(object: .passUnretained(subscriber), handler: .passUnretained($0)) }
        case .loaded(let loaded):
            loaded.entries[event.index].map { .loaded(entry: $0, subscriber: loaded.me) }
        case .transport(let box):
            box.transport.responds(to: event) ? .transport(.passUnretained(box)) : nil
        }
    }

    /// The events it responds to, in table order.
    package var respondingEvents: [LifecycleEvent] { LifecycleEvent.allCases.filter(responds(to:)) }

    /// Whether it responds to `event`.
    package func responds(to event: LifecycleEvent) -> Bool { target(for: event) != nil }

    /// `registrations` in dispatch order: each `after`/`before` constraint kept, then priority
    /// (higher first), then the order given (``DispatchOrder``). Throws when a constraint names no
    /// subscriber of the list, a list is too long, two share a name while constraints are used, or
    /// the constraints go round in a circle (the error names it).
    package static func ordered(_ registrations: [SubscriberRegistration]) throws(DispatchOrderError)
        -> [SubscriberRegistration]
    {
        try ordered(registrations) { _, _ in true }
    }

    /// `registrations` in dispatch order, a constraint naming no subscriber of the list an error
    /// only when `unknownIsError(position, name)`.
    package static func ordered(_ registrations: [SubscriberRegistration], unknownIsError: (Int, String) -> Bool)
        throws(DispatchOrderError) -> [SubscriberRegistration]
    {
        let nodes = registrations.map {
            DispatchOrder.Node(name: $0.name, priority: $0.priority, after: $0.after, before: $0.before)
        }
        return try DispatchOrder.order(nodes, unknownIsError: unknownIsError).map { registrations[$0] }
    }
}
