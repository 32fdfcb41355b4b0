/// A completion handler given to a subscriber for an event that answers later (fetch, background
/// sessions, shortcuts, notification presentation, restoration, WatchKit replies). Call it like
/// UIKit's closures: `completionHandler(.newData)`.
///
/// - Call it exactly once, from any thread, now or later. A second call is ignored by the host and
///   reported; a call after the event's deadline is ignored and reported as late.
/// - Or call ``decline()`` *before returning* from the event method to say "I do not respond to
///   this call" (e.g. a notification that is not yours); the host then does not wait for you, and
///   your answer is left out. A decline after returning or after calling is ignored and reported.
/// - The restoration handler of `continueUserActivity` is optional, as UIKit's is: a subscriber that
///   returns true and never calls it is neither late nor reported.
public struct CompletionHandler<Value: Sendable>: Sendable {
    /// A ``CompletionReceiver`` of `Value`, held as a type the inlinable initializer may name (the
    /// receiver's class is SPI).
    @usableFromInline let receiver: AnyObject & Sendable
    @usableFromInline let slot: Int

    /// A handler that passes each call to `complete` and a decline to `onDecline`. Hosts make
    /// handlers; a subscriber only calls them (tests make their own with this).
    public init(_ complete: @escaping @Sendable (Value) -> Void, onDecline: @escaping @Sendable () -> Void = {}) {
        self.init(receiver: ClosureCompletionReceiver(complete: complete, decline: onDecline), slot: 0)
    }

    /// A handler whose calls go to `receiver`'s `slot`: one receiver serves every responder of an
    /// event, so a handler costs no allocation of its own.
    package init(receiver: CompletionReceiver<Value>, slot: Int) {
        self.init(erased: receiver, slot: slot)
    }

    /// A handler whose calls go to `receiver`'s `slot`; `receiver` must be a ``CompletionReceiver``
    /// of `Value`. Inlinable: a handler made from a borrowed receiver and handed on borrowed (the
    /// SDK's completion entries) costs no retain and release of the receiver.
    @inlinable
    package init(erased receiver: AnyObject & Sendable, slot: Int) {
        self.receiver = receiver
        self.slot = slot
    }

    /// The receiver, as made (``init(erased:slot:)``).
    @inline(__always)
    private var typedReceiver: CompletionReceiver<Value> { unsafeDowncast(receiver, to: CompletionReceiver<Value>.self) }

    /// Delivers this subscriber's answer. [any-thread]
    public func callAsFunction(_ value: Value) { typedReceiver.complete(slot, with: value) }

    /// Says this subscriber does not respond to this call. Only valid before the event method returns.
    public func decline() { typedReceiver.decline(slot) }
}

extension CompletionHandler where Value == Void {
    /// Signals completion. [any-thread]
    public func callAsFunction() { typedReceiver.complete(slot, with: ()) }
}

/// Where completion handlers' calls go: the host's collector of one event, the SDK's forwarder to a
/// C completion, or a pair of closures. Subclasses override both methods. [any-thread]
///
/// Open only to the delivery engine (a module of its own, whose collector is one), behind an SPI
/// that plugin authors never import: `package` classes cannot be subclassed in another module.
@_spi(Engine) open class CompletionReceiver<Value: Sendable>: @unchecked Sendable {
    // @unchecked: subclasses synchronize their own state.
    @_spi(Engine) public init() {}

    /// The handler of `slot` was called with `value`.
    @_spi(Engine) open func complete(_ slot: Int, with value: Value) {}

    /// The handler of `slot` declined.
    @_spi(Engine) open func decline(_ slot: Int) {}
}

/// A receiver that hands calls to closures (``CompletionHandler/init(_:onDecline:)``).
private final class ClosureCompletionReceiver<Value: Sendable>: CompletionReceiver<Value>, @unchecked Sendable {
    private let completeClosure: @Sendable (Value) -> Void
    private let declineClosure: @Sendable () -> Void

    init(complete: @escaping @Sendable (Value) -> Void, decline: @escaping @Sendable () -> Void) {
        completeClosure = complete
        declineClosure = decline
    }

    override func complete(_ slot: Int, with value: Value) { completeClosure(value) }
    override func decline(_ slot: Int) { declineClosure() }
}
