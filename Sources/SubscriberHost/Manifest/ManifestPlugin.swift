import SubscriberDelivery
import SubscriberKit

/// One entry of the manifest's `plugins` array: which file, which of its subscribers, and how.
public struct ManifestPlugin: Sendable, Hashable {
    /// Where the plugin's shared library is.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// `path`: a file path, relative to the manifest's folder unless absolute (kept as written).
        case path(String)
        /// `library: X`: `libX.so`, searched for in the plugin search directories.
        case library(String)

        /// `path "…"` or `library "…"`, as the manifest wrote it.
        public var description: String {
            switch self {
            case .path(let path): "path \"\(path)\""
            case .library(let name): "library \"\(name)\""
            }
        }
    }

    /// Position in the manifest's `plugins` array.
    public var index: Int
    /// `path` or `library`.
    public var source: Source
    /// The subscribers asked for, in order; empty means every subscriber the plugin declares.
    /// Read from `subscribers`, or Expo's `ios`/`apple` → `appDelegateSubscribers`.
    public var subscribers: [String]
    /// The pinned SHA-256 of the file, when pinned.
    public var sha256: SHA256Digest?
    /// Handed to each of this plugin's subscribers as its options: a JSON object (`{}` when absent).
    /// A subscriber named in ``subscriberOptions`` gets these with its own keys laid over them
    /// (``options(for:)``).
    public var options: JSONValue
    /// `subscriberOptions`: per subscriber name, options of its own, whose keys override those of
    /// ``options`` for that subscriber only. Each name is one the entry lists, or (without a list)
    /// one the plugin declares (load-time check 9).
    package var subscriberOptions: [String: JSONObject] = [:]
    /// The names of ``subscriberOptions`` as written, for errors in manifest order.
    package var subscriberOptionNames: [String] = []
    /// Dispatch priority of this plugin's subscribers; higher goes first (stable). Default 0; from
    /// ``priorityRange``.
    public var priority: Int
    /// Whether a load failure skips this plugin (reported) instead of stopping the host.
    public var optional: Bool
    /// `after`: subscriber names this entry's subscribers are called after, whatever the priorities
    /// (``DispatchOrder``). Each must name a subscriber of the host; at most 64.
    public var after: [String] = []
    /// `before`: subscriber names this entry's subscribers are called before (the same rules).
    public var before: [String] = []
    /// How the plugin is hosted: in process (the default) or in a child process.
    public var isolation = PluginIsolation()
    /// Key path of the subscriber list as written (`plugins[1].ios.appDelegateSubscribers`), for errors.
    var subscriberListPath: String

    /// A plugin entry. Defaults are the manifest's.
    public init(index: Int, source: Source, subscribers: [String] = [], sha256: SHA256Digest? = nil,
                options: JSONValue = .object(JSONObject()), priority: Int = 0, optional: Bool = false,
                after: [String] = [], before: [String] = []) {
        self.index = index
        self.source = source
        self.subscribers = subscribers
        self.sha256 = sha256
        self.options = options
        self.priority = priority
        self.optional = optional
        self.after = after
        self.before = before
        self.subscriberListPath = "plugins[\(index)].subscribers"
    }

    /// The key path of this entry in the manifest, `plugins[2]`.
    public var keyPath: String { "plugins[\(index)]" }

    /// The priorities a manifest may give: the whole numbers a JSON number holds exactly, ±(2^53 − 1).
    public static let priorityRange: ClosedRange<Int> = -(1 << 53 - 1)...(1 << 53 - 1)

    /// What subscriber `name` of this entry is handed as its options: ``options``, with the keys of
    /// its own ``subscriberOptions`` (if any) overriding the entry's, in the entry's key order, its
    /// own other keys after them. Shallow: a key's value is replaced whole. Linear in the keys.
    package func options(for name: String) -> JSONValue {
        guard let own = subscriberOptions[name] else { return options }
        guard case .object(let shared) = options, !shared.isEmpty else { return .object(own) }
        var overrides: [String: JSONValue] = [:]
        overrides.reserveCapacity(own.count)
        for member in own.members { overrides[member.key] = member.value }
        var merged: [(key: String, value: JSONValue)] = []
        merged.reserveCapacity(shared.count + own.count)
        for member in shared.members {
            merged.append((member.key, overrides.removeValue(forKey: member.key) ?? member.value))
        }
        for member in own.members where overrides[member.key] != nil { merged.append(member) }
        return .object(JSONObject(uniqueMembers: merged))
    }
}

