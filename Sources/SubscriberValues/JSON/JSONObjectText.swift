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

    /// Whether `text` (a whole number with a fraction) is told to be the serializer's form without
    /// reading and writing it (the check's fast path; false: left to the parser).
    static func isShortestFraction(_ text: [UInt8]) -> Bool {
        text.withUnsafeBytes { bytes in
            guard let point = bytes.firstIndex(of: UInt8(ascii: ".")), point > 0 else { return false }
            return Checker.shortestFraction(bytes, start: 0, point: point) == bytes.count
        }
    }

    /// Checks one value at `index` in the serializer's form, and moves past it.
    private struct Checker {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        @inline(__always)
        func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

        /// An object's members from `index` (past its `{`, at least one) to past its `}`, each key
        /// compared with those before it, kept in `keys`.
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
                // The keys so far, on the stack (at most memberLimit: 512 bytes a level): an array
                // for them was an allocation for every object a plugin logged.
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
            if byte(index) == UInt8(ascii: "."), let end = Self.shortestFraction(bytes, start: start, point: index) {
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

        /// Where a number with a fraction ends when its text is exactly what the serializer writes
        /// for the Double it reads as, told without reading it as a Double and writing that again.
        /// The serializer writes Swift's description: for a non-integer of at least 0.0001, decimal
        /// notation of the shortest digits that read back as the Double and, among as many digits,
        /// the closest to it. So the text is the serializer's when it is that notation (at most 17
        /// significant digits, 20 after the point, no trailing zero) and, held exactly against the
        /// Double `x` it reads as (integers of 128 bits, the serializer's writer's own rule,
        /// ``ShortestDigits``): it lies strictly inside `x`'s rounding interval; no text of one
        /// digit fewer lies in that interval, so no shorter text reads back; and it is the nearest
        /// text of its length to `x`.
        /// Nil for any other text (an exponent, more digits, a tie or an interval's end): the caller
        /// reads it and writes it again, as before.
        static func shortestFraction(_ bytes: UnsafeRawBufferPointer, start: Int, point: Int) -> Int? {
            var i = start
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            // One digit or more before the point, no leading zero.
            guard i < point, bytes[i] != UInt8(ascii: "0") || i + 1 == point else { return nil }
            // The digits before the point (``number()`` read them), then after it; at most 17
            // significant (the mantissa below 10^17), at most 20 after the point.
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var mantissa: UInt64 = 0
            while i < point {
                mantissa = mantissa &* 10 &+ UInt64(base[i] &- UInt8(ascii: "0"))
                i += 1
                guard mantissa < 100_000_000_000_000_000 else { return nil }
            }
            i += 1
            let fractionStart = i
            while i < bytes.count {
                let digit = base[i] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                i += 1
                guard mantissa < 100_000_000_000_000_000, i - fractionStart <= 20 else { return nil }
            }
            let fractionDigits = i - fractionStart
            guard fractionDigits >= 1, base[i - 1] != UInt8(ascii: "0") else { return nil }
            if i < bytes.count {
                switch base[i] {
                case UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): return nil
                default: break
                }
            }
            // At least 0.0001 (at most three zeros after "0."): Swift writes smaller numbers with an exponent.
            guard fractionDigits <= 4 || mantissa >= ShortestDigits.power(fractionDigits - 4) else { return nil }
            // Held against the Double it reads as by the serializer's own writer's rule (``ShortestDigits``).
            return ShortestDigits.isShortest(mantissa: mantissa, fractionDigits: fractionDigits) ? i : nil
        }

        /// A string with only what the serializer escapes escaped, as it escapes it.
        mutating func string() -> Bool {
            guard byte(index) == UInt8(ascii: "\"") else { return false }
            var i = index + 1
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            while i < bytes.count {
                // Eight bytes at a time while none is a quote, a backslash, a control character or
                // past ASCII (those are looked at one by one).
                while i + 8 <= bytes.count {
                    let word = JSONWord.load(base + i)
                    guard JSONWord.escaped(word) | (word & JSONWord.highs) == 0 else { break }
                    i += 8
                }
                guard i < bytes.count else { return false }
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
