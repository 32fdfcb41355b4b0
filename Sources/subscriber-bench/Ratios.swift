import Foundation

/// Instructions per event of one dispatch cell, both ways (callgrind, stripped copies).
struct InstructionFigure: Sendable {
    var scenario: DispatchScenario
    var subscribers: Int
    var inProcess: Double
    var loaded: Double
}

/// Loaded / in-process for one scenario, two ways: at N = `at` (the whole event, its fixed costs
/// included) and per extra subscriber from N = `from` to `to` ((cost at `to` − cost at `from`) per
/// side, whose fixed costs cancel), by the wall clock and, when counted, by instructions.
struct RatioRow: Sendable {
    var scenario: DispatchScenario
    var at: Int
    var from: Int
    var to: Int
    var wallAt: Double
    var wallPerExtra: Double
    var instructionsAt: Double?
    var instructionsPerExtra: Double?
    /// Loaded ns (instructions) per extra subscriber, each side.
    var wallExtra: (inProcess: Double, loaded: Double)
    var instructionsExtra: (inProcess: Double, loaded: Double)?
}

extension BenchResults {
    /// The N of the "at N" ratios: 100 when measured, else the largest.
    var ratioCount: Int? {
        let counts = Set(dispatch.map(\.subscribers))
        return counts.contains(100) ? 100 : counts.max()
    }

    /// The two largest Ns: the step the per-extra-subscriber ratios come from (100 → 1,000; --quick 10 → 100).
    var extraStep: (from: Int, to: Int)? {
        let counts = Set(dispatch.map(\.subscribers)).sorted()
        guard counts.count >= 2 else { return nil }
        return (counts[counts.count - 2], counts[counts.count - 1])
    }

    /// Both ratios of every scenario that has them.
    var ratioRows: [RatioRow] {
        guard let at = ratioCount, let step = extraStep else { return [] }
        var rows: [RatioRow] = []
        for scenario in DispatchScenario.allCases where scenario != .unimplemented {
            func figure(_ count: Int) -> DispatchFigure? {
                dispatch.first { $0.scenario == scenario && $0.subscribers == count }
            }
            func counted(_ count: Int) -> InstructionFigure? {
                instructions.first { $0.scenario == scenario && $0.subscribers == count }
            }
            guard let atFigure = figure(at), let low = figure(step.from), let high = figure(step.to) else { continue }
            let extra = Double(step.to - step.from)
            let wallExtra = ((high.inProcess.median - low.inProcess.median) / extra,
                             (high.loaded.median - low.loaded.median) / extra)
            var row = RatioRow(scenario: scenario, at: at, from: step.from, to: step.to, wallAt: atFigure.ratio.median,
                               wallPerExtra: wallExtra.1 / wallExtra.0, wallExtra: wallExtra)
            if let countedAt = counted(at) { row.instructionsAt = countedAt.loaded / countedAt.inProcess }
            if let countedLow = counted(step.from), let countedHigh = counted(step.to) {
                let extraInstructions = ((countedHigh.inProcess - countedLow.inProcess) / extra,
                                         (countedHigh.loaded - countedLow.loaded) / extra)
                row.instructionsExtra = extraInstructions
                row.instructionsPerExtra = extraInstructions.1 / extraInstructions.0
            }
            rows.append(row)
        }
        return rows
    }

