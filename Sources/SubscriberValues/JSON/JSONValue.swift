/// A JSON value. Dictionaries that cross the plugin boundary (launch options, `userInfo`,
/// attributes, options) travel as JSON text; this is their Swift form on either side.
///
/// Objects keep their keys' order as written, so output is stable and diffable.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON numbers are doubles).
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object(JSONObject)
}

/// A JSON object: ordered key/value pairs, looked up by key.
public struct JSONObject: Sendable, Hashable {
    /// The members in order. Keys are unique.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// An empty object.
    public init() { members = [] }

    /// An object with `members`; a repeated key keeps its last value, in its first position.
    public init(_ members: [(String, JSONValue)]) {
        // Storage for them all at once, each key compared with those kept before it: through the
        // subscript's setter, a literal's members grew the array one at a time (an allocation for
        // each of the first few) and were each looked up through a closure, about 1,050
        // instructions for a plugin's one- to three-member attributes.
        var kept: [(key: String, value: JSONValue)] = []
        kept.reserveCapacity(members.count)
        for (key, value) in members {
            var index = 0
            while index < kept.count && kept[index].key != key { index += 1 }
            if index < kept.count {
                kept[index].value = value
            } else {
                kept.append((key, value))
            }
        }
        self.members = kept
    }

    /// An object whose members' keys are already known to be unique (the parser checked them):
    /// O(n), where ``init(_:)`` is O(n²).
    package init(uniqueMembers members: [(key: String, value: JSONValue)]) { self.members = members }

    /// The value for `key`, or nil. Setting nil removes the key.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }
    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }
    /// The number of members.
    public var count: Int { members.count }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}

extension JSONValue {
    /// The string, when this is a string.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The boolean, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The number, when this is a number.
    public var doubleValue: Double? { if case .number(let value) = self { value } else { nil } }
    /// The number, when this is a number with no fractional part that fits an Int.
    public var intValue: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The object, when this is an object.
    public var objectValue: JSONObject? { if case .object(let value) = self { value } else { nil } }
    /// Member lookup when this is an object; nil otherwise.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }
}
