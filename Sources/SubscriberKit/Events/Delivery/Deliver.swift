import SubscriberABI

// The call path: one function per answer timing, generic over the event's shapes. Each event row
// instantiates the one of its timing with its own shapes and C signature (EventRow+Builders.swift),
// so that what runs per subscriber is specialized code: a loaded responder is one indirect call of
// its C entry with arguments encoded once per event, an in-process one a call of its handler, and
// the answers are kept in a typed array.
//
// Every responder is called, in order, whatever the answers so far: no reconciler short-circuits.
// In-process objects and handlers are borrowed with ``borrowing(_:_:)``, never with the stdlib's
// `_withUnsafeGuaranteedRef` directly (see there).
@MainActor
enum Deliver {
    typealias Me = UnsafePointer<adh_subscriber>

    /// `value` encoded for C once, when some responder is loaded.
    @inline(__always)
    private static func encoded<A: ArgumentShape>(_ list: ResponderList, _ value: A.Value, _ context: DeliveryContext,
                                                  _: A.Type) -> A.Encoded? {
        list.hasLoaded ? A.encode(value, EncodingContext(serial: context.serial, application: context.application)) : nil
    }

    // MARK: Notifications

    static func notification<A: ArgumentShape>(
        _ list: ResponderList, _ value: A.Value, _ context: DeliveryContext, _: A.Type,
        call: (UnsafeRawPointer, Me, A.CArguments) -> Void
    ) -> InFlight {
        let encoded = encoded(list, value, context, A.self)
        let cArguments = encoded.map(A.cArguments)
        var clock = CallClock(timed: context.timed, count: list.responders.count)
        list.responders.withUnsafeBufferPointer { responders in
            for responder in responders {
                switch responder.target {
                case .loaded(let entry, let me):
                    call(entry, me, cArguments.unsafelyUnwrapped)
                case .inProcess(let object, let handler):
                    borrowing(handler) { handler in
                        borrowing(object) { object in
                            unsafeDowncast(handler, to: NotificationHandler<A>.self).call(object, context.application, value)
                        }
                    }
                }
                clock.mark()
            }
        }
        withExtendedLifetime(encoded) {}
        let record = AnswerRecord(subscribers: list.subscribers, nanoseconds: clock.spans)
        return SettledFlight(immediate: (), result: DeliveryResult(final: (), answers: record, reports: []))
    }

    // MARK: Answers at once

    static func immediate<A: ArgumentShape, R: ImmediateAnswerShape>(
        _ list: ResponderList, _ value: A.Value, _ context: DeliveryContext, _: A.Type, _: R.Type,
        call: (UnsafeRawPointer, Me, A.CArguments) -> R.CReturn
    ) -> InFlight {
        let event = context.event
        let encoded = encoded(list, value, context, A.self)
        let cArguments = encoded.map(A.cArguments)
        let count = list.responders.count
        var clock = CallClock(timed: context.timed, count: count)
        var answers: [R.Answer?] = []
        answers.reserveCapacity(count)
        list.responders.withUnsafeBufferPointer { responders in
            for responder in responders {
                switch responder.target {
                case .loaded(let entry, let me):
                    var problem: String?
                    answers.append(R.decode(call(entry, me, cArguments.unsafelyUnwrapped), problem: &problem))
                    if let problem { context.problem(responder.subscriber, "\(event): \(problem)") }
                case .inProcess(let object, let handler):
                    answers.append(borrowing(handler) { handler in
                        borrowing(object) { object in
                            unsafeDowncast(handler, to: ImmediateHandler<A, R>.self).call(object, context.application, value)
                        }
                    })
                }
                clock.mark()
            }
        }
        withExtendedLifetime(encoded) {}
        let policy = unsafeDowncast(context.policy, to: TypedPolicy<A.Value, R.Answer>.self)
        let decided = policy.reconciler.reconcile(named(answers, list, context), event: event,
                                                  nobody: policy.nobody.answer(for: value, policy.settings))
        let record = TypedAnswerRecord(subscribers: list.subscribers, answers: answers, nanoseconds: clock.spans)
        return SettledFlight(immediate: decided.result,
                             result: DeliveryResult(final: decided.result, answers: record, reports: decided.reports))
    }

    /// The non-nil answers with their subscribers' names, in call order, as reconcilers see them.
    private static func named<Answer>(_ answers: [Answer?], _ list: ResponderList, _ context: DeliveryContext)
        -> [NamedAnswer<Answer>]
    {
        var named: [NamedAnswer<Answer>] = []
        named.reserveCapacity(answers.count)
        for (index, answer) in answers.enumerated() {
            if let answer { named.append(NamedAnswer(subscriber: context.names[list.responders[index].subscriber], answer: answer)) }
        }
        return named
    }

