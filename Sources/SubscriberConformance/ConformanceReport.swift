/// One check's result for one plugin: which check, its verdict, and how long its child process took.
public struct CheckResult: Sendable, Hashable {
    /// The check's id, e.g. `events.fuzz`.
    public var id: String
    /// The check's one-line description.
    public var summary: String
    /// The verdict and its evidence.
    public var verdict: Verdict
    /// Wall time of the check (its child process included); zero for a check that did not run.
    public var duration: Duration

    /// A result.
    public init(id: String, summary: String, verdict: Verdict, duration: Duration) {
        self.id = id
        self.summary = summary
        self.verdict = verdict
        self.duration = duration
    }

    /// The verdict's status.
    public var status: VerdictStatus { verdict.status }
}

/// What a plugin says about itself, as far as the checks could read it.
public struct PluginIdentity: Sendable, Hashable {
    /// Reverse-DNS identifier.
    public var id: String
    /// Human-readable name.
    public var name: String
    /// The plugin's own version.
    public var version: String
    /// The subscribers it declares.
    public var subscribers: [String]

    /// An identity.
    public init(id: String, name: String, version: String, subscribers: [String]) {
        self.id = id
        self.name = name
        self.version = version
        self.subscribers = subscribers
    }
}

/// Every check's result for one plugin file.
public struct PluginReport: Sendable, Hashable {
    /// The path as given.
    public var path: String
    /// The plugin's id, name, version and subscribers; nil when it never loaded.
    public var identity: PluginIdentity?
    /// One result per selected check, in check order.
    public var results: [CheckResult]
    /// Wall time for all of this plugin's checks.
    public var duration: Duration

    /// A plugin report.
    public init(path: String, identity: PluginIdentity?, results: [CheckResult], duration: Duration) {
        self.path = path
        self.identity = identity
        self.results = results
        self.duration = duration
    }

    /// The result of check `id`, if it was selected.
    public func result(_ id: String) -> CheckResult? { results.first { $0.id == id } }

    /// The results that failed.
    public var failures: [CheckResult] { results.filter { $0.status == .fail } }

    /// How many results have `status`.
    public func count(_ status: VerdictStatus) -> Int { results.count { $0.status == status } }
}

/// The outcome of a conformance run over one or more plugins.
public struct ConformanceReport: Sendable, Hashable {
    /// One report per plugin, in the order given.
    public var plugins: [PluginReport]
    /// The seed the fuzzed inputs used: pass it back (`--seed`) to repeat the run.
    public var seed: UInt64
    /// Wall time of the whole run.
    public var duration: Duration
    /// Why the kit itself could not run (an unknown check id, a bad option, a child process that could
    /// not be started or does not speak the protocol); nil when it ran. A report with a problem has no
    /// verdict to trust.
    public var problem: String?

    /// A report.
    public init(plugins: [PluginReport], seed: UInt64, duration: Duration, problem: String? = nil) {
        self.plugins = plugins
        self.seed = seed
        self.duration = duration
        self.problem = problem
    }

    /// Every failed check, with the plugin it failed on.
    public var failures: [(plugin: String, result: CheckResult)] {
        plugins.flatMap { plugin in plugin.failures.map { (plugin.path, $0) } }
    }

    /// Whether the kit ran and no check failed (warnings and skips allowed).
    public var passed: Bool { problem == nil && failures.isEmpty }

    /// The exit code `apphost check` uses: 0 nothing failed, 1 a check failed, 2 the kit could not run.
    public var exitCode: Int32 { problem != nil ? 2 : (failures.isEmpty ? 0 : 1) }

    /// How many results, over all plugins, have `status`.
    public func count(_ status: VerdictStatus) -> Int { plugins.reduce(0) { $0 + $1.count(status) } }
}
