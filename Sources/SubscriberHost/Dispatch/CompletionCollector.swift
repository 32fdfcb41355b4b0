import Dispatch
import SubscriberKit
import Synchronization

/// Collects the completions of one completion event's responders and wakes the dispatcher exactly
/// once: when every awaited responder has answered, or at the deadline, whichever comes first.
///
/// One collector per dispatched event, one Mutex for all of its state, no Task per subscriber. Calls
/// may come from any thread, inside the subscriber's method or later. After delivery the state is
/// frozen: later calls only produce reports (into ``LateReports``), never a second delivery.
///
/// When it stops waiting for a responder that has not called (the deadline passed, or its answer said
/// it will not call), it abandons that slot (``CompletionAbandonment``), running the cleanup registered
/// through the handler's ``CompletionHandler/onAbandon(_:)``: the C bridge retires the responder's
/// ticket, which would otherwise stay live, and keep this collector alive, for the life of the process.
final class CompletionCollector<Value: Sendable>: CompletionMisuseReceiver {
    /// One responder's state.
    enum Slot: Sendable {
        /// Called (or about to be) and awaited.
        case waiting
        /// Completed with a value at `arrivedAt` (MonotonicClock nanoseconds).
        case answered(Value, arrivedAt: UInt64)
        /// Declined before returning: not awaited, no answer row.
        case declined
        /// Not awaited for another reason (continueUserActivity: did not return true).
        case released
    }

    private struct State {
        var slots: [Slot]
        var returned: [Bool]
        /// Slots still `.waiting`.
        var pending: Int
        var delivered = false
        var expired = false
        var continuation: UnsafeContinuation<Void, Never>?
        var timer: DeadlineTimer?
        var reports = DispatchReportList()
    }

    let event: LifecycleEvent
    private let names: [String]
    private let lateReports: LateReports
    private let state: Mutex<State>
    private let abandonment: CompletionAbandonment

    /// A collector for responders `names`, in call order.
    init(event: LifecycleEvent, names: [String], lateReports: LateReports) {
        self.event = event
        self.names = names
        self.lateReports = lateReports
        state = Mutex(State(slots: Array(repeating: .waiting, count: names.count),
                            returned: Array(repeating: false, count: names.count), pending: names.count))
        abandonment = CompletionAbandonment(count: names.count)
        abandonment.setMisuseReceiver(self)
    }

    /// The completion handler for responder `index`.
    func handler(for index: Int) -> CompletionHandler<Value> {
        CompletionHandler({ [self] value in complete(index, with: value) }, onDecline: { [self] in decline(index) },
                          abandonment: abandonment, slot: index)
    }

    /// Responder `index`'s method returned; `awaited: false` stops waiting for it (a Bool-returning
    /// event whose answer says it will not call back).
    func didReturn(_ index: Int, awaited: Bool = true) {
        let abandoned = state.withLock { state -> Bool in
            state.returned[index] = true
            guard !awaited else { return false }
            switch state.slots[index] {
            case .waiting:
                state.slots[index] = .released
                state.pending -= 1
                return true
            case .answered:
                // It called back although it will not be awaited: drop the value.
                state.slots[index] = .released
                state.reports.append(.unexpectedRestoration(subscriber: names[index], event: event))
                return false
            case .declined, .released:
                return false
            }
        }
        if abandoned { abandonment.abandon([index]) }
    }

    /// Responder `index` completed with `value`. [any-thread]
    func complete(_ index: Int, with value: Value) {
        let now = MonotonicClock.now()
        let (wake, timer, late) = state.withLock { state -> (UnsafeContinuation<Void, Never>?, DeadlineTimer?, DispatchReport?) in
            let report: DispatchReport
            switch state.slots[index] {
            case .waiting where !state.delivered:
                state.slots[index] = .answered(value, arrivedAt: now)
                state.pending -= 1
                guard state.pending == 0, let continuation = state.continuation else { return (nil, nil, nil) }
                state.delivered = true
                state.continuation = nil
                defer { state.timer = nil }
                return (continuation, state.timer, nil)
            case .waiting:
                report = .completionAfterDelivery(subscriber: names[index], event: event)
            case .answered:
                report = .duplicateCompletion(subscriber: names[index], event: event)
            case .declined:
                report = .completionAfterDecline(subscriber: names[index], event: event)
            case .released:
                report = .unexpectedRestoration(subscriber: names[index], event: event)
            }
            if state.delivered { return (nil, nil, report) }
            state.reports.append(report)
            return (nil, nil, nil)
        }
        if let late { lateReports.append(late) }
        timer?.cancel()
        wake?.resume()
    }

