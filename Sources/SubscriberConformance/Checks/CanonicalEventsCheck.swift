import SubscriberHost

/// `events.canonical`: every event a subscriber responds to runs, through the host's bridge, on
/// ordinary input, in the order of a plausible app life, and returns.
struct CanonicalEventsCheck: ConformanceCheck {
    let id = "events.canonical"
    let summary = "every responding event runs on canonical input"
    let expectation = "every event the subscriber responds to returns on canonical input (no crash, no hang)"
    let requires = ["subscriber.create-destroy"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        await environment.withImage(expected: expectation) { image in
            var lines: [String] = []
            for name in image.subscriberNames {
                guard let subscriber = environment.makeSubscriber(name, of: image) else {
                    return .fail(expected: expectation, found: "create(\"\(name)\") returned NULL")
                }
                var application = environment.application
                let calls = CanonicalInput.calls(for: subscriber.respondingEvents)
                for call in calls {
                    environment.progress.step("\(name): \(call.label)")
                    _ = EventInvoker.invoke(call.call, on: subscriber, application: &application)
                }
                subscriber.destroy()
                lines.append("\(name): \(plural(calls.count, "call")) over \(plural(subscriber.respondingEvents.count, "responding event")) returned")
            }
            return .pass(expected: expectation, found: lines.joined(separator: "; "))
        }
    }
}