    /// The targets on these ratios, the limits and memory per plugin: verdicts from instruction
    /// counts where callgrind counted them, else from the wall clock; both shown.
    var ratioTargets: [Target] {
        var result: [Target] = []
        let rows = ratioRows
        func both(_ instructions: Double?, _ wall: Double) -> String {
            instructions.map { String(format: "%.2f instr · %.2f wall", $0, wall) } ?? String(format: "%.2f wall", wall)
        }
        for (scenario, limit) in [(DispatchScenario.voidEvent, 1.2), (.openURL, 1.3), (.fetchSync, 1.6), (.willPresent, 1.6)] {
            guard let row = rows.first(where: { $0.scenario == scenario }) else { continue }
            let value = row.instructionsAt ?? row.wallAt
            result.append(Target(name: "\(scenario.label), loaded / in-process at \(row.at) subscribers",
                                 limit: "≤ \(String(format: "%.1f", limit))", measured: both(row.instructionsAt, row.wallAt),
                                 met: value <= limit))
        }
        for (scenario, limit) in [(DispatchScenario.voidEvent, 1.5), (.openURL, 1.3), (.fetchSync, 1.6), (.willPresent, 1.6)] {
            guard let row = rows.first(where: { $0.scenario == scenario }) else { continue }
            let value = row.instructionsPerExtra ?? row.wallPerExtra
            result.append(Target(name: "\(scenario.label), loaded / in-process per extra subscriber (\(row.from) → \(row.to))",
                                 limit: "≤ \(String(format: "%.1f", limit))",
                                 measured: both(row.instructionsPerExtra, row.wallPerExtra), met: value <= limit))
        }
        if let void = rows.first(where: { $0.scenario == .voidEvent }),
           let loop = limits.first(where: { $0.kind == .cLoopPlugin }) {
            let wall = void.wallExtra.loaded / loop.nanoseconds.median
            let counted = void.instructionsExtra.flatMap { extra in loop.instructions.map { extra.loaded / $0 } }
            result.append(Target(name: "void, loaded per extra subscriber / the C loop over the same plugin's entry",
                                 limit: "≤ 1.2", measured: both(counted, wall), met: (counted ?? wall) <= 1.2))
        }
        // Swift: taken on the plugin built as other packages build it (linking the shared SDK); the
        // plugin as this package builds it (carrying the SDK's objects) is shown beside, without a verdict.
        func measured(_ memory: PluginMemory) -> String {
            "\(Format.number(memory.added)) KB (\(Format.number(memory.create)) vs \(Format.number(memory.bare)))"
        }
        if let largest = load.map(\.plugins).max() {
            let name = "memory per loaded Swift plugin at \(largest), shared SDK: +entry+create − bare dlopen"
            if let memory = sharedMemory {
                result.append(Target(name: name, limit: "≤ 64 KB", measured: measured(memory), met: memory.added <= 64))
            } else {
                result.append(Target(name: name, limit: "≤ 64 KB",
                                     measured: sharedSDKPlugin?.failure ?? "not measured", met: nil))
            }
        }
        if let memory = swiftMemory {
            result.append(Target(name: "  (as built, carrying the SDK) Swift plugin at \(memory.plugins): +entry+create − bare dlopen",
                                 limit: "none (shown)", measured: measured(memory), met: nil))
        }
        if let memory = cMemory {
            result.append(Target(name: "memory per loaded C plugin at \(memory.plugins): +entry+create − bare dlopen",
                                 limit: "≤ 16 KB", measured: measured(memory), met: memory.added <= 16))
        }
        return result
    }

    /// Resident KB per plugin at the largest N: bare dlopen, +entry+create, and what the latter adds.
    struct PluginMemory { var plugins: Int; var bare: Double; var create: Double; var added: Double }

    /// libBenchSubscribers.so as built (carrying the SDK's objects).
    var swiftMemory: PluginMemory? { memory(\.kilobytesPerPlugin) }

    /// BenchSubscribers compiled against the shared SDK (``SharedSDKPlugin``): the target's row.
    var sharedMemory: PluginMemory? { memory(\.sharedKilobytesPerPlugin) }

    var cMemory: PluginMemory? { memory(\.cKilobytesPerPlugin) }

    private func memory(_ column: KeyPath<LoadFigure, [LoadVariant: Stats]>) -> PluginMemory? {
        guard let figure = load.max(by: { $0.plugins < $1.plugins }),
              let bare = figure[keyPath: column][.bare], let create = figure[keyPath: column][.create] else { return nil }
        return PluginMemory(plugins: figure.plugins, bare: bare.median, create: create.median, added: create.median - bare.median)
    }
}