    // MARK: Answers through completions

    static func completion<A: ArgumentShape, R: CompletionAnswerShape>(
        _ list: ResponderList, _ value: A.Value, _ context: DeliveryContext, _: A.Type, _: R.Type,
        call: (UnsafeRawPointer, Me, A.CArguments, R.CCompletion) -> adh_response
    ) -> InFlight {
        let event = context.event
        let responders = list.responders
        let policy = unsafeDowncast(context.policy, to: TypedPolicy<A.Value, R.Answer>.self)
        let nobody = policy.nobody.answer(for: value, policy.settings)
        guard !responders.isEmpty else {
            return SettledFlight(immediate: (), result: DeliveryResult(final: nobody, answers: .empty, reports: []))
        }
        let start = MonotonicClock.now()
        let (collector, tokens) = collector(list, context, decode: { R.answer($0, problem: &$1) })
        let encoded = encoded(list, value, context, A.self)
        let cArguments = encoded.map(A.cArguments)
        var clock = CallClock(timed: context.timed, count: responders.count)
        let problem = context.problem
        responders.withUnsafeBufferPointer { responders in
            for (index, responder) in responders.enumerated() {
                switch responder.target {
                case .loaded(let entry, let me):
                    CompletionTokens.shared.setCallSite(tokens[index])
                    let response = call(entry, me, cArguments.unsafelyUnwrapped, R.completion(token: tokens[index]))
                    CompletionTokens.shared.setCallSite(nil)
                    if declined(response, event, responder.subscriber, problem) { collector.decline(index) }
                case .inProcess(let object, let handler):
                    borrowing(handler) { handler in
                        borrowing(object) { object in
                            unsafeDowncast(handler, to: CompletionEventHandler<A, R>.self)
                                .call(object, context.application, value, collector.handler(index))
                        }
                    }
                }
                collector.didReturn(index)
                clock.mark()
            }
        }
        withExtendedLifetime(encoded) {}
        let subscribers = list.subscribers
        let names = context.names
        let callStarts = clock.starts
        return CompletingFlight(immediate: (), collector: collector, start: start, deadline: context.deadline, tokens: tokens) {
            collector, reports in
            let deliveredAt = callStarts.isEmpty ? 0 : MonotonicClock.now()
            var rowSubscribers: [Int] = [], rowAnswers: [R.Answer?] = [], times: [UInt64] = []
            var answers: [NamedAnswer<R.Answer>] = []
            rowSubscribers.reserveCapacity(collector.count)
            rowAnswers.reserveCapacity(collector.count)
            for index in 0..<collector.count {
                let state = collector.state(index)
                let value: R.Answer?
                switch state {
                case .answered: value = collector.value(index)
                case .expired: value = policy.late
                case .declined, .released, .waiting, .claiming: continue
                }
                rowSubscribers.append(subscribers[index])
                rowAnswers.append(value)
                if !callStarts.isEmpty {
                    // From the call to its completion; to delivery when late.
                    times.append((state == .answered ? collector.arrival(index) : deliveredAt) &- callStarts[index])
                }
                if let value { answers.append(NamedAnswer(subscriber: names[subscribers[index]], answer: value)) }
            }
            let decided = policy.reconciler.reconcile(answers, event: event, nobody: nobody)
            let record = TypedAnswerRecord(subscribers: rowSubscribers, answers: rowAnswers, nanoseconds: times)
            return DeliveryResult(final: decided.result, answers: record, reports: reports + decided.reports)
        }
    }

    /// A collector for `list`'s responders and, when one of them is loaded, a C token for each.
    private static func collector<Value: Sendable>(
        _ list: ResponderList, _ context: DeliveryContext,
        rules: CompletionCollector<Value>.Rules = .init(), decode: @escaping @Sendable (RawCompletion, inout String?) -> Value?
    ) -> (CompletionCollector<Value>, [UnsafeMutableRawPointer]) {
        let subscribers = list.subscribers
        let problem = context.problem
        let collector = CompletionCollector<Value>(
            event: context.event, names: context.names, subscribers: subscribers, lateReports: context.lateReports,
            timed: context.timed, rules: rules, decode: decode, problem: { problem(subscribers[$0], $1) })
        let tokens = list.hasLoaded ? CompletionTokens.shared.issue(subscribers.count, to: TokenBridge(collector)) : []
        return (collector, tokens)
    }

