import SubscriberHost
import SubscriberKit

/// `events.completion`: every completion is called exactly once, within the deadline, unless the
/// subscriber declined (then never); continueUserActivity's restoration handler exactly once when
/// it returned true, never otherwise; and never with a token the host did not give (forged, or
/// unknown). The peers' most reported bugs: never called, called twice.
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
            var observed: [(label: String, invocation: Invocation)] = []
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
                    let invocation = EventInvoker.invoke(call.call, on: subscriber, application: &application)
                    if invocation.owesCompletion, let probe = invocation.probe {
                        await probe.waitForFirstCall(within: deadline)
                    }
                    observed.append(("\(name): \(call.label)", invocation))
                }
            }
            guard !observed.isEmpty else {
                subscribers.forEach { $0.destroy() }
                return .pass(expected: expected, found: "no subscriber answers through a completion: nothing owed")
            }
            environment.progress.step("listening \(Self.grace.readable) for second calls")
            try? await Task.sleep(for: Self.grace)
            subscribers.forEach { $0.destroy() }
            return verdict(observed, unknownTokens: Self.unknownTokenLine(environment.problems), deadline: deadline,
                           expected: expected)
        }
    }

    /// "<label>: called a completion with a token the host never gave it (forged), 1 time", or nil
    /// when the bridge reported no forged call during `invocation`.
    static func forgedLine(_ label: String, _ invocation: Invocation) -> String? {
        guard let count = invocation.probe?.forgedCalls, count > 0 else { return nil }
        return "\(label): called a completion with a token the host never gave it (forged), \(plural(count, "time"))"
    }

    /// The completion calls with a token the host never issued that it could not pin on one call, or nil.
    static func unknownTokenLine(_ problems: HostCallProblems) -> String? {
        let count = problems.unknownTokenCalls
        guard count > 0 else { return nil }
        return "\(plural(count, "completion call")) with a token the host never gave (unknown; made outside the entry "
            + "call it was given in, so not attributed to one event)"
    }

    private func verdict(_ observed: [(label: String, invocation: Invocation)], unknownTokens: String?,
                         deadline: Duration, expected: String) -> Verdict {
        var problems: [String] = []
        var owed = 0
        var declined = 0
        var slowest: Duration = .zero
        for (label, invocation) in observed {
            let calls = invocation.probe?.calls ?? []
            if let forged = Self.forgedLine(label, invocation) { problems.append(forged) }
            if invocation.owesCompletion {
                owed += 1
                if let first = calls.first {
                    slowest = max(slowest, first.after)
                    if first.after > deadline { problems.append("\(label): first called after \(first.after.readable)") }
                    if calls.count > 1 { problems.append("\(label): called \(calls.count) times") }
                } else {
                    problems.append("\(label): never called within \(deadline.readable), and it did not decline")
                }
            } else {
                declined += 1
                if !calls.isEmpty {
                    problems.append("\(label): \(invocation.whyNotOwed), then called it \(plural(calls.count, "time"))")
                }
            }
        }
        if let unknownTokens { problems.append(unknownTokens) }
        if !problems.isEmpty { return .fail(expected: expected, found: problems.joined(separator: "; ")) }
        let declines = "\(plural(declined, "call")) declined and never called back"
        guard owed > 0 else { return .pass(expected: expected, found: "no completion owed: " + declines) }
        return .pass(expected: expected, found: "\(plural(owed, "owed completion")) called exactly once "
                     + "(slowest after \(slowest.readable)); " + declines)
    }
}
