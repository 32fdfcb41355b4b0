/// A completion handler given to a subscriber for an event that answers later (fetch, background
/// sessions, shortcuts, restoration, WatchKit replies). Call it like UIKit's closures:
/// `completionHandler(.newData)`.
///
/// - Call it exactly once, from any thread, now or later. A second call is ignored by the host and
///   reported; a call after the event's deadline is ignored and reported as late.
/// - Or call ``decline()`` *before returning* from the event method to say "I do not respond to
///   call" (e.g. a notification that is not yours); the host then does not wait for you.
public struct CompletionHandler<Value: Sendable>: Sendable {
    private let complete: @Sendable (Value) -> Void
    private let declined: @Sendable () -> Void
    /// Lets the host stop waiting for this handler; nil when it never does.
    private let abandonment: CompletionAbandonment?
    /// Which of `abandonment`'s slots this handler is.
    private let slot: Int

    /// A handler that passes each call to `complete` and a decline to `onDecline`. Hosts make these;
    /// subscribers only call them.
    public init(_ complete: @escaping @Sendable (Value) -> Void,
                onDecline: @escaping @Sendable () -> Void = {}) {
        self.complete = complete
        self.declined = onDecline
        self.abandonment = nil
        self.slot = 0
    }

    /// A handler like ``init(_:onDecline:)`` that the host may stop waiting for, through slot
    /// `slot` of `abandonment`: host side, so that whoever forwards this handler (the C bridge) can
    /// free what it holds for it (``onAbandon(_:)``).
    package init(_ complete: @escaping @Sendable (Value) -> Void, onDecline: @escaping @Sendable () -> Void,
                 abandonment: CompletionAbandonment, slot: Int) {
        self.complete = complete
        self.declined = onDecline
        self.abandonment = abandonment
        self.slot = slot
    }

    /// Delivers this subscriber's answer. [any-thread]
    public func callAsFunction(_ value: Value) { complete(value) }

    /// Says this subscriber does not respond to this call. Only valid before the event method returns.
    public func decline() { declined() }

    /// Host side: runs `cleanup` once if the waiter stops waiting for this handler before it was
    /// called (the event's deadline passed, or the subscriber's answer said it will not call); never
    /// for a handler nobody stops waiting for. A call after that is still passed on (and reported).
    /// [any-thread]
    package func onAbandon(_ cleanup: @escaping @Sendable () -> Void) {
        abandonment?.onAbandon(slot: slot, cleanup)
    }

    /// Host side: the subscriber this handler was given to called a completion with a context the
    /// host never gave it (a forged token); the waiter reports it against this subscriber. [any-thread]
    package func reportForged() {
        abandonment?.misuseReceiver?.forgedCompletion(slot: slot)
    }
}

extension CompletionHandler where Value == Void {
    /// Signals completion. [any-thread]
    public func callAsFunction() { complete(()) }
}
