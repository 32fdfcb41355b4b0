/// `subscriber.responds-to-events`: every declared subscriber responds to at least one event, or is
/// a URL hook (`adh.url-hook/1`), which a host asks about URLs. One
/// that responds to none loads, makes, destroys and passes every event check — there is nothing to
/// call — and a host never calls it. The typical mistake of a port from Expo: UIKit-style methods on
/// a class that adopts no event protocol, so the compiler records no event for it.
struct RespondsToEventsCheck: ConformanceCheck {
    let id = "subscriber.responds-to-events"
    let summary = "each declared subscriber responds to at least one event"
    let expectation = "every declared subscriber responds to at least one event (a host never calls one that responds to none)"
    let requires = ["subscriber.create-destroy"]

    func run(in environment: CheckEnvironment) async -> Verdict {
        await environment.withImage(expected: expectation) { image in
            let plugin = environment.rawPlugin(image)
            var silent: [String] = []
            var counts: [String] = []
            for name in image.subscriberNames {
                environment.progress.step("create(\"\(name)\") to read the events it responds to")
                guard let subscriber = plugin.create(name), subscriber.canDestroy else {
                    return .fail(expected: expectation, found: "create(\"\(name)\") returned NULL or a subscriber without destroy")
                }
                let events = subscriber.respondingEvents
                subscriber.destroy()
                if events.isEmpty && subscriber.isURLHook {
                    counts.append("\(name) (a URL hook)")  // a host asks it about every URL
                } else if events.isEmpty {
                    silent.append(Self.silentLine(name, isCPlugin: image.isCPlugin))
                } else {
                    counts.append("\(name) (\(plural(events.count, "event")))")
                }
            }
            if !silent.isEmpty { return .fail(expected: expectation, found: silent.joined(separator: "\n")) }
            return .pass(expected: expectation, found: "every subscriber responds: " + counts.joined(separator: ", "))
        }
    }

    /// The line for subscriber `name` that responds to no event, with the fix for its kind of plugin.
    static func silentLine(_ name: String, isCPlugin: Bool) -> String {
        let fix = isCPlugin
            ? "set the vtable entry of each event it handles, with a struct_size that covers them"
            : "adopt the event protocols of the events it handles (DidBecomeActiveSubscriber, OpenURLSubscriber, …) "
                + "on the class that declares InstantiableSubscriber, with their exact methods"
        return "\(name) responds to no event: \(fix); as it is, a host never calls it"
    }
}
