import Synchronization

/// A thread-safe counter.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    /// The count so far.
    var value: Int { storage.load(ordering: .relaxed) }

    /// Adds one; returns the new count.
    @discardableResult
    func increment() -> Int { storage.add(1, ordering: .relaxed).newValue }
}
