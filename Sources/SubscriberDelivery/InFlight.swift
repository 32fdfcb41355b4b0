import SubscriberKit
import SubscriberEventModel

/// What one delivered event produced: its result, each responder's row, and the reports.
package struct DeliveryResult: @unchecked Sendable {
    // @unchecked: `final` holds the event's result type, always Sendable (``AnswerShape/Final``).
    /// The reconciled result (the event's ``AnswerShape/Final``).
    package var final: any Sendable
    /// One row per responder that was called and did not decline, in call order.
    package var answers: AnswerRecord
    /// What was noticed: conflicts, duplicates, late responders.
    package var reports: [DispatchReport]
}

/// One dispatched event whose subscribers have all been called: what its UIKit method returns at
/// once (``immediate``), and its result, known now or once its completions arrive.
package class InFlight: @unchecked Sendable {
    // @unchecked: `immediate` is immutable; subclasses synchronize the rest.
    /// What the event's UIKit method returns at once (the event's ``AnswerShape/Immediate``).
    package let immediate: any Sendable

    init(immediate: any Sendable) { self.immediate = immediate }

    /// The result, when it needs no waiting (no completion is awaited); nil while one is.
    package var settled: DeliveryResult? { nil }

    /// Waits until every awaited completion arrived or the deadline passed, and returns the result.
    /// Call once. On the caller's actor: no hop when nothing is awaited.
    package func finish(isolation: isolated (any Actor)? = #isolation) async -> DeliveryResult {
        fatalError("InFlight.finish is abstract")
    }

    /// Stops waiting now, the host shutting down: ``finish(isolation:)`` returns with what arrived,
    /// and later calls are reported as made after shutdown.
    package func deliverNow() {}

    /// Stops waiting for the subscriber named `name` (it was removed): its owed completion counts as
    /// missed at the deadline (late), as at shutdown; the others are still waited for.
    package func abandon(named name: String) {}

    /// Whether ``settled`` is non-nil, as ``settled`` finds it (the same steps), without a copy of
    /// the result made and destroyed for the answer (about 170 instructions an event settled at once).
    /// (Last in the class: the methods before it keep their places in its method table.)
    package var isSettled: Bool { settled != nil }
}

