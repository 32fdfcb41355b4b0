/// `subscriber.unknown-name`: `create` returns NULL for names the plugin does not declare, including
/// the empty name and a declared name with a suffix (a prefix comparison's favourite mistake).
struct UnknownNameCheck: ConformanceCheck {
    let id = "subscriber.unknown-name"
    let summary = "create returns NULL for an unknown subscriber name"
    let expectation = "create returns NULL for every name the descriptor does not list"
    let requires = ["load.descriptor"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        await environment.withImage(expected: expectation) { image in
            let plugin = environment.rawPlugin(image)
            var names = ["", "NoSuchSubscriber.conformance"]
            if let first = image.subscriberNames.first { names.append(first + "Unknown") }
            names.removeAll { image.subscriberNames.contains($0) }
            var wrong: [String] = []
            for name in names {
                environment.progress.step("create(\"\(name)\") with an unknown name")
                guard let subscriber = plugin.create(name) else { continue }
                wrong.append("create(\"\(name)\") returned a subscriber")
                if subscriber.canDestroy { subscriber.destroy() }
            }
            let tried = names.map { "\"\($0)\"" }.joined(separator: ", ")
            if !wrong.isEmpty { return .fail(expected: expectation, found: wrong.joined(separator: "\n")) }
            return .pass(expected: expectation, found: "create returned NULL for \(tried)")
        }
    }
}
