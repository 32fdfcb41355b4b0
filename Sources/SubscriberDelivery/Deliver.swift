import Glibc
import SubscriberABI
import SubscriberKit
import SubscriberEventModel

// The call path: one function per answer timing, generic over the event's shapes. Each event row
// instantiates the one of its timing with its own shapes and C signature (EventRow+Builders.swift),
// so that what runs per subscriber is specialized code: a loaded responder is one indirect call of
// its C entry with arguments encoded once per event, an in-process one a call of its handler.
// Responders are reached only through Responder's methods (Responder.swift), whatever their
// transport, and every answer goes into a slot: of a typed array for answers at once, of the
// event's CompletionCollector for answers through completions.
//
// Every responder is called, in order, whatever the answers so far: no reconciler short-circuits.
// The one exception is a rule, not a reconciler: ``DeliveryContext/stopsAtFirstYes`` (Flutter's
// scene fan-out) stops after the first YES, one branch per event on the default path.
// In-process objects and handlers are borrowed with ``borrowing(_:_:)``, never with the stdlib's
// `_withUnsafeGuaranteedRef` directly (see there).
@MainActor
enum Deliver {
    typealias Me = UnsafePointer<adh_subscriber>

    /// `value` encoded for C once, when some responder is loaded.
    @inline(__always)
    private static func encoded<A: ArgumentShape>(_ list: ResponderList, _ value: A.Value, _ context: DeliveryContext,
                                                  _: A.Type) -> A.Encoded? {
        list.hasLoaded ? A.encode(value, EncodingContext(serial: context.serial, launchInvocation: context.application.launchInvocation)) : nil
    }

    // MARK: Notifications

    static func notification<A: ArgumentShape>(
        _ list: ResponderList, _ value: A.Value, _ context: DeliveryContext, _: A.Type,
        call: (UnsafeRawPointer, Me, A.CArguments) -> Void
    ) -> InFlight {
        let count = list.responders.count
        // The last event's record and its times' storage, when nothing holds them any longer.
        var spans: [UInt64] = []
        let spare = context.list.spare(for: context.event)
        let reused = spare?.take(nanoseconds: &spans)
        var clock = CallClock(timed: context.timed, count: count, reusing: &spans)
        if context.optionsToFirstOnly, count > 1, var later = value as? SceneConnectionArguments.Value, !later.options.isEmpty {
            // The options to the first; the others the event without them, encoded under a serial
            // of their own (a plugin image decodes once per serial).
            later.options = SceneConnectionOptions()
            notify(list, 0..<1, value, context, &clock, A.self, call: call)
            var laterContext = context
            laterContext.serial = PayloadSerials.next()
            notify(list, 1..<count, later as! A.Value, laterContext, &clock, A.self, call: call)
        } else {
            notify(list, 0..<count, value, context, &clock, A.self, call: call)
        }
        let record: AnswerRecord
        if let reused, let spare {
            var times = clock.spans
            record = spare.refill(reused, subscribers: list.subscribers, nanoseconds: &times)
        } else {
            record = AnswerRecord(subscribers: list.subscribers, nanoseconds: clock.spans)
            spare?.keep(record)
        }
        return SettledFlight(immediate: (), result: DeliveryResult(final: (), answers: record, reports: []))
    }

    /// Notifies the responders of `list` in `range`, `value` encoded for C once.
    @inline(__always)
    private static func notify<A: ArgumentShape>(
        _ list: ResponderList, _ range: Range<Int>, _ value: A.Value, _ context: DeliveryContext, _ clock: inout CallClock,
        _: A.Type, call: (UnsafeRawPointer, Me, A.CArguments) -> Void
    ) {
        let encoded = encoded(list, value, context, A.self)
        let cArguments = encoded.map(A.cArguments)
        withElements(of: list.responders) { responders in
            // Untimed (the usual case), the loop reads no clock and tests no flag between calls; timed,
            // the same loop over one responder at a time (one copy of the loop's code: two copies
            // were merged by the optimizer behind a thunk that every in-process call paid for).
            if clock.on {
                for index in range {
                    notifyEach(responders, index..<(index + 1), value, cArguments, context, A.self, call: call)
                    clock.mark()
                }
            } else {
                notifyEach(responders, range, value, cArguments, context, A.self, call: call)
            }
        }
        keepAlive(encoded)
    }

