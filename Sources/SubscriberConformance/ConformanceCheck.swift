/// One check of the conformance kit (docs/conformance-kit.md). Each runs in a child process of its own (see
/// ``ConformanceKit``), so a plugin that crashes or hangs inside it costs that check, not the kit.
protocol ConformanceCheck: Sendable {
    /// Stable id, `group.name` (`load.entry-symbol`), used by `--only`/`--skip` and in every report.
    var id: String { get }
    /// One line saying what the check verifies.
    var summary: String { get }
    /// What the contract asks for: the evidence's "expected" when the child dies before answering.
    var expectation: String { get }
    /// Checks that must not fail for this one to mean anything; when one of them fails (or was
    /// skipped because of a failure), this check is skipped.
    var requires: [String] { get }

    /// Runs the check against the plugin of `environment`, in the child process.
    @MainActor func run(in environment: CheckEnvironment) async -> Verdict
}

/// What a check is, without its code: for listings and for plugin authors' tools.
public struct CheckDescription: Sendable, Hashable {
    /// Stable id, e.g. `events.fuzz`.
    public var id: String
    /// One line saying what the check verifies.
    public var summary: String
    /// The checks it needs to pass first.
    public var requires: [String]
}

/// Every check, in the order they run: load-time checks first (cheapest first, as the loader runs
/// them), then what a subscriber must do, then the events.
enum CheckRegistry {
    static let all: [any ConformanceCheck] = [
        RTLDNowCheck(), EntrySymbolCheck(), ABIVersionCheck(), SwiftVersionCheck(), DescriptorCheck(),
        ScanTimeCheck(),
        CreateDestroyCheck(), RespondsToEventsCheck(), UnknownNameCheck(), MemoryCheck(),
        CanonicalEventsCheck(), HandlerBudgetCheck(), CompletionCheck(), DeterminismCheck(), FuzzCheck(),
        EventShapedMethodsCheck(),
    ]

    /// The check called `id`.
    static func check(_ id: String) -> (any ConformanceCheck)? { all.first { $0.id == id } }

    /// The groups: the part of each id before the dot, in order.
    static var groups: [String] {
        var seen: [String] = []
        for check in all {
            let group = String(check.id.prefix { $0 != "." })
            if !seen.contains(group) { seen.append(group) }
        }
        return seen
    }

    /// The checks `only` and `skip` select (ids or groups); throws the first name that matches none.
    static func select(only: [String], skip: [String]) throws(ConformanceSetupError) -> [any ConformanceCheck] {
        func matching(_ name: String, option: String) throws(ConformanceSetupError) -> [String] {
            let ids = all.map(\.id).filter { $0 == name || $0.hasPrefix(name + ".") }
            if ids.isEmpty { throw .unknownCheck(name, option: option, known: all.map(\.id), groups: groups) }
            return ids
        }
        var chosen = Set(all.map(\.id))
        if !only.isEmpty {
            chosen = []
            for name in only { chosen.formUnion(try matching(name, option: "--only")) }
        }
        for name in skip { chosen.subtract(try matching(name, option: "--skip")) }
        // A run of no check would pass with nothing proven.
        if chosen.isEmpty {
            throw .badOption(name: "--skip", expected: "at least one check left to run",
                             found: "every check \(only.isEmpty ? "" : "that --only chose ")skipped")
        }
        return all.filter { chosen.contains($0.id) }
    }
}

/// Why the kit could not run at all (as opposed to a check failing): `apphost check` exits with 2.
public enum ConformanceSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `name` (given to `option`) is neither a check id nor a group.
    case unknownCheck(String, option: String, known: [String], groups: [String])
    /// Option `name` has a value the kit cannot run with.
    case badOption(name: String, expected: String, found: String)
    /// No executable to run the checks in.
    case noChildExecutable(tried: [String])
    /// The child executable could not be started.
    case spawnFailed(executable: String, reason: String)
    /// The child executable ran but did not answer as a conformance child.
    case notAChild(executable: String, found: String)

    public var description: String {
        switch self {
        case .unknownCheck(let name, let option, let known, let groups):
            return "\(option): expected a check id or group (\(groups.joined(separator: ", ")); ids: "
                + "\(known.joined(separator: ", "))), found '\(name)'"
        case .badOption(let name, let expected, let found):
            return "\(name): expected \(expected), found \(found)"
        case .noChildExecutable(let tried):
            return "conformance kit: expected an executable to run checks in, found none at \(tried.joined(separator: ", "))"
        case .spawnFailed(let executable, let reason):
            return "conformance kit: could not start \(executable): \(reason)"
        case .notAChild(let executable, let found):
            return "conformance kit: expected \(executable) to answer as a conformance child "
                + "(an executable that links SubscriberConformance), found \(found)"
        }
    }
}
