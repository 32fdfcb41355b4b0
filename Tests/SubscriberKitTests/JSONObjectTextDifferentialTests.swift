import Testing
@testable import SubscriberValues

/// `JSONObjectText(checking:)` (one loop over the bytes) held against the recursive checker it
/// replaced (kept here as the reference) and against the parser and serializer, over a generated
/// corpus: valid texts in the serializer's form and near misses (whitespace, other escapes, other
/// forms of numbers, invalid UTF-8, repeated keys, too many members, nesting past the limit),
/// and every text with bytes altered.
@Suite("JSONObjectText: the byte check against the recursive reference")
struct JSONObjectTextDifferentialTests {
    /// A small deterministic generator (no wall clock, no global state).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
    }

    static let stringPieces: [[UInt8]] = [
        Array("a".utf8), Array("route".utf8), Array("article/0".utf8), Array("é".utf8), Array("€".utf8), Array("😀".utf8),
        Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\n"#.utf8), Array(#"\t"#.utf8), Array(#"\b"#.utf8), Array(#"\f"#.utf8),
        Array(#"\r"#.utf8), Array(#"\u0001"#.utf8), Array(#"\u001f"#.utf8), Array(#"\u001F"#.utf8), Array(#"\u000a"#.utf8),
        Array(#"\u00e9"#.utf8), Array(#"\/"#.utf8), Array(#"\x"#.utf8), [0x01], [0x7F], [0x80], [0xC3], [0xC3, 0xA9], [0xED, 0xA0, 0x80],
        [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80, 0x80], Array("abcdefghijklmnop".utf8), Array("0123456789abcdefghij".utf8),
    ]

    static let numbers: [String] = [
        "0", "-0", "1", "-1", "12", "123456789012345", "1234567890123456", "01", "-01", "1.5", "0.1", "-0.25", "1.0", "1.50",
        "0.0001", "0.00001", "1e2", "1E2", "1e-7", "1.5e300", "1795855651.0348196", "1795788093.4646502", "0.30000000000000004",
        "0.3", "123.456", "-", "1.", ".5", "1e", "+1", "1-", "9007199254740993", "1e400", "5e-324", "100000000000000000000",
    ]

    static func string(_ g: inout Generator) -> [UInt8] {
        var bytes: [UInt8] = [0x22]
        for _ in 0..<g.below(4) { bytes += g.pick(stringPieces) }
        bytes.append(0x22)
        return bytes
    }

    static func value(_ g: inout Generator, depth: Int, keys: [[UInt8]]) -> [UInt8] {
        switch g.below(depth > 3 ? 6 : 9) {
        case 0: return Array("true".utf8)
        case 1: return g.pick([Array("false".utf8), Array("null".utf8), Array("nul".utf8), Array("tru".utf8)])
        case 2, 3: return Array(g.pick(numbers).utf8)
        case 4, 5: return string(&g)
        case 6: return array(&g, depth: depth + 1, keys: keys)
        default: return object(&g, depth: depth + 1, keys: keys)
        }
    }

    static func array(_ g: inout Generator, depth: Int, keys: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = [0x5B]
        for index in 0..<g.below(4) {
            if index > 0 { bytes.append(0x2C) }
            bytes += value(&g, depth: depth, keys: keys)
        }
        bytes.append(0x5D)
        return bytes
    }

    static func object(_ g: inout Generator, depth: Int, keys: [[UInt8]], members: Int? = nil) -> [UInt8] {
        var bytes: [UInt8] = [0x7B]
        let count = members ?? g.pick([0, 1, 1, 2, 3, 5])
        for index in 0..<count {
            if index > 0 { bytes.append(0x2C) }
            bytes += keys[g.below(keys.count)]
            bytes.append(0x3A)
            bytes += value(&g, depth: depth, keys: keys)
        }
        bytes.append(0x7D)
        return bytes
    }

    /// `levels` objects, each inside the last member of the one around it (every key of the outer ones open).
    static func nested(_ levels: Int, members: Int) -> [UInt8] {
        var text: [UInt8] = Array("1".utf8)
        for _ in 0..<levels {
            var object: [UInt8] = [0x7B]
            for index in 0..<members {
                if index > 0 { object.append(0x2C) }
                object += Array("\"k\(index)\":".utf8)
                object += index == members - 1 ? text : Array("[]".utf8)
            }
            text = object + [0x7D]
        }
        return text
    }

    static func accepted(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { JSONObjectText(checking: $0) } != nil
    }

    /// Checks one text against the reference, and what is kept against the parser and serializer.
    static func agree(_ bytes: [UInt8]) -> Bool {
        let new = accepted(bytes)
        let reference = bytes.withUnsafeBytes { ReferenceChecker.accepts($0) }
        guard new == reference else { return false }
        guard new else { return true }
        return (try? JSONValue(parsing: bytes))?.serializedBytes() == bytes
    }

    @Test("a generated corpus of objects, valid and near misses, and each with bytes altered: accepted exactly when the reference accepts, and what is kept serializes to itself")
    func corpus() {
        var g = Generator(state: 0x5EED_0F_7E57)
        var texts: [[UInt8]] = []
        let keys = [Array(#""a""#.utf8), Array(#""b""#.utf8), Array(#""route""#.utf8), Array(#""é""#.utf8), Array(#""\n""#.utf8),
                    Array(#""""#.utf8), Array(#""a\u0001""#.utf8), Array(#""\u00e9""#.utf8)]
        for _ in 0..<4_000 { texts.append(Self.object(&g, depth: 0, keys: keys)) }
        // The member limit and the depth limit, at and past them; many keys open at once (more
        // than the check keeps on the stack).
        for members in [1, 2, 31, 32, 33] {
            let many = (0..<members).map { Array("\"k\($0)\"".utf8) }
            texts.append(Self.object(&g, depth: 0, keys: many, members: members))
            texts.append(Self.nested(3, members: members))
        }
        for levels in [1, 2, 63, 64, 65, 70] { texts.append(Self.nested(levels, members: 2)) }
        texts.append(Self.nested(64, members: 32))
        texts.append(Self.nested(10, members: 32))
        var deepArray = Array(repeating: UInt8(ascii: "["), count: 63) + Array("1".utf8) + Array(repeating: UInt8(ascii: "]"), count: 63)
        texts.append(Array(#"{"a":"#.utf8) + deepArray + [0x7D])
        deepArray = [0x5B] + deepArray + [0x5D]
        texts.append(Array(#"{"a":"#.utf8) + deepArray + [0x7D])
        // Whitespace and what may follow.
        texts += [#"{"a":1}"#, #"{ "a":1}"#, #"{"a" :1}"#, #"{"a":1 }"#, #"{"a":1} "#, #"{"a":1}x"#, #"{"a":1,}"#, #"{,"a":1}"#, "{}", "{",
                  #"{"a"}"#, #"{"a":}"#, #"{"a":1"#, #"{"a":[1,]}"#, #"{"a":[,1]}"#, #"{"a":{"b":1}}"#, #"{"a":{"b":1},"a":2}"#,
                  #"{"a":{"a":1}}"#, #"{"a":1,"b":2,"a":3}"#, "[1]", "\"a\""].map { Array($0.utf8) }
        var agreed = 0, kept = 0
        for text in texts where Self.agree(text) {
            agreed += 1
            if Self.accepted(text) { kept += 1 }
        }
        #expect(agreed == texts.count)
        #expect(kept > 500 && kept < texts.count)
        // Every text with one byte altered, for a slice of the corpus.
        let replacements: [UInt8] = Array(#"0 9 . e - " \ u { } [ ] , : a n"#.utf8) + [0x00, 0x01, 0x7F, 0x80, 0xC3, 0xFF]
        var altered = 0, disagreements: [String] = []
        for text in texts.prefix(300) {
            for position in text.indices {
                var changed = text
                changed[position] = replacements[(position &* 7 &+ text.count) % replacements.count]
                altered += 1
                if !Self.agree(changed) { disagreements.append(String(decoding: changed, as: UTF8.self)) }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(altered > 1_000)
    }
}

/// The recursive checker `JSONObjectText(checking:)` used before (2026-11-28), as it was: the
/// reference the byte check is held against.
private struct ReferenceChecker {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    static func accepts(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var checker = ReferenceChecker(bytes: bytes)
        return bytes.count > 2 && bytes[0] == UInt8(ascii: "{") && checker.value(depth: 0) && checker.index == bytes.count
    }

    func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

    private mutating func members(depth: Int, keys: UnsafeMutableBufferPointer<Range<Int>>) -> Bool {
        var count = 0
        while true {
            let start = index
            guard count < keys.count, string() else { return false }
            let key = start..<index
            for other in keys[..<count] where other.count == key.count && bytes[other].elementsEqual(bytes[key]) {
                return false
            }
            keys.initializeElement(at: count, to: key)
            count += 1
            guard byte(index) == UInt8(ascii: ":") else { return false }
            index += 1
            guard value(depth: depth + 1) else { return false }
            switch byte(index) {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return true
            default: return false
            }
        }
    }

    mutating func value(depth: Int) -> Bool {
        switch byte(index) {
        case UInt8(ascii: "{"):
            guard depth < JSONObjectText.depthLimit else { return false }
            index += 1
            if byte(index) == UInt8(ascii: "}") {
                index += 1
                return true
            }
            return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: JSONObjectText.memberLimit) {
                members(depth: depth, keys: $0)
            }
        case UInt8(ascii: "["):
            guard depth < JSONObjectText.depthLimit else { return false }
            index += 1
            if byte(index) == UInt8(ascii: "]") {
                index += 1
                return true
            }
            while true {
                guard value(depth: depth + 1) else { return false }
                switch byte(index) {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return true
                default: return false
                }
            }
        case UInt8(ascii: "\""):
            return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return number()
        default:
            return false
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        for k in 0..<length where bytes[index + k] != word.utf8Start[k] { return false }
        index += length
        return true
    }

    mutating func number() -> Bool {
        let start = index
        var wholeDigits = 0
        if byte(index) == UInt8(ascii: "-") { index += 1 }
        while byte(index) &- UInt8(ascii: "0") < 10 {
            index += 1
            wholeDigits += 1
        }
        let leadingZero = byte(index - wholeDigits) == UInt8(ascii: "0") && wholeDigits > 1
        switch byte(index) {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
            break
        default:
            if wholeDigits >= 1 && wholeDigits <= 15 && !leadingZero { return true }
        }
        if byte(index) == UInt8(ascii: "."), let end = JSONObjectText.shortestFraction(bytes, start: start, point: index) {
            index = end
            return true
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"):
                index += 1
                continue
            default:
                break
            }
            break
        }
        let token = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        var parser = _JSONParser(token)
        guard let number = try? parser.parseNumber(), parser.index == token.count else { return false }
        var writer = JSONWriter(sortedKeys: false, pretty: false)
        writer.writeNumber(number)
        return writer.output.elementsEqual(token)
    }

    mutating func string() -> Bool {
        guard byte(index) == UInt8(ascii: "\"") else { return false }
        var i = index + 1
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                index = i + 1
                return true
            }
            if b < 0x20 { return false }
            if b == UInt8(ascii: "\\") {
                switch byte(i + 1) {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"),
                     UInt8(ascii: "b"), UInt8(ascii: "f"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard byte(i + 2) == UInt8(ascii: "0"), byte(i + 3) == UInt8(ascii: "0"),
                          let high = Self.hex(byte(i + 4)), high < 2, let low = Self.hex(byte(i + 5)) else { return false }
                    switch high << 4 | low {
                    case 0x08, 0x09, 0x0A, 0x0C, 0x0D: return false
                    default: i += 6
                    }
                default:
                    return false
                }
            } else if b < 0x80 {
                i += 1
            } else if let length = _JSONParser.utf8SequenceLength(bytes, at: i) {
                i += length
            } else {
                return false
            }
        }
        return false
    }

    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
