import SubscriberKit
import SubscriberEventModel

/// How ``ConformanceKit/run(plugins:options:)`` runs the checks. The defaults are what
/// `apphost check` uses; every budget is generous enough for a debug build on a busy machine.
public struct ConformanceOptions: Sendable {
    /// Run only these checks: ids (`events.fuzz`) or groups (`events`). Empty means all.
    public var only: [String] = []
    /// Leave out these checks: ids or groups.
    public var skip: [String] = []
    /// The seed of the fuzzed inputs; nil picks one at random (the report shows it, so that a failing
    /// run can be repeated with it).
    public var seed: UInt64?
    /// How long one check's child process may go without progress before it is killed and the check
    /// fails (a hang): from ``minimumCheckTimeout`` to ``maximumCheckTimeout``. A check reports
    /// progress as it goes (each call, case or cycle), so a healthy plugin on a busy machine is not
    /// failed for being slow; a check may run ``checkRunLimit`` in all.
    public var checkTimeout: Duration = .seconds(10)
    /// How long a completion may take before it counts as late (`events.completion`, and the
    /// completion values `events.deterministic` compares): from 1 ms to
    /// ``maximumCompletionDeadline``. The host allows 30 s; Expo about 3 s. Raising it past 9 s
    /// needs a longer ``checkTimeout`` (see ``minimumCheckTimeout``).
    public var completionDeadline: Duration = .seconds(2)
    /// A handler call slower than this (median of its calls) fails `events.budget`.
    public var handlerBudget: Duration = .milliseconds(100)
    /// A handler call slower than this (median) gets a warning.
    public var handlerWarning: Duration = .milliseconds(20)
    /// A scan (checks 1–8 of the loader, `dlopen` included) slower than this fails `load.scan-time`.
    public var scanBudget: Duration = .seconds(1)
    /// A scan slower than this gets a warning.
    public var scanWarning: Duration = .milliseconds(200)
    /// Resident memory may grow by at most this many bytes over the create/destroy cycles.
    public var memoryGrowthLimit: Int = 8 << 20
    /// Create/destroy cycles per subscriber for `subscriber.memory` (after a warm-up of 50).
    public var createDestroyCycles: Int = 1_000
    /// Random fuzz cases per fuzzed entry, after the fixed edge cases.
    public var fuzzCases: Int = 60
    /// Turn the loader's check 2 off (unsafe): accept plugin files or folders writable by others or owned
    /// by another user than you or root.
    public var allowWritable = false
    /// The options every subscriber's context gets (`context.options`, the C host's `options_json`),
    /// as a manifest entry's `options` would give them. Empty by default.
    public var subscriberOptions: JSONObject = [:]
    /// Options for one plugin, by its path exactly as passed to ``ConformanceKit/run(plugins:options:)``:
    /// they replace ``subscriberOptions`` for that plugin's subscribers.
    public var subscriberOptionsByPlugin: [String: JSONObject] = [:]
    /// The executable each check runs in. Nil (the default): the running executable itself, which
    /// becomes a conformance child when the kit starts it so (any executable that links the kit
    /// does: `apphost`, a test binary). `apphost check` never sets it. Public for the caller whose
    /// running executable is not one that links the kit, so cannot be restarted as a child: code run
    /// by the `swift` interpreter (the process is the compiler, `swift-frontend`), or a program that
    /// loads the kit as a plugin library. Such a caller names an executable that links the kit.
    public var childExecutable: String?
    /// Called after each check of each plugin, in order, e.g. to show progress.
    public var onResult: (@Sendable (_ plugin: String, _ result: CheckResult) -> Void)?

    /// The default options.
    public init() {}

    /// The shortest ``checkTimeout`` that lets every check finish on a working plugin: a child must
    /// start, and `events.completion` may wait ``completionDeadline`` for a completion. At least 3 s.
    public var minimumCheckTimeout: Duration { max(.seconds(3), completionDeadline + .seconds(1)) }
    /// The longest ``checkTimeout``: 10 minutes.
    public static let maximumCheckTimeout: Duration = .seconds(600)
    /// The longest ``completionDeadline``: one second less than the longest check timeout.
    public static let maximumCompletionDeadline: Duration = maximumCheckTimeout - .seconds(1)
    /// How long one check may run in all, progress or not: 12 × ``checkTimeout``, at most
    /// ``maximumCheckTimeout`` (and never less than ``checkTimeout``).
    public var checkRunLimit: Duration { max(checkTimeout, min(checkTimeout * 12, Self.maximumCheckTimeout)) }

    /// Throws for settings the kit cannot run with, before any check runs: a timeout out of range,
    /// options for a plugin that is not among `plugins`.
    func validate(plugins: [String]) throws(ConformanceSetupError) {
        if completionDeadline < .milliseconds(1) || completionDeadline > Self.maximumCompletionDeadline {
            throw .badOption(name: "completionDeadline",
                             expected: "from 1 ms to \(Self.maximumCompletionDeadline.readable)",
                             found: completionDeadline.readable)
        }
        if checkTimeout < minimumCheckTimeout || checkTimeout > Self.maximumCheckTimeout {
            throw .badOption(name: "checkTimeout",
                             expected: "from \(minimumCheckTimeout.readable) to \(Self.maximumCheckTimeout.readable)",
                             found: checkTimeout.readable)
        }
        if let stray = subscriberOptionsByPlugin.keys.sorted().first(where: { !plugins.contains($0) }) {
            throw .badOption(name: "subscriberOptionsByPlugin", expected: "keys among the plugins checked",
                             found: "'\(stray)'")
        }
    }

    /// The options the subscribers of `plugin` (a path as passed to the kit) get.
    func subscriberOptions(for plugin: String) -> JSONObject {
        subscriberOptionsByPlugin[plugin] ?? subscriberOptions
    }
}
