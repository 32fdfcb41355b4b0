import SubscriberKit

/// Forwards every lifecycle event to every subscriber that responds, in order, and reconciles their
/// answers into one result (docs/events.md): Expo's `ExpoAppDelegate`, for subscribers loaded from plugins
/// or registered in-process alike.
///
/// - Every responder is called, even when the answer is already decided: reconcilers only see the
///   answers after all calls.
/// - Completion events return exactly once, on the main actor: when every awaited responder has
///   called back, or at the event's deadline with what arrived.
/// - Which events exist, what they answer, how answers combine and what nobody answering means all
///   come from the event table: ``dispatch(_:)`` is the one entry point, for every event.
/// - Calls that arrive after their event was delivered are ignored and reported: in the reports of
///   the next outcome, or through ``takeLateReports()``. So are completion calls with a context the
///   host never gave that no subscriber can be blamed for (``DispatchReport/unattributedForgedCompletion(count:)``).
@MainActor
public final class LifecycleDispatcher {
    /// The subscribers in dispatch order (registration order, then priority, higher first).
    public let subscribers: [SubscriberRegistration]
    /// Reconcilers, deadlines and default orientations.
    public let configuration: DispatchConfiguration
    /// The application handed to subscribers; `launchInvocation` is set by the launch events.
    public private(set) var application: Application

    /// One responder of one event: its name and its handler of that event.
    struct Responder {
        let name: String
        let handler: EventHandler
    }

    /// The responders of each event, by event index, in dispatch order.
    private let responders: [[Responder]]
    /// The reconciler of each event, typed, by event index (resolved once from the configuration).
    let reconcilers: TypedReconcilers
    private let lateReports = LateReports()
    /// Whether a subscriber is a C plugin's: only those are handed completion tokens, so only then
    /// are the process's calls with a token the host never gave this dispatcher's to report.
    private let reportsUnattributedForgeries: Bool
    /// ``CompletionTickets/unattributedForgedCount`` when this dispatcher last reported it.
    private var unattributedForgeriesSeen: Int

    /// A dispatcher over `subscribers` (ordered here by priority, stably).
    public init(subscribers: [SubscriberRegistration], configuration: DispatchConfiguration) {
        let ordered = SubscriberRegistration.ordered(subscribers)
        self.subscribers = ordered
        self.configuration = configuration
        self.application = configuration.application
        responders = LifecycleEvent.allCases.map { event in
            ordered.compactMap { registration in
                registration.handlers[event.index].map { Responder(name: registration.name, handler: $0) }
            }
        }
        reconcilers = TypedReconcilers(configuration)
        reportsUnattributedForgeries = ordered.contains { $0.subscriber is CSubscriber }
        unattributedForgeriesSeen = reportsUnattributedForgeries ? CompletionTickets.shared.unattributedForgedCount : 0
    }

    /// The names of the subscribers `event` goes to, in call order.
    public func responderNames(for event: LifecycleEvent) -> [String] {
        responders[event.index].map(\.name)
    }

    /// Takes the reports about calls that arrived after their event was delivered and that no outcome
    /// has carried yet (e.g. after the last event).
    public func takeLateReports() -> [DispatchReport] {
        drainLateReports()
    }

    /// The late reports, then one counting the calls with a context the host never gave that arrived
    /// since the last look, outside any subscriber's call (a plugin's own thread can make them at any time).
    private func drainLateReports() -> [DispatchReport] {
        var late = lateReports.drain()
        guard reportsUnattributedForgeries else { return late }
        let forged = CompletionTickets.shared.unattributedForgedCount
        if forged != unattributedForgeriesSeen {
            late.append(.unattributedForgedCompletion(count: forged &- unattributedForgeriesSeen))
            unattributedForgeriesSeen = forged
        }
        return late
    }

    // MARK: Shared machinery (every event goes through one of these)

    /// Records how the app was launched, for this and every later event.
    func classifyLaunch(_ options: LaunchOptions) -> LaunchInvocation {
        let invocation = LaunchInvocation(classifying: options)
        application.launchInvocation = invocation
        return invocation
    }

    /// Calls every responder of a notification event in order.
    func notify(_ event: LifecycleEvent, _ arguments: EventArguments) -> EventOutcome {
        let called = responders[event.index]
        let application = application
        var rows: [SubscriberAnswer] = []
        rows.reserveCapacity(called.count)
        for responder in called {
            let start = MonotonicClock.now()
            if case .notify(let handler) = responder.handler { handler(application, arguments) }
            rows.append(SubscriberAnswer(subscriber: responder.name, answer: nil,
                                         nanoseconds: MonotonicClock.now() &- start))
        }
        return finish(event, result: .none, rows: rows, reports: [])
    }

    /// Calls every responder of a synchronous event in order, then reconciles the answers.
    /// `call` asks one handler (nil: no opinion); `wrap` types an answer as a result.
    func ask<Answer: Sendable>(_ event: LifecycleEvent, reconciler: Reconciler<Answer>, noAnswer: Answer,
                               invocation: LaunchInvocation? = nil, wrap: (Answer) -> EventResult,
                               _ call: (EventHandler, Application) -> Answer?) -> EventOutcome {
        let called = responders[event.index]
        let application = application
        var rows: [SubscriberAnswer] = []
        var answers: [NamedAnswer<Answer>] = []
        rows.reserveCapacity(called.count)
        answers.reserveCapacity(called.count)
        for responder in called {
            let start = MonotonicClock.now()
            let answer = call(responder.handler, application)
            let elapsed = MonotonicClock.now() &- start
            rows.append(SubscriberAnswer(subscriber: responder.name, answer: answer.map(wrap), nanoseconds: elapsed))
            if let answer { answers.append(NamedAnswer(subscriber: responder.name, answer: answer)) }
        }
        let decided = reconciler.reconcile(answers, event: event, noAnswer: noAnswer)
        return finish(event, result: wrap(decided.result), rows: rows, reports: decided.reports, invocation: invocation)
    }

