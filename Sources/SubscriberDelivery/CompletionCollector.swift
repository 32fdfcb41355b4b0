import Glibc
import Synchronization
import SubscriberKit
@_spi(Engine) import SubscriberValues
import SubscriberEventModel

/// Collects the completions of one completion event's responders and delivers exactly once: when
/// every awaited responder has answered, or at the deadline, whichever comes first.
///
/// One collector per dispatched event, no allocation per responder: each responder has a slot in
/// buffers made once, its handler is this object and its slot number (``CompletionHandler``), and a
/// loaded responder's C completion carries a token of ``CompletionTokens`` that leads back here.
///
/// A completion takes its slot with one compare-and-swap (waiting → claiming), writes its value,
/// publishes it (answered) and counts down; no lock. The dispatcher parks only when completions are
/// still missing after every responder returned; the last completion, or the deadline, unparks it,
/// whichever wins one compare-and-swap on the phase. After delivery the slots are frozen: later calls
/// only produce reports (into ``LateReports``), never a second delivery.
package final class CompletionCollector<Value: Sendable>: CompletionReceiver<Value>, @unchecked Sendable {
    // @unchecked: the slot buffers are synchronized by the slot states (acquire/release).

    /// One responder's state.
    package enum SlotState: UInt8 {
        /// Called (or about to be) and awaited.
        case waiting
        /// A completion is writing its value.
        case claiming
        /// Completed with a value.
        case answered
        /// Declined before returning: not awaited, no answer row.
        case declined
        /// Not awaited for another reason (continueUserActivity: did not return true).
        case released
        /// Still waiting when the deadline passed.
        case expired
    }

    /// How the collector treats calls and waits beyond the completion rules shared by every event.
    package struct Rules {
        /// Whether a call from a released responder still counts (restoration lists from every
        /// caller, Expo) instead of being ignored and reported (default).
        package var acceptsReleased = false
        /// Whether a responder still waiting at the deadline is reported late (not for the optional
        /// restoration handler).
        package var reportsLate = true
        /// Whether the order the completions arrive in is kept (``rank(_:)``): only for a rule that
        /// reads it (the first completion in time wins), so that no other event pays for it.
        package var ranksArrivals = false

        package init(acceptsReleased: Bool = false, reportsLate: Bool = true, ranksArrivals: Bool = false) {
            self.acceptsReleased = acceptsReleased
            self.reportsLate = reportsLate
            self.ranksArrivals = ranksArrivals
        }
    }

    private static var calling: Int { 0 }
    private static var parked: Int { 1 }
    private static var delivered: Int { 2 }

    package let event: LifecycleEvent
    package let count: Int
    private let states: UnsafeMutablePointer<Atomic<UInt8>>
    private let returned: UnsafeMutablePointer<Atomic<Bool>>
    /// Slot `i`'s value: initialized exactly while its state is answered (or a claim is writing it).
    /// Not `Value?`: this class's methods run unspecialized (they are reached through the base class
    /// and the token table), and an optional of a generic value costs a metadata lookup per call.
    private let values: UnsafeMutablePointer<Value>
    private let arrivals: UnsafeMutablePointer<UInt64>
    /// Slot `i`'s place in the order of arrival (1 for the first), under ``Rules/ranksArrivals``.
    private let ranks: UnsafeMutablePointer<UInt64>
    /// The last place given.
    private let lastRank = Atomic<UInt64>(0)
    private let pending: Atomic<Int>
    private let phase = Atomic<Int>(0)
    /// Set when the host shut down while this event waited: later calls are reported as after shutdown.
    private let closed = Atomic<Bool>(false)
    nonisolated(unsafe) private var continuation: UnsafeContinuation<Void, Never>?
    private let timer = Mutex<(any HostTimer)?>(nil)
    private let reports = Mutex(DispatchReportList())
    /// Every subscriber's name, and each slot's position among them.
    private let names: [String]
    private let subscribers: [Int]
    private let lateReports: LateReports
    private let timed: Bool
    private let rules: Rules
    private let problem: @Sendable (Int, LifecycleEvent, String) -> Void
    /// Reads a C completion's raw value (kept for what late calls need once this collector is let go).
    private let decode: @Sendable (RawCompletion, inout String?) -> Value?
    /// Reports a problem against a subscriber by its position among ``names``; nil: the tokens of a
    /// delivered event keep this collector (see ``retiredSink()``).
    private let reporting: (@Sendable (Int, LifecycleEvent, String) -> Void)?

    /// A collector for the responders at `subscribers` among subscribers named `names` (in call
    /// order). `decode` reads what a loaded responder passed to its C completion; `problem` reports
    /// what it passed that the header does not allow (slot, line).
    package init(event: LifecycleEvent, names: [String], subscribers: [Int], lateReports: LateReports, timed: Bool,
                 rules: Rules = Rules(), decode: @escaping @Sendable (RawCompletion, inout String?) -> Value?,
                 problem: @escaping @Sendable (Int, LifecycleEvent, String) -> Void, reporting: (@Sendable (Int, LifecycleEvent, String) -> Void)? = nil) {
        self.event = event
        let count = subscribers.count
        self.count = count
        self.names = names
        self.subscribers = subscribers
        self.lateReports = lateReports
        self.timed = timed
        self.rules = rules
        self.problem = problem
        self.decode = decode
        self.reporting = reporting
        pending = Atomic(count)
        states = .allocate(capacity: max(count, 1))
        returned = .allocate(capacity: max(count, 1))
        values = .allocate(capacity: max(count, 1))
        arrivals = .allocate(capacity: max(count, 1))
        ranks = .allocate(capacity: max(count, 1))
        for index in 0..<count {
            (states + index).initialize(to: Atomic(SlotState.waiting.rawValue))
            (returned + index).initialize(to: Atomic(false))
        }
        arrivals.initialize(repeating: 0, count: count)
        ranks.initialize(repeating: 0, count: count)
    }

    /// Where this event's late calls are reported: its dispatcher's (the token table's sinks name it).
    package var owner: LateReports { lateReports }

    /// The name of slot `slot`'s subscriber.
    private func name(_ slot: Int) -> String { names[subscribers[slot]] }

    deinit {
        for slot in 0..<count where states[slot].load(ordering: .acquiring) == SlotState.answered.rawValue {
            (values + slot).deinitialize(count: 1)
        }
        states.deinitialize(count: count).deallocate()
        returned.deinitialize(count: count).deallocate()
        values.deallocate()
        arrivals.deallocate()
        ranks.deallocate()
    }

    /// The handler of responder `index`.
    @inline(__always)
    package func handler(_ index: Int) -> CompletionHandler<Value> { CompletionHandler(receiver: self, slot: index) }

    // MARK: Calls (any thread)

    /// Responder `slot` completed with `value`. [any-thread]
    override package func complete(_ slot: Int, with value: Value) {
        if states[slot].compareExchange(expected: SlotState.waiting.rawValue, desired: SlotState.claiming.rawValue,
                                        ordering: .acquiring).exchanged {
            (values + slot).initialize(to: value)
            if timed { arrivals[slot] = MonotonicClock.now() }
            if rules.ranksArrivals { ranks[slot] = lastRank.wrappingAdd(1, ordering: .relaxed).newValue }
            states[slot].store(SlotState.answered.rawValue, ordering: .releasing)
            if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { wakeIfParked() }
            return
        }
        misuse(slot, calledIn: SlotState(rawValue: states[slot].load(ordering: .acquiring)) ?? .waiting, value: value)
    }

    /// A call that does not count: report it (against this outcome before delivery, the next after).
    private func misuse(_ slot: Int, calledIn state: SlotState, value: Value) {
        let name = name(slot)
        let report: DispatchReport
        if closed.load(ordering: .acquiring) { return self.report(.completionAfterShutdown(subscriber: name, event: event)) }
        switch state {
        case .waiting, .claiming, .answered: report = .duplicateCompletion(subscriber: name, event: event)
        case .declined: report = .completionAfterDecline(subscriber: name, event: event)
        case .expired: report = .completionAfterDelivery(subscriber: name, event: event)
        case .released:
            if rules.acceptsReleased, claimReleased(slot, value: value) { return }
            report = .unexpectedRestoration(subscriber: name, event: event)
        }
        self.report(report)
    }

    /// A released responder's first call, where released responders' calls count: keep its value
    /// (it was never awaited, so nothing counts down).
    private func claimReleased(_ slot: Int, value: Value) -> Bool {
        guard phase.load(ordering: .acquiring) != Self.delivered,
              states[slot].compareExchange(expected: SlotState.released.rawValue, desired: SlotState.claiming.rawValue,
                                           ordering: .acquiring).exchanged else { return false }
        (values + slot).initialize(to: value)
        if timed { arrivals[slot] = MonotonicClock.now() }
        // Answered, but it was never awaited: `pending` does not count it.
        states[slot].store(SlotState.answered.rawValue, ordering: .releasing)
        return true
    }

    /// Responder `slot` declined. Valid only before its method returned and before it answered.
    override package func decline(_ slot: Int) {
        guard !returned[slot].load(ordering: .acquiring),
              states[slot].compareExchange(expected: SlotState.waiting.rawValue, desired: SlotState.declined.rawValue,
                                           ordering: .acquiringAndReleasing).exchanged else {
            return report(.ignoredDecline(subscriber: name(slot), event: event))
        }
        if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { wakeIfParked() }
    }

    /// Responder `slot`'s subscriber called a completion with a token it was never given.
    package func forged(_ slot: Int) {
        report(.forgedCompletion(subscriber: name(slot), event: event))
    }

    /// A loaded responder's C completion, read by the event's answer shape: `value` (nil when a
    /// completion of another C type was called with this event's token), and what it passed that
    /// the header does not allow (`problem`). Completes slot `slot`, or reports. Called from the
    /// typed entry of the answer shape, where `Value` is concrete (``TokenBridge``): inlined there.
    @inline(__always)
    package func receive(_ slot: Int, _ value: Value?, problem: String?) {
        guard let value else {
            // A completion of another C type was called with this token: the plugin mixed contexts up.
            return self.problem(slot, event, "a completion of another type was called with this event's context; ignored")
        }
        if let problem { self.problem(slot, event, problem) }
        complete(slot, with: value)
    }

    private func report(_ report: DispatchReport) {
        if phase.load(ordering: .acquiring) == Self.delivered { return lateReports.append(report) }
        reports.withLock { $0.append(report) }
    }

    // MARK: The dispatcher's side (main actor)

    /// Responder `slot`'s method returned; `awaited: false` stops waiting for it (continueUserActivity
    /// without true).
    package func didReturn(_ slot: Int, awaited: Bool = true) {
        returned[slot].store(true, ordering: .releasing)
        guard !awaited else { return }
        if states[slot].compareExchange(expected: SlotState.waiting.rawValue, desired: SlotState.released.rawValue,
                                        ordering: .acquiringAndReleasing).exchanged {
            if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { wakeIfParked() }
            return
        }
        // It called back although it will not be awaited: drop the value unless such calls count.
        guard !rules.acceptsReleased,
              states[slot].compareExchange(expected: SlotState.answered.rawValue, desired: SlotState.released.rawValue,
                                           ordering: .acquiringAndReleasing).exchanged else { return }
        // Its call already counted down when it answered.
        (values + slot).deinitialize(count: 1)
        report(.unexpectedRestoration(subscriber: name(slot), event: event))
    }

    /// Delivers now when nothing is awaited any more (every awaited responder answered inside its
    /// call), without waiting; false when something is still awaited.
    package func settleIfDone() -> Bool {
        guard pending.load(ordering: .acquiring) == 0 else { return false }
        phase.store(Self.delivered, ordering: .releasing)
        return true
    }

    /// Returns once every awaited responder answered, or `deadline` nanoseconds after `start` on
    /// `clock` (the dispatcher's: the deadline is a timer armed on it). Call once, after every
    /// responder returned. Runs on the caller's actor (`isolation`): a nonisolated async function
    /// would hop to the global executor and back, which costs more than a whole synchronous fetch round.
    package func wait(since start: UInt64, deadline: UInt64, clock: any HostClock,
                      isolation: isolated (any Actor)? = #isolation) async {
        if pending.load(ordering: .acquiring) == 0 { return phase.store(Self.delivered, ordering: .releasing) }
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            self.continuation = continuation
            // Delivered before it waited (the host shut down first): nothing to wait for, and parking
            // would overwrite that and wait for the deadline.
            guard phase.compareExchange(expected: Self.calling, desired: Self.parked, ordering: .acquiringAndReleasing).exchanged
            else {
                self.continuation = nil
                return continuation.resume()
            }
            // The last completion may have counted down before the phase said parked: then it did not
            // wake anyone, and it is this side's to deliver.
            if pending.load(ordering: .acquiring) == 0 {
                return wakeIfParked()
            }
            let due = start.addingReportingOverflow(deadline)
            let timer = clock.schedule(at: due.overflow ? .max : due.partialValue) { [self] in expire() }
            self.timer.withLock { $0 = timer }
            // Delivered while the timer was being made: nobody else cancels it.
            if phase.load(ordering: .acquiring) == Self.delivered { cancelTimer() }
        }
    }

    /// Everything awaited arrived: the side that wins the phase delivers.
    private func wakeIfParked() {
        guard phase.compareExchange(expected: Self.parked, desired: Self.delivered, ordering: .acquiringAndReleasing).exchanged
        else { return }
        cancelTimer()
        let continuation = self.continuation
        self.continuation = nil
        continuation?.resume()
    }

    /// The deadline passed: deliver with what arrived; the slots still waiting are expired.
    private func expire() {
        guard phase.compareExchange(expected: Self.parked, desired: Self.delivered, ordering: .acquiringAndReleasing).exchanged
        else { return }
        for slot in 0..<count {
            _ = states[slot].compareExchange(expected: SlotState.waiting.rawValue, desired: SlotState.expired.rawValue,
                                             ordering: .acquiringAndReleasing)
        }
        cancelTimer()
        let continuation = self.continuation
        self.continuation = nil
        continuation?.resume()
    }

    private func cancelTimer() {
        let timer = self.timer.withLock { timer in
            defer { timer = nil }
            return timer
        }
        timer?.cancel()
    }

    /// The host shuts down: delivers now with what arrived (``deliverNow()``), and reports later
    /// calls as made after shutdown.
    package func close() {
        closed.store(true, ordering: .releasing)
        deliverNow()
    }

    /// The subscriber named `name` was removed: its slots still waiting are expired now (counted as
    /// missed at the deadline, reported late when late is reported) and no longer awaited.
    package func abandon(named name: String) {
        for slot in 0..<count where self.name(slot) == name {
            guard states[slot].compareExchange(expected: SlotState.waiting.rawValue, desired: SlotState.expired.rawValue,
                                               ordering: .acquiringAndReleasing).exchanged else { continue }
            if pending.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { wakeIfParked() }
        }
    }

    /// Delivers now, with what arrived, without waiting: the slots still waiting are expired.
    /// Nothing when already delivered.
    package func deliverNow() {
        if phase.compareExchange(expected: Self.calling, desired: Self.delivered, ordering: .acquiringAndReleasing).exchanged {
            for slot in 0..<count {
                _ = states[slot].compareExchange(expected: SlotState.waiting.rawValue, desired: SlotState.expired.rawValue,
                                                 ordering: .acquiringAndReleasing)
            }
            return
        }
        expire()
    }

    /// After delivery: the reports gathered before it and, for the late responders (`reportsLate`),
    /// a `late` report each. The slots are frozen now: read them with ``state(_:)``, ``value(_:)``
    /// and ``arrival(_:)`` (from code specialized for `Value`, which costs no metadata lookups).
    package func deliveredReports() -> [DispatchReport] {
        var late: [DispatchReport] = []
        for slot in 0..<count where state(slot) == .expired && rules.reportsLate {
            late.append(.late(subscriber: name(slot), event: event))
        }
        return reports.withLock { $0.reports } + late
    }

    /// What this event's completion tokens lead to once it was delivered, so that the token table
    /// does not keep this collector (its slots, values and closures: about 600 bytes an event) for
    /// as long as it remembers them: the event's shared ``RetiredCompletions`` (one per event and
    /// subscriber list, kept by ``LateReports``), each token's slot number under it
    /// ``RetiredNumbers/number(_:)``. Later calls are reported exactly as this collector would report
    /// them. Nil without `reporting`. [main-thread, after delivery]
    package func retiredSink() -> CompletionTokenSink? {
        guard let reporting else { return nil }
        return lateReports.retiredSink(for: event, names: names) {
            RetiredCompletions(event: event, names: names, lateReports: lateReports, problem: reporting, decode: decode)
        }
    }

    /// Whether the host shut down while this event waited (``close()``).
    package var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Retires `run` (this event's tokens) in `table`, each token leading to `sink` from now on under
    /// its slot's ``RetiredNumbers/number(_:)``, packed by the table in one loop over the run: no call
    /// per slot. [main-thread, after delivery]
    package func retire(_ run: CompletionTokens.Run, in table: CompletionTokens, as sink: CompletionTokenSink) {
        let closed = isClosed
        subscribers.withUnsafeBufferPointer { subscribers in
            table.retire(run, as: sink, numbers: RetiredNumbers(subscribers: subscribers, states: UnsafePointer(states), closed: closed))
        }
    }

    /// Slot `slot`'s state after delivery.
    @inline(__always)
    package func state(_ slot: Int) -> SlotState {
        var raw = states[slot].load(ordering: .acquiring)
        // A completion may be writing its value right now (it won its slot just before the deadline):
        // it finishes within a few instructions.
        while raw == SlotState.claiming.rawValue {
            sched_yield()
            raw = states[slot].load(ordering: .acquiring)
        }
        // Only a case's raw value is ever stored, and the cases' raw values are their positions
        // (0, 1, …): the byte is the case (`init(rawValue:)`, not inlined, cost 11 a slot).
        return unsafeBitCast(raw, to: SlotState.self)
    }

    /// Slot `slot`'s value after delivery, when its state is answered.
    @inline(__always)
    package func value(_ slot: Int) -> Value? { state(slot) == .answered ? values[slot] : nil }

    /// When slot `slot`'s value arrived (``MonotonicClock``), when timed; 0 otherwise.
    @inline(__always)
    package func arrival(_ slot: Int) -> UInt64 { arrivals[slot] }
    /// Slot `slot`'s place in the order of arrival, 1 for the first (answered slots, under
    /// ``Rules/ranksArrivals``).
    package func rank(_ slot: Int) -> UInt64 { ranks[slot] }
}