/// An event with nothing to wait for.
package final class SettledFlight: InFlight, @unchecked Sendable {
    /// The result, read where it lies: ``settled`` returns a copy (its references retained, then
    /// released by the caller), which an outcome made from it does not need.
    package let result: DeliveryResult

    /// `result` consumed: moved into the flight (a copy stored and the argument destroyed cost about
    /// 70 instructions an event).
    init(immediate: any Sendable, result: consuming DeliveryResult) {
        self.result = result
        super.init(immediate: immediate)
    }

    override package var settled: DeliveryResult? { result }

    override package var isSettled: Bool { true }

    override package func finish(isolation: isolated (any Actor)? = #isolation) async -> DeliveryResult { result }
}

/// An event that waits for completions through `collector`, then builds its result with `result`.
final class CompletingFlight<Value: Sendable>: InFlight, @unchecked Sendable {
    private let collector: CompletionCollector<Value>
    private let start: UInt64
    private let deadline: UInt64
    private let clock: any HostClock
    private let tokens: CompletionTokens.Run
    /// Builds the result from the frozen collector and its reports: made where `Value` is concrete,
    /// so that reading the slots is specialized code.
    private let result: @Sendable (CompletionCollector<Value>, [DispatchReport]) -> DeliveryResult

    /// `start` and `deadline` are nanoseconds on `clock`.
    init(immediate: any Sendable, collector: CompletionCollector<Value>, start: UInt64, deadline: UInt64,
         clock: any HostClock, tokens: CompletionTokens.Run,
         result: @escaping @Sendable (CompletionCollector<Value>, [DispatchReport]) -> DeliveryResult) {
        self.collector = collector
        self.start = start
        self.deadline = deadline
        self.clock = clock
        self.tokens = tokens
        self.result = result
        super.init(immediate: immediate)
    }

    /// The result, once built (on the dispatcher's actor).
    private var built: DeliveryResult?

    override var settled: DeliveryResult? {
        if let built { return built }
        guard collector.settleIfDone() || deliveredNow else { return nil }
        return delivered()
    }

    /// As ``settled`` finds it, the result built (once) but not copied out.
    override var isSettled: Bool {
        if built != nil { return true }
        guard collector.settleIfDone() || deliveredNow else { return false }
        _ = delivered()
        return true
    }

    /// Whether ``deliverNow()`` delivered it (the host shut down): its result is known without waiting.
    private var deliveredNow = false

    override func finish(isolation: isolated (any Actor)? = #isolation) async -> DeliveryResult {
        if let built { return built }
        await collector.wait(since: start, deadline: deadline, clock: clock)
        return delivered()
    }

    override func deliverNow() {
        collector.close()
        deliveredNow = true
    }

    override func abandon(named name: String) { collector.abandon(named: name) }

    private func delivered() -> DeliveryResult {
        if let built { return built }
        let reports = collector.deliveredReports()
        // Calls with these tokens from now on are late: they stay mapped a while, so they are reported.
        // They lead to the event's shared retired sink from now on, not to the collector.
        if !tokens.isEmpty, let sink = collector.retiredSink() {
            collector.retire(tokens, in: CompletionTokens.shared, as: sink)
        } else {
            CompletionTokens.shared.retire(tokens)
        }
        let made = result(collector, reports)
        built = made
        return made
    }
}

/// A scene event's flight and the flights of the app-level events the scene bridge replayed for it
/// (docs/events.md): settled when all are, finished when all are. Its result is the scene event's,
/// handled (`true`) when a replay was handled; each replay's own result is kept for its outcome.
package final class BridgedFlight: InFlight, @unchecked Sendable {
    // @unchecked: the results are only read and written on the dispatcher's actor.
    /// The scene event's own flight.
    package let original: InFlight
    /// The app-level events replayed, in order, with their flights.
    package let replays: [(event: LifecycleEvent, flight: InFlight)]
    /// Each replay's result, once known (after ``settled`` answered or ``finish(isolation:)`` returned).
    package private(set) var replayResults: [DeliveryResult] = []

    package init(original: InFlight, replays: [(event: LifecycleEvent, flight: InFlight)]) {
        self.original = original
        self.replays = replays
        super.init(immediate: Self.combine(original.immediate, replays.map(\.flight.immediate)))
    }

    override package var settled: DeliveryResult? {
        guard let own = original.settled else { return nil }
        var results: [DeliveryResult] = []
        for replay in replays {
            guard let result = replay.flight.settled else { return nil }
            results.append(result)
        }
        return combined(own, results)
    }

    override package func finish(isolation: isolated (any Actor)? = #isolation) async -> DeliveryResult {
        let own = await original.finish(isolation: isolation)
        var results: [DeliveryResult] = []
        for replay in replays { results.append(await replay.flight.finish(isolation: isolation)) }
        return combined(own, results)
    }

    override package func deliverNow() {
        original.deliverNow()
        replays.forEach { $0.flight.deliverNow() }
    }

    override package func abandon(named name: String) {
        original.abandon(named: name)
        replays.forEach { $0.flight.abandon(named: name) }
    }

    private func combined(_ own: DeliveryResult, _ results: [DeliveryResult]) -> DeliveryResult {
        replayResults = results
        var result = own
        result.final = Self.combine(own.final, results.map(\.final))
        return result
    }

    /// A Bool result, true when a replay was handled (its Bool, or continueUserActivity's handled);
    /// any other result as it is.
    private static func combine(_ own: any Sendable, _ replays: [any Sendable]) -> any Sendable {
        guard let handled = own as? Bool else { return own }
        return handled || replays.contains { ($0 as? Bool) ?? ($0 as? ContinueUserActivityResult)?.handled ?? false }
    }
}