    /// What became of one responder of a completion event.
    struct Collected<Value: Sendable> {
        enum State {
            case answered(Value)
            /// Awaited, but the deadline passed first.
            case late
            /// Not awaited (its answer said it will not call back); any call back was dropped.
            case released
            /// Declined before returning: no answer row.
            case declined
        }
        var name: String
        var state: State
        /// From the call to its completion (to delivery when late or not awaited).
        var nanoseconds: UInt64
        /// How long the call itself took.
        var callNanoseconds: UInt64
    }

    /// Calls every responder of a completion event in order with its own handler, then waits until
    /// every awaited one called back or the deadline passed. `call` returns whether to await that
    /// responder (false: its answer says it will not call back). One entry per responder, in order.
    func collect<Value: Sendable>(
        _ event: LifecycleEvent,
        _ call: (EventHandler, Application, CompletionHandler<Value>) -> Bool
    ) async -> (collected: [Collected<Value>], reports: [DispatchReport]) {
        let called = responders[event.index]
        guard !called.isEmpty else { return ([], []) }
        let application = application
        let collector = CompletionCollector<Value>(event: event, names: called.map(\.name), lateReports: lateReports)
        let eventStart = MonotonicClock.now()
        var starts: [UInt64] = []
        var returns: [UInt64] = []
        starts.reserveCapacity(called.count)
        returns.reserveCapacity(called.count)
        for (index, responder) in called.enumerated() {
            starts.append(MonotonicClock.now())
            let awaited = call(responder.handler, application, collector.handler(for: index))
            returns.append(MonotonicClock.now())
            collector.didReturn(index, awaited: awaited)
        }
        await collector.wait(since: eventStart,
                             deadline: configuration.deadline(for: event).nanosecondsSaturating)
        let deliveredAt = MonotonicClock.now()
        let (slots, _, reports) = collector.delivered()

        var collected: [Collected<Value>] = []
        collected.reserveCapacity(slots.count)
        var lateReports: [DispatchReport] = []
        for (index, slot) in slots.enumerated() {
            let name = called[index].name
            let callTime = returns[index] &- starts[index]
            switch slot {
            case .answered(let value, let arrivedAt):
                collected.append(Collected(name: name, state: .answered(value),
                                           nanoseconds: arrivedAt &- starts[index], callNanoseconds: callTime))
            case .waiting:
                // Still waiting after delivery: the deadline passed.
                collected.append(Collected(name: name, state: .late,
                                           nanoseconds: deliveredAt &- starts[index], callNanoseconds: callTime))
                lateReports.append(.late(subscriber: name, event: event))
            case .released:
                collected.append(Collected(name: name, state: .released, nanoseconds: callTime, callNanoseconds: callTime))
            case .declined:
                collected.append(Collected(name: name, state: .declined, nanoseconds: callTime, callNanoseconds: callTime))
            }
        }
        return (collected, reports + lateReports)
    }

    /// A completion event with a value: collects, counts late responders as `lateValue` (or as
    /// nothing), leaves declined ones out, and reconciles.
    func gather<Value: Sendable>(_ event: LifecycleEvent, reconciler: Reconciler<Value>, noAnswer: Value,
                                 lateValue: Value?, wrap: (Value) -> EventResult,
                                 _ call: (EventHandler, Application, CompletionHandler<Value>) -> Void)
        async -> EventOutcome
    {
        let (collected, reports) = await collect(event) { (handler, application, completion: CompletionHandler<Value>) in
            call(handler, application, completion)
            return true
        }
        var rows: [SubscriberAnswer] = []
        var answers: [NamedAnswer<Value>] = []
        rows.reserveCapacity(collected.count)
        answers.reserveCapacity(collected.count)
        for entry in collected {
            let value: Value?
            switch entry.state {
            case .answered(let answered): value = answered
            case .late: value = lateValue
            case .released, .declined: continue
            }
            rows.append(SubscriberAnswer(subscriber: entry.name, answer: value.map(wrap), nanoseconds: entry.nanoseconds))
            if let value { answers.append(NamedAnswer(subscriber: entry.name, answer: value)) }
        }
        let decided = reconciler.reconcile(answers, event: event, noAnswer: noAnswer)
        return finish(event, result: wrap(decided.result), rows: rows, reports: reports + decided.reports)
    }

    /// Builds the outcome and attaches the late reports gathered since the previous one.
    func finish(_ event: LifecycleEvent, result: EventResult, rows: [SubscriberAnswer],
                reports: [DispatchReport], invocation: LaunchInvocation? = nil) -> EventOutcome {
        let late = drainLateReports()
        return EventOutcome(event: event, result: result, answers: rows,
                            reports: late.isEmpty ? reports : reports + late, invocation: invocation)
    }
}
