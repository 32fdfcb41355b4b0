import SubscriberHost
import SubscriberKit

/// `events.deterministic`: equal input gives equal answers. Each canonical input of an event that
/// answers goes to a fresh instance several times (so that per-instance state cannot explain a
/// difference); the answers, completion values included, must all be equal.
struct DeterminismCheck: ConformanceCheck {
    let id = "events.deterministic"
    let summary = "answers are deterministic for equal input"
    let expectation = "equal answers (and completion values) for equal input, each on a fresh instance"
    let requires = ["events.completion"]

    /// Fresh instances asked per canonical input.
    static let rounds = 3

    func run(in environment: CheckEnvironment) async -> Verdict {
        let expected = "equal answers (and completion values) for equal input, over \(Self.rounds) fresh instances"
        return await environment.withImage(expected: expected) { image in
            var differences: [String] = []
            var compared = 0
            for name in image.subscriberNames {
                guard let probe = environment.makeSubscriber(name, of: image) else {
                    return .fail(expected: expected, found: "create(\"\(name)\") returned NULL")
                }
                let events = probe.respondingEvents.filter(Self.answers)
                probe.destroy()
                for call in CanonicalInput.calls(for: events) {
                    var answers: [String] = []
                    for round in 1...Self.rounds {
                        environment.progress.step("\(name): \(call.label), fresh instance \(round)")
                        guard let subscriber = environment.makeSubscriber(name, of: image) else {
                            return .fail(expected: expected, found: "create(\"\(name)\") returned NULL")
                        }
                        answers.append(await answer(call, subscriber, environment))
                        subscriber.destroy()
                    }
                    compared += 1
                    if Set(answers).count > 1 {
                        differences.append("\(name): \(call.label) answered \(answers.joined(separator: ", "))")
                    }
                }
            }
            if !differences.isEmpty { return .fail(expected: expected, found: differences.joined(separator: "\n")) }
            guard compared > 0 else { return .pass(expected: expected, found: "no responding event answers anything: nothing to compare") }
            return .pass(expected: expected, found: "\(plural(compared, "canonical input")) gave equal answers "
                         + "over \(Self.rounds) fresh instances each")
        }
    }

    /// One answer as text: the return value, then the completion's value when one is owed.
    @MainActor
    private func answer(_ call: CanonicalCall, _ subscriber: CSubscriber, _ environment: CheckEnvironment) async -> String {
        var application = environment.application
        guard let invocation = EventInvoker.invoke(call.call, on: subscriber, application: &application,
                                                   deadline: environment.request.completionDeadline) else {
            return "does not respond"
        }
        var parts: [String] = []
        if let answer = invocation.answer { parts.append(answer.serialized(sortedKeys: true)) }
        if invocation.completes {
            if invocation.owesCompletion || invocation.row.timing == .restoration {
                // Waiting uses the kit's timers: first make sure the handler closed none of its descriptors.
                environment.progress.verifyDescriptors()
                let outcome = await invocation.finish()
                parts.append("completion " + (outcome.value?.serialized(sortedKeys: true) ?? "never called"))
            } else {
                parts.append("declined")
            }
        }
        return parts.joined(separator: " + ")
    }

    /// Whether `event` has an answer to compare: a return value or a completion value.
    static func answers(_ event: LifecycleEvent) -> Bool {
        event.row.timing != .notification
    }
}
