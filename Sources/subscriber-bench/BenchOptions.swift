/// The command line of subscriber-bench.
struct BenchOptions {
    static let usage = """
        usage: subscriber-bench [--json] [--quick] [--repetitions N] [--only dispatch|load|cli|isolation|live]
                                [--plugin PATH] [--c-plugin PATH] [--manifest FILE] [--instructions | --no-instructions]
               subscriber-bench --profile EVENT N EVENTS in-process|loaded
               subscriber-bench --profile-limit LIMIT N EVENTS
               subscriber-bench --cli-script EVENTS FILE
               subscriber-bench [--manifest FILE] --tour-script REPEATS FOLDER
               subscriber-bench --profile-isolation EVENTS

        Measures, in one run: dispatch through subscribers loaded from libBenchSubscribers.so vs the same
        types in-process (void event, openURL, performFetch, notifications.willPresent; 1, 10, 100, 1,000
        subscribers), each ratio at 100 subscribers and per extra subscriber (100 → 1,000), beside the
        limits (C loops over the plugins' entries, a Swift existential loop, a JSON line in C); loading N
        plugins through a manifest vs bare dlopen+dlsym (N = 1, 10, 100, 1,000), memory per plugin (the
        Swift plugin as built, carrying the SDK, and compiled here by swiftc against libSubscriberKit.so,
        as other packages build plugins; the C plugin), and how each grows with N; and the CLI's own cost per event: `apphost --json` playing an event script
        with the demo manifest (stdout and stderr to /dev/null) vs that manifest's dispatcher alone, in
        this process, on the same events (100,000; --quick: 10,000), and `apphost --json` playing the
        shipped tour (events/tour.jsonl beside the manifest, its cycle ×200, every plugin's delayMs 0;
        left out, with why, when the manifest has none); and isolation: plugins in a child
        process (a void event, 1 and 10 subscribers in one child, openURL, performFetch, a C plugin's
        crash to its restarted child's answer, an idle child's memory) beside their floor, a socketpair
        ping-pong of one small frame with a child process; and the live host: `apphost run` on the demo
        manifest, event-script lines through its control socket on one connection (latency per event,
        median and p99) beside a bare Unix-socket echo of the same lines between two processes, and the
        soak: the apphost process's RSS over the run, first 10 % of the events vs the last 10 % (100,000
        events; --quick: 5,000). Build with -c release: apphost and the demo and fixture plugins must be
        beside this executable.

          --json            print the results as one JSON object instead of the table
          --quick           3 repetitions and N ≤ 100 only (for CI); the same table
          --repetitions N   repetitions per figure (default 7; --quick: 3)
          --only dispatch|load|cli|isolation|live
                            run one section only (the others are left out; empty in --json)
          --plugin PATH     libBenchSubscribers.so to load (default: beside this executable)
          --c-plugin PATH   libBenchSubscribersC.so, for the C loop and memory per C plugin (default:
                            beside this executable; left out when not found)
          --instructions    count instructions with callgrind for the verdicts (the default without
                            --quick, when valgrind and strip are installed; the CLI row's are
                            counted in --quick too)
          --no-instructions verdicts on the wall clock only
          --manifest FILE   the CLI section's manifest (default: manifests/news.json in the current
                            folder or the nearest folder above this executable)
          --profile EVENT N EVENTS in-process|loaded
                            only send EVENTS events of EVENT (voidEvent, openURL, fetchSync, fetchAsync,
                            willPresent, unimplemented, sceneURL) to N subscribers, untimed: the loop
                            to run under valgrind --tool=callgrind
          --profile-limit LIMIT N EVENTS
                            only run a limit's loop EVENTS times (cLoopPlugin, cLoopC, swiftLoop: over N
                            subscribers; jsonLine: N lines a pass), untimed, for callgrind
          --cli-script EVENTS FILE
                            only write the CLI section's script of EVENTS events to FILE (to play under
                            valgrind: apphost --manifest manifests/news.json --events FILE --json)
          --tour-script REPEATS FOLDER
                            only write the CLI section's tour, its cycle REPEATS times, and the manifest
                            copy it is played with to FOLDER/tour.jsonl and FOLDER/manifest.json (to
                            play under valgrind: apphost --manifest FOLDER/manifest.json --events
                            FOLDER/tour.jsonl --json)
          --profile-isolation EVENTS
                            only send EVENTS didReceiveMemoryWarning events to one isolated VoidCounter,
                            untimed: the loop to run under strace -c -f
          --help            this text
        """

    /// What `--profile` asked for.
    struct Profile {
        var scenario: DispatchScenario
        var subscribers: Int
        var events: Int
        var loaded: Bool
    }

    var json = false
    var quick = false
    var repetitions: Int?
    var only: String?
    var pluginPath: String?
    var manifestPath: String?
    var profile: Profile?
    /// `--profile-limit LIMIT N EVENTS`.
    var profileLimit: (kind: LimitKind, count: Int, events: Int)?
    var cPluginPath: String?
    /// `--instructions` (true), `--no-instructions` (false), neither (nil: the default).
    var instructionsOption: Bool?
    /// `--cli-script EVENTS FILE`: the script to write.
    var cliScript: (events: Int, path: String)?
    /// `--tour-script REPEATS FOLDER`: the tour's files to write.
    var tourScript: (repeats: Int, folder: String)?
    var help = false

