// subscriber-bench: what the host costs. Dispatch through subscribers loaded from a `.so` vs the
// same types registered in-process; loading N plugins through a manifest vs bare dlopen+dlsym;
// memory per plugin; how each grows with N; the `apphost` command's own cost per event vs its
// dispatcher alone. One table, or `--json`.
//
//   swift run -c release subscriber-bench [--json] [--quick]
import BenchSubscribers
import Foundation
import SubscriberKit
import SubscriberEventModel

let arguments = Array(CommandLine.arguments.dropFirst())

// A load measurement in a fresh process (see LoadBench): not for people.
if arguments.first == "--load-child" {
    exit(LoadChild.run(Array(arguments.dropFirst())))
}

// The echoing end of the live host's limit row (see LiveBench): not for people.
if arguments.first == LiveBench.childFlag {
    exit(LiveBench.child(Array(arguments.dropFirst())))
}

// The other end of the isolation floor's ping-pong (see IsolationBench): not for people.
if arguments.first == IsolationBench.childFlag {
    exit(IsolationBench.child())
}
// Events to one isolated plugin, untimed, for strace (see IsolationBench): not for people.
if arguments.first == IsolationBench.profileFlag {
    exit(IsolationBench.profile(Array(arguments.dropFirst()),
                                pluginDirectory: (MachineInfo.executablePath as NSString).deletingLastPathComponent))
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("subscriber-bench: \(message)\n".utf8))
    exit(status)
}

let options: BenchOptions
do {
    options = try BenchOptions(arguments)
} catch {
    fail("\(error)\n\(BenchOptions.usage)", status: 2)
}
if options.help {
    print(BenchOptions.usage)
    exit(0)
}

let plugin = options.pluginPath
    ?? (MachineInfo.executablePath as NSString).deletingLastPathComponent + "/libBenchSubscribers.so"
let beside = (MachineInfo.executablePath as NSString).deletingLastPathComponent
let cPlugin = options.cPluginPath
    ?? (FileManager.default.fileExists(atPath: beside + "/libBenchSubscribersC.so") ? beside + "/libBenchSubscribersC.so" : nil)
let startTime = BenchClock.now()

// A release benchmark of a testable build measures exclusivity checks an ordinary build removes
// (`swift test -c release -Xswiftc -enable-testing` builds into .build/release too).
// Loaded for good, as the host loads it (a Swift image must not be unloaded: the runtime keeps its
// conformance records).
#if !DEBUG
if let handle = try? PluginOpen.open(plugin, flags: RTLD_LAZY) {
    if dlsym(handle, BenchSubscriberTypes.testabilityProbeSymbol) != nil {
        fail("\(plugin) was compiled with -enable-testing (it exports \(BenchSubscriberTypes.testabilityProbeSymbol)); "
             + "expected an ordinary release build: its class properties keep dynamic exclusivity checks, about 80 "
             + "instructions a void call. Run `swift build -c release` and measure again.", status: 1)
    }
}
#endif

/// One line on stderr: how far the run is.
func progress(_ line: String) {
    let seconds = String(format: "%6.1f", Double(BenchClock.now() &- startTime) / 1e9)
    FileHandle.standardError.write(Data("[\(seconds) s] \(line)\n".utf8))
}

if let script = options.cliScript {
    do {
        try CLIScript.write(events: script.events, to: script.path)
        exit(0)
    } catch {
        fail("writing \(script.path): \(error)", status: 1)
    }
}

if let tour = options.tourScript {
    guard let manifest = options.manifestPath ?? CLIBench.defaultManifest() else {
        fail("manifests/news.json not found in the current folder or above this executable; expected it, or --manifest FILE",
             status: 1)
    }
    do {
        let events = try TourManifest.writeFiles(manifestPath: manifest, repeats: tour.repeats, folder: tour.folder)
        print("\(events) events: \(tour.folder)/tour.jsonl, manifest \(tour.folder)/manifest.json")
        exit(0)
    } catch {
        fail("\(error)", status: 1)
    }
}

if let profile = options.profile {
    do {
        try await DispatchBench(pluginPath: plugin, sampler: Sampler(repetitions: 1))
            .profile(profile.scenario, subscribers: profile.subscribers, events: profile.events, loaded: profile.loaded)
        exit(0)
    } catch {
        fail("\(error)", status: 1)
    }
}

if let limit = options.profileLimit {
    do {
        try await LimitsBench(pluginPath: plugin, cPluginPath: limit.kind == .cLoopC ? cPlugin : nil,
                              sampler: Sampler(repetitions: 1))
            .profile(limit.kind, count: limit.count, events: limit.events)
        exit(0)
    } catch {
        fail("\(error)", status: 1)
    }
}

