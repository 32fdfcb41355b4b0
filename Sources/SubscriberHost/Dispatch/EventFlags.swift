import SubscriberEventModel

/// A set of events, as one flag per row of the event table (by ``LifecycleEvent/index``).
///
/// What the dispatcher keeps instead of a `Set<LifecycleEvent>`: a set's type is built by name at its
/// first insertion, and checking `LifecycleEvent: Hashable` then scans every loaded image's
/// conformances (425,000 instructions at the first launch event, after the plugins are loaded).
/// An array of flags has no requirement to check, and its size is the table's.
struct EventFlags: Sendable {
    private var flags = [Bool](repeating: false, count: EventTable.rows.count)

    init() {}

    init(_ events: [LifecycleEvent]) {
        for event in events { insert(event) }
    }

    func contains(_ event: LifecycleEvent) -> Bool { flags[event.index] }

    mutating func insert(_ event: LifecycleEvent) { flags[event.index] = true }
}