    /// Reads `arguments` (without the program name); throws one line naming the bad argument.
    init(_ arguments: [String]) throws(BenchError) {
        var remaining = arguments[...]
        func value(for option: String, expecting: String) throws(BenchError) -> String {
            guard let value = remaining.popFirst() else { throw BenchError("\(option) expects \(expecting)") }
            return value
        }
        /// `--cli-script EVENTS FILE`, `--tour-script REPEATS FOLDER`: a positive count, then a path.
        func countThenPath(for option: String, expecting: String, counting: String) throws(BenchError) -> (Int, String) {
            let count = try value(for: option, expecting: expecting)
            let path = try value(for: option, expecting: expecting)
            guard let number = Int(count), number > 0 else {
                throw BenchError("\(option) expects a positive number of \(counting), found \"\(count)\"")
            }
            return (number, path)
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json": json = true
            case "--quick": quick = true
            case "--help", "-h": help = true
            case "--repetitions":
                let text = try value(for: argument, expecting: "a positive integer")
                guard let count = Int(text), count > 0 else {
                    throw BenchError("--repetitions expects a positive integer, found \"\(text)\"")
                }
                repetitions = count
            case "--only":
                let text = try value(for: argument, expecting: "dispatch, load, cli, isolation or live")
                guard ["dispatch", "load", "cli", "isolation", "live"].contains(text) else {
                    throw BenchError("--only expects dispatch, load, cli, isolation or live, found \"\(text)\"")
                }
                only = text
            case "--plugin":
                pluginPath = try value(for: argument, expecting: "a path")
            case "--c-plugin":
                cPluginPath = try value(for: argument, expecting: "a path")
            case "--instructions": instructionsOption = true
            case "--no-instructions": instructionsOption = false
            case "--profile-limit":
                let expecting = "LIMIT N EVENTS"
                let kind = try value(for: argument, expecting: expecting)
                let count = try value(for: argument, expecting: expecting)
                let events = try value(for: argument, expecting: expecting)
                guard let limit = LimitKind(rawValue: kind), let count = Int(count), count > 0,
                      let events = Int(events), events > 0 else {
                    throw BenchError("--profile-limit expects \(expecting) (LIMIT one of "
                                     + LimitKind.allCases.map(\.rawValue).joined(separator: ", ")
                                     + "), found \(kind) \(count) \(events)")
                }
                profileLimit = (limit, count, events)
            case "--manifest":
                manifestPath = try value(for: argument, expecting: "a path")
            case "--cli-script":
                cliScript = try countThenPath(for: argument, expecting: "EVENTS FILE", counting: "events")
            case "--tour-script":
                tourScript = try countThenPath(for: argument, expecting: "REPEATS FOLDER", counting: "repeats")
            case "--profile":
                let expecting = "EVENT N EVENTS in-process|loaded"
                let event = try value(for: argument, expecting: expecting)
                let count = try value(for: argument, expecting: expecting)
                let events = try value(for: argument, expecting: expecting)
                let side = try value(for: argument, expecting: expecting)
                guard let scenario = DispatchScenario(rawValue: event), let count = Int(count), count > 0,
                      let events = Int(events), events > 0, side == "in-process" || side == "loaded" else {
                    throw BenchError("--profile expects \(expecting), found \(event) \(count) \(events) \(side)")
                }
                profile = Profile(scenario: scenario, subscribers: count, events: events, loaded: side == "loaded")
            default:
                throw BenchError("unknown argument \"\(argument)\"")
            }
        }
    }

    /// Repetitions per figure.
    var repetitionCount: Int { repetitions ?? (quick ? 3 : 7) }
    /// The Ns of every section.
    var counts: [Int] { quick ? [1, 10, 100] : [1, 10, 100, 1000] }
    /// Events in the CLI section's script.
    var cliEvents: Int { quick ? 10_000 : 100_000 }
    /// Events through the live host's control socket (the soak).
    var liveEvents: Int { quick ? 5_000 : 100_000 }

    /// Whether instructions are counted (when callgrind can): asked for, or a full run.
    var countsInstructions: Bool { instructionsOption ?? !quick }
    /// Whether the CLI row counts `apphost --json`'s instructions (two callgrind runs): unless
    /// `--no-instructions`, in `--quick` too, since its target is in instructions.
    var countsCLIInstructions: Bool { instructionsOption ?? true }

    /// Whether the section `name` ("dispatch", "load", "cli") runs.
    func runs(_ name: String) -> Bool { only == nil || only == name }

    /// The command line that reproduces a run with these options.
    var command: String {
        var command = "swift run -c release subscriber-bench"
        if quick { command += " --quick" }
        if let repetitions { command += " --repetitions \(repetitions)" }
        if let only { command += " --only \(only)" }
        if let manifestPath { command += " --manifest \(manifestPath)" }
        if let instructionsOption { command += instructionsOption ? " --instructions" : " --no-instructions" }
        if json { command += " --json" }
        return command
    }
}
