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

    /// The retired tokens' sink of each event, by event index, with the subscriber names it was made for.
    private let retired = Mutex<[Int: (names: [String], sink: CompletionTokenSink)]>([:])

    /// The sink the retired tokens of `event` delivered to subscribers `names` share
    /// (``CompletionCollector/retiredSink()``): made by `make` once per event and subscriber list
    /// (the same array, as the dispatcher hands it to every event until its subscribers change),
    /// so at most one per event is kept.
    package func retiredSink(for event: LifecycleEvent, names: [String], make: () -> CompletionTokenSink) -> CompletionTokenSink {
        retired.withLock { retired in
            let identity = names.withUnsafeBufferPointer { $0.baseAddress }
            if let kept = retired[event.index], kept.names.withUnsafeBufferPointer({ $0.baseAddress }) == identity,
               kept.names.count == names.count {
                return kept.sink
            }
            let sink = make()
            retired[event.index] = (names, sink)
            return sink
        }
    }
}
