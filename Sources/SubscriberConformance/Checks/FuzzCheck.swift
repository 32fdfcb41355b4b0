import SubscriberKit
import SubscriberEventModel

/// `events.fuzz`: hostile input (empty, huge, invalid UTF-8, NUL inside, random URLs, unusual JSON,
/// out-of-range numbers) neither crashes nor hangs any entry that takes input. Raw vtable calls, so
/// that bytes the host's Swift side would never produce still reach the plugin. Seeded: the same
/// `--seed` gives the same cases.
struct FuzzCheck: ConformanceCheck {
    let id = "events.fuzz"
    let summary = "fuzzed input (empty, huge, invalid UTF-8, random JSON and URLs) neither crashes nor hangs"
    let expectation = "every entry returns on hostile input (no crash, no hang)"
    let requires = ["events.canonical"]

    /// Payload serials for fuzzed calls start here, far from the host's own counter, and each call
    /// gets a new one: a plugin that caches a decode per serial must decode every case.
    static let firstSerial: UInt64 = 1 << 48

    func run(in environment: CheckEnvironment) async -> Verdict {
        let seed = environment.request.seed
        let cases = FuzzValues.edgeCount + environment.request.fuzzCases
        let expected = "every entry returns on hostile input (no crash, no hang): \(cases) cases per entry, seed \(seed)"
        return await environment.withImage(expected: expected) { image in
            let plugin = environment.rawPlugin(image)
            var serial = Self.firstSerial
            var calls = 0
            var fuzzed: Set<LifecycleEvent> = []
            for name in image.subscriberNames {
                guard let subscriber = plugin.create(name), subscriber.canDestroy else {
                    return .fail(expected: expected, found: "create(\"\(name)\") returned NULL or a subscriber without destroy")
                }
                for event in subscriber.respondingEvents where FuzzTargets.takesInput(event) {
                    guard let entry = subscriber.entry(event) else { continue }
                    fuzzed.insert(event)
                    var generator = SeededGenerator(seed: seed, stream: "\(name)/\(event)")
                    for index in 0..<cases {
                        let edge = index < FuzzValues.edgeCount ? index : nil
                        var draw: any FuzzDraw = FuzzValues(generator: generator, edge: edge)
                        // Draw first, announce, then call: the progress line must name the input before
                        // the plugin can crash on it.
                        let call = event.row.fuzzedCall(&draw, serial: serial)
                        let values = draw as! FuzzValues
                        environment.progress.step("\(name): \(event) case \(index) (seed \(seed); "
                                                  + values.described.joined(separator: "; ") + ")")
                        call(entry, subscriber.pointer)
                        generator = values.generator
                        serial += 1
                        calls += 1
                    }
                }
                subscriber.destroy()
            }
            // What the entries logged went through the kit's raw host, which checks every string.
            if let strings = environment.problems.stringEvidence {
                return .fail(expected: expected, found: "\(calls) fuzzed calls returned, but they passed \(strings)")
            }
            if fuzzed.isEmpty { return .pass(expected: expected, found: "no responding entry takes input: nothing to fuzz") }
            let entries = fuzzed.count <= 3 ? fuzzed.map(\.name).sorted().joined(separator: ", ") : "\(fuzzed.count) entries"
            return .pass(expected: expected, found: "\(calls) fuzzed calls over \(entries) (seed \(seed)): every one returned")
        }
    }
}
