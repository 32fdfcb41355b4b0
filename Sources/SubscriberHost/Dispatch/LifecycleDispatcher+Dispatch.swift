import SubscriberKit

// The one entry point of every event: the event table's row says how the event's responders are
// called (its answer kind), how their answers combine, and what nobody answering delivers.
extension LifecycleDispatcher {
    /// Delivers `call` to every responder of its event, in order, and returns the outcome. Events
    /// that answer through completion handlers return once every awaited responder called back, or
    /// at the event's deadline with what arrived; the others return at once.
    public func dispatch(_ call: EventCall) async -> EventOutcome {
        if let outcome = dispatchAtOnce(call) { return outcome }
        return await complete(call)
    }

    /// Delivers `call` synchronously when its event answers at once (every event but the six that
    /// answer through completion handlers, see ``LifecycleEvent/answersThroughCompletion``), for an
    /// app's own delegate calling in; nil, delivering nothing, for a completion event.
    public func dispatchAtOnce(_ call: EventCall) -> EventOutcome? {
        let event = call.event
        let arguments = call.arguments
        let row = event.row
        switch row.answer {
        case .none:
            return notify(event, arguments)
        case .bool:
            // Launch events classify the launch before any subscriber is called.
            let invocation: LaunchInvocation? = if case .launch(let options) = arguments { classifyLaunch(options) } else { nil }
            return ask(event, reconciler: reconcilers.bool[event.index], noAnswer: row.nobodyAnswers.bool,
                       invocation: invocation, wrap: EventResult.bool) { handler, application in
                guard case .bool(let answer) = handler else { return nil }
                return answer(application, arguments)
            }
        case .orientationMask:
            let noAnswer = configuration.defaultOrientation(for: arguments.idiom)
            return ask(event, reconciler: reconcilers.orientationMask[event.index], noAnswer: noAnswer,
                       wrap: EventResult.orientationMask) { handler, application in
                guard case .orientationMask(let answer) = handler else { return nil }
                return answer(application, arguments)
            }
        case .configurationName:
            return ask(event, reconciler: reconcilers.configurationName[event.index],
                       noAnswer: row.nobodyAnswers.configurationName, wrap: EventResult.configurationName) {
                handler, application in
                guard case .configurationName(let answer) = handler else { return nil }
                return answer(application, arguments)
            }
        case .fetchResult, .done, .boolCompletion, .dictionary, .restoration:
            return nil
        }
    }

    /// The events that answer through completion handlers.
    private func complete(_ call: EventCall) async -> EventOutcome {
        let event = call.event
        let arguments = call.arguments
        let row = event.row
        switch row.answer {
        case .fetchResult:
            return await gather(event, reconciler: reconcilers.fetchResult[event.index],
                                noAnswer: row.nobodyAnswers.fetchResult, lateValue: row.late.fetchResult,
                                wrap: EventResult.fetchResult) { handler, application, completion in
                guard case .fetch(let fetch) = handler else { return completion.decline() }
                fetch(application, arguments, completion)
            }
        case .boolCompletion:
            return await gather(event, reconciler: reconcilers.bool[event.index], noAnswer: row.nobodyAnswers.bool,
                                lateValue: row.late.bool, wrap: EventResult.bool) { handler, application, completion in
                guard case .boolCompletion(let perform) = handler else { return completion.decline() }
                perform(application, arguments, completion)
            }
        case .dictionary:
            return await gather(event, reconciler: reconcilers.dictionary[event.index], noAnswer: row.nobodyAnswers.dictionary,
                                lateValue: row.late.dictionary, wrap: EventResult.dictionary) { handler, application, completion in
                guard case .dictionary(let reply) = handler else { return completion.decline() }
                reply(application, arguments, completion)
            }
        case .done:
            return await done(event, arguments)
        case .restoration:
            return await restore(event, arguments)
        case .none, .bool, .orientationMask, .configurationName:
            // Answered at once by dispatchAtOnce; not reached.
            return dispatchAtOnce(call) ?? finish(event, result: .none, rows: [], reports: [])
        }
    }

