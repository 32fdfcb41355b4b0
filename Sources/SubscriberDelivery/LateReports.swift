import Synchronization
import SubscriberKit

/// Reports about completions that arrived after their event had been delivered (from any thread).
/// The dispatcher attaches them to the next outcome; ``LifecycleDispatcher/takeLateReports()``
/// drains them at any time, e.g. after the last event.
/// Repeats (a plugin calling a completion in a loop) are counted in one report.
package final class LateReports: Sendable {
    private let reports = Mutex(DispatchReportList())

    package init() {}

    package func append(_ report: DispatchReport) {
        reports.withLock { $0.append(report) }
    }

    package func drain() -> [DispatchReport] {
        reports.withLock { $0.removeAll() }
    }
}
