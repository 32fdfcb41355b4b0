import SubscriberHost
import SubscriberKit

/// `events.completion`: every completion is called exactly once, within the deadline, unless the
/// subscriber declined (then never); continueUserActivity's restoration handler at most once when
/// it returned true (it is optional, as UIKit's: never calling it is no defect), never otherwise;
/// and never with a token the host did not give (forged, or unknown). The peers' most reported
/// bugs: never called, called twice.
struct CompletionCheck: ConformanceCheck {
    let id = "events.completion"
    let summary = "every completion is called exactly once, within the deadline"
    let expectation = "each owed completion called exactly once within the deadline; none after a decline; "
        + "only with the tokens the host gave"
    let requires = ["events.canonical"]

    /// How long to keep listening after the last completion for a late second call.
    static let grace: Duration = .milliseconds(100)

    func run(in environment: CheckEnvironment) async -> Verdict {
        let deadline = environment.request.completionDeadline
        let expected = "each owed completion called exactly once within \(deadline.readable); "
            + "none after a decline (or after continueUserActivity did not return true); only with the tokens the host gave"
        return await environment.withImage(expected: expected) { image in
            var observed: [Observed] = []
            var subscribers: [CSubscriber] = []
            for name in image.subscriberNames {
                guard let subscriber = environment.makeSubscriber(name, of: image) else {
                    return .fail(expected: expected, found: "create(\"\(name)\") returned NULL")
                }
                subscribers.append(subscriber)
                var application = environment.application
                let events = subscriber.respondingEvents.filter(\.answersThroughCompletion)
                for call in CanonicalInput.calls(for: events) {
                    environment.progress.step("\(name): \(call.label), waiting for its completion")
                    guard let invocation = EventInvoker.invoke(call.call, on: subscriber, application: &application,
                                                               deadline: deadline) else { continue }
                    // Waiting uses the kit's timers: first make sure the handler closed none of its descriptors.
                    environment.progress.verifyDescriptors()
                    observed.append(Observed(subscriber: name, label: "\(name): \(call.label)", invocation: invocation,
                                             outcome: await invocation.finish()))
                }
            }
            guard !observed.isEmpty else {
                subscribers.forEach { $0.destroy() }
                return .pass(expected: expected, found: "no subscriber answers through a completion: nothing owed")
            }
            environment.progress.step("listening \(Self.grace.readable) for second calls")
            try? await Task.sleep(for: Self.grace)
            subscribers.forEach { $0.destroy() }
            return Self.verdict(observed, unknownTokens: Self.unknownTokenLine(environment.problems), deadline: deadline,
                                expected: expected)
        }
    }

    /// One call of an event answered through a completion, and what became of its completion.
    struct Observed {
        /// The subscriber's name.
        var subscriber: String
        /// "<subscriber>: performFetch #1".
        var label: String
        var invocation: Invocation
        var outcome: CompletionOutcome
    }

    /// "<label>: called a completion with a token the host never gave it (forged), 1 time", or nil
    /// when the host reported no forged call among `reports`.
    static func forgedLine(_ label: String, _ reports: [DispatchReport]) -> String? {
        let count = reports.reduce(0) { count, report in
            if case .forgedCompletion(_, _, let times) = report { count + times } else { count }
        }
        guard count > 0 else { return nil }
        return "\(label): called a completion with a token the host never gave it (forged), \(plural(count, "time"))"
    }

    /// A line for each answer among `reports` that the header does not allow (an answer the host read
    /// as no opinion, a completion value it read as the most conservative one).
    static func invalidAnswerLines(_ label: String, _ reports: [DispatchReport]) -> [String] {
        reports.compactMap { report in
            guard case .invalidAnswer(_, _, let problem, let count) = report else { return nil }
            return "\(label): \(problem)" + (count == 1 ? "" : " (\(plural(count, "time")), the first shown)")
        }
    }

    /// The completion calls with a token the host never issued that it could not pin on one call, or nil.
    static func unknownTokenLine(_ problems: HostCallProblems) -> String? {
        let count = problems.unknownTokenCalls
        guard count > 0 else { return nil }
        return "\(plural(count, "completion call")) with a token the host never gave (unknown; made outside the entry "
            + "call it was given in, so not attributed to one event)"
    }

