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

    /// Abandonment for `count` slots, none abandoned yet.
    package init(count: Int) { self.count = count }

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
