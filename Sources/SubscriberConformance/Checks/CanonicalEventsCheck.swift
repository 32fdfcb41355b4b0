import SubscriberHost
import SubscriberKit

/// `events.canonical`: every event a subscriber responds to runs, through the host's bridge, on
/// ordinary input, in the order of a plausible app life, and returns, passing the host only strings
/// it can read, answering only values the header allows, and calling completions only with the
/// tokens it was given.
struct CanonicalEventsCheck: ConformanceCheck {
    let id = "events.canonical"
    let summary = "every responding event runs on canonical input"
    let expectation = "every event the subscriber responds to returns on canonical input (no crash, no hang), "
        + "passing the host only strings it can read, answering only values the header allows and completing only with "
        + "the tokens it was given"
    let requires = ["subscriber.create-destroy"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        await environment.withImage(expected: expectation) { image in
            var lines: [String] = []
            var forged: [String] = []
            var invalid: [String] = []
            for name in image.subscriberNames {
                guard let subscriber = environment.makeSubscriber(name, of: image) else {
                    return .fail(expected: expectation, found: "create(\"\(name)\") returned NULL")
                }
                var application = environment.application
                let calls = CanonicalInput.calls(for: subscriber.respondingEvents)
                for call in calls {
                    environment.progress.step("\(name): \(call.label)")
                    guard let invocation = EventInvoker.invoke(call.call, on: subscriber, application: &application)
                    else { continue }
                    // What the call did at once; a completion left pending is the completion check's business.
                    let reports = (invocation.flight.settled?.reports ?? []) + invocation.lateReports.drain()
                    if let line = CompletionCheck.forgedLine("\(name): \(call.label)", reports) { forged.append(line) }
                    invalid += CompletionCheck.invalidAnswerLines("\(name): \(call.label)", reports)
                }
                subscriber.destroy()
                // Named, in table order: what the plugin implements (a Swift subscriber: the protocols it adopts).
                let events = LifecycleEvent.allCases.filter(subscriber.respondingEvents.contains).map(\.name)
                let named = events.isEmpty ? "" : " (" + events.joined(separator: ", ") + ")"
                lines.append("\(name): \(plural(calls.count, "call")) over \(plural(events.count, "responding event"))\(named) returned")
            }
            let problems = [environment.problems.stringEvidence].compactMap { $0 } + invalid + forged
                + [CompletionCheck.unknownTokenLine(environment.problems)].compactMap { $0 }
            guard problems.isEmpty else {
                return .fail(expected: expectation, found: (problems + lines).joined(separator: "\n"))
            }
            return .pass(expected: expectation, found: lines.joined(separator: "\n"))
        }
    }
}
