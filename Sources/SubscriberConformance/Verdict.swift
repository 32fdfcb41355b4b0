/// How one check went for one plugin.
public enum VerdictStatus: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The plugin does what the check asks.
    case pass
    /// The plugin works, but something is worth a look (e.g. a handler close to its budget).
    case warn
    /// The plugin breaks the contract; the evidence says how.
    case fail
    /// The check did not run: a check it needs failed, or it does not apply.
    case skip

    /// "pass", "warn", "fail" or "skip".
    public var description: String { rawValue }
}

/// What a check expected and what it found: the reason behind a verdict, in words a plugin author
/// can act on.
public struct Evidence: Sendable, Hashable {
    /// What the contract asks for, e.g. "create returns NULL for a name the plugin does not declare".
    public var expected: String
    /// What happened, e.g. "create(\"\") returned a subscriber". A check with several findings
    /// gives one per line ("\n" between them), each naming what it is about.
    public var found: String

    /// Evidence with the given texts.
    public init(expected: String, found: String) {
        self.expected = expected
        self.found = found
    }
}

/// A check's verdict on one plugin: a status and the evidence for it.
public struct Verdict: Sendable, Hashable {
    /// Pass, warn, fail or skip.
    public var status: VerdictStatus
    /// What was expected and what happened.
    public var evidence: Evidence

    /// A verdict with `status` and its evidence.
    public init(_ status: VerdictStatus, expected: String, found: String) {
        self.status = status
        self.evidence = Evidence(expected: expected, found: found)
    }

    /// A passing verdict.
    public static func pass(expected: String, found: String) -> Verdict { Verdict(.pass, expected: expected, found: found) }
    /// A warning.
    public static func warn(expected: String, found: String) -> Verdict { Verdict(.warn, expected: expected, found: found) }
    /// A failure.
    public static func fail(expected: String, found: String) -> Verdict { Verdict(.fail, expected: expected, found: found) }
    /// A check that did not run.
    public static func skip(expected: String, found: String) -> Verdict { Verdict(.skip, expected: expected, found: found) }
}

/// "1 call", "3 calls": evidence reads as sentences.
func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
