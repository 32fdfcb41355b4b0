import AppHostCLI
import Foundation
import SubscriberHost
import SubscriberKit

/// The event script of the CLI benchmark: a cycle of events that the demo manifest's plugins
/// answer synchronously (none waits on a deadline: NotificationFetcher's fetch and remote
/// notification complete only after its `delayMs`, so those would measure sleeping).
enum CLIScript {
    /// The events of one cycle, as the table's note names them.
    static let mix = "didBecomeActive, openURL ×2 (news://article/K routed, https://elsewhere… not ours), "
        + "willContinueUserActivity, continueUserActivity (universal link routed), "
        + "supportedInterfaceOrientations ×2 (pad, phone), shouldAllowExtensionPointIdentifier ×2 (denied, allowed), "
        + "willResignActive, didEnterBackground, willEnterForeground"

    /// Line `index` of the script: a launch first, then cycle position `(index - 1) % 12`; URLs carry
    /// the cycle number, so every event's payload is new, as real events' are.
    static func line(_ index: Int) -> String {
        guard index > 0 else { return #"{"event": "didFinishLaunching"}"# }
        let cycle = (index - 1) / 12
        switch (index - 1) % 12 {
        case 0: return #"{"event": "didBecomeActive"}"#
        case 1: return #"{"event": "openURL", "url": "news://article/\#(cycle)", "options": {"sourceApplication": "com.apple.mobilesafari"}}"#
        case 2: return #"{"event": "openURL", "url": "https://elsewhere.example.org/page/\#(cycle)"}"#
        case 3: return #"{"event": "willContinueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb"}"#
        case 4: return #"{"event": "continueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://news.example.com/article/\#(cycle)"}"#
        case 5: return #"{"event": "supportedInterfaceOrientations", "idiom": "pad"}"#
        case 6: return #"{"event": "supportedInterfaceOrientations", "idiom": "phone"}"#
        case 7: return #"{"event": "shouldAllowExtensionPointIdentifier", "identifier": "com.apple.keyboard-service"}"#
        case 8: return #"{"event": "shouldAllowExtensionPointIdentifier", "identifier": "com.example.share"}"#
        case 9: return #"{"event": "willResignActive"}"#
        case 10: return #"{"event": "didEnterBackground"}"#
        default: return #"{"event": "willEnterForeground"}"#
        }
    }

    /// The whole script of `events` lines, newline-terminated.
    static func text(events: Int) -> String {
        (0..<events).map { line($0) + "\n" }.joined()
    }

    /// Writes the script of `events` lines to `path`.
    static func write(events: Int, to path: String) throws {
        try Data(text(events: events).utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// Wall-clock and CPU time (user + system) of one measured run, in nanoseconds.
struct RunTime {
    var wall: UInt64
    var cpu: UInt64
}

/// One way of counting time in the CLI row.
enum CLIClock: String, CaseIterable, Sendable {
    /// Elapsed real time: what the target is about.
    case wall
    /// User + system CPU time of the process that did the work: steadier when the machine is busy.
    case cpu

    /// The row label.
    var label: String {
        switch self {
        case .wall: "wall clock"
        case .cpu: "CPU (user+sys)"
        }
    }
}

/// The CLI row: one script played by `apphost --json` in a child process vs the same calls sent
/// to the same manifest's dispatcher in this process.
struct CLIFigure: Sendable {
    /// One clock's figures.
    struct Times: Sendable {
        /// Nanoseconds per event of the whole `apphost` run (start, load, play, exit), per repetition.
        var cli: Stats
        /// Milliseconds of an `apphost` run of an empty script: start, load, shut down, exit.
        var startupMilliseconds: Stats
        /// Nanoseconds per event of the dispatcher alone (each call dispatched, its logs drained and dropped).
        var dispatcher: Stats
        /// CLI ns per event / dispatcher ns per event, per repetition.
        var ratio: Stats

        /// Events per second of the whole CLI run.
        var cliEventsPerSecond: Stats { cli.perSecond }
        /// Events per second of the dispatcher alone.
        var dispatcherEventsPerSecond: Stats { dispatcher.perSecond }
    }

    /// Events in the script.
    var events: Int
    /// The mix of events, for the note.
    var mix: String
    /// The figures by each clock.
    var times: [CLIClock: Times]
    /// `apphost --json`'s instructions per event by callgrind (``CLIBench/instructionEvents`` events
    /// against an empty script); nil when they were not counted.
    var instructionsPerEvent: Double? = nil
    /// The shipped tour played the same way (``TourFigure``); nil when it was not (``tourSkipped`` says why).
    var tour: TourFigure? = nil
    /// Why the tour was not played (no tour beside the manifest, too few lines), when it was not.
    var tourSkipped: String? = nil

    /// The wall-clock figures, which the target is about.
    var wall: Times { times[.wall]! }
}

/// The CLI benchmark: the real `apphost` executable (beside this one, built alike) playing an
/// event script with `--json`, stdout and stderr to /dev/null, timed from spawn to exit; against
/// ``PluginHost`` loading the same manifest in this process and dispatching the same script's
/// calls (parsed by ``EventScript``, untimed), with no output.
@MainActor
struct CLIBench {
    var apphostPath: String
    var manifestPath: String
    var events: Int
    var repetitions: Int
    /// Whether to count `apphost --json`'s instructions per event with callgrind as well.
    var countsInstructions = false

    /// Events of the script whose instructions are counted (callgrind runs about 50× slower).
    nonisolated static let instructionEvents = 10_000

    /// The tour's files in the private folder.
    private struct TourFiles {
        var script: String
        /// The manifest's copy (``TourManifest``).
        var manifest: String
        var events: Int
        var shape: String
    }

    func run(progress: (String) -> Void) async throws -> CLIFigure {
        let folder = try PrivateFolder.make(prefix: "subscriber-bench-cli")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/events.jsonl"
        let empty = folder + "/empty.jsonl"
        try CLIScript.write(events: events, to: script)
        try Data().write(to: URL(fileURLWithPath: empty))
        let calls: [AnyEventCall]
        do { calls = try EventScript.read(from: script) } catch { throw BenchError("\(error)") }
        guard calls.count == events else {
            throw BenchError("\(script): \(calls.count) calls parsed; expected \(events)")
        }
        var tourSkipped: String?
        let tour: TourFiles?
        do {
            tour = try writeTour(folder: folder)
        } catch let skipped as TourSkipped {
            tour = nil
            tourSkipped = skipped.reason
            progress("cli: tour skipped: \(skipped.reason)")
        }

        let host: PluginHost
        do { host = try PluginHost(manifestAt: manifestPath) } catch { throw BenchError("\(error)") }
        defer { host.shutDown() }

        progress("cli: warm-up, \(events) events (apphost and the dispatcher alone)")
        try checkCLI(script: script, manifest: manifestPath, events: events, output: folder + "/check.jsonl")
        _ = try cliTime(script: empty)
        try await checkDispatcher(host, calls)
        if let tour {
            progress("cli: warm-up, the tour (\(tour.events) events)")
            try checkCLI(script: tour.script, manifest: tour.manifest, events: tour.events, output: folder + "/check.jsonl")
            _ = try cliTime(script: empty, manifest: tour.manifest)
        }

        var startup: [RunTime] = []
        var cli: [RunTime] = []
        var dispatcher: [RunTime] = []
        var tourStartup: [RunTime] = []
        var tourRuns: [RunTime] = []
        for repetition in 1...repetitions {
            progress("cli: repetition \(repetition) of \(repetitions)")
            startup.append(try cliTime(script: empty))
            cli.append(try cliTime(script: script))
            dispatcher.append(await dispatchTime(host, calls))
            if let tour {
                tourStartup.append(try cliTime(script: empty, manifest: tour.manifest))
                tourRuns.append(try cliTime(script: tour.script, manifest: tour.manifest))
            }
        }
        var times: [CLIClock: CLIFigure.Times] = [:]
        for clock in CLIClock.allCases {
            func nanoseconds(_ time: RunTime) -> Double { Double(clock == .wall ? time.wall : time.cpu) }
            let cliStats = Stats(cli.map { nanoseconds($0) / Double(events) })
            let dispatcherStats = Stats(dispatcher.map { nanoseconds($0) / Double(events) })
            times[clock] = CLIFigure.Times(cli: cliStats, startupMilliseconds: Stats(startup.map { nanoseconds($0) / 1e6 }),
                                           dispatcher: dispatcherStats, ratio: ratio(cliStats, dispatcherStats))
        }
        var figure = CLIFigure(events: events, mix: CLIScript.mix, times: times, tourSkipped: tourSkipped)
        if let tour {
            figure.tour = TourFigure(events: tour.events, shape: tour.shape,
                                     times: tourTimes(runs: tourRuns, startup: tourStartup, events: tour.events))
        }
        if countsInstructions {
            let counts = try instructionsPerEvent(libraries: host.plugins.plugins.map(\.path), tour: tour,
                                                  folder: folder, progress: progress)
            figure.instructionsPerEvent = counts?.cycle
            figure.tour?.instructionsPerEvent = counts?.tour
        }
        return figure
    }

    /// Why the tour is not played: said on one line, not a failure of the run.
    private struct TourSkipped: Error {
        var reason: String
    }

    /// The tour's script and the manifest's copy written to `folder`; throws ``TourSkipped`` when the
    /// manifest has no playable tour beside it (a copy that cannot be made is a failure).
    private func writeTour(folder: String) throws -> TourFiles {
        let directory = try TourManifest.directory(of: manifestPath)
        let tour: TourScript
        do {
            tour = try TourScript.read(from: TourScript.path(besideManifestIn: directory))
        } catch {
            throw TourSkipped(reason: error.description)
        }
        let files = TourFiles(script: folder + "/tour.jsonl", manifest: folder + "/tour-manifest.json",
                              events: tour.events(repeats: TourScript.repeats), shape: tour.shape(repeats: TourScript.repeats))
        try Data(tour.text(repeats: TourScript.repeats).utf8).write(to: URL(fileURLWithPath: files.script))
        try TourManifest.write(from: manifestPath, to: files.manifest)
        return files
    }

    /// The tour's figures by each clock: each repetition's run per event, and the same less that
    /// repetition's empty run (start-up, load, shut down, exit).
    private func tourTimes(runs: [RunTime], startup: [RunTime], events: Int) -> [CLIClock: TourFigure.Times] {
        var times: [CLIClock: TourFigure.Times] = [:]
        for clock in CLIClock.allCases {
            func nanoseconds(_ time: RunTime) -> Double { Double(clock == .wall ? time.wall : time.cpu) }
            times[clock] = TourFigure.Times(
                whole: Stats(runs.map { nanoseconds($0) / Double(events) }),
                afterStartup: Stats(zip(runs, startup).map { (nanoseconds($0) - nanoseconds($1)) / Double(events) }),
                startupMilliseconds: Stats(startup.map { nanoseconds($0) / 1e6 }))
        }
        return times
    }

    /// `apphost --json`'s instructions per event on the cycle and on the tour (when played): stripped
    /// copies of `apphost` and of the manifest's plugin files side by side (a `library` entry is found
    /// beside the executable), run under callgrind on an empty script and on ``instructionEvents``
    /// lines of the cycle, (lines − empty) / events, so that start-up and loading cancel; the tour
    /// likewise, its script against an empty one with its manifest (the same libraries). Nil when
    /// callgrind cannot count here (said on `progress`).
    private func instructionsPerEvent(libraries: [String], tour: TourFiles?, folder: String,
                                      progress: (String) -> Void) throws -> (cycle: Double, tour: Double?)? {
        guard let counter = InstructionCounter.make(executable: apphostPath, libraries: libraries, note: progress) else {
            return nil
        }
        defer { counter.remove() }
        let empty = folder + "/empty.jsonl"
        progress("cli: instructions, \(Self.instructionEvents) events under callgrind")
        let script = folder + "/counted.jsonl"
        try CLIScript.write(events: Self.instructionEvents, to: script)
        let cycle = try counter.perEvent(small: 0, large: Self.instructionEvents) { events in
            arguments(script: events == 0 ? empty : script)
        }
        guard let tour else { return (cycle, nil) }
        progress("cli: instructions, the tour (\(tour.events) events) under callgrind")
        let tourCount = try counter.perEvent(small: 0, large: tour.events) { events in
            arguments(script: events == 0 ? empty : tour.script, manifest: tour.manifest)
        }
        return (cycle, tourCount)
    }

    /// The CLI command line that plays `script` with `manifest` (the bench's by default).
    private func arguments(script: String, manifest: String? = nil) -> [String] {
        ["--manifest", manifest ?? manifestPath, "--events", script, "--json"]
    }

    /// From spawning `apphost` on `script` (stdin, stdout and stderr on /dev/null) to its exit.
    private func cliTime(script: String, manifest: String? = nil) throws -> RunTime {
        let arguments = arguments(script: script, manifest: manifest)
        let outcome = try TimedChild.run(apphostPath, arguments)
        guard outcome.exitStatus == 0 else {
            throw BenchError("\(apphostPath) \(arguments.joined(separator: " ")): "
                             + (outcome.exitStatus.map { "exit status \($0)" } ?? "ended by a signal") + "; expected exit 0")
        }
        return outcome.time
    }

    /// One untimed run with stdout kept in `output`: exit 0 and one JSON line per event (`events`),
    /// so the benchmark measures a run that played every event without a failure report.
    private func checkCLI(script: String, manifest: String, events: Int, output: String) throws {
        let arguments = arguments(script: script, manifest: manifest)
        let outcome = try TimedChild.run(apphostPath, arguments, standardOutput: output)
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        let lines = data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        guard outcome.exitStatus == 0, lines == events else {
            throw BenchError("\(apphostPath) \(arguments.joined(separator: " ")): "
                             + (outcome.exitStatus.map { "exit status \($0)" } ?? "ended by a signal")
                             + ", \(lines) lines on stdout; expected exit 0 and \(events) lines "
                             + "(is apphost built with -c release beside subscriber-bench?)")
        }
    }

    /// One untimed pass: every call answered without a failure report.
    private func checkDispatcher(_ host: PluginHost, _ calls: [AnyEventCall]) async throws {
        for call in calls {
            let report = await host.dispatcher.dispatch(call)
            _ = host.log.drain()
            guard report.reports.isEmpty else {
                throw BenchError("dispatching \(report.event) with \(manifestPath): \(report.reports.count) failure "
                                 + "reports; expected none")
            }
        }
    }

    /// The time to dispatch every call, each call's log records drained and dropped.
    private func dispatchTime(_ host: PluginHost, _ calls: [AnyEventCall]) async -> RunTime {
        let cpuBefore = CPUTime.process()
        let start = BenchClock.now()
        for call in calls {
            _ = await host.dispatcher.dispatch(call)
            _ = host.log.drain()
        }
        let elapsed = BenchClock.now() &- start
        return RunTime(wall: elapsed, cpu: CPUTime.process() &- cpuBefore)
    }

    /// `manifests/news.json` in the current directory (where `swift run` runs), else in the first
    /// folder above this executable that has one (the package root, from `.build/…/release`).
    static func defaultManifest() -> String? {
        let relative = "manifests/news.json"
        if FileManager.default.fileExists(atPath: relative) { return FileManager.default.currentDirectoryPath + "/" + relative }
        var folder = (MachineInfo.executablePath as NSString).deletingLastPathComponent
        while folder != "/" && !folder.isEmpty {
            if FileManager.default.fileExists(atPath: folder + "/" + relative) { return folder + "/" + relative }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return nil
    }
}
