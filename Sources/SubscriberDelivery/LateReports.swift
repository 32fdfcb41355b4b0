import Synchronization
import SubscriberKit
import SubscriberEventModel

/// Reports about completions that arrived after their event had been delivered (from any thread).
/// The dispatcher attaches them to the next outcome; ``LifecycleDispatcher/takeLateReports()``
/// drains them at any time, e.g. after the last event.
/// Repeats (a plugin calling a completion in a loop) are counted in one report.
package final class LateReports: Sendable {
    private let reports = Mutex(DispatchReportList())
    /// Whether `reports` may hold any: set under the lock by `append`, cleared under it by `drain`,
    /// so that draining none (every event's outcome) takes no lock. A report appended while a drain
    /// looks goes with that drain or the next, as it would arriving a moment earlier or later.
    private let held = Atomic<Bool>(false)

    package init() {}

    package func append(_ report: DispatchReport) {
        reports.withLock {
            $0.append(report)
            held.store(true, ordering: .releasing)
        }
    }

    package func drain() -> [DispatchReport] {
        guard held.load(ordering: .acquiring) else { return [] }
        return reports.withLock {
            held.store(false, ordering: .releasing)
            return $0.removeAll()
        }
    }

    /// One event's retired-token sink, with the subscriber names it was made for.
    private struct RetiredSink {
        let names: [String]
        let sink: CompletionTokenSink
    }

    /// The retired tokens' sink of each event, by event index (one slot per row of the event table).
    /// An array rather than a dictionary keyed by index: a dictionary's type is built by name at its
    /// first use, checking `Int: Hashable` against every loaded image (about 420,000 instructions after
    /// a plugin is loaded), and the last use of this one is at exit.
    private let retired = Mutex<[RetiredSink?]>([RetiredSink?](repeating: nil, count: EventTable.rows.count))

    /// The sink the retired tokens of `event` delivered to subscribers `names` share
    /// (``CompletionCollector/retiredSink()``): made by `make` once per event and subscriber list
    /// (the same array, as the dispatcher hands it to every event until its subscribers change),
    /// so at most one per event is kept.
    package func retiredSink(for event: LifecycleEvent, names: [String], make: () -> CompletionTokenSink) -> CompletionTokenSink {
        retired.withLock { retired in
            let index = event.index
            let identity = names.withUnsafeBufferPointer { $0.baseAddress }
            if let kept = retired[index], kept.names.withUnsafeBufferPointer({ $0.baseAddress }) == identity,
               kept.names.count == names.count {
                return kept.sink
            }
            let sink = make()
            retired[index] = RetiredSink(names: names, sink: sink)
            return sink
        }
    }
}
