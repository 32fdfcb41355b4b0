/// `subscriber.create-destroy`: `create` makes every declared subscriber (all alive at once, as in a
/// host), each with a `destroy`, and `destroy` returns; what they log, the host can read.
struct CreateDestroyCheck: ConformanceCheck {
    let id = "subscriber.create-destroy"
    let summary = "each declared subscriber creates and destroys"
    let expectation = "create returns a subscriber with a destroy function for every declared name; destroy returns"
    let requires = ["load.descriptor"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        await environment.withImage(expected: expectation) { image in
            let plugin = environment.rawPlugin(image)
            guard !image.subscriberNames.isEmpty else {
                return .warn(expected: expectation, found: "the plugin declares no subscribers: it can never be used")
            }
            var made: [(String, RawSubscriber)] = []
            var problems: [String] = []
            for name in image.subscriberNames {
                environment.progress.step("create(\"\(name)\")")
                guard let subscriber = plugin.create(name) else {
                    problems.append("create(\"\(name)\") returned NULL")
                    continue
                }
                guard subscriber.canDestroy else {
                    problems.append("create(\"\(name)\") returned a subscriber without destroy "
                                    + "(struct_size \(subscriber.vtable.struct_size)); it can never be freed")
                    continue
                }
                made.append((name, subscriber))
            }
            var described: [String] = []
            for (name, subscriber) in made {
                environment.progress.step("destroy \"\(name)\"")
                subscriber.destroy()
                described.append("\(name) (responds to \(plural(subscriber.respondingEvents.count, "event")))")
            }
            // Logging from create or destroy goes through the kit's raw host, which checks every string.
            if let strings = environment.problems.stringEvidence { problems.append(strings) }
            if !problems.isEmpty { return .fail(expected: expectation, found: problems.joined(separator: "; ")) }
            return .pass(expected: expectation, found: "created and destroyed " + described.joined(separator: ", "))
        }
    }
}
