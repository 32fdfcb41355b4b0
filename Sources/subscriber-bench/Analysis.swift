import Foundation

/// Everything one run measured.
struct BenchResults: Sendable {
    var machine: MachineInfo
    var repetitions: Int
    var quick: Bool
    var dispatch: [DispatchFigure]
    var load: [LoadFigure]
    /// The CLI's own cost per event, when that section ran.
    var cli: CLIFigure?
    /// The command that reproduces this run.
    var command: String
    /// The isolation section (its floor, a socketpair ping-pong, and the isolated rows), when it ran.
    var isolation: IsolationFigures? = nil
    /// BenchSubscribers compiled against the shared SDK for the memory rows (or why not), when the
    /// load section ran.
    var sharedSDKPlugin: SharedSDKPlugin? = nil
    /// The live host's control socket and soak (LiveBench), when that section ran.
    var live: LiveFigure? = nil
    /// The limits measured in this run.
    var limits: [LimitFigure] = []
    /// Instructions per event of the dispatch cells callgrind counted (none when it was not used).
    var instructions: [InstructionFigure] = []
    /// What the verdicts are computed from: instructions (callgrind) or the wall clock.
    var basis: String = InstructionCounter.wallBasis
}

/// How one figure grows with N: its cost per unit at each N, and the growth exponent between
/// consecutive Ns (log of the time ratio over log of the N ratio: 1 is linear).
struct Growth: Sendable {
    var series: String
    /// "ns/subscriber", "ms/plugin", "KB/plugin".
    var unit: String
    var perUnit: [(count: Int, value: Double)]
    var exponents: [(from: Int, to: Int, exponent: Double)]
    /// Verdict on the largest step: "linear", "sublinear" or "superlinear (…)".
    var verdict: String
    /// True unless the largest step grows faster than linear.
    var isLinear: Bool

    /// From medians `totals` (the whole cost at each N, ascending N). `constant`: the figure is
    /// already per unit (memory per plugin), so it should stay flat rather than grow.
    init(series: String, unit: String, totals: [(count: Int, value: Double)], perUnitAlready: Bool = false) {
        self.series = series
        self.unit = unit
        let totals = perUnitAlready ? totals.map { ($0.count, $0.value * Double($0.count)) } : totals
        perUnit = totals.map { ($0.count, $0.value / Double($0.count)) }
        exponents = zip(totals, totals.dropFirst()).map { lower, upper in
            (lower.count, upper.count, log(upper.value / lower.value) / log(Double(upper.count) / Double(lower.count)))
        }
        guard let last = exponents.last, let first = perUnit.dropLast().last, let final = perUnit.last else {
            verdict = "one point only"
            isLinear = true
            return
        }
        // 15% of slack: the machine is shared and noisy; a real quadratic term doubles per decade.
        let change = (final.value / first.value - 1) * 100
        if last.exponent > 1.15 {
            verdict = String(format: "superlinear: per unit +%.0f%% from N=%d to N=%d", change, last.from, last.to)
            isLinear = false
        } else if last.exponent < 0.85 {
            verdict = "sublinear (fixed cost still visible)"
            isLinear = true
        } else {
            verdict = "linear"
            isLinear = true
        }
    }
}

/// One performance target of the host, checked against this run.
struct Target: Sendable {
    var name: String
    var limit: String
    var measured: String
    var met: Bool?
}

extension BenchResults {
    /// The growth of every dispatch series (both ways), load series and memory series.
    var growth: [Growth] {
        var result: [Growth] = []
        for scenario in DispatchScenario.allCases {
            let figures = dispatch.filter { $0.scenario == scenario }.sorted { $0.subscribers < $1.subscribers }
            guard !figures.isEmpty else { continue }
            result.append(Growth(series: "dispatch \(scenario.label), in-process", unit: "ns/subscriber",
                                 totals: figures.map { ($0.subscribers, $0.inProcess.median) }))
            result.append(Growth(series: "dispatch \(scenario.label), loaded", unit: "ns/subscriber",
                                 totals: figures.map { ($0.subscribers, $0.loaded.median) }))
        }
        let loads = load.sorted { $0.plugins < $1.plugins }
        for variant in LoadVariant.allCases where !loads.isEmpty {
            result.append(Growth(series: "load, \(variant.label)", unit: "ms/plugin",
                                 totals: loads.map { ($0.plugins, $0.milliseconds[variant]!.median) }))
        }
        for variant in [LoadVariant.bare, .create, .pinsOff] where !loads.isEmpty {
            result.append(Growth(series: "memory, \(variant.label)", unit: "KB/plugin",
                                 totals: loads.map { ($0.plugins, $0.kilobytesPerPlugin[variant]!.median) },
                                 perUnitAlready: true))
        }
        return result
    }

