/// Hostile values for one fuzz case: strings of any bytes (empty, huge, invalid UTF-8, NUL inside,
/// random URLs and text) and valid but unusual JSON (deep, huge, odd numbers and keys). Each value
/// is described in a few words, so that a crash names the input that caused it.
///
/// A case is either an edge case (`edge` set: every field gets that edge kind) or random (every
/// field draws its own kind from the generator).
struct FuzzValues {
    /// 256 KiB: far over any sane buffer (a URL, a device token), small enough to stay fast.
    static let hugeLength = 256 << 10
    /// Nesting beyond the SDK parser's limit of 512.
    static let deepNesting = 600

    /// The edge kinds of a string field, one per edge case.
    static let stringEdges: [StringKind] = [.empty, .huge, .invalidUTF8, .embeddedNUL, .url, .text, .longURL]
    /// The edge kinds of a JSON field, one per edge case (cycled when there are more cases).
    static let jsonEdges: [JSONKind] = [.emptyObject, .huge, .deep, .unicode, .random, .numbers, .random]
    /// How many edge cases a fuzzed entry gets before the random ones.
    static var edgeCount: Int { max(stringEdges.count, jsonEdges.count) }

    enum StringKind: CaseIterable { case empty, huge, invalidUTF8, embeddedNUL, url, text, longURL }
    enum JSONKind: CaseIterable { case emptyObject, huge, deep, unicode, random, numbers }

    /// What random cases draw from: the cheap kinds, often; the megabyte ones are edge cases only,
    /// so that a run stays in seconds.
    static let randomStrings: [StringKind] = [.empty, .invalidUTF8, .invalidUTF8, .embeddedNUL, .url, .url, .text, .text]
    static let randomJSON: [JSONKind] = [.emptyObject, .unicode, .random, .random, .random, .numbers]

    var generator: SeededGenerator
    /// The edge case index, or nil for a random case.
    let edge: Int?
    /// "url: invalid UTF-8 (23 bytes)", one per field drawn so far.
    private(set) var described: [String] = []

    init(generator: SeededGenerator, edge: Int?) {
        self.generator = generator
        self.edge = edge
    }

    // MARK: Fields

    /// Text of any bytes; URL fields lean towards URLs when random.
    mutating func text(_ field: String, url: Bool = false) -> [UInt8] {
        let kind: StringKind
        if let edge {
            kind = Self.stringEdges[edge % Self.stringEdges.count]
        } else if url, Bool.random(using: &generator) {
            kind = .url
        } else {
            kind = Self.randomStrings.randomElement(using: &generator)!
        }
        let bytes = makeText(kind)
        described.append("\(field): \(Self.describe(bytes))")
        return bytes
    }

    /// Text, or absent (nil) in some random cases, for fields the header lets be absent.
    mutating func optionalText(_ field: String, url: Bool = false) -> [UInt8]? {
        if edge == nil, Int.random(in: 0..<4, using: &generator) == 0 {
            described.append("\(field): absent")
            return nil
        }
        return text(field, url: url)
    }

    /// A JSON object's text.
    mutating func jsonObject(_ field: String) -> [UInt8] {
        let kind = edge.map { Self.jsonEdges[$0 % Self.jsonEdges.count] } ?? Self.randomJSON.randomElement(using: &generator)!
        var json = FuzzJSON(generator: generator)
        let text = json.object(kind)
        generator = json.generator
        described.append("\(field): \(kind) JSON, \(text.utf8.count) bytes")
        return Array(text.utf8)
    }

    /// A JSON object's text, or absent (nil) in some random cases.
    mutating func optionalJSONObject(_ field: String) -> [UInt8]? {
        if edge == nil, Int.random(in: 0..<4, using: &generator) == 0 {
            described.append("\(field): absent")
            return nil
        }
        return jsonObject(field)
    }

    /// Any JSON value's text, or absent in some random cases.
    mutating func jsonValue(_ field: String) -> [UInt8]? {
        guard edge == nil else { return jsonObject(field) }
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            described.append("\(field): absent")
            return nil
        case 1:
            var json = FuzzJSON(generator: generator)
            let text = json.value(depth: 3)
            generator = json.generator
            described.append("\(field): \(Self.describe(Array(text.utf8)))")
            return Array(text.utf8)
        default:
            return jsonObject(field)
        }
    }

    /// A 64-bit integer: extremes in edge cases, anything when random.
    mutating func integer(_ field: String) -> Int64 {
        let extremes: [Int64] = [0, -1, .min, .max, 1, Int64(Int32.max) + 1, -2]
        let value = edge.map { extremes[$0 % extremes.count] } ?? Int64(bitPattern: generator.next())
        described.append("\(field): \(value)")
        return value
    }

    /// A 32-bit value from `known` in some cases, anything otherwise (for enums the plugin must not
    /// trust, such as the idiom).
    mutating func raw32(_ field: String, known: [Int32]) -> Int32 {
        let extremes: [Int32] = [-2, 4, 99, .min, .max, 7, -1]
        let value: Int32
        if let edge {
            value = extremes[edge % extremes.count]
        } else if Bool.random(using: &generator) {
            value = known.randomElement(using: &generator)!
        } else {
            value = Int32(truncatingIfNeeded: generator.next())
        }
        described.append("\(field): \(value)")
        return value
    }

    /// One of `values` (for fields whose every value is legal).
    mutating func pick<T>(_ field: String, _ values: [T]) -> T {
        let value = edge.map { values[$0 % values.count] } ?? values.randomElement(using: &generator)!
        described.append("\(field): \(value)")
        return value
    }

    // MARK: Text

    private mutating func makeText(_ kind: StringKind) -> [UInt8] {
        switch kind {
        case .empty: return []
        case .huge: return Array(repeating: UInt8(ascii: "a"), count: Self.hugeLength)
        case .invalidUTF8: return invalidUTF8()
        case .embeddedNUL: return Array("news://article/4".utf8) + [0] + Array("2?x=\u{0}y".utf8)
        case .url: return Array(FuzzURL.random(using: &generator).utf8)
        case .text: return Array(FuzzURL.unicodeText(length: Int.random(in: 1...40, using: &generator), using: &generator).utf8)
        case .longURL: return Array(("https://news.example.com/" + String(repeating: "article/", count: 8_192)).utf8)
        }
    }

    /// Valid ASCII mixed with every classic invalid sequence.
    private mutating func invalidUTF8() -> [UInt8] {
        let invalid: [[UInt8]] = [
            [0xFF], [0xFE], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xC3],
        ]
        var bytes = Array("news://article/".utf8)
        for _ in 0..<Int.random(in: 1...8, using: &generator) {
            bytes += invalid.randomElement(using: &generator)!
            bytes += Array("x".utf8)
        }
        return bytes
    }

    /// A few words about `bytes`: its size and nature, and its start when short and printable.
    static func describe(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "empty" }
        if bytes.count > 4_096 { return "\(bytes.count) bytes" }
        if String(validating: bytes, as: UTF8.self) == nil { return "invalid UTF-8 (\(bytes.count) bytes)" }
        if bytes.contains(0) { return "NUL inside (\(bytes.count) bytes)" }
        if bytes.count > 80 { return "\(bytes.count) bytes" }
        let text = String(decoding: bytes, as: UTF8.self)
        return "\"\(text.unicodeScalars.map { $0.properties.isWhitespace || $0.value < 0x20 ? "·" : String($0) }.joined())\""
    }
}
