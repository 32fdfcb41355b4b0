import SubscriberKit
import SubscriberEventModel

/// Random JSON text: always valid JSON (the host serialises what it hands over), but of every
/// unusual shape a plugin might not expect.
struct FuzzJSON {
    var generator: SeededGenerator

    /// A JSON object of the given kind, as text.
    mutating func object(_ kind: FuzzValues.JSONKind) -> String {
        switch kind {
        case .emptyObject:
            return "{}"
        case .huge:
            let members = (0..<256).map { #""key\#($0)": "\#(String(repeating: "x", count: 1_000))""# }
            return "{" + members.joined(separator: ",") + "}"
        case .deep:
            let depth = FuzzValues.deepNesting
            return #"{"aps": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        case .unicode:
            return JSONValue.object([
                "\u{202E}reversed": .string("\u{1F600}\u{0301}\u{FFFD}\u{0000}"), "": .string(""), "aps": .string("\u{10FFFF}"),
                "articles": .array([.string("\u{D7FF}"), .string(String(repeating: "é", count: 300))]),
            ]).serialized()
        case .numbers:
            return #"{"a": 1e308, "b": -1e308, "c": 123456789012345678901234567890, "d": -0, "e": 5e-324, "articles": [0.1, -1, 1.7976931348623157e308]}"#
        case .random:
            return JSONValue.object(randomObject(depth: 4)).serialized()
        }
    }

    /// Any JSON value's text, up to `depth` levels deep.
    mutating func value(depth: Int) -> String {
        randomValue(depth: depth).serialized()
    }

    private mutating func randomObject(depth: Int) -> JSONObject {
        var object = JSONObject()
        let keys = ["aps", "articles", "error", "url", "id", "userInfo", "", "type", "\u{1F4A9}"]
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            let key = Bool.random(using: &generator) ? keys.randomElement(using: &generator)!
                : FuzzURL.unicodeText(length: Int.random(in: 1...12, using: &generator), using: &generator)
            object[key] = randomValue(depth: depth - 1)
        }
        return object
    }

    private mutating func randomValue(depth: Int) -> JSONValue {
        let choice = Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &generator)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            let numbers: [Double] = [0, -1, 42, 1e300, -1e-300, Double(Int64.max), 0.5]
            return .number(Bool.random(using: &generator) ? numbers.randomElement(using: &generator)!
                           : Double(Int32(truncatingIfNeeded: generator.next())))
        case 3, 4:
            return .string(Bool.random(using: &generator) ? FuzzURL.random(using: &generator)
                           : FuzzURL.unicodeText(length: Int.random(in: 0...30, using: &generator), using: &generator))
        case 5, 6:
            return .array((0..<Int.random(in: 0...5, using: &generator)).map { _ in randomValue(depth: depth - 1) })
        default:
            return .object(randomObject(depth: depth - 1))
        }
    }
}

/// Random URL-ish strings: well-formed ones with odd parts, and near misses.
enum FuzzURL {
    /// A random URL.
    static func random(using generator: inout SeededGenerator) -> String {
        let schemes = ["https", "http", "news", "myapp", "file", "mailto", "javascript", "data", "", "HTTPS", "x-\u{E9}"]
        let hosts = ["news.example.com", "example.com", "", "xn--bcher-kva.example", "b\u{FC}cher.example", "127.0.0.1",
                     "[::1]", "user:pass@host", "a.b.c.d.e.f.g", "host:99999", "%00", "news.example.com."]
        let segments = ["article", "42", "", "..", ".", "%2F", "%ZZ", "a b", "\u{1F600}", "article%00", "?", "#",
                        String(repeating: "a", count: 300), "\u{202E}", "%E2%82"]
        let scheme = schemes.randomElement(using: &generator)!
        let separator = ["://", ":", ":///", "//", ""].randomElement(using: &generator)!
        var url = scheme + separator + hosts.randomElement(using: &generator)!
        for _ in 0..<Int.random(in: 0...5, using: &generator) { url += "/" + segments.randomElement(using: &generator)! }
        if Bool.random(using: &generator) {
            url += "?" + (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                segments.randomElement(using: &generator)! + "=" + segments.randomElement(using: &generator)!
            }.joined(separator: "&")
        }
        if Int.random(in: 0..<4, using: &generator) == 0 { url += "#" + segments.randomElement(using: &generator)! }
        return url
    }

    /// `length` random Unicode scalars: ASCII, accents, combining marks, bidi controls, emoji, CJK.
    static func unicodeText(length: Int, using generator: inout SeededGenerator) -> String {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x17F, 0x300...0x36F, 0x200B...0x202E, 0x1F600...0x1F64F,
                                             0x4E00...0x4FFF, 0x1...0x1F, 0xFFF0...0xFFFD]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let range = ranges.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
