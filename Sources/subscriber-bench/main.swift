// subscriber-bench: the benchmark of SPEC §8. Dispatch through subscribers loaded from a `.so` vs the
// same types registered in-process; loading N plugins through a manifest vs bare dlopen+dlsym;
// memory per plugin; how each grows with N. One table, or `--json`.
//
//   swift run -c release subscriber-bench [--json] [--quick] [--repetitions N] [--plugin PATH]
import Foundation
import SubscriberKit

let arguments = Array(CommandLine.arguments.dropFirst())

// A load measurement in a fresh process (see LoadBench): not for people.
if arguments.first == "--load-child" {
    exit(LoadChild.run(Array(arguments.dropFirst())))
}

let usage = """
    usage: subscriber-bench [--json] [--quick] [--repetitions N] [--plugin PATH]

    Measures, in one run: dispatch through subscribers loaded from libBenchSubscribers.so vs the same
    types in-process (void event, openURL, performFetch; 1, 10, 100, 1,000 subscribers), loading N
    plugins through a manifest vs bare dlopen+dlsym (N = 1, 10, 100, 1,000), memory per plugin, and
    how each grows with N. Build with -c release.

      --json            print the results as one JSON object instead of the table
      --quick           3 repetitions and N ≤ 100 only (for CI); the same table
      --repetitions N   repetitions per figure (default 7; --quick: 3)
      --plugin PATH     libBenchSubscribers.so to load (default: beside this executable)
      --only dispatch|load
                        run one half only (the other sections stay empty)
      --profile EVENT N EVENTS in-process|loaded
                        only send EVENTS events of EVENT (voidEvent, openURL, fetchSync, fetchAsync)
                        to N subscribers, untimed: for valgrind --tool=callgrind
      --help            this text
    """

var json = false
var quick = false
var repetitions: Int?
var pluginPath: String?
var profile: (DispatchScenario, Int, Int, Bool)?
var only: String?
var remaining = arguments[...]
while let argument = remaining.popFirst() {
    switch argument {
    case "--json": json = true
    case "--quick": quick = true
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--repetitions":
        guard let value = remaining.popFirst().flatMap({ Int($0) }), value > 0 else {
            FileHandle.standardError.write(Data("subscriber-bench: --repetitions expects a positive integer\n".utf8))
            exit(2)
        }
        repetitions = value
    case "--profile":
        let values = [remaining.popFirst(), remaining.popFirst(), remaining.popFirst(), remaining.popFirst()]
        guard let scenario = values[0].flatMap(DispatchScenario.init(rawValue:)),
              let count = values[1].flatMap({ Int($0) }), let events = values[2].flatMap({ Int($0) }),
              let side = values[3], side == "in-process" || side == "loaded" else {
            FileHandle.standardError.write(Data("subscriber-bench: --profile expects EVENT N EVENTS in-process|loaded\n".utf8))
            exit(2)
        }
        profile = (scenario, count, events, side == "loaded")
    case "--only":
        guard let value = remaining.popFirst(), value == "dispatch" || value == "load" else {
            FileHandle.standardError.write(Data("subscriber-bench: --only expects dispatch or load\n".utf8))
            exit(2)
        }
        only = value
    case "--plugin":
        guard let value = remaining.popFirst() else {
            FileHandle.standardError.write(Data("subscriber-bench: --plugin expects a path\n".utf8))
            exit(2)
        }
        pluginPath = value
    default:
        FileHandle.standardError.write(Data("subscriber-bench: unknown argument \"\(argument)\"\n\(usage)\n".utf8))
        exit(2)
    }
}

let plugin = pluginPath ?? (MachineInfo.executablePath as NSString).deletingLastPathComponent + "/libBenchSubscribers.so"
let reps = repetitions ?? (quick ? 3 : 7)
let counts = quick ? [1, 10, 100] : [1, 10, 100, 1000]
func progress(_ line: String) {
    FileHandle.standardError.write(Data("[\(String(format: "%6.1f", Double(BenchClock.now() &- startTime) / 1e9)) s] \(line)\n".utf8))
}
let startTime = BenchClock.now()

if let (scenario, count, events, loaded) = profile {
    do {
        try await DispatchBench(pluginPath: plugin, sampler: Sampler(repetitions: 1))
            .profile(scenario, subscribers: count, events: events, loaded: loaded)
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("subscriber-bench: \(error)\n".utf8))
        exit(1)
    }
}

do {
    let machine = MachineInfo.current()
    let dispatch = only == "load" ? [] : try await DispatchBench(pluginPath: plugin, sampler: Sampler(repetitions: reps))
        .run(counts: counts, progress: progress)
    let load = only == "dispatch" ? []
        : try LoadBench(pluginPath: plugin, repetitions: reps).run(counts: counts, progress: progress)
    var command = "swift run -c release subscriber-bench"
    if quick { command += " --quick" }
    if let repetitions { command += " --repetitions \(repetitions)" }
    if let only { command += " --only \(only)" }
    if json { command += " --json" }
    let results = BenchResults(machine: machine, repetitions: reps, quick: quick, dispatch: dispatch, load: load,
                               command: command)
    progress("done")
    print(json ? results.json.serialized(pretty: true) : results.text)
} catch {
    FileHandle.standardError.write(Data("subscriber-bench: \(error)\n".utf8))
    exit(1)
}
