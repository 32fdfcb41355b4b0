import SubscriberValues
/// One event with its arguments: what a host delivers to its subscribers (an app's own delegate
/// forwarding a call, a script line, a scenario step).
///
/// Make one with the constructor named after the event, e.g. `.openURL(url: url)` or
/// `.didBecomeActive`; each pairs the event with the arguments it takes (docs/events.md). Its types
/// say what the event's UIKit method gives back: `Immediate` is what it returns at once (`Bool` for
/// `openURL`; `Void` for a notification and for an event that answers through a completion
/// handler), `Final` what is delivered once every answer arrived (`BackgroundFetchResult` for
/// `performFetch`). ``AnyEventCall`` is any call, its types erased (scripts).
public struct EventCall<Immediate: Sendable, Final: Sendable>: Sendable, Hashable {
    /// The event.
    public let event: LifecycleEvent
    /// Its arguments, typed by the event's argument shape.
    package let arguments: ArgumentBox

    /// A call of `event` with `arguments`, which must be of the event's argument shape (the
    /// constructors and the event rows' script reader guarantee it).
    package init(_ event: LifecycleEvent, _ arguments: ArgumentBox) {
        self.event = event
        self.arguments = arguments
    }

    /// A call of `event` with `value` as its arguments.
    package init<Value: Sendable & Hashable>(_ event: LifecycleEvent, value: Value) {
        self.init(event, TypedArgumentBox(value))
    }

    /// The arguments as `type`, when they are of that type (a host reading a call it did not make).
    package func arguments<T: Sendable & Hashable>(as type: T.Type) -> T? { (arguments as? TypedArgumentBox<T>)?.value }

    /// This call with its types erased.
    public var erased: AnyEventCall { AnyEventCall(event, arguments) }

    public static func == (lhs: EventCall, rhs: EventCall) -> Bool {
        lhs.event == rhs.event && lhs.arguments.isEqual(rhs.arguments)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(event)
        arguments.hash(into: &hasher)
    }
}

/// Any event's call, with its result types erased: what an event script holds.
public typealias AnyEventCall = EventCall<any Sendable, any Sendable>

/// A notification's call: nothing comes back.
public typealias NotificationCall = EventCall<Void, Void>