/// Instructions per event of each dispatch scenario with a target, at the Ns of the ratios, and of
/// each limit: callgrind over stripped copies (``InstructionCounter``).
@MainActor
func countInstructions(_ counter: InstructionCounter, counts: [Int], limitKinds: [LimitKind])
    throws -> ([InstructionFigure], [LimitKind: Double])
{
    // Enough events that the difference holds about 20,000 subscriber calls at every N.
    func events(_ subscribers: Int) -> (small: Int, large: Int) {
        let small = max(5, 5000 / subscribers)
        return (small, small * 5)
    }
    var figures: [InstructionFigure] = []
    // The stripped plugin, then the stripped C plugin when there is one (``InstructionCounter/make``'s order).
    let plugin = counter.libraries[0]
    let cPlugin = counter.libraries.dropFirst().first
    for scenario in [DispatchScenario.voidEvent, .openURL, .fetchSync, .willPresent] {
        for count in counts {
            progress("instructions: \(scenario.label), \(count) subscribers")
            let (small, large) = events(count)
            func side(_ side: String) throws -> Double {
                try counter.perEvent(small: small, large: large) {
                    ["--profile", scenario.rawValue, String(count), String($0), side, "--plugin", plugin]
                }
            }
            figures.append(InstructionFigure(scenario: scenario, subscribers: count, inProcess: try side("in-process"),
                                             loaded: try side("loaded")))
        }
    }
    var limits: [LimitKind: Double] = [:]
    for kind in limitKinds {
        progress("instructions: \(kind.label)")
        let count = LimitsBench.count(kind)
        let perPass = try counter.perEvent(small: kind == .jsonLine ? 1 : 100, large: kind == .jsonLine ? 3 : 500) {
            ["--profile-limit", kind.rawValue, String(count), String($0), "--plugin", plugin]
                + (cPlugin.map { ["--c-plugin", $0] } ?? [])
        }
        limits[kind] = perPass / Double(count)
    }
    return (figures, limits)
}

do {
    let machine = MachineInfo.current()
    let sampler = Sampler(repetitions: options.repetitionCount)
    let dispatch = !options.runs("dispatch") ? []
        : try await DispatchBench(pluginPath: plugin, sampler: sampler).run(counts: options.counts, progress: progress)
    let limitsBench = !options.runs("dispatch") ? nil : try LimitsBench(pluginPath: plugin, cPluginPath: cPlugin, sampler: sampler)
    var limits = try await limitsBench?.run(progress: progress) ?? []
    var instructions: [InstructionFigure] = []
    var basis = InstructionCounter.wallBasis
    if options.runs("dispatch") && options.countsInstructions,
       let counter = InstructionCounter.make(executable: MachineInfo.executablePath,
                                            libraries: [plugin] + (cPlugin.map { [$0] } ?? []), note: progress) {
        defer { counter.remove() }
        // The Ns of the ratios: 100 and the step to the largest N.
        let counts = Array(Set(options.counts.filter { $0 >= 100 } + options.counts.suffix(2))).sorted()
        let (figures, limitCounts) = try countInstructions(counter, counts: counts, limitKinds: limitsBench?.kinds ?? [])
        instructions = figures
        for index in limits.indices { limits[index].instructions = limitCounts[limits[index].kind] }
        basis = counter.basis
    }
    // Memory per Swift plugin as other packages build it: BenchSubscribers compiled against libSubscriberKit.so.
    var sharedSDKPlugin: SharedSDKPlugin?
    if options.runs("load") {
        progress("load: compiling BenchSubscribers against libSubscriberKit.so")
        sharedSDKPlugin = SharedSDKPlugin.compile(buildDirectory: beside)
        if let failure = sharedSDKPlugin?.failure { progress("load: the shared-SDK plugin is \(failure)") }
    }
    defer { sharedSDKPlugin?.remove() }
    let load = !options.runs("load") ? []
        : try LoadBench(pluginPath: plugin, repetitions: options.repetitionCount, cPluginPath: cPlugin,
                        sharedPluginPath: sharedSDKPlugin?.path)
            .run(counts: options.counts, progress: progress)
    var cli: CLIFigure?
    if options.runs("cli") {
        guard let manifest = options.manifestPath ?? CLIBench.defaultManifest() else {
            throw BenchError("manifests/news.json not found in the current folder or above this executable; "
                             + "expected it, or --manifest FILE")
        }
        let apphost = (MachineInfo.executablePath as NSString).deletingLastPathComponent + "/apphost"
        cli = try await CLIBench(apphostPath: apphost, manifestPath: manifest, events: options.cliEvents,
                                 repetitions: options.repetitionCount, countsInstructions: options.countsCLIInstructions)
            .run(progress: progress)
    }
    let isolation = !options.runs("isolation") ? nil
        : try await IsolationBench.run(executable: MachineInfo.executablePath, pluginDirectory: beside, sampler: sampler,
                                       progress: progress)
    var live: LiveFigure?
    if options.runs("live") {
        guard let manifest = options.manifestPath ?? CLIBench.defaultManifest() else {
            throw BenchError("manifests/news.json not found in the current folder or above this executable; "
                             + "expected it, or --manifest FILE")
        }
        live = try LiveBench.run(apphost: (MachineInfo.executablePath as NSString).deletingLastPathComponent + "/apphost",
                                 manifest: manifest, executable: MachineInfo.executablePath, events: options.liveEvents,
                                 progress: progress)
    }
    var results = BenchResults(machine: machine, repetitions: options.repetitionCount, quick: options.quick,
                               dispatch: dispatch, load: load, cli: cli, command: options.command,
                               limits: limits, instructions: instructions, basis: basis)
    results.isolation = isolation
    results.sharedSDKPlugin = sharedSDKPlugin
    results.live = live
    results.limits = limits
    results.instructions = instructions
    results.basis = basis
    progress("done")
    print(options.json ? results.json.serialized(pretty: true) : results.text)
} catch {
    fail("\(error)", status: 1)
}
