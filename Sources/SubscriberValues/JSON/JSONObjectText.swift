/// The text of a non-empty JSON object exactly as the serializer writes it (compact: no whitespace,
/// only `"`, `\` and control characters escaped, each as the serializer escapes it, numbers in
/// their shortest form, unique keys, valid UTF-8): what the SDK sends as a log call's attributes.
/// Text in that form can be passed on as it is — parsing it and serializing the object again
/// gives the same bytes — so the host keeps a plugin's attributes as this text and writes them
/// without building them (``object`` builds them when someone asks).
///
/// ``init(checking:)`` accepts only that form; anything else (whitespace, other escapes, another
/// form of a number, deep nesting, many keys, invalid JSON) is nil, and the caller parses it the
/// ordinary way, which reports what is wrong. Linear: keys are compared with the few before them
/// (at most ``memberLimit``), each number read once.
package struct JSONObjectText: Sendable, Hashable {
    /// The text.
    package let bytes: [UInt8]

    /// The deepest nesting checked here (the parser allows 512).
    static let depthLimit = 64
    /// The most members an object may have here (keys are compared with those before them).
    static let memberLimit = 32

    /// `bytes` when they are a non-empty object in the serializer's form; nil otherwise.
    package init?(checking bytes: UnsafeBufferPointer<UInt8>) {
        var checker = Checker(bytes: UnsafeRawBufferPointer(bytes))
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "{"), checker.value(depth: 0), checker.index == bytes.count else { return nil }
        self.bytes = Array(bytes)
    }

    /// The object, built.
    package var object: JSONObject { (try? JSONValue(parsing: bytes))?.objectValue ?? JSONObject() }

    /// Checks one value at `index` in the serializer's form, and moves past it.
    private struct Checker {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        @inline(__always)
        func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

        mutating func value(depth: Int) -> Bool {
            switch byte(index) {
            case UInt8(ascii: "{"):
                guard depth < JSONObjectText.depthLimit else { return false }
                index += 1
                if byte(index) == UInt8(ascii: "}") {
                    index += 1
                    return true
                }
                var keys: [Range<Int>] = []
                while true {
                    let start = index
                    guard keys.count < JSONObjectText.memberLimit, string() else { return false }
                    let key = start..<index
                    for other in keys where other.count == key.count && bytes[other].elementsEqual(bytes[key]) { return false }
                    keys.append(key)
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

        /// A number as the serializer writes it: a whole number of up to 15 digits as it is, any
        /// other read as a Double and written again (the shortest digits that read back).
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

        /// A string with only what the serializer escapes escaped, as it escapes it.
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
                        // \u00XX, lowercase, for a control character without a short escape.
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

        /// A lowercase hex digit's value.
        static func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            default: nil
            }
        }
    }
}