    /// Notifies `responders[range]`, in order.
    @inline(never)
    private static func notifyEach<A: ArgumentShape>(
        _ responders: UnsafeBufferPointer<Responder>, _ range: Range<Int>, _ value: A.Value, _ cArguments: A.CArguments?,
        _ context: DeliveryContext, _: A.Type, call: (UnsafeRawPointer, Me, A.CArguments) -> Void
    ) {
        for index in range { responders[index].notify(value, cArguments, context, A.self, call: call) }
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
        // The last event's record, its answers' and times' storage, when nothing holds them any longer.
        var answers: [R.Answer?] = [], spans: [UInt64] = []
        let spare = context.list.spare(for: event)
        let reused = spare?.take(R.Answer.self, answers: &answers, nanoseconds: &spans)
        var clock = CallClock(timed: context.timed, count: count, reusing: &spans)
        // One slot per responder, filled before its call returns (the reused ones emptied in place).
        if reused != nil, answers.count == count {
            withMutableElements(of: &answers) { slots in for index in 0..<slots.count { slots[index] = nil } }
        } else {
            answers = [R.Answer?](repeating: nil, count: count)
        }
        // How many were called: all, unless the fan-out stops at the first YES (one branch per event).
        var called = count
        withMutableElements(of: &answers) { slots in
            withElements(of: list.responders) { responders in
                if context.stopsAtFirstYes {
                    for index in 0..<responders.count {
                        responders[index].answer(value, cArguments, context, A.self, R.self, into: &slots[index], call: call)
                        clock.mark()
                        if let yes = slots[index] as? Bool, yes { called = index + 1; break }
                    }
                } else {
                    for index in 0..<responders.count {
                        responders[index].answer(value, cArguments, context, A.self, R.self, into: &slots[index], call: call)
                        clock.mark()
                    }
                }
            }
        }
        keepAlive(encoded)
        if called < count { answers.removeLast(count - called) }
        let policy = unsafeDowncast(context.policy, to: TypedPolicy<A.Value, R.Answer>.self)
        let decided = policy.reconciler.reconcile(named(answers, list, context), event: event,
                                                  nobody: policy.nobody.answer(for: value, policy.settings))
        let subscribers = called < count ? Array(list.subscribers.prefix(called)) : list.subscribers
        let record: TypedAnswerRecord<R.Answer>
        if let reused, let spare {
            var times = clock.spans
            record = spare.refill(reused, subscribers: subscribers, answers: &answers, nanoseconds: &times)
        } else {
            record = TypedAnswerRecord(subscribers: subscribers, answers: answers, nanoseconds: clock.spans)
            spare?.keep(record)
        }
        return SettledFlight(immediate: decided.result,
                             result: DeliveryResult(final: decided.result, answers: record, reports: decided.reports))
    }

    /// The non-nil answers with their subscribers' names, in call order, as reconcilers see them.
    private static func named<Answer>(_ answers: [Answer?], _ list: ResponderList, _ context: DeliveryContext)
        -> [NamedAnswer<Answer>]
    {
        var named: [NamedAnswer<Answer>] = []
        for (index, answer) in answers.enumerated() {
            guard let answer else { continue }
            // Reserved at the first answer: when every responder declined (the usual event), no
            // storage is allocated and freed for an empty list.
            if named.isEmpty { named.reserveCapacity(answers.count - index) }
            named.append(NamedAnswer(subscriber: context.names[list.responders[index].subscriber], answer: answer))
        }
        return named
    }

    // MARK: Answers through completions

