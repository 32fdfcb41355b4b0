/// The command line of subscriber-bench.
struct BenchOptions {
    static let usage = """
        usage: subscriber-bench [--json] [--quick] [--repetitions N] [--only dispatch|load] [--plugin PATH]
               subscriber-bench --profile EVENT N EVENTS in-process|loaded

        Measures, in one run: dispatch through subscribers loaded from libBenchSubscribers.so vs the same
        types in-process (void event, openURL, performFetch; 1, 10, 100, 1,000 subscribers), loading N
        plugins through a manifest vs bare dlopen+dlsym (N = 1, 10, 100, 1,000), memory per plugin, and
        how each grows with N. Build with -c release.

          --json            print the results as one JSON object instead of the table
          --quick           3 repetitions and N ≤ 100 only (for CI); the same table
          --repetitions N   repetitions per figure (default 7; --quick: 3)
          --only dispatch|load
                            run one half only (the other sections stay empty)
          --plugin PATH     libBenchSubscribers.so to load (default: beside this executable)
          --profile EVENT N EVENTS in-process|loaded
                            only send EVENTS events of EVENT (voidEvent, openURL, fetchSync, fetchAsync)
                            to N subscribers, untimed: the loop to run under valgrind --tool=callgrind
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
    var profile: Profile?
    var help = false

    /// Reads `arguments` (without the program name); throws one line naming the bad argument.
    init(_ arguments: [String]) throws(BenchError) {
        var remaining = arguments[...]
        func value(for option: String, expecting: String) throws(BenchError) -> String {
            guard let value = remaining.popFirst() else { throw BenchError("\(option) expects \(expecting)") }
            return value
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
                let text = try value(for: argument, expecting: "dispatch or load")
                guard text == "dispatch" || text == "load" else {
                    throw BenchError("--only expects dispatch or load, found \"\(text)\"")
                }
                only = text
            case "--plugin":
                pluginPath = try value(for: argument, expecting: "a path")
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

    /// The command line that reproduces a run with these options.
    var command: String {
        var command = "swift run -c release subscriber-bench"
        if quick { command += " --quick" }
        if let repetitions { command += " --repetitions \(repetitions)" }
        if let only { command += " --only \(only)" }
        if json { command += " --json" }
        return command
    }
}
