import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// Collects what a `whenDelivered` handler of ``LifecycleDispatcher/dispatchAtOnce(_:whenDelivered:)``
/// receives, so that a test can wait for a delivery and count them (exactly once).
@MainActor
final class Deliveries<Result: Sendable> {
    /// Every outcome delivered so far, in order.
    private(set) var outcomes: [EventOutcome<Result>] = []

    /// The handler to pass as `whenDelivered`.
    var handler: @MainActor (EventOutcome<Result>) -> Void {
        { [self] outcome in outcomes.append(outcome) }
    }

    /// The first outcome delivered, once it arrived; nil (and an issue) when none arrived within
    /// `limit` (a safety bound, far above any deadline the tests set).
    func first(within limit: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) async
        -> EventOutcome<Result>?
    {
        await wait(for: 1, within: limit)
        if outcomes.isEmpty { Issue.record("nothing was delivered within \(limit)", sourceLocation: sourceLocation) }
        return outcomes.first
    }

    /// Waits until at least `count` outcomes arrived, or `limit` passed.
    func wait(for count: Int, within limit: Duration = .seconds(10)) async {
        let end = ContinuousClock.now + limit
        while outcomes.count < count, ContinuousClock.now < end {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// Lets the main actor and other threads run for a while: time for anything wrongly delivered a
/// second time (or too early) to show. Only ever used before expecting that nothing happened.
@MainActor
func letEverythingRun(for duration: Duration = .milliseconds(150)) async {
    try? await Task.sleep(for: duration)
}

/// Calls `body` on a global-queue thread (not the main thread) and returns once it ran.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            precondition(!Thread.isMainThread)
            body()
            continuation.resume()
        }
    }
}

extension DispatchReport {
    /// Whether this is a `stateViolation` (of the app's state or a scene's).
    var isStateViolation: Bool { kind == "stateViolation" }
}
