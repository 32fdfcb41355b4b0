/// A JSON document that parsed but does not have the expected shape: a missing key, a wrong type,
/// an unknown key. Names the key path (`plugins[2].subscribers[0]`), what was expected and what
/// was found, so every bad input gets one clear line.
package struct JSONShapeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where, as a key path from the document's root (`""` for the root itself).
    package var path: String
    /// What the reader expected there ("a string", "one of portrait, landscapeLeft").
    package var expected: String
    /// What it found, described (`the number 42`, `an object`, `nothing`).
    package var found: String

    /// An error at `path`.
    package init(path: String, expected: String, found: String) {
        self.path = path
        self.expected = expected
        self.found = found
    }

    package var description: String {
        "\(path.isEmpty ? "(root)" : path): expected \(expected), found \(found)"
    }
}

extension JSONValue {
    /// A short description of this value for error messages: `the string "abc"`, `the number 42`,
    /// `an object`, `an array`, `null`, `true`.
    package var shapeDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number: return "the number \(self)"
        case .string(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "the string \"\(shown)\""
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// Reads the members of one JSON object with their key paths, so that every shape error says where.
/// Call ``rejectUnknownKeys()`` last to make any key that was never read an error.
package struct JSONObjectReader: Sendable {
    /// What is read: an object built, or one line's members found in its bytes (``FlatJSONObject``).
    /// Two stored properties rather than an enum: reading a member borrows them, where binding an
    /// enum's payload copied it (retains and releases on every key read).
    private let tree: JSONObject
    /// Not optional: a read borrows it where binding an optional copied it (a retain and a
    /// release of its bytes and of its members at every key read). Empty over a built object.
    private var flat: FlatJSONObject
    /// Whether what is read is ``flat`` (else ``tree``).
    private let isFlat: Bool
    /// The object being read (a flat object's members built, when one is read: rare).
    package var object: JSONObject { isFlat ? (flat.object ?? JSONObject()) : tree }
    /// The key path of the object itself.
    package let path: String
    /// The keys asked for so far: the few the reading code names, so a list (no hashing) is cheapest.
    /// Over a flat object, only those asked for and absent: a present member read is a bit of
    /// ``readMembers`` (no array allocated for a line whose keys are all there).
    private var readKeys: [String] = []
    /// Over a flat object, the members read, a bit each (it has at most 32).
    private var readMembers: UInt64 = 0
    /// Over a flat object, a bit for each of its members: ``readMembers`` equal to it means
    /// that every member was read (no unknown key). 0 over a built object and an empty one.
    private var allMembers: UInt64
    /// False once a member of a flat object that was read did not parse: what was read from it
    /// then is not the object's, and the caller reads it the ordinary way (which says what is wrong).
    package private(set) var isIntact = true
    /// Over a flat object, the long strings made from it and its lines before (a reader kept for
    /// a run's lines), handed out again for the same bytes.
    private var recentStrings = RecentStrings()
    /// Over a flat object, the storage lent to the reader of a member that is an object
    /// (``flatObject(_:_:)``), kept for the next line's: its member list and list of keys asked for.
    private var nestedFlat = FlatJSONObject()
    private var nestedReadKeys: [String] = []

    /// Starts reading `value`, which must be an object.
    package init(_ value: JSONValue, path: String) throws(JSONShapeError) {
        guard case .object(let object) = value else {
            throw JSONShapeError(path: path, expected: "an object", found: value.shapeDescription)
        }
        tree = object
        flat = FlatJSONObject()
        isFlat = false
        allMembers = 0
        self.path = path
    }

    /// Starts reading an object's members straight from its bytes: strings are made from them,
    /// other values built as they are read. Check ``isIntact`` after reading.
    package init(flat: FlatJSONObject, path: String) {
        tree = JSONObject()
        self.flat = flat
        isFlat = true
        allMembers = flat.members.count >= 64 ? ~0 : (1 << UInt64(flat.members.count)) &- 1
        self.path = path
    }

    /// A reader of one line's members after another (``startLine(_:)``, ``endLine()``), over
    /// their bytes as ``init(flat:path:)`` reads them: its member list and its list of keys asked
    /// for are kept from line to line (at most ``FlatJSONObject/memberLimit`` members and the keys
    /// one shape names), not built and freed once a line.
    package init(linesAt path: String) {
        tree = JSONObject()
        flat = FlatJSONObject()
        isFlat = true
        allMembers = 0
        self.path = path
    }

    /// Starts reading the object `bytes` hold (a reader made by ``init(linesAt:)``), as
    /// ``init(flat:path:)`` over `FlatJSONObject(scanning: bytes)` would; false where that is nil.
    /// Call ``endLine()`` when done with the line.
    package mutating func startLine(_ bytes: ArraySlice<UInt8>) -> Bool {
        // Cleared by `endLine()`; again here only after a line without one (nothing to clear, usually).
        if !readKeys.isEmpty { readKeys.removeAll(keepingCapacity: true) }
        readMembers = 0
        isIntact = true
        allMembers = 0
        guard isFlat, flat.rescan(bytes) else { return false }
        let count = flat.members.count
        allMembers = count >= 64 ? ~0 : (1 << UInt64(count)) &- 1
        return true
    }

    /// Ends reading the line. Its bytes and members stay until the next line's replace them:
    /// dropping them here cost about 150 instructions a line, and holding them costs a line
    /// reader one copy of the rest of its buffer when it reads on (once a read of 64 KiB).
    package mutating func endLine() {
        if !readKeys.isEmpty { readKeys.removeAll(keepingCapacity: true) }
        readMembers = 0
        allMembers = 0
    }

    /// Whether a member is named `key` or `other` (not marked as read): over a line's bytes,
    /// ``FlatJSONObject/hasKey(_:or:)`` (no `String` made).
    package func hasKey(_ key: StaticString, or other: StaticString) -> Bool {
        if isFlat { return flat.hasKey(key, or: other) }
        return tree[key.description] != nil || tree[other.description] != nil
    }

    /// The key path of member `key`.
    package func path(of key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Whether member `key` is there (not marked as read).
    package func has(_ key: String) -> Bool {
        if isFlat { return flat.member(key) != nil }
        return tree[key] != nil
    }

    /// The raw member `key`, or nil when absent. Marks the key as read.
    package mutating func value(_ key: String) -> JSONValue? {
        guard isFlat else {
            if !readKeys.contains(key) { readKeys.append(key) }
            return tree[key]
        }
        guard let member = readFlat(key) else { return nil }
        guard let value = flat.value(member) else {
            isIntact = false
            return nil
        }
        return value
    }

    /// Member `key` as a string; nil when absent; an error when present with another type.
    package mutating func string(_ key: String) throws(JSONShapeError) -> String? {
        if isFlat, let index = flat.index(of: key), flat.members[index].plain {
            readMembers |= 1 << UInt64(index)
            return flat.string(flat.members[index].value, recent: &recentStrings)
        }
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else { throw mismatch(key, "a string", value) }
        return string
    }

    /// Member `key`'s bytes when it is a plain string (printable ASCII, nothing escaped), marked as
    /// read; nil otherwise, or over a built object (then read it with ``string(_:)``).
    package mutating func plainStringBytes(_ key: String) -> ArraySlice<UInt8>? {
        guard isFlat, let index = flat.index(of: key), flat.members[index].plain else { return nil }
        readMembers |= 1 << UInt64(index)
        return flat.bytes[flat.members[index].value]
    }

    /// ``plainStringBytes(_:)`` for a member looked for first at `place` among the members (a
    /// script line's `"event"`: first), then among all.
    package mutating func plainStringBytes(_ key: StaticString, place: Int) -> ArraySlice<UInt8>? {
        guard isFlat, let index = flat.index(of: key, place: place), flat.members[index].plain else { return nil }
        readMembers |= 1 << UInt64(index)
        return flat.bytes[flat.members[index].value]
    }

    /// Member `key` read by `body` as an object over its own bytes, when this reader is over a
    /// line's bytes and the member is an object that ``FlatJSONObject`` reads (its members built
    /// only as they are read, as here); nil without calling `body` otherwise (absent, another
    /// value, or an object left to the parser: read it with ``value(_:)``). The member is marked
    /// as read; a member of it that did not parse makes this reader not ``isIntact`` either.
    /// (`openURL`'s options: built as a `JSONObject` and read again, about 5,000 instructions.)
    package mutating func flatObject<T>(_ key: String, _ body: (inout JSONObjectReader) throws(JSONShapeError) -> T)
        throws(JSONShapeError) -> T?
    {
        guard isFlat, let index = flat.index(of: key) else { return nil }
        let member = flat.members[index]
        guard !member.plain, flat.bytes[member.value.lowerBound] == UInt8(ascii: "{") else { return nil }
        // Read as a line is, by a reader lent this one's storage for it (its member list and list
        // of keys asked for, kept from line to line: made and freed, they cost about 900
        // instructions an object) and this one's kept strings.
        var reader = JSONObjectReader(linesAt: path(of: key))
        reader.swapStorage(with: &self)
        defer {
            reader.endLine()
            reader.swapStorage(with: &self)
            if !reader.isIntact { isIntact = false }
        }
        guard reader.startLine(flat.bytes[member.value]) else { return nil }
        readMembers |= 1 << UInt64(index)
        return try body(&reader)
    }

    /// Trades a nested object's reader's storage with `owner`'s: its member list and list of keys
    /// asked for with `owner`'s spare ones, and its kept strings with `owner`'s.
    private mutating func swapStorage(with owner: inout JSONObjectReader) {
        swap(&flat, &owner.nestedFlat)
        swap(&readKeys, &owner.nestedReadKeys)
        swap(&recentStrings, &owner.recentStrings)
    }

    /// Flat member `key`, marked as read (an absent key is remembered among those asked for).
    private mutating func readFlat(_ key: String) -> FlatJSONObject.Member? {
        guard let index = flat.index(of: key) else {
            if !readKeys.contains(key) {
                // Room for a shape's few optional keys at once: grown one at a time, the list of
                // `openURL`'s options (three absent) was allocated three times.
                if readKeys.capacity == 0 { readKeys.reserveCapacity(4) }
                readKeys.append(key)
            }
            return nil
        }
        readMembers |= 1 << UInt64(index)
        return flat.members[index]
    }

    /// Member `key` as a boolean; nil when absent.
    package mutating func bool(_ key: String) throws(JSONShapeError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else { throw mismatch(key, "true or false", value) }
        return bool
    }

    /// Member `key` as a whole number; nil when absent.
    package mutating func int(_ key: String) throws(JSONShapeError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let int = value.intValue else { throw mismatch(key, "a whole number", value) }
        return int
    }

    /// Member `key` as an object; nil when absent.
    package mutating func object(_ key: String) throws(JSONShapeError) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard case .object(let object) = value else { throw mismatch(key, "an object", value) }
        return object
    }

    /// Member `key` as an array; nil when absent.
    package mutating func array(_ key: String) throws(JSONShapeError) -> [JSONValue]? {
        guard let value = value(key) else { return nil }
        guard case .array(let array) = value else { throw mismatch(key, "an array", value) }
        return array
    }

    /// Member `key` as an array of strings; nil when absent. Names the bad element's index.
    package mutating func strings(_ key: String) throws(JSONShapeError) -> [String]? {
        guard let array = try array(key) else { return nil }
        var strings: [String] = []
        for (index, element) in array.enumerated() {
            guard case .string(let string) = element else {
                throw JSONShapeError(path: "\(path(of: key))[\(index)]", expected: "a string",
                                     found: element.shapeDescription)
            }
            strings.append(string)
        }
        return strings
    }

    /// Member `key` as a string, which must be present.
    package mutating func requiredString(_ key: String) throws(JSONShapeError) -> String {
        guard let string = try string(key) else {
            throw JSONShapeError(path: path(of: key), expected: "a string", found: "nothing")
        }
        return string
    }

    /// Throws for the first key (in document order) that was never read.
    package func rejectUnknownKeys() throws(JSONShapeError) {
        // Every member of a flat object read (the usual script line): nothing unknown, and
        // nothing copied to find that out (the search below copies the reader's lists: about
        // 420 instructions a line). Over a built object both are 0: the search decides.
        if readMembers == allMembers, allMembers != 0 { return }
        let unknown: String?
        var asked = readKeys
        if isFlat {
            let flat = flat
            unknown = flat.members.indices.first { readMembers & 1 << UInt64($0) == 0 }.map { flat.string(flat.members[$0].key) }
            if unknown != nil {
                asked += flat.members.indices.filter { readMembers & 1 << UInt64($0) != 0 }.map { flat.string(flat.members[$0].key) }
            }
        } else {
            unknown = tree.members.first(where: { !readKeys.contains($0.key) })?.key
        }
        if let unknown {
            let known = asked.sorted().joined(separator: ", ")
            throw JSONShapeError(path: path(of: unknown), expected: "one of the known keys (\(known))",
                                 found: "an unknown key")
        }
    }

    /// An error for member `key`: expected `expected`, found `value`.
    package func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> JSONShapeError {
        JSONShapeError(path: path(of: key), expected: expected, found: value.shapeDescription)
    }
}
