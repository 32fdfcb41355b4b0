import SubscriberKit
import SubscriberEventModel

/// The isolation keys one object of the manifest wrote — the top level's (the default of every
/// entry) or one entry's: `isolation`, `isolationGroup`, `callBudget`, `restart` and `limits`.
/// An entry's keys are laid over the top level's per key, and `restart`'s and `limits`' per field
/// (``over(_:)``), then resolved into the entry's ``PluginIsolation``.
struct IsolationKeys: Sendable, Hashable {
    /// `isolationGroup` as written: a name, or `null` (a child of its own, whatever the default).
    enum Group: Sendable, Hashable {
        case named(String)
        case ownChild
    }

    var mode: PluginIsolation.Mode?
    var group: Group?
    var callBudget: Int?
    var restartMax: Int?
    var restartWithinSeconds: Int?
    var memoryMiB: Int?
    var cpuSeconds: Int?
    var openFiles: Int?
    /// Which of ``childOnlyKeys`` the object wrote, `{}` and `null` included, in the docs' order.
    var writtenChildOnlyKeys: [String] = []

    /// `callBudget`, in milliseconds: from 1 ms to 10 minutes.
    static let callBudgetRange = 1...600_000
    /// `restart.max`: 0 disables the plugin at its first crash.
    static let restartMaxRange = 0...100
    /// `restart.withinSeconds`: up to a day.
    static let restartWindowRange = 1...86_400
    /// `limits.memoryMiB` (the child's address space): 16 MiB to 1 TiB.
    static let memoryRange = 16...1_048_576
    /// `limits.cpuSeconds`: up to a day of CPU time.
    static let cpuRange = 1...86_400
    /// `limits.openFiles`: the child needs a few descriptors of its own; up to Linux's `nr_open` default.
    static let openFilesRange = 16...1_048_576
    /// `isolationGroup`: at most this many bytes.
    static let maximumGroupLength = 64

    /// The keys that only mean something for a plugin in a child, as written, in the docs' order.
    static let childOnlyKeys = ["isolationGroup", "callBudget", "restart", "limits"]

    /// Reads the five keys of `reader`'s object (marking them known); absent keys stay nil.
    static func read(_ reader: inout JSONObjectReader) throws(JSONShapeError) -> IsolationKeys {
        var keys = IsolationKeys()
        if let value = reader.value("isolation") {
            guard case .string(let name) = value, let mode = PluginIsolation.Mode(rawValue: name) else {
                throw reader.mismatch("isolation", "\"inProcess\" or \"process\"", value)
            }
            keys.mode = mode
        }
        if let value = reader.value("isolationGroup") {
            keys.group = try readGroup(value, at: reader.path(of: "isolationGroup"))
        }
        keys.callBudget = try wholeNumber(&reader, "callBudget", callBudgetRange, "milliseconds")
        if let value = reader.value("restart") {
            var restart = try JSONObjectReader(value, path: reader.path(of: "restart"))
            keys.restartMax = try wholeNumber(&restart, "max", restartMaxRange, "restarts")
            keys.restartWithinSeconds = try wholeNumber(&restart, "withinSeconds", restartWindowRange, "seconds")
            try restart.rejectUnknownKeys()
        }
        if let value = reader.value("limits") {
            var limits = try JSONObjectReader(value, path: reader.path(of: "limits"))
            keys.memoryMiB = try wholeNumber(&limits, "memoryMiB", memoryRange, "MiB")
            keys.cpuSeconds = try wholeNumber(&limits, "cpuSeconds", cpuRange, "seconds")
            keys.openFiles = try wholeNumber(&limits, "openFiles", openFilesRange, "files")
            try limits.rejectUnknownKeys()
        }
        keys.writtenChildOnlyKeys = childOnlyKeys.filter { reader.object[$0] != nil }
        return keys
    }

    /// A group name: 1 to ``maximumGroupLength`` bytes without control characters; or `null`.
    private static func readGroup(_ value: JSONValue, at path: String) throws(JSONShapeError) -> Group {
        let expected = "a group name (1 to \(maximumGroupLength) bytes) or null (a child of its own)"
        switch value {
        case .null:
            return .ownChild
        case .string(let name):
            if name.isEmpty { throw JSONShapeError(path: path, expected: expected, found: "an empty string") }
            if name.utf8.count > maximumGroupLength {
                throw JSONShapeError(path: path, expected: expected, found: "\(ManifestText.quoted(name)) (\(name.utf8.count) bytes)")
            }
            try ManifestText.checkPlain(name, as: "a group name", at: path)
            return .named(name)
        default:
            throw JSONShapeError(path: path, expected: expected, found: value.shapeDescription)
        }
    }

