// subscriber-bench: what the host costs. Dispatch through subscribers loaded from a `.so` vs the
// same types registered in-process; loading N plugins through a manifest vs bare dlopen+dlsym;
// memory per plugin; how each grows with N; the `apphost` command's own cost per event vs its
// dispatcher alone. One table, or `--json`.
//
//   swift run -c release subscriber-bench [--json] [--quick]
import Foundation
import SubscriberKit

let arguments = Array(CommandLine.arguments.dropFirst())

// A load measurement in a fresh process (see LoadBench): not for people.
if arguments.first == "--load-child" {
    exit(LoadChild.run(Array(arguments.dropFirst())))
}

// The other end of the isolation floor's ping-pong (see IsolationBench): not for people.
if arguments.first == IsolationBench.childFlag {
    exit(IsolationBench.child())
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
let startTime = BenchClock.now()

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

if let profile = options.profile {
    do {
        try await DispatchBench(pluginPath: plugin, sampler: Sampler(repetitions: 1))
            .profile(profile.scenario, subscribers: profile.subscribers, events: profile.events, loaded: profile.loaded)
        exit(0)
    } catch {
        fail("\(error)", status: 1)
    }
}

do {
    let machine = MachineInfo.current()
    let sampler = Sampler(repetitions: options.repetitionCount)
    let dispatch = !options.runs("dispatch") ? []
        : try await DispatchBench(pluginPath: plugin, sampler: sampler).run(counts: options.counts, progress: progress)
    let load = !options.runs("load") ? []
        : try LoadBench(pluginPath: plugin, repetitions: options.repetitionCount)
            .run(counts: options.counts, progress: progress)
    var cli: CLIFigure?
    if options.runs("cli") {
        guard let manifest = options.manifestPath ?? CLIBench.defaultManifest() else {
            throw BenchError("manifests/news.json not found in the current folder or above this executable; "
                             + "expected it, or --manifest FILE")
        }
        let apphost = (MachineInfo.executablePath as NSString).deletingLastPathComponent + "/apphost"
        cli = try await CLIBench(apphostPath: apphost, manifestPath: manifest, events: options.cliEvents,
                                 repetitions: options.repetitionCount).run(progress: progress)
    }
    let isolation = !options.runs("isolation") ? nil
        : try await IsolationBench.run(executable: MachineInfo.executablePath, sampler: sampler, progress: progress)
    var results = BenchResults(machine: machine, repetitions: options.repetitionCount, quick: options.quick,
                               dispatch: dispatch, load: load, cli: cli, command: options.command)
    results.isolation = isolation
    progress("done")
    print(options.json ? results.json.serialized(pretty: true) : results.text)
} catch {
    fail("\(error)", status: 1)
}