    /// Done when every responder is done (or the deadline passed); nobody responds: done at once.
    /// A finished responder's row reads `.done`, a late one's has no answer.
    private func done(_ event: LifecycleEvent, _ arguments: EventArguments) async -> EventOutcome {
        let (collected, reports) = await collect(event) { (handler, application, completion: CompletionHandler<Void>) in
            guard case .done(let perform) = handler else { completion.decline(); return true }
            perform(application, arguments, completion)
            return true
        }
        let rows = collected.compactMap { entry -> SubscriberAnswer? in
            switch entry.state {
            case .answered: SubscriberAnswer(subscriber: entry.name, answer: .done, nanoseconds: entry.nanoseconds)
            case .late: SubscriberAnswer(subscriber: entry.name, answer: nil, nanoseconds: entry.nanoseconds)
            case .released, .declined: nil
            }
        }
        return finish(event, result: .done, rows: rows, reports: reports)
    }

    /// The reconciled Bool of the returned answers; the restoration lists of the responders that
    /// returned true, concatenated in subscriber order once all of them called back (a late one
    /// contributes nothing); when the result is false the handler is not called.
    private func restore(_ event: LifecycleEvent, _ arguments: EventArguments) async -> EventOutcome {
        var returned: [Bool?] = []
        let (collected, reports) = await collect(event) { (handler, application, completion: CompletionHandler<[String]>) in
            guard case .restoration(let perform) = handler else { returned.append(nil); return false }
            let answer = perform(application, arguments, completion)
            returned.append(answer)
            return answer == true
        }
        var rows: [SubscriberAnswer] = []
        var answers: [NamedAnswer<Bool>] = []
        var restorable: [String] = []
        for (entry, answer) in zip(collected, returned) {
            guard let answer else {
                rows.append(SubscriberAnswer(subscriber: entry.name, answer: nil, nanoseconds: entry.callNanoseconds))
                continue
            }
            answers.append(NamedAnswer(subscriber: entry.name, answer: answer))
            var identifiers: [String]?
            if case .answered(let answered) = entry.state {
                restorable += answered
                identifiers = answered
            }
            let row = ContinueUserActivityResult(handled: answer, restorableObjects: identifiers)
            rows.append(SubscriberAnswer(subscriber: entry.name, answer: .continuedActivity(row),
                                         nanoseconds: answer ? entry.nanoseconds : entry.callNanoseconds))
        }
        let handled = reconcilers.bool[event.index].reconcile(answers, event: event, noAnswer: event.row.nobodyAnswers.bool)
        let result = ContinueUserActivityResult(handled: handled.result, restorableObjects: handled.result ? restorable : nil)
        return finish(event, result: .continuedActivity(result), rows: rows, reports: reports + handled.reports)
    }
}

/// Every event's reconciler, typed by its answer, by event index: resolved once from the
/// configuration, which checked each choice against the event's answer kind when it was set. An
/// event whose answer is of another type holds the type's first-answer reconciler, never used.
struct TypedReconcilers {
    var bool: [Reconciler<Bool>] = []
    var fetchResult: [Reconciler<BackgroundFetchResult>] = []
    var orientationMask: [Reconciler<InterfaceOrientationMask>] = []
    var configurationName: [Reconciler<String>] = []
    var dictionary: [Reconciler<JSONObject>] = []

    init(_ configuration: DispatchConfiguration) {
        for event in LifecycleEvent.allCases {
            let choice = configuration.reconciler(for: event)
            bool.append(choice.flatMap { Reconciler<Bool>($0) } ?? .firstAnswer)
            fetchResult.append(choice.flatMap { Reconciler<BackgroundFetchResult>($0) } ?? .firstAnswer)
            orientationMask.append(choice.flatMap { Reconciler<InterfaceOrientationMask>($0) } ?? .firstAnswer)
            configurationName.append(choice.flatMap { Reconciler<String>($0) } ?? .firstAnswer)
            dictionary.append(choice.flatMap { Reconciler<JSONObject>($0) } ?? .firstAnswer)
        }
    }
}

extension NobodyAnswers {
    /// The Bool of a Bool event's row.
    var bool: Bool {
        if case .bool(let value) = self { return value }
        return false
    }

    /// The fetch result of a fetch event's row.
    var fetchResult: BackgroundFetchResult {
        if case .fetchResult(let value) = self { return value }
        return .noData
    }

    /// The dictionary of a dictionary event's row (only ever empty).
    var dictionary: JSONObject { [:] }

    /// The configuration name of a configuration event's row.
    var configurationName: String {
        if case .configurationName(let value) = self { return value }
        return ""
    }
}

extension LateCountsAs {
    /// A late fetch responder's result.
    var fetchResult: BackgroundFetchResult? {
        if case .fetchResult(let value) = self { return value }
        return nil
    }

    /// A late dictionary responder's reply: nothing (a late reply contributes no keys).
    var dictionary: JSONObject? { nil }

    /// A late Bool responder's answer.
    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}