    /// Member `key` as a whole number in `range` of `unit`; nil when absent.
    private static func wholeNumber(_ reader: inout JSONObjectReader, _ key: String, _ range: ClosedRange<Int>,
                                    _ unit: String) throws(JSONShapeError) -> Int? {
        guard let value = reader.value(key) else { return nil }
        guard let number = value.intValue, range.contains(number) else {
            throw reader.mismatch(key, "a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)", value)
        }
        return number
    }

    /// These keys, each key and each field of `restart` and `limits` not written taken from `defaults`.
    func over(_ defaults: IsolationKeys) -> IsolationKeys {
        IsolationKeys(mode: mode ?? defaults.mode, group: group ?? defaults.group, callBudget: callBudget ?? defaults.callBudget,
                      restartMax: restartMax ?? defaults.restartMax,
                      restartWithinSeconds: restartWithinSeconds ?? defaults.restartWithinSeconds,
                      memoryMiB: memoryMiB ?? defaults.memoryMiB, cpuSeconds: cpuSeconds ?? defaults.cpuSeconds,
                      openFiles: openFiles ?? defaults.openFiles, writtenChildOnlyKeys: writtenChildOnlyKeys)
    }

    /// An entry's isolation: its own keys (`reader` read them, which names them in errors) over the
    /// top level's `defaults`, unwritten ones the defaults of ``PluginIsolation``. An entry hosted in
    /// process may not write a key that only a child uses (it would silently mean nothing); it may
    /// inherit one from the top level, where it is the default of the entries in a child.
    func resolved(over defaults: IsolationKeys, at reader: JSONObjectReader) throws(JSONShapeError) -> PluginIsolation {
        let merged = over(defaults)
        let mode = merged.mode ?? .inProcess
        if mode == .inProcess, let key = writtenChildOnlyKeys.first {
            throw JSONShapeError(path: reader.path(of: key),
                                 expected: "\"isolation\": \"process\" on this entry or at the top level (\(key) applies to a plugin in a child process)",
                                 found: "a plugin hosted in process")
        }
        let base = PluginIsolation()
        var groupName: String?
        if mode == .process, case .named(let name) = merged.group { groupName = name }
        return PluginIsolation(
            mode: mode, group: groupName, callBudgetMilliseconds: merged.callBudget ?? base.callBudgetMilliseconds,
            restart: .init(max: merged.restartMax ?? base.restart.max,
                           withinSeconds: merged.restartWithinSeconds ?? base.restart.withinSeconds),
            limits: .init(memoryMiB: merged.memoryMiB, cpuSeconds: merged.cpuSeconds, openFiles: merged.openFiles))
    }
}

extension PluginIsolation.RestartPolicy {
    /// `{"max": 3, "withinSeconds": 300}`, as the manifest writes it.
    var manifestText: String { "{\"max\": \(max), \"withinSeconds\": \(withinSeconds)}" }
}

extension PluginIsolation.Limits {
    /// `{"memoryMiB": 256}`, the limits set as the manifest writes them; `{}` for none.
    var manifestText: String {
        let fields = [("memoryMiB", memoryMiB), ("cpuSeconds", cpuSeconds), ("openFiles", openFiles)]
        return "{" + fields.compactMap { name, value in value.map { "\"\(name)\": \($0)" } }.joined(separator: ", ") + "}"
    }
}

extension Manifest {
    /// Every plugin of one `isolationGroup` shares one child, which has one set of limits, one restart
    /// policy and one call budget: the first entry of a group whose values differ from the group's
    /// first entry's is an error naming the key. Reading a manifest checks this; a manifest built in
    /// code can be checked with this call.
    public func checkIsolationGroups() throws(ManifestError) {
        if let error = Self.isolationGroupProblem(plugins) { throw ManifestError(file: file, error) }
    }

    /// The first disagreement inside a group, in manifest order; linear in the entries.
    static func isolationGroupProblem(_ plugins: [ManifestPlugin]) -> JSONShapeError? {
        var first: [String: ManifestPlugin] = [:]
        for plugin in plugins where plugin.isolation.mode == .process {
            guard let group = plugin.isolation.group else { continue }
            guard let leader = first[group] else {
                first[group] = plugin
                continue
            }
            let own = plugin.isolation, theirs = leader.isolation
            let differences: [(key: String, theirs: String, own: String)] = [
                ("callBudget", "\(theirs.callBudgetMilliseconds)", "\(own.callBudgetMilliseconds)"),
                ("restart", theirs.restart.manifestText, own.restart.manifestText),
                ("limits", theirs.limits.manifestText, own.limits.manifestText),
            ]
            if let difference = differences.first(where: { $0.theirs != $0.own }) {
                return JSONShapeError(
                    path: "\(plugin.keyPath).\(difference.key)",
                    expected: "the \(difference.key) of group \(ManifestText.quoted(group)) (\(leader.keyPath): \(difference.theirs); a group is one child)",
                    found: difference.own)
            }
        }
        return nil
    }
}
