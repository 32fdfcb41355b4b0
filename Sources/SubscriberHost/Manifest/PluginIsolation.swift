/// How a plugin is hosted: in the host's own process (the default), or in a child process whose
/// crash, hang or leak cannot take the app down (docs/isolation.md). Read from a plugin entry's
/// `isolation`, `isolationGroup`, `callBudget`, `restart` and `limits`, each of which may also stand
/// at the manifest's top level as the default for every entry.
public struct PluginIsolation: Sendable, Hashable {
    /// Where the plugin's code runs.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// `"inProcess"`: loaded into the host's process (the default).
        case inProcess
        /// `"process"`: loaded into a child process; the host never maps the file.
        case process
    }

    /// How often a crashed or hung child is started again before its plugin is disabled.
    public struct RestartPolicy: Sendable, Hashable {
        /// At most this many restarts…
        public var max: Int
        /// …within this many seconds; one more in that window disables the plugin.
        public var withinSeconds: Int

        public init(max: Int = 3, withinSeconds: Int = 300) {
            self.max = max
            self.withinSeconds = withinSeconds
        }
    }

    /// Resource limits applied in the child (setrlimit); nil: inherited.
    public struct Limits: Sendable, Hashable {
        /// RLIMIT_AS, in MiB.
        public var memoryMiB: Int?
        /// RLIMIT_CPU, in seconds.
        public var cpuSeconds: Int?
        /// RLIMIT_NOFILE.
        public var openFiles: Int?

        public init(memoryMiB: Int? = nil, cpuSeconds: Int? = nil, openFiles: Int? = nil) {
            self.memoryMiB = memoryMiB
            self.cpuSeconds = cpuSeconds
            self.openFiles = openFiles
        }
    }

    /// `isolation`.
    public var mode: Mode
    /// `isolationGroup`: plugins of one group share one child; nil: a child of its own.
    public var group: String?
    /// `callBudget`: how long, in milliseconds, a synchronous call into the child may take before the
    /// child is killed and reported `hung`.
    public var callBudgetMilliseconds: Int
    /// `restart`.
    public var restart: RestartPolicy
    /// `limits`.
    public var limits: Limits

    public init(mode: Mode = .inProcess, group: String? = nil, callBudgetMilliseconds: Int = 2000,
                restart: RestartPolicy = RestartPolicy(), limits: Limits = Limits()) {
        self.mode = mode
        self.group = group
        self.callBudgetMilliseconds = callBudgetMilliseconds
        self.restart = restart
        self.limits = limits
    }
}
