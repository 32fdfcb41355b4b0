import Synchronization

/// Reports about completions that arrived after their event had been delivered (from any thread).
/// The dispatcher attaches them to the next outcome; ``LifecycleDispatcher/takeLateReports()``
/// drains them at any time, e.g. after the last event.
final class LateReports: Sendable {
    private let reports = Mutex<[DispatchReport]>([])

    func append(_ report: DispatchReport) {
        reports.withLock { $0.append(report) }
    }

    func drain() -> [DispatchReport] {
        reports.withLock { kept in
            defer { kept.removeAll() }
            return kept
        }
    }
}