    /// Responder `index` called a completion with a token it was never given (the C bridge found out
    /// while its entry ran): report it against `index`, whatever the token named. [any-thread]
    func forgedCompletion(slot index: Int) {
        let late = state.withLock { state -> DispatchReport? in
            let report = DispatchReport.forgedCompletion(subscriber: names[index], event: event)
            if state.delivered { return report }
            state.reports.append(report)
            return nil
        }
        if let late { lateReports.append(late) }
    }

    /// Responder `index` declined. Valid only before its method returned and before it answered.
    func decline(_ index: Int) {
        let late = state.withLock { state -> DispatchReport? in
            guard !state.returned[index], case .waiting = state.slots[index] else {
                let report = DispatchReport.ignoredDecline(subscriber: names[index], event: event)
                if state.delivered { return report }
                state.reports.append(report)
                return nil
            }
            state.slots[index] = .declined
            state.pending -= 1
            return nil
        }
        if let late { lateReports.append(late) }
    }

    /// Returns once every awaited responder answered, or when `deadline` nanoseconds have passed
    /// since `start` (MonotonicClock). Call once, on the dispatcher, after every responder returned.
    /// Runs on the caller's actor (`isolation`): a nonisolated async function would hop to the global
    /// executor and back, which costs more than a whole synchronous fetch round.
    func wait(since start: UInt64, deadline: UInt64, isolation: isolated (any Actor)? = #isolation) async {
        // Fast path: everyone answered synchronously (or nobody is awaited): no continuation, no timer.
        if state.withLock({ state in
            guard state.pending == 0 else { return false }
            state.delivered = true
            return true
        }) { return }

        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let parked = state.withLock { state in
                guard state.pending > 0 else {
                    state.delivered = true
                    return false
                }
                state.continuation = continuation
                return true
            }
            guard parked else { return continuation.resume() }

            let elapsed = MonotonicClock.now() &- start
            let remaining = deadline > elapsed ? deadline - elapsed : 0
            let timer = DeadlineTimer(after: remaining) { [weak self] in self?.expire() }
            // Delivery may have happened while the timer was being made; then nobody else cancels it.
            let keep = state.withLock { state in
                guard !state.delivered else { return false }
                state.timer = timer
                return true
            }
            if !keep { timer.cancel() }
        }
    }

    /// The deadline passed: deliver with what arrived, and abandon the slots still waiting.
    private func expire() {
        let (wake, timer, waiting) = state.withLock {
            state -> (UnsafeContinuation<Void, Never>?, DeadlineTimer?, [Int]) in
            guard !state.delivered else { return (nil, nil, []) }
            state.delivered = true
            state.expired = true
            defer {
                state.continuation = nil
                state.timer = nil
            }
            let waiting = state.slots.indices.filter { if case .waiting = state.slots[$0] { true } else { false } }
            return (state.continuation, state.timer, waiting)
        }
        timer?.cancel()
        abandonment.abandon(waiting)
        wake?.resume()
    }

    /// The frozen state after ``wait(since:deadline:)`` returned: each responder's slot, whether the
    /// deadline passed, and the reports gathered before delivery.
    func delivered() -> (slots: [Slot], expired: Bool, reports: [DispatchReport]) {
        state.withLock { ($0.slots, $0.expired, $0.reports.reports) }
    }
}

/// A one-shot timer on a global queue. Dispatch sources are thread-safe, so the handle may be
/// cancelled from whichever thread delivers first.
struct DeadlineTimer: @unchecked Sendable {
    private let source: any DispatchSourceTimer

    /// Starts a timer that runs `fire` once, `nanoseconds` from now, unless cancelled.
    init(after nanoseconds: UInt64, fire: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler(handler: fire)
        source.schedule(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)))
        source.activate()
    }

    /// Stops the timer and releases its handler.
    func cancel() { source.cancel() }
}
