import Foundation

/// Columns of text, the first left-aligned and the others right-aligned, padded to one width each.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    func rendered(indent: String = "  ") -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "   ")
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 3 * (widths.count - 1))
        return ([line(header), rule] + rows.map(line)).map { indent + $0 }.joined(separator: "\n")
    }
}

/// Number formats of the report.
enum Format {
    /// Three significant figures, at most two decimals: 0.873, 12.4, 1,234.
    static func number(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "n/a" }
        let magnitude = abs(value)
        if magnitude >= 1000 {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
            return formatter.string(from: NSNumber(value: value.rounded())) ?? String(Int(value.rounded()))
        }
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    /// `median (min–max)`.
    static func stats(_ stats: Stats) -> String {
        "\(number(stats.median)) (\(number(stats.min))–\(number(stats.max)))"
    }
}

extension BenchResults {
    /// The human report: machine, dispatch, load, memory, CLI, growth, targets.
    var text: String {
        var out: [String] = []
        out.append("subscriber-bench: AppDelegateHost dispatch, load and CLI")
        out.append("  date     \(machine.date)")
        out.append("  machine  \(machine.cpu), \(machine.cores) cores, \(machine.memory), \(machine.kernel)")
        out.append("  toolchain \(machine.swift), \(machine.build) build")
        out.append("  method   warm-up, then \(repetitions) repetitions; median (min–max). Dispatch: batches of ≥ 20 ms, "
                   + "in-process and loaded alternating.\n           Load: each repetition in a fresh process, "
                   + "after one unrecorded warm-up load of each kind.\n           CLI: one checked warm-up run each way, "
                   + "then apphost and the dispatcher alternating.")
        out.append("  command  \(command)")
        out.append("")
        var table: TextTable
        // A section that did not run (`--only`) is left out.
        if !dispatch.isEmpty {
            out.append("DISPATCH: ns per event; the same subscriber types in-process vs loaded from libBenchSubscribers.so")
            table = TextTable(header: ["event", "N", "in-process ns", "loaded ns", "loaded/in-process",
                                       "in-process ns/sub", "loaded ns/sub"])
            for figure in dispatch {
                let count = Double(figure.subscribers)
                table.rows.append([figure.scenario.label, String(figure.subscribers), Format.stats(figure.inProcess),
                                   Format.stats(figure.loaded), Format.stats(figure.ratio),
                                   Format.number(figure.inProcess.median / count), Format.number(figure.loaded.median / count)])
            }
            out.append(table.rendered())
            out.append("")
        }
        let ratioRows = self.ratioRows
        if !ratioRows.isEmpty {
            out.append("RATIOS: loaded / in-process at N, and per extra subscriber ((cost at N2 − cost at N1) each side,")
            out.append("  where the event's fixed costs cancel); instructions by callgrind where counted, the wall clock beside")
            table = TextTable(header: ["event", "at N", "instr at N", "wall at N", "per extra sub", "instr per extra",
                                       "wall per extra", "in-process instr/sub", "loaded instr/sub", "in-process ns/sub",
                                       "loaded ns/sub"])
            func cell(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "—" }
            for row in ratioRows {
                table.rows.append([row.scenario.label, String(row.at), cell(row.instructionsAt), cell(row.wallAt),
                                   "\(row.from) → \(row.to)", cell(row.instructionsPerExtra), cell(row.wallPerExtra),
                                   row.instructionsExtra.map { Format.number($0.inProcess) } ?? "—",
                                   row.instructionsExtra.map { Format.number($0.loaded) } ?? "—",
                                   Format.number(row.wallExtra.inProcess), Format.number(row.wallExtra.loaded)])
            }
            out.append(table.rendered())
            out.append("  verdicts (TARGETS) use: \(basis)")
            out.append("")
        }
        if !limits.isEmpty {
            out.append("LIMITS: dispatch and the CLI, what the machine allows, measured in this run (per call, or per line)")
            table = TextTable(header: ["limit", "N", "ns", "instructions", "the floor for"])
            for limit in limits {
                table.rows.append([limit.kind.label, String(limit.count), Format.stats(limit.nanoseconds),
                                   limit.instructions.map { Format.number($0) } ?? "—", limit.kind.floorFor])
            }
            out.append(table.rendered())
            out.append("  C loops: the void entry of N subscribers called from C, as no host could call them faster; Swift loop:")
            out.append("  [any DidReceiveMemoryWarningSubscriber], the same type in-process; JSON line: getline, a scan of every")
            out.append("  byte for the \"event\" string, one line written with stdio to /dev/null (N lines a pass).")
            out.append("")
        }
        if !load.isEmpty {
            out.append("LOAD: ms to load N plugins (copies of libBenchSubscribers.so), in a fresh process each")
            table = TextTable(header: ["N", "bare dlopen+dlsym", "+entry", "+entry+create", "manifest, pins off",
                                       "pins off/bare", "manifest, pins on", "pins on/bare", "pins off/(+entry+create)"])
            for figure in load {
                table.rows.append([String(figure.plugins), Format.stats(figure.milliseconds[.bare]!),
                                   Format.stats(figure.milliseconds[.entry]!), Format.stats(figure.milliseconds[.create]!),
                                   Format.stats(figure.milliseconds[.pinsOff]!), Format.stats(figure.ratioToBare(.pinsOff)),
                                   Format.stats(figure.milliseconds[.pinsOn]!), Format.stats(figure.ratioToBare(.pinsOn)),
                                   Format.stats(ratio(figure.milliseconds[.pinsOff]!, figure.milliseconds[.create]!))])
            }
            out.append(table.rendered())
            out.append("  +entry: the entry symbol called too (the plugin's Swift code runs for the first time); "
                       + "+create: one subscriber made through the C ABI as a host makes it.")
            out.append("  manifest: PluginHost(manifestAt:) — manifest read, checks 1–10, entry, subscriber, dispatcher.")
            out.append("")
            out.append("MEMORY: resident KB added per loaded plugin (RSS after − before, / N)")
            let withC = load.contains { !$0.cKilobytesPerPlugin.isEmpty }
            let withShared = load.contains { !$0.sharedKilobytesPerPlugin.isEmpty }
            table = TextTable(header: ["N", "bare dlopen+dlsym", "+entry+create", "manifest, pins off"]
                              + (withShared ? ["shared SDK: bare dlopen+dlsym", "shared SDK: +entry+create"] : [])
                              + (withC ? ["C: bare dlopen+dlsym", "C: +entry+create"] : []))
            func pair(_ column: [LoadVariant: Stats]) -> [String] {
                [column[.bare].map(Format.stats) ?? "—", column[.create].map(Format.stats) ?? "—"]
            }
            for figure in load {
                var row = [String(figure.plugins), Format.stats(figure.kilobytesPerPlugin[.bare]!),
                           Format.stats(figure.kilobytesPerPlugin[.create]!), Format.stats(figure.kilobytesPerPlugin[.pinsOff]!)]
                if withShared { row += pair(figure.sharedKilobytesPerPlugin) }
                if withC { row += pair(figure.cKilobytesPerPlugin) }
                table.rows.append(row)
            }
            out.append(table.rendered())
            out.append("  the first three: libBenchSubscribers.so as built, carrying the SDK (this package's own plugins link its objects).")
            if withShared {
                out.append("  shared SDK: \(SharedSDKPlugin.howBuilt), as plugins of other packages are built;")
                out.append("  the load child loads libSubscriberKit.so once, as the host does (counted in both columns).")
            } else if let failure = sharedSDKPlugin?.failure {
                out.append("  shared SDK: \(failure)")
            }
            if withC { out.append("  C: libBenchSubscribersC.so.") }
            for (label, memory) in [("Swift over the shared SDK (BenchSubscribers against libSubscriberKit.so)", sharedMemory),
                                    ("Swift as built, carrying the SDK (libBenchSubscribers.so)", swiftMemory),
                                    ("C (libBenchSubscribersC.so)", cMemory)] {
                guard let memory else { continue }
                out.append("  per plugin, \(label), at \(memory.plugins): \(Format.number(memory.create)) KB loaded and "
                           + "created, \(Format.number(memory.bare)) KB bare dlopen: \(Format.number(memory.added)) KB added")
            }
            out.append("")
        }
        if let cli {
            out.append("CLI: the apphost command's own cost per event vs its dispatcher alone, same manifest, same events")
            table = TextTable(header: ["clock", "events", "apphost --json events/s", "apphost ns/event",
                                       "dispatcher events/s", "dispatcher ns/event", "CLI/dispatcher", "apphost startup ms"])
            for clock in CLIClock.allCases {
                let times = cli.times[clock]!
                table.rows.append([clock.label, Format.number(Double(cli.events)), Format.stats(times.cliEventsPerSecond),
                                   Format.stats(times.cli), Format.stats(times.dispatcherEventsPerSecond),
                                   Format.stats(times.dispatcher), Format.stats(times.ratio),
                                   Format.stats(times.startupMilliseconds)])
            }
            out.append(table.rendered())
            out.append("  apphost: the release executable beside this one, `--manifest manifests/news.json --events FILE --json`,")
            out.append("  stdout and stderr to /dev/null, timed from spawn to exit (start, load, play, exit: startup included).")
            out.append("  dispatcher: PluginHost on the same manifest in this process, the same lines parsed by EventScript")
            out.append("  (untimed), each call dispatched and its log records drained and dropped; no output.")
            out.append("  CLI/dispatcher: apphost ns/event / dispatcher ns/event. startup: apphost on an empty script.")
            out.append("  CPU: the apphost child's user+sys (rusage), this process's for the dispatcher (all threads);")
            out.append("  steadier than the wall clock on a busy machine: the events/s target is on it.")
            out.append("  Mix, in a cycle of 12 (no event waits on a deadline): \(cli.mix).")
            if let count = cli.instructionsPerEvent {
                out.append("  Instructions: \(Format.number(count)) per event (callgrind on stripped copies of apphost and the")
                out.append("  manifest's plugins, \(Format.number(Double(CLIBench.instructionEvents))) events − an empty script, over the events).")
            }
            out.append("")
            out += tourLines(cli)
        }
        out += LiveBench.textLines(live)
        let growth = self.growth
        if !growth.isEmpty {
            out.append("GROWTH: cost per unit at each N, and the exponent between consecutive Ns (1.00 = linear)")
            let counts = growth.first?.perUnit.map(\.count) ?? []
            table = TextTable(header: ["series", "unit"] + counts.map { "N=\($0)" }
                              + zip(counts, counts.dropFirst()).map { "exp \($0)→\($1)" } + ["verdict"])
            for series in growth {
                table.rows.append([series.series, series.unit] + series.perUnit.map { Format.number($0.value) }
                                  + series.exponents.map { String(format: "%.2f", $0.exponent) } + [series.verdict])
            }
            out.append(table.rendered())
            out.append("")
        }
        if let isolation {
            out.append("LIMITS: what the machine allows, measured in this run (the floor of the rows named)")
            out.append(TextTable(header: ["limit", "ns"], rows: IsolationBench.limitRows(isolation)).rendered())
            out.append("")
        }
        if let isolation {
            out.append("ISOLATION: plugins in a child process (PluginHost, PluginIsolation(mode: .process)), measured in turn with the floor")
            out.append(TextTable(header: ["row", "median (min–max)", "unit", "CPU ns, both processes"],
                                 rows: IsolationBench.rows(isolation)).rendered())
            out.append("  void: libBenchSubscribers.so's VoidCounter; openURL: URLMatcher (half the URLs match); performFetch:")
            out.append("  SyncFetcher; the pairs: libManySubscribers.so, only didBecomeActive reaches the child. Crash: libDiesOnEvent.so")
            out.append("  dies of SIGSEGV in didBecomeActive; until willResignActive, which restarts its child, is answered.")
            out.append("  CPU: this process's CPU time (all threads) and the child worker's (schedstat) per event, after the timed rounds.")
            out.append("")
        }
        out.append("TARGETS")
        table = TextTable(header: ["target", "limit", "measured", "verdict"])
        for target in targets {
            table.rows.append([target.name, target.limit, target.measured,
                               target.met.map { $0 ? "met" : "MISSED" } ?? "n/a"])
        }
        out.append(table.rendered())
        return out.joined(separator: "\n")
    }

