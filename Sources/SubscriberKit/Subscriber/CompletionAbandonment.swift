import Synchronization

/// Host side of ``CompletionHandler``: lets whatever waits for a set of handlers' calls (one per
/// slot) stop waiting for some, e.g. at an event's deadline, and run the cleanups that whoever
/// forwarded those handlers registered through ``CompletionHandler/onAbandon(_:)``. So a subscriber
/// that never calls does not keep what was made for its call alive forever.
///
/// A concrete final class, not a protocol the waiter adopts: the handler reaches it from
/// unspecialized generic code, where a generic waiter's witness would look its metadata up on
/// every call.
package final class CompletionAbandonment: Sendable {
    private enum Entry {
        case none
        case registered(@Sendable () -> Void)
        case abandoned
    }

    private let count: Int
    /// One entry per slot; empty until the first registration or abandonment.
    private let entries = Mutex<[Entry]>([])

    /// Receives reports about calls that could not come from a slot's own handler; set once by the
    /// waiter before any handler is made. Unowned: every handler that reaches it retains the waiter
    /// through its closures, and a weak reference would allocate a side table per event.
    nonisolated(unsafe) package private(set) unowned(unsafe) var misuseReceiver: (any CompletionMisuseReceiver)?

    /// Abandonment for `count` slots, none abandoned yet.
    package init(count: Int) { self.count = count }

    /// Sets the receiver of ``CompletionHandler/reportForged()``. Call once, before making handlers.
    package func setMisuseReceiver(_ receiver: any CompletionMisuseReceiver) { misuseReceiver = receiver }

    /// Registers `cleanup` for `slot` (replacing an earlier one), or runs it now when that slot was
    /// already abandoned. [any-thread]
    package func onAbandon(slot: Int, _ cleanup: @escaping @Sendable () -> Void) {
        let abandoned = entries.withLock { entries -> Bool in
            if entries.isEmpty { entries = Array(repeating: .none, count: count) }
            if case .abandoned = entries[slot] { return true }
            entries[slot] = .registered(cleanup)
            return false
        }
        if abandoned { cleanup() }
    }

    /// Stops waiting for `slots`: runs their cleanups now, and those registered later at once. [any-thread]
    package func abandon(_ slots: [Int]) {
        guard !slots.isEmpty else { return }
        let cleanups = entries.withLock { entries -> [@Sendable () -> Void] in
            if entries.isEmpty { entries = Array(repeating: .none, count: count) }
            var cleanups: [@Sendable () -> Void] = []
            for slot in slots {
                if case .registered(let cleanup) = entries[slot] { cleanups.append(cleanup) }
                entries[slot] = .abandoned
            }
            return cleanups
        }
        for cleanup in cleanups { cleanup() }
    }
}

/// A waiter that hears about completion calls the host could not match to a handler (a forged
/// token) but could attribute to the subscriber that made them.
package protocol CompletionMisuseReceiver: AnyObject, Sendable {
    /// The subscriber of `slot` called a completion with a context it was never given. [any-thread]
    func forgedCompletion(slot: Int)
}
