import SubscriberABI

/// `subscriber.create-destroy`: `create` makes every declared subscriber (all alive at once, as in a
/// host), each with a `destroy`, and `destroy` returns; what they log, the host can read.
struct CreateDestroyCheck: ConformanceCheck {
    let id = "subscriber.create-destroy"
    let summary = "each declared subscriber creates and destroys"
    let expectation = "create returns a subscriber with a destroy function for every declared name; destroy returns"
    let requires = ["load.descriptor"]

    /// The smallest `adh_subscriber.struct_size` the host accepts: up to and including `destroy`.
    static let minimumStructSize = MemoryLayout<adh_subscriber>.offset(of: \.destroy)! + MemoryLayout<UnsafeRawPointer?>.size

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
                // A struct_size that does not reach destroy hides it (the host reads only what the size
                // covers): say so, rather than that the subscriber "has no destroy".
                let structSize = Int(subscriber.pointer.pointee.struct_size)
                guard structSize >= Self.minimumStructSize else {
                    problems.append("create(\"\(name)\") returned a subscriber whose struct_size is \(structSize), below the "
                                    + "\(Self.minimumStructSize) bytes up to destroy: the host reads none of its entries, not "
                                    + "even destroy, so it is never used and can never be freed; set struct_size to "
                                    + "sizeof(adh_subscriber)")
                    continue
                }
                guard subscriber.canDestroy else {
                    problems.append("create(\"\(name)\") returned a subscriber without destroy "
                                    + "(struct_size \(structSize)); it can never be freed")
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
            if !problems.isEmpty { return .fail(expected: expectation, found: problems.joined(separator: "\n")) }
            return .pass(expected: expectation, found: "created and destroyed " + described.joined(separator: ", "))
        }
    }
}