    static func completion<A: ArgumentShape, R: CompletionAnswerShape>(
        _ list: ResponderList, _ value: A.Value, _ context: DeliveryContext, _: A.Type, _: R.Type,
        call: (UnsafeRawPointer, Me, (A.CArguments, R.CCompletion)) -> adh_response
    ) -> InFlight {
        let event = context.event
        let responders = list.responders
        let policy = unsafeDowncast(context.policy, to: TypedPolicy<A.Value, R.Answer>.self)
        let nobody = policy.nobody.answer(for: value, policy.settings)
        guard !responders.isEmpty else {
            return SettledFlight(immediate: (), result: DeliveryResult(final: nobody, answers: .empty, reports: []))
        }
        let start = context.clock.nanoseconds()
        let firstCompletedWins = context.firstCompletedWins
        let (collector, tokens) = collector(list, context, rules: .init(ranksArrivals: firstCompletedWins),
                                            decode: { R.answer($0, problem: &$1) }, receive: { collector, slot, raw in
            // The answer shape's typed entry: read by the shape, written into the slot.
            var problem: String?
            let value = R.answer(raw, problem: &problem)
            collector.receive(slot, value, problem: problem)
        }) { collector, slot, integer in
            // An integer completion: a value the header allows straight into the slot; any other
            // read as above, which says what is wrong.
            if let value = answer(R.self, integer: integer) { return collector.complete(slot, with: value) }
            var problem: String?
            let value = R.answer(.integer(integer), problem: &problem)
            collector.receive(slot, value, problem: problem)
        }
        let encoded = encoded(list, value, context, A.self)
        let cArguments = encoded.map(A.cArguments)
        var clock = CallClock(timed: context.timed, count: responders.count)
        let stops = context.stopsAtFirstYes
        // Read once per event: the table (a lazy static) and this thread, which issued the tokens and
        // calls their entries (``CompletionTokens/enter(_:_:thread:)``).
        let table = CompletionTokens.shared
        let thread = tokens.isEmpty ? 0 : UInt(pthread_self())
        withElements(of: responders) { responders in
            for index in 0..<responders.count {
                responders[index].complete(value, cArguments, context, A.self, R.self, collector: collector, index: index,
                                           tokens: tokens, table: table, thread: thread, call: call)
                collector.didReturn(index)
                clock.mark()
                // Flutter's YES: it took the completion (did not decline); the rest are not called.
                if stops, collector.state(index) != .declined {
                    for rest in (index + 1)..<responders.count { collector.decline(rest) }
                    break
                }
            }
        }
        keepAlive(encoded)
        let subscribers = list.subscribers
        let names = context.names
        let callStarts = clock.starts
        return CompletingFlight(immediate: (), collector: collector, start: start, deadline: context.deadline,
                                clock: context.clock, tokens: tokens) {
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
            if firstCompletedWins {
                // Only the first completion in time is reconciled (a late one never is first).
                let answered = (0..<collector.count).filter { collector.state($0) == .answered && collector.value($0) != nil }
                if let first = answered.min(by: { collector.rank($0) < collector.rank($1) }), let value = collector.value(first) {
                    answers = [NamedAnswer(subscriber: names[subscribers[first]], answer: value)]
                }
            }
            let decided = policy.reconciler.reconcile(answers, event: event, nobody: nobody)
            let record = TypedAnswerRecord(subscribers: rowSubscribers, answers: rowAnswers, nanoseconds: times)
            return DeliveryResult(final: decided.result, answers: record, reports: reports + decided.reports)
        }
    }

    /// An integer completion's answer the header allows, read by shape `R` (``CompletionAnswerShape/answer(integer:)``);
    /// nil for any other. The shapes of integer completions are read here, where they are concrete
    /// (compiled to the one read of `R`): through the conformance, the read was a call of its
    /// witness in another module, and another of the read (about 20 instructions a completion).
    @inline(__always)
    nonisolated private static func answer<R: CompletionAnswerShape>(_: R.Type, integer: Int64) -> R.Answer? {
        if R.self == PresentationOptionsAnswer.self {
            return unsafeBitCast(PresentationOptionsAnswer.answer(integer: integer), to: R.Answer?.self)
        }
        if R.self == FetchResultAnswer.self { return unsafeBitCast(FetchResultAnswer.answer(integer: integer), to: R.Answer?.self) }
        if R.self == BoolCompletionAnswer.self { return unsafeBitCast(BoolCompletionAnswer.answer(integer: integer), to: R.Answer?.self) }
        return R.answer(integer: integer)
    }