    /// Whether a C entry's `adh_response` declines; a value other than the header's two is reported
    /// and read as "responds", so that the deadline, not a guess, settles it.
    private static func declined(_ response: adh_response, _ event: LifecycleEvent, _ subscriber: Int,
                                 _ problem: (Int, String) -> Void) -> Bool {
        if response != ABI.declines && response != ABI.responds {
            problem(subscriber, "\(event): returned \(response), expected 0 (declines) or 1 (responds); read as responds")
        }
        return response == ABI.declines
    }

    // MARK: An answer at once, then an optional handler (continueUserActivity)

    static func restoration<A: ArgumentShape>(
        _ list: ResponderList, _ value: A.Value, _ context: DeliveryContext, _: A.Type,
        call: (UnsafeRawPointer, Me, A.CArguments, adh_json_completion) -> adh_tristate
    ) -> InFlight {
        let event = context.event
        let responders = list.responders
        let policy = unsafeDowncast(context.policy, to: TypedPolicy<A.Value, Bool>.self)
        let rules = CompletionCollector<[String]>.Rules(acceptsReleased: policy.settings.restorationFromEveryCaller,
                                                       reportsLate: false)
        let start = MonotonicClock.now()
        let (collector, tokens) = collector(list, context, rules: rules,
                                            decode: { RestorationAnswer.identifiers($0, problem: &$1) })
        let encoded = encoded(list, value, context, A.self)
        let cArguments = encoded.map(A.cArguments)
        var clock = CallClock(timed: context.timed, count: responders.count)
        var returned: [Bool?] = []
        returned.reserveCapacity(responders.count)
        responders.withUnsafeBufferPointer { responders in
            for (index, responder) in responders.enumerated() {
                let answer: Bool?
                switch responder.target {
                case .loaded(let entry, let me):
                    CompletionTokens.shared.setCallSite(tokens[index])
                    let raw = call(entry, me, cArguments.unsafelyUnwrapped, RestorationAnswer.completion(token: tokens[index]))
                    CompletionTokens.shared.setCallSite(nil)
                    var problem: String?
                    answer = OptionalBoolAnswer.decode(raw, problem: &problem)
                    if let problem { context.problem(responder.subscriber, "\(event): \(problem)") }
                case .inProcess(let object, let handler):
                    answer = borrowing(handler) { handler in
                        borrowing(object) { object in
                            unsafeDowncast(handler, to: RestorationHandler<A>.self)
                                .call(object, context.application, value, collector.handler(index))
                        }
                    }
                }
                returned.append(answer)
                collector.didReturn(index, awaited: answer == true)
                clock.mark()
            }
        }
        withExtendedLifetime(encoded) {}
        let names = context.names
        let subscribers = list.subscribers
        let handledAnswers = returned
        var answers: [NamedAnswer<Bool>] = []
        for (index, answer) in returned.enumerated() {
            if let answer { answers.append(NamedAnswer(subscriber: names[subscribers[index]], answer: answer)) }
        }
        let handled = policy.reconciler.reconcile(answers, event: event, nobody: policy.nobody.answer(for: value, policy.settings))
        let callTimes = clock.spans
        return CompletingFlight(immediate: handled.result, collector: collector, start: start, deadline: context.deadline,
                                tokens: tokens) { collector, reports in
            var restorable: [String] = []
            var rows: [ContinueUserActivityResult?] = []
            for index in 0..<collector.count {
                // Declined before returning true: "nothing to restore", [] as a loaded Swift
                // subscriber's SDK sends it (SDKRestoration), so both read the same.
                let lists = collector.value(index)
                    ?? (handledAnswers[index] == true && collector.state(index) == .declined ? [] : nil)
                if let lists { restorable += lists }
                rows.append(handledAnswers[index].map { ContinueUserActivityResult(handled: $0, restorableObjects: lists) })
            }
            let result = ContinueUserActivityResult(handled: handled.result, restorableObjects: handled.result ? restorable : nil)
            let record = TypedAnswerRecord(subscribers: subscribers, answers: rows, nanoseconds: callTimes)
            return DeliveryResult(final: result, answers: record, reports: reports + handled.reports)
        }
    }
}

/// Bridges a C completion token to its event's collector (the token table knows no generic types).
private final class TokenBridge<Value: Sendable>: CompletionTokenSink, @unchecked Sendable {
    let collector: CompletionCollector<Value>

    init(_ collector: CompletionCollector<Value>) { self.collector = collector }

    override func deliver(_ slot: Int, _ raw: RawCompletion) { collector.deliverRaw(slot, raw) }
    override func forged(_ slot: Int) { collector.forged(slot) }
}
