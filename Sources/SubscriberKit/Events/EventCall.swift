/// One event with its arguments: what a host delivers to its subscribers (an app's own delegate
/// forwarding a call, a script line, a scenario step).
///
/// Make one with the constructor named after the event, e.g. `.openURL(url: url)` or
/// `.didBecomeActive`; each pairs the event with the arguments it takes (docs/events.md).
public struct EventCall: Sendable, Hashable {
    /// The event.
    public let event: LifecycleEvent
    /// Its arguments, in the shape the event takes.
    public let arguments: EventArguments

    /// A call of `event` with `arguments`, which must be of the event's shape (the constructors and
    /// the event table's script reader guarantee it).
    package init(_ event: LifecycleEvent, _ arguments: EventArguments) {
        self.event = event
        self.arguments = arguments
    }
}
