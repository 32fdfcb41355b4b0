import SubscriberHost

/// `events.budget`: each handler returns within its budget. Handlers run on the host's main thread,
/// one at a time: a slow one delays the app and every subscriber after it. A completion's own delay
/// does not count, only the time until the call returns.
struct HandlerBudgetCheck: ConformanceCheck {
    let id = "events.budget"
    let summary = "each event handler returns within its budget"
    let expectation = "every handler returns within its budget (median of 3 calls)"
    let requires = ["events.canonical"]

    /// Calls per canonical input; the median is judged, so one scheduling hiccup does not fail a plugin.
    static let repetitions = 3

    func run(in environment: CheckEnvironment) async -> Verdict {
        let budget = environment.request.handlerBudget
        let warning = environment.request.handlerWarning
        let expected = "every handler returns within \(budget.readable) (median of \(Self.repetitions) calls; "
            + "warning above \(warning.readable))"
        return await environment.withImage(expected: expected) { image in
            var slowest: (label: String, median: Duration)?
            var over: [String] = []
            var close: [String] = []
            let clock = ContinuousClock()
            for name in image.subscriberNames {
                guard let subscriber = environment.makeSubscriber(name, of: image) else {
                    return .fail(expected: expected, found: "create(\"\(name)\") returned NULL")
                }
                var application = environment.application
                for call in CanonicalInput.calls(for: subscriber.respondingEvents) {
                    var times: [Duration] = []
                    for round in 1...Self.repetitions {
                        environment.progress.step("\(name): \(call.label), timed call \(round)")
                        let start = clock.now
                        let invocation = EventInvoker.invoke(call.call, on: subscriber, application: &application)
                        times.append(clock.now - start)
                        // Not waited for: only the time until the call returns counts.
                        invocation?.flight.deliverNow()
                    }
                    let median = times.sorted()[times.count / 2]
                    let label = "\(name): \(call.label) \(median.readable)"
                    if median > budget { over.append(label) } else if median > warning { close.append(label) }
                    if median > slowest?.median ?? .zero { slowest = (label, median) }
                }
                subscriber.destroy()
            }
            let lines = over.map { "over budget: " + $0 } + close.map { "close to the budget: " + $0 }
            if !over.isEmpty { return .fail(expected: expected, found: lines.joined(separator: "\n")) }
            if !close.isEmpty { return .warn(expected: expected, found: lines.joined(separator: "\n")) }
            return .pass(expected: expected, found: slowest.map { "slowest median: \($0.label)" } ?? "no responding events")
        }
    }
}
