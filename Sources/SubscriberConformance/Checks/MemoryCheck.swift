/// `subscriber.memory`: many create/destroy cycles do not grow resident memory (a leak per instance
/// multiplies by every launch of every app that loads the plugin).
struct MemoryCheck: ConformanceCheck {
    let id = "subscriber.memory"
    let summary = "1,000 create/destroy cycles per subscriber do not grow memory"
    let expectation = "resident memory stays flat over the create/destroy cycles"
    let requires = ["subscriber.create-destroy"]

    /// Cycles before the first measurement: allocator pools and lazy initialisation settle here.
    static let warmUp = 50

    func run(in environment: CheckEnvironment) async -> Verdict {
        let cycles = environment.request.createDestroyCycles
        let limit = environment.request.memoryGrowthLimit
        let expected = "resident memory grows by at most \(MemoryUsage.mebibytes(limit)) over \(cycles) create/destroy "
            + "cycles per subscriber (after \(Self.warmUp) warm-up cycles)"
        return await environment.withImage(expected: expected) { image in
            let plugin = environment.rawPlugin(image)
            var lines: [String] = []
            var failed = false
            for name in image.subscriberNames {
                environment.progress.step("\(Self.warmUp) warm-up create/destroy cycles of \"\(name)\"")
                guard cycle(plugin, name, times: Self.warmUp) else { return createFailed(name, expected) }
                guard let before = MemoryUsage.residentBytes() else { return unmeasurable(expected) }
                environment.progress.step("\(cycles) create/destroy cycles of \"\(name)\"")
                guard cycle(plugin, name, times: cycles) else { return createFailed(name, expected) }
                guard let after = MemoryUsage.residentBytes() else { return unmeasurable(expected) }
                let growth = after - before
                if growth > limit { failed = true }
                lines.append("\(name): resident \(MemoryUsage.mebibytes(before)) before, \(MemoryUsage.mebibytes(after)) "
                              + "after \(cycles) cycles (\(MemoryUsage.mebibytes(growth, signed: true)))")
            }
            let found = lines.joined(separator: "\n")
            return failed ? .fail(expected: expected, found: found) : .pass(expected: expected, found: found)
        }
    }

    private func createFailed(_ name: String, _ expected: String) -> Verdict {
        .fail(expected: expected, found: "create(\"\(name)\") returned NULL, or a subscriber without destroy, during the cycles")
    }

    private func unmeasurable(_ expected: String) -> Verdict {
        .skip(expected: expected, found: "cannot read /proc/self/statm to measure resident memory")
    }

    /// Creates and destroys `name` `times` times; false when create fails.
    private func cycle(_ plugin: RawPlugin, _ name: String, times: Int) -> Bool {
        for _ in 0..<times {
            guard let subscriber = plugin.create(name), subscriber.canDestroy else { return false }
            subscriber.destroy()
        }
        return true
    }
}