extension ManifestPlugin {
    /// Reads entry `index` of the `plugins` array. Names are checked for emptiness and control
    /// characters; repeats, within the entry or across entries, are the manifest's check. The
    /// isolation keys the entry does not write come from the top level's, `isolationDefaults`.
    init(json: JSONValue, index: Int, isolationDefaults: IsolationKeys = IsolationKeys()) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: "plugins[\(index)]")
        let path = try reader.string("path")
        let library = try reader.string("library")
        let source: Source
        switch (path, library) {
        case (let path?, nil):
            guard !path.isEmpty else {
                throw JSONShapeError(path: reader.path(of: "path"), expected: "a file path", found: "an empty string")
            }
            try ManifestText.checkPlain(path, as: "a path", at: reader.path(of: "path"))
            source = .path(path)
        case (nil, let library?):
            try Self.checkLibraryName(library, at: reader.path(of: "library"))
            source = .library(library)
        case (.some, .some):
            throw JSONShapeError(path: reader.path, expected: "either \"path\" or \"library\"", found: "both")
        case (nil, nil):
            throw JSONShapeError(path: reader.path, expected: "\"path\" or \"library\"", found: "neither")
        }

        let (subscribers, listPath) = try Self.readSubscribers(&reader)

        var pin: SHA256Digest?
        if let hex = try reader.string("sha256") {
            guard let digest = SHA256Digest(hex: hex) else {
                throw JSONShapeError(path: reader.path(of: "sha256"), expected: "64 hexadecimal digits",
                                     found: JSONValue.string(hex).shapeDescription)
            }
            pin = digest
        }
        // An object, like Expo's plugin props: subscribers read their settings by key.
        let options = JSONValue.object(try reader.object("options") ?? JSONObject())
        let (subscriberOptions, subscriberOptionNames) = try Self.readSubscriberOptions(&reader, listed: subscribers,
                                                                                         listPath: listPath)
        let priority = try Self.readPriority(&reader)
        let optional = try reader.bool("optional") ?? false
        let after = try Self.readOrderNames(&reader, .after)
        let before = try Self.readOrderNames(&reader, .before)
        let isolation = try IsolationKeys.read(&reader).resolved(over: isolationDefaults, at: reader)
        try reader.rejectUnknownKeys()
        self.init(index: index, source: source, subscribers: subscribers, sha256: pin, options: options,
                  priority: priority, optional: optional, after: after, before: before)
        self.subscriberOptions = subscriberOptions
        self.subscriberOptionNames = subscriberOptionNames
        self.isolation = isolation
        subscriberListPath = listPath
    }

    /// `priority`: a whole number in ``priorityRange``; 0 when absent. JSON numbers are doubles, so
    /// a larger one could not be told from its neighbours: refused, the range said.
    private static func readPriority(_ reader: inout JSONObjectReader) throws(JSONShapeError) -> Int {
        guard let value = reader.value("priority") else { return 0 }
        let bound = Double(priorityRange.upperBound)
        guard case .number(let number) = value, number.rounded() == number, abs(number) <= bound else {
            throw reader.mismatch("priority", "a whole number from \(priorityRange.lowerBound) to \(priorityRange.upperBound) "
                                    + "(±(2^53 − 1))", value)
        }
        return Int(number)
    }

    /// `subscriberOptions`: an object from subscriber names to objects. With a subscriber list, each
    /// name must be in it (`listed`, written at `listPath`); without one, whether the plugin declares
    /// it is load-time check 9. At most ``DescriptorReader/maximumSubscriberCount`` names, counted
    /// before any is read.
    private static func readSubscriberOptions(_ reader: inout JSONObjectReader, listed: [String], listPath: String)
        throws(JSONShapeError) -> (options: [String: JSONObject], names: [String])
    {
        guard let value = reader.value("subscriberOptions") else { return ([:], []) }
        let section = try JSONObjectReader(value, path: reader.path(of: "subscriberOptions"))
        let limit = Int(DescriptorReader.maximumSubscriberCount)
        if section.object.count > limit {
            throw JSONShapeError(path: section.path, expected: "at most \(limit) subscriber names (a plugin declares at most \(limit))",
                                 found: "\(section.object.count)")
        }
        let listedNames = Set(listed)
        var options: [String: JSONObject] = [:]
        options.reserveCapacity(section.object.count)
        var names: [String] = []
        for member in section.object.members {
            let here = section.path(of: member.key)
            if member.key.isEmpty {
                throw JSONShapeError(path: here, expected: "a subscriber name", found: "an empty key")
            }
            try ManifestText.checkPlain(member.key, as: "a subscriber name", at: here)
            if !listed.isEmpty && !listedNames.contains(member.key) {
                throw JSONShapeError(path: here, expected: "the name of a subscriber \(listPath) lists",
                                     found: ManifestText.quoted(member.key))
            }
            guard case .object(let own) = member.value else {
                throw JSONShapeError(path: here, expected: "an object (this subscriber's options)", found: member.value.shapeDescription)
            }
            options[member.key] = own
            names.append(member.key)
        }
        return (options, names)
    }

    /// `after` or `before`: subscriber names, each once, at most ``DispatchOrder/maximumConstraintCount``.
    /// Whether each names a subscriber of the host is known once the plugins are loaded (``PluginHost``).
    private static func readOrderNames(_ reader: inout JSONObjectReader, _ list: OrderConstraint) throws(JSONShapeError)
        -> [String]
    {
        let path = reader.path(of: list.rawValue)
        guard let value = reader.value(list.rawValue) else { return [] }
        guard case .array(let elements) = value else {
            throw JSONShapeError(path: path, expected: "an array of subscriber names", found: value.shapeDescription)
        }
        // Checked before reading the names: a long list costs nothing but this count.
        if elements.count > DispatchOrder.maximumConstraintCount {
            throw JSONShapeError(path: path, expected: "at most \(DispatchOrder.maximumConstraintCount) subscriber names",
                                 found: "\(elements.count)")
        }
        var names: [String] = []
        for (position, element) in elements.enumerated() {
            let here = "\(path)[\(position)]"
            guard case .string(let name) = element else {
                throw JSONShapeError(path: here, expected: "a subscriber name", found: element.shapeDescription)
            }
            if name.isEmpty { throw JSONShapeError(path: here, expected: "a subscriber name", found: "an empty string") }
            try ManifestText.checkPlain(name, as: "a subscriber name", at: here)
            if let first = names.firstIndex(of: name) {
                throw JSONShapeError(path: here, expected: "a subscriber name not listed before",
                                     found: "\(ManifestText.quoted(name)) again (first at \(path)[\(first)])")
            }
            names.append(name)
        }
        return names
    }

    /// A library name is the X of libX.so: not a path, not a file name.
    private static func checkLibraryName(_ name: String, at path: String) throws(JSONShapeError) {
        let found = JSONValue.string(name).shapeDescription
        if name.isEmpty {
            throw JSONShapeError(path: path, expected: "a library name", found: "an empty string")
        }
        try ManifestText.checkPlain(name, as: "a library name", at: path)
        if name.contains("/") {
            throw JSONShapeError(path: path, expected: "a library name without \"/\" (use \"path\" for files)",
                                 found: found)
        }
        if name.hasSuffix(".so") || name.contains(".so.") {
            throw JSONShapeError(path: path, expected: "a library name like \"Analytics\" for libAnalytics.so",
                                 found: found)
        }
    }

    /// `subscribers: [...]`, or Expo's `ios`/`apple: {appDelegateSubscribers: [...]}`; at most one.
    private static func readSubscribers(_ reader: inout JSONObjectReader) throws(JSONShapeError)
        -> (names: [String], path: String)
    {
        // value(_:) marks each as known, so an unknown-key error lists all three.
        let present = ["subscribers", "ios", "apple"].filter { reader.value($0) != nil }
        if present.count > 1 {
            throw JSONShapeError(path: reader.path, expected: "one subscriber list (subscribers, ios or apple)",
                                 found: present.joined(separator: " and "))
        }
        guard let key = present.first else { return ([], reader.path(of: "subscribers")) }
        let listPath: String
        let names: [String]
        if key == "subscribers" {
            names = try reader.strings("subscribers") ?? []
            listPath = reader.path(of: "subscribers")
        } else {
            var expo = try JSONObjectReader(reader.value(key) ?? .null, path: reader.path(of: key))
            guard let list = try expo.strings("appDelegateSubscribers") else {
                throw JSONShapeError(path: expo.path(of: "appDelegateSubscribers"), expected: "an array of subscriber names",
                                     found: "nothing")
            }
            try expo.rejectUnknownKeys()
            names = list
            listPath = expo.path(of: "appDelegateSubscribers")
        }
        if names.isEmpty {
            throw JSONShapeError(path: listPath,
                                 expected: "at least one subscriber name (omit the list for all the plugin declares)",
                                 found: "an empty array")
        }
        for (position, name) in names.enumerated() {
            if name.isEmpty {
                throw JSONShapeError(path: "\(listPath)[\(position)]", expected: "a subscriber name", found: "an empty string")
            }
            try ManifestText.checkPlain(name, as: "a subscriber name", at: "\(listPath)[\(position)]")
        }
        return (names, listPath)
    }
}