    /// A collector for `list`'s responders and, when one of them is loaded, a C token for each.
    private static func collector<Value: Sendable>(
        _ list: ResponderList, _ context: DeliveryContext,
        rules: CompletionCollector<Value>.Rules = .init(), decode: @escaping @Sendable (RawCompletion, inout String?) -> Value?,
        receive: @escaping @Sendable (CompletionCollector<Value>, Int, RawCompletion) -> Void,
        receiveInteger: @escaping @Sendable (CompletionCollector<Value>, Int, Int64) -> Void
    ) -> (CompletionCollector<Value>, CompletionTokens.Run) {
        let subscribers = list.subscribers
        let problem = context.problem
        let collector = CompletionCollector<Value>(
            event: context.event, names: context.names, subscribers: subscribers, lateReports: context.lateReports,
            timed: context.timed, rules: rules, decode: decode, problem: { problem(subscribers[$0], $1, $2) }, reporting: problem)
        let tokens = list.hasLoaded ? CompletionTokens.shared.issue(subscribers.count, to: TokenBridge(collector, receive, receiveInteger))
            : .empty
        return (collector, tokens)
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
        let start = context.clock.nanoseconds()
        let (collector, tokens) = collector(list, context, rules: rules,
                                            decode: { RestorationAnswer.identifiers($0, problem: &$1) }, receive: { collector, slot, raw in
            var problem: String?
            let value = RestorationAnswer.identifiers(raw, problem: &problem)
            collector.receive(slot, value, problem: problem)
        }) { collector, slot, integer in
            // Not an integer completion's event: read as the raw call it is, which says so.
            var problem: String?
            let value = RestorationAnswer.identifiers(.integer(integer), problem: &problem)
            collector.receive(slot, value, problem: problem)
        }
        let encoded = encoded(list, value, context, A.self)
        let cArguments = encoded.map(A.cArguments)
        var clock = CallClock(timed: context.timed, count: responders.count)
        // One slot per responder for its handled answer, filled before its call returns.
        var returned = [Bool?](repeating: nil, count: responders.count)
        let table = CompletionTokens.shared, thread = tokens.isEmpty ? 0 : UInt(pthread_self())
        withMutableElements(of: &returned) { slots in
            withElements(of: responders) { responders in
                for index in 0..<responders.count {
                    responders[index].restore(value, cArguments, context, A.self, into: &slots[index], collector: collector, index: index,
                                              tokens: tokens, table: table, thread: thread, call: call)
                    collector.didReturn(index, awaited: slots[index] == true)
                    clock.mark()
                }
            }
        }
        keepAlive(encoded)
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
                                clock: context.clock, tokens: tokens) { collector, reports in
            var restorable: [String] = []
            var rows: [ContinueUserActivityResult?] = []
            for index in 0..<collector.count {
                // Declined before returning true: "nothing to restore", [] as a loaded Swift
                // subscriber's SDK sends it (SDKRestoration), so both read the same.
                let lists = collector.value(index)
                    ?? (handledAnswers[index] == true && collector.state(index) == .declined ? [] : nil)
                // (The first list taken as it is, not appended element by element to an empty one.)
                if let lists { if restorable.isEmpty { restorable = lists } else { restorable += lists } }
                rows.append(handledAnswers[index].map { ContinueUserActivityResult(handled: $0, restorableObjects: lists) })
            }
            let result = ContinueUserActivityResult(handled: handled.result, restorableObjects: handled.result ? restorable : nil)
            let record = TypedAnswerRecord(subscribers: subscribers, answers: rows, nanoseconds: callTimes)
            return DeliveryResult(final: result, answers: record,
                                  reports: handled.reports.isEmpty ? reports : reports + handled.reports)
        }
    }
}

/// Bridges a C completion token to its event's collector (the token table knows no generic types)
/// through the typed entry of the event's answer shape.
private final class TokenBridge<Value: Sendable>: CompletionTokenSink, @unchecked Sendable {
    let collector: CompletionCollector<Value>
    /// Reads a C completion's raw value by the event's answer shape and writes it into the
    /// collector's slot: made where the shape is concrete (the call path compiled for it), so that
    /// the whole receive is code specialized for it, one closure call from here.
    let receive: @Sendable (CompletionCollector<Value>, Int, RawCompletion) -> Void
    /// The same for an integer completion's value, read typed (``CompletionAnswerShape/answer(integer:)``).
    let receiveInteger: @Sendable (CompletionCollector<Value>, Int, Int64) -> Void

    init(_ collector: CompletionCollector<Value>, _ receive: @escaping @Sendable (CompletionCollector<Value>, Int, RawCompletion) -> Void,
         _ receiveInteger: @escaping @Sendable (CompletionCollector<Value>, Int, Int64) -> Void) {
        self.collector = collector
        self.receive = receive
        self.receiveInteger = receiveInteger
    }

    override func deliver(_ slot: Int, _ raw: RawCompletion) { receive(collector, slot, raw) }
    override func deliver(_ slot: Int, integer: Int64) { receiveInteger(collector, slot, integer) }
    override func forged(_ slot: Int) { collector.forged(slot) }
    override var owner: LateReports? { collector.owner }
}