    /// The CLI section's tour rows (the targets are on the shipped tour), each with its verdict;
    /// or the one line that says why the tour was not played.
    private func tourLines(_ cli: CLIFigure) -> [String] {
        guard let tour = cli.tour else {
            return cli.tourSkipped.map { ["  tour: not played: \($0)", ""] } ?? []
        }
        func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }
        var table = TextTable(header: ["tour, \(Format.number(Double(tour.events))) events", "median (min–max)", "target", "verdict"])
        for clock in CLIClock.allCases {
            let times = tour.times[clock]!
            let isCPU = clock == .cpu
            table.rows.append(["\(clock.label): events/s, whole run", Format.stats(times.eventsPerSecond),
                               isCPU ? "≥ \(Format.number(CLITargets.eventsPerSecond))/s" : "",
                               isCPU ? verdict(tour.meetsEventsPerSecond) : ""])
            table.rows.append(["\(clock.label): events/s after start-up", Format.stats(times.eventsPerSecondAfterStartup), "", ""])
            table.rows.append(["\(clock.label): start-up ms (empty script)", Format.stats(times.startupMilliseconds), "", ""])
        }
        if let count = tour.instructionsPerEvent {
            table.rows.append(["instructions per event (callgrind)", Format.number(count),
                               "≤ \(Format.number(CLITargets.instructionsPerEvent))",
                               verdict(count <= CLITargets.instructionsPerEvent)])
        }
        return ["CLI, the shipped tour: apphost --json playing manifests/events/tour.jsonl, the same clocks and count", table.rendered(),
                "  script: the tour's \(tour.shape) (\(Format.number(Double(tour.events))) events). Manifest: a copy",
                "  of the one above with every plugin's delayMs 0 (NotificationFetcher's completions would measure sleeping).",
                "  after start-up: (the tour's run − an empty script's run, same manifest, same repetition) / events.",
                ""]
    }
}