/// A retired slot's number: the subscriber's position, whether the host had shut down, the state's
/// raw value (not generic: packing costs no metadata lookup in the collector's unspecialized code).
@inline(__always)
func retiredCompletionNumber(name: Int, state: UInt8, closed: Bool) -> Int {
    name << 4 | (closed ? 8 : 0) | Int(state & 7)
}

/// What a delivered event's retired tokens are numbered by (``CompletionCollector/retire(_:in:as:)``):
/// each slot's subscriber and frozen state, borrowed for the retirement. Not generic, so that the
/// token table packs every number in its own loop.
package struct RetiredNumbers {
    let subscribers: UnsafeBufferPointer<Int>
    let states: UnsafePointer<Atomic<UInt8>>
    let closed: Bool

    /// How many slots it numbers.
    var count: Int { subscribers.count }

    /// Slot `position`'s number (``retiredCompletionNumber(name:state:closed:)``).
    @inline(__always)
    func number(_ position: Int) -> Int {
        retiredCompletionNumber(name: subscribers[position], state: states[position].load(ordering: .acquiring), closed: closed)
    }
}

/// Where the completion tokens of delivered events lead once their collectors are let go
/// (``CompletionCollector/retiredSink()``): one per event and subscriber list, shared by every
/// retired token of that event, each token's slot number packing what its collector knew (the
/// subscriber's position, the slot's frozen state, whether the host had shut down). A call with
/// such a token is reported as the collector would have reported it after delivery — a duplicate,
/// after a decline, after delivery, an unexpected restoration, after shutdown — into the late
/// reports, and what it passed that cannot be read is logged against its subscriber. [any-thread]
package final class RetiredCompletions<Value: Sendable>: CompletionTokenSink, @unchecked Sendable {
    // @unchecked: immutable.
    private let event: LifecycleEvent
    private let names: [String]
    private let lateReports: LateReports
    private let problem: @Sendable (Int, LifecycleEvent, String) -> Void
    private let decode: @Sendable (RawCompletion, inout String?) -> Value?

    init(event: LifecycleEvent, names: [String], lateReports: LateReports, problem: @escaping @Sendable (Int, LifecycleEvent, String) -> Void,
         decode: @escaping @Sendable (RawCompletion, inout String?) -> Value?) {
        self.event = event
        self.names = names
        self.lateReports = lateReports
        self.problem = problem
        self.decode = decode
    }

    override package func deliver(_ packed: Int, _ raw: RawCompletion) {
        let name = packed >> 4
        var problem: String?
        guard decode(raw, &problem) != nil else {
            return self.problem(name, event, "a completion of another type was called with this event's context; ignored")
        }
        if let problem { self.problem(name, event, problem) }
        let subscriber = names[name]
        if packed & 8 != 0 { return lateReports.append(.completionAfterShutdown(subscriber: subscriber, event: event)) }
        let report: DispatchReport
        switch CompletionCollector<Value>.SlotState(rawValue: UInt8(packed & 7)) ?? .expired {
        case .claiming, .answered: report = .duplicateCompletion(subscriber: subscriber, event: event)
        case .declined: report = .completionAfterDecline(subscriber: subscriber, event: event)
        case .waiting, .expired: report = .completionAfterDelivery(subscriber: subscriber, event: event)
        // After delivery a released responder's call never counts, whatever the rules.
        case .released: report = .unexpectedRestoration(subscriber: subscriber, event: event)
        }
        lateReports.append(report)
    }

    override package func forged(_ packed: Int) {
        lateReports.append(.forgedCompletion(subscriber: names[packed >> 4], event: event))
    }

    override package var owner: LateReports? { lateReports }
}
