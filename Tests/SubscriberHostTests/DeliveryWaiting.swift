import Foundation
import SubscriberHost
import SubscriberKit
import Synchronization
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
    /// `limit` (a safety bound against a hang, generous on a busy machine: deadlines that must pass
    /// are on a ``ManualHostClock``).
    func first(within limit: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async
        -> EventOutcome<Result>?
    {
        await wait(for: 1, within: limit)
        if outcomes.isEmpty { Issue.record("nothing was delivered within \(limit)", sourceLocation: sourceLocation) }
        return outcomes.first
    }

    /// Waits until at least `count` outcomes arrived, or `limit` passed.
    func wait(for count: Int, within limit: Duration = .seconds(60)) async {
        _ = await waitPatiently(for: limit) { outcomes.count >= count }
    }
}

/// Polls `condition` every millisecond until it holds (true) or it was polled for `limit` (false).
/// The limit counts polls, not wall time: a main actor that another suite keeps busy for a minute
/// on a loaded machine does not use the budget up. A bound against a hang only.
@MainActor
func waitPatiently(for limit: Duration = .seconds(60), until condition: () -> Bool) async -> Bool {
    let polls = max(Int(limit.components.seconds) * 1_000, 1)
    for _ in 0..<polls {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// Lets the main actor and other threads run for a while: time for anything wrongly delivered a
/// second time (or too early) to show. Only ever used before expecting that nothing happened.
@MainActor
func letEverythingRun(for duration: Duration = .milliseconds(150)) async {
    try? await Task.sleep(for: duration)
}

extension Deliveries {
    /// Yields until `condition` holds (a generous bound: only a hang fails it).
    func wait(until condition: () -> Bool, within limit: Duration = .seconds(60)) async {
        _ = await waitPatiently(for: limit, until: condition)
        #expect(condition(), "the condition did not hold within \(limit)")
    }
}

extension ManualHostClock {
    /// Waits until at least `armed` deadlines are armed on it — a dispatcher arms an event's once
    /// every responder returned and a completion is still awaited — then advances by `duration`,
    /// firing those due. The wait is bounded generously, against a hang only.
    @MainActor
    func advance(by duration: Duration, onceArmed armed: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        _ = await waitPatiently { armedTimerCount >= armed }
        if armedTimerCount < armed {
            Issue.record("\(armedTimerCount) deadlines armed, expected \(armed)", sourceLocation: sourceLocation)
        }
        advance(by: duration)
    }
}

/// Completions the tests' subscribers are making from other threads right now: a test lets a
/// deadline pass on its manual clock only once none is on its way, so what a subscriber sends
/// arrives before the deadline however busy the machine is.
///
/// They run on a queue of their own, not a global one: other suites block global-queue threads for
/// seconds (the kit's children), and on a busy two-core machine a global queue's next item could
/// wait longer than any deadline. A serial queue of its own always gets a thread.
enum CompletionsOnTheirWay {
    private static let count = Atomic<Int>(0)
    private static let queue = DispatchQueue(label: "tests.completions-from-threads")

    /// Runs `body` on another thread, counted until it returned.
    static func run(_ body: @escaping @Sendable () -> Void) {
        count.add(1, ordering: .relaxed)
        queue.async {
            body()
            count.subtract(1, ordering: .releasing)
        }
    }

    /// Runs `body` on a global-queue thread once the main actor is next free (after the subscriber's
    /// method returned and the code dispatching gave the main actor up), counted from now until it returned.
    @MainActor
    static func runAfterTheDispatch(_ body: @escaping @Sendable () -> Void) {
        count.add(1, ordering: .relaxed)
        Task { @MainActor in
            queue.async {
                body()
                count.subtract(1, ordering: .releasing)
            }
        }
    }

    /// Whether none is on its way.
    static var none: Bool { count.load(ordering: .acquiring) == 0 }
}

extension LifecycleDispatcher {
    /// Dispatches `call` and, once it waits on its deadline and no completion is on its way from
    /// another thread (``CompletionsOnTheirWay``), advances `clock` (the dispatcher's) by `duration`:
    /// its outcome once that time passed — as soon as it is delivered when nothing is left awaited.
    /// How a test sees a deadline pass without waiting for it.
    func dispatch<Immediate, Final: Sendable>(_ call: EventCall<Immediate, Final>, advancing clock: ManualHostClock,
                                              by duration: Duration,
                                              sourceLocation: SourceLocation = #_sourceLocation) async -> EventOutcome<Final> {
        let armed = clock.armedTimerCount
        let deliveries = Deliveries<Final>()
        dispatchAtOnce(call, whenDelivered: deliveries.handler)
        var advanced = false
        let quiet = await waitPatiently {
            if !advanced, CompletionsOnTheirWay.none, clock.armedTimerCount > armed {
                clock.advance(by: duration)
                advanced = true
            }
            return !deliveries.outcomes.isEmpty
        }
        if !quiet {
            // Something is still on its way after all that: record it, and let every deadline pass.
            Issue.record("\(call.event) was not delivered after its calls from other threads and its deadline",
                         sourceLocation: sourceLocation)
            _ = await waitPatiently {
                clock.advance(by: .seconds(86_400))
                return !deliveries.outcomes.isEmpty
            }
        }
        return deliveries.outcomes[0]
    }
}

/// A configuration of the test application on `clock`, adjusted by `change`.
func configuration(on clock: ManualHostClock, _ change: (inout DispatchConfiguration) throws -> Void) rethrows
    -> DispatchConfiguration
{
    var configuration = configuration(on: clock)
    try change(&configuration)
    return configuration
}

/// A configuration of the test application on `clock`.
func configuration(on clock: ManualHostClock) -> DispatchConfiguration {
    var configuration = DispatchConfiguration(application: testApplication)
    configuration.clock = clock
    return configuration
}

/// The thread ``onAnotherThread(_:)`` runs on: a queue of its own, as ``CompletionsOnTheirWay``'s.
private let anotherThread = DispatchQueue(label: "tests.another-thread")

/// Calls `body` on another thread (not the main thread) and returns once it ran.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        anotherThread.async {
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