    /// The verdict over every observed call: one line per finding. A late call is one finding — called
    /// after the deadline when it came within the grace period, never called otherwise. A passing
    /// verdict also names each handler that declined (or answered what nobody answering gives) every
    /// call: its accepting path, where completions are owed, was not exercised.
    static func verdict(_ observed: [Observed], unknownTokens: String?, deadline: Duration, expected: String) -> Verdict {
        var problems: [String] = []
        var owed = 0
        var declined = 0
        var optional = 0
        var slowest: Duration = .zero
        for call in observed {
            let (label, invocation, outcome) = (call.label, call.invocation, call.outcome)
            // What the host noticed before the result, and after it (a second call once delivered).
            let reports = outcome.reports + invocation.lateReports.drain()
            let late = reports.contains { if case .late = $0 { true } else { false } }
            if let forged = Self.forgedLine(label, reports) { problems.append(forged) }
            problems += Self.invalidAnswerLines(label, reports)
            for report in reports {
                switch report {
                case .duplicateCompletion(_, _, let extra): problems.append("\(label): called \(extra + 1) times")
                case .completionAfterDelivery(_, _, let count):
                    let times = count == 1 ? "" : " (\(count) times)"
                    problems.append("\(label): called after the deadline of \(deadline.readable)\(times)")
                case .completionAfterDecline(_, _, let count):
                    problems.append("\(label): declined, then called it \(plural(count, "time"))")
                case .unexpectedRestoration(_, _, let count):
                    problems.append("\(label): \(invocation.whyNotOwed), then called it \(plural(count, "time"))")
                case .ignoredDecline: problems.append("\(label): declined after returning or after calling; ignored")
                default: break
                }
            }
            let calledLate = reports.contains { if case .completionAfterDelivery = $0 { true } else { false } }
            if invocation.owesCompletion {
                owed += 1
                if late && !calledLate {
                    problems.append("\(label): never called within \(deadline.readable), and it did not decline")
                } else if !late, let after = outcome.after {
                    slowest = max(slowest, after)
                }
            } else if invocation.row.timing == .restoration, outcome.value != nil || invocation.answer == .bool(true) {
                optional += 1
            } else {
                declined += 1
            }
        }
        if let unknownTokens { problems.append(unknownTokens) }
        if !problems.isEmpty { return .fail(expected: expected, found: problems.joined(separator: "\n")) }
        var lines: [String] = []
        if owed > 0 { lines.append("\(plural(owed, "owed completion")) called exactly once (slowest after \(slowest.readable))") }
        if declined > 0 { lines.append("\(plural(declined, "call")) declined (or did not return true) and never called back") }
        if optional > 0 {
            lines.append("\(plural(optional, "optional restoration handler")) (returned true) called at most once, "
                         + "or never, as UIKit allows")
        }
        if owed == 0 { lines[0] = "no completion owed: " + lines[0] }
        return .pass(expected: expected, found: (lines + unexercisedLines(observed)).joined(separator: "\n"))
    }

    /// A line for each subscriber's event whose every call was declined (returned false, for
    /// continueUserActivity) or completed with what nobody answering gives (`noData`, `false`): the
    /// check saw no completion the handler owes when it accepts.
    static func unexercisedLines(_ observed: [Observed]) -> [String] {
        var order: [String] = []
        var groups: [String: [Observed]] = [:]
        for call in observed {
            let key = call.subscriber + "\u{0}" + call.invocation.row.name
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(call)
        }
        return order.compactMap { key in
            let calls = groups[key]!
            let row = calls[0].invocation.row
            let handler = "\(calls[0].subscriber): \(row.name)"
            let all = calls.count == 1 ? "its 1 call" : "all \(calls.count) calls"
            let advice = ": the handler's accepting path was not exercised (if it accepts only with options, pass them: "
                + "--options or --plugin-options)"
            let declinedAll = calls.allSatisfy { !$0.invocation.owesCompletion && $0.invocation.answer != .bool(true) }
            if declinedAll {
                let what = row.timing == .restoration ? "did not return true to" : "declined"
                return "\(handler) \(what) \(all)\(advice)"
            }
            // A completion without a value (done) has no answer that tells accepting from not.
            let nobody = row.nobodyAnswers
            if row.answerShape != String(describing: DoneAnswer.self),
               calls.allSatisfy({ $0.invocation.owesCompletion && $0.outcome.value?.serialized() == nobody }) {
                let shown = (try? JSONValue(parsing: nobody))?.stringValue ?? nobody
                return "\(handler) answered \(shown) to \(all), what nobody answering gives\(advice)"
            }
            return nil
        }
    }
}