    /// The targets, each with what this run measured.
    var targets: [Target] {
        var result: [Target] = []
        func figure(_ scenario: DispatchScenario, _ count: Int) -> DispatchFigure? {
            dispatch.first { $0.scenario == scenario && $0.subscribers == count }
        }
        // The dispatch ratios (at 100, per extra subscriber), the limits and memory per plugin: verdicts
        // from instruction counts where callgrind counted them (``basis``), wall ratios beside them.
        result += ratioTargets
        if let void = figure(.voidEvent, 100) {
            let perSubscriber = void.loaded.median / 100
            result.append(Target(name: "\(DispatchScenario.voidEvent.label), loaded, per subscriber at 100",
                                 limit: "≤ 60 ns", measured: String(format: "%.1f ns", perSubscriber), met: perSubscriber <= 60))
        }
        // Subscribers that do not implement an event are not called for it: its cost does not grow with N.
        let counts = dispatch.filter { $0.scenario == .unimplemented }.map(\.subscribers)
        if let smallest = counts.min(), let largest = counts.max(), smallest < largest,
           let few = figure(.unimplemented, smallest), let many = figure(.unimplemented, largest) {
            let growth = max(many.inProcess.median / few.inProcess.median, many.loaded.median / few.loaded.median)
            result.append(Target(name: "an event none of \(largest) subscribers implements costs what it costs with \(smallest)",
                                 limit: "≤ 2×", measured: String(format: "%.2f×", growth), met: growth <= 2))
        }
        for figure in load.sorted(by: { $0.plugins < $1.plugins }) {
            let ratio = figure.ratioToBare(.pinsOff).median
            // The target holds from 100 plugins on; smaller loads are listed for the curve.
            result.append(Target(name: "load \(figure.plugins) plugins, manifest pins off / bare dlopen+dlsym",
                                 limit: "≤ 1.3", measured: String(format: "%.2f", ratio),
                                 met: figure.plugins >= 100 ? ratio <= 1.3 : nil))
        }
        for figure in load.sorted(by: { $0.plugins < $1.plugins }) {
            // Not the target: the host's own share, against the same plugin work without a manifest.
            let hostShare = SubscriberBenchRatio.of(figure.milliseconds[.pinsOff]!, figure.milliseconds[.create]!).median
            result.append(Target(name: "  (host's share) \(figure.plugins) plugins, pins off / dlopen+dlsym+entry+create",
                                 limit: "≤ 1.2", measured: String(format: "%.2f", hostShare), met: hostShare <= 1.2))
        }
        let rateLimit = "≥ \(Format.number(CLITargets.eventsPerSecond))/s"
        let countLimit = "≤ \(Format.number(CLITargets.instructionsPerEvent))"
        if let cli, let cpu = cli.times[.cpu] {
            let rate = cpu.cliEventsPerSecond.median
            result.append(Target(name: "CLI plays ≥ 150,000 events/s of CPU time (demo manifest, --json > /dev/null)",
                                 limit: rateLimit,
                                 measured: "\(Format.number(rate))/s (\(Format.number(Double(cli.events))) events)",
                                 met: rate >= CLITargets.eventsPerSecond))
        }
        if let count = cli?.instructionsPerEvent {
            result.append(Target(name: "apphost --json ≤ 20,000 instructions per event (callgrind, demo manifest, "
                                     + "\(Format.number(Double(CLIBench.instructionEvents)))-event script)",
                                 limit: countLimit, measured: Format.number(count), met: count <= CLITargets.instructionsPerEvent))
        }
        // The targets name the shipped tour: the whole run's CPU, start-up included; after start-up beside it.
        if let tour = cli?.tour, let cpu = tour.times[.cpu] {
            result.append(Target(name: "CLI plays the shipped tour at ≥ 150,000 events/s of CPU time (tour ×\(TourScript.repeats), "
                                     + "delayMs 0, --json > /dev/null)",
                                 limit: rateLimit,
                                 measured: "\(Format.number(cpu.eventsPerSecond.median))/s (after start-up "
                                     + "\(Format.number(cpu.eventsPerSecondAfterStartup.median))/s; "
                                     + "\(Format.number(Double(tour.events))) events)",
                                 met: tour.meetsEventsPerSecond))
        }
        if let count = cli?.tour?.instructionsPerEvent {
            result.append(Target(name: "apphost --json on the shipped tour ≤ 20,000 instructions per event (callgrind, "
                                     + "tour ×\(TourScript.repeats) − an empty script)",
                                 limit: countLimit, measured: Format.number(count), met: count <= CLITargets.instructionsPerEvent))
        }
        let loadedThousand = load.contains { $0.plugins == 1000 }
        result.append(Target(name: "1,000 plugins load", limit: "yes",
                             measured: loadedThousand ? "yes" : "not run", met: loadedThousand ? true : nil))
        // Every dispatch series but the unimplemented event's, which must stay flat, not grow.
        let dispatchGrowth = growth.filter {
            $0.series.hasPrefix("dispatch") && !$0.series.contains(DispatchScenario.unimplemented.label)
        }
        let nonlinear = dispatchGrowth.filter { !$0.isLinear }.map(\.series)
        result.append(Target(name: "dispatch grows linearly with N", limit: "linear",
                             measured: dispatchGrowth.isEmpty ? "not run"
                                 : nonlinear.isEmpty ? "linear" : "not: " + nonlinear.joined(separator: "; "),
                             met: dispatchGrowth.isEmpty ? nil : nonlinear.isEmpty))
        result += IsolationBench.targets(isolation)
        result += LiveBench.targets(live)
        return result
    }
}
