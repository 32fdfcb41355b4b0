/// A completion handler given to a subscriber for an event that answers later (fetch, background
/// sessions, shortcuts, restoration, WatchKit replies). Call it like UIKit's closures:
/// `completionHandler(.newData)`.
///
/// - Call it exactly once, from any thread, now or later. A second call is ignored by the host and
///   reported; a call after the event's deadline is ignored and reported as late.
/// - Or call ``decline()`` *before returning* from the event method to say "I do not respond to
///   this one" (the default implementations do); the host then does not wait for you.
public struct CompletionHandler<Value: Sendable>: Sendable {
    private let complete: @Sendable (Value) -> Void
    private let declined: @Sendable () -> Void

    /// A handler that passes each call to `complete` and a decline to `onDecline`. Hosts make these;
    /// subscribers only call them.
    public init(_ complete: @escaping @Sendable (Value) -> Void,
                onDecline: @escaping @Sendable () -> Void = {}) {
        self.complete = complete
        self.declined = onDecline
    }

    /// Delivers this subscriber's answer. [any-thread]
    public func callAsFunction(_ value: Value) { complete(value) }

    /// Says this subscriber does not respond to this call. Only valid before the event method returns.
    public func decline() { declined() }
}

extension CompletionHandler where Value == Void {
    /// Signals completion. [any-thread]
    public func callAsFunction() { complete(()) }
}
