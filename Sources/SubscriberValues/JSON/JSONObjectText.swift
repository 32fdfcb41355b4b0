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
        guard bytes.count > 2, let base = bytes.baseAddress, base[0] == UInt8(ascii: "{"),
              Self.isSerializerForm(base, count: bytes.count) else { return nil }
        // (Not `Array(unsafeUninitializedCapacity:)`: its buffer is made by generic code, about 560
        // instructions against 150.)
        self.bytes = Array(bytes)
    }

    /// How many keys of open objects are kept on the stack (1 KB); more (deep objects with many
    /// keys each) are checked again with room for the most there can be, on the heap.
    private static let keysOnStack = 64

    /// Whether the `count` bytes at `base` (starting with `{`) are one value in the serializer's
    /// form and nothing else: one loop over the bytes, no recursion, the open containers and the
    /// keys of the open objects on two stacks of fixed size (nothing allocated but for more than
    /// ``keysOnStack`` keys open at once).
    private static func isSerializerForm(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        // Each open container: the index in `keys` where its keys start, or -1 for an array.
        let onStack = withUnsafeTemporaryAllocation(of: Int.self, capacity: depthLimit) { containers in
            withUnsafeTemporaryAllocation(of: (start: Int, count: Int).self, capacity: keysOnStack) { keys in
                check(base, count: count, containers: containers.baseAddress!, keys: keys.baseAddress!, keyRoom: keysOnStack)
            }
        }
        if let onStack { return onStack }
        let containers = UnsafeMutablePointer<Int>.allocate(capacity: depthLimit)
        let keys = UnsafeMutablePointer<(start: Int, count: Int)>.allocate(capacity: depthLimit * memberLimit)
        defer {
            containers.deallocate()
            keys.deallocate()
        }
        return check(base, count: count, containers: containers, keys: keys, keyRoom: depthLimit * memberLimit) ?? false
    }

    /// The check; nil when more than `keyRoom` keys are open at once.
    private static func check(_ base: UnsafePointer<UInt8>, count: Int, containers: UnsafeMutablePointer<Int>,
                              keys: UnsafeMutablePointer<(start: Int, count: Int)>, keyRoom: Int) -> Bool? {
        @inline(__always) func byte(_ i: Int) -> UInt8 { i < count ? base[i] : 0 }
        var i = 0
        var depth = 0  // open containers
        var keyCount = 0  // keys of the open objects
        // true: a value is expected at `i`; false: a value just ended, a separator or an end is expected.
        var expectsValue = true
        while true {
            if expectsValue {
                switch byte(i) {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let object = base[i] == UInt8(ascii: "{")
                    guard depth < depthLimit else { return false }
                    i += 1
                    if byte(i) == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        i += 1
                        expectsValue = false
                        continue
                    }
                    containers[depth] = object ? keyCount : -1
                    depth += 1
                    // An array's first element is a value; an object's first member starts with its key.
                    if object {
                        guard keyCount < keyRoom else { return nil }
                        guard member(base, count: count, at: &i, keys: keys, from: keyCount, to: &keyCount) else { return false }
                    }
                    continue
                case UInt8(ascii: "\""):
                    guard let end = string(base, count: count, at: i) else { return false }
                    i = end
                case UInt8(ascii: "t"):
                    guard literal(base, count: count, at: i, "true") else { return false }
                    i += 4
                case UInt8(ascii: "f"):
                    guard literal(base, count: count, at: i, "false") else { return false }
                    i += 5
                case UInt8(ascii: "n"):
                    guard literal(base, count: count, at: i, "null") else { return false }
                    i += 4
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard let end = number(base, count: count, at: i) else { return false }
                    i = end
                default:
                    return false
                }
                expectsValue = false
                continue
            }
            // After a value: the end of the text, or what follows it in its container.
            guard depth > 0 else { return i == count }
            let keysStart = containers[depth - 1]
            switch byte(i) {
            case UInt8(ascii: ","):
                i += 1
                if keysStart >= 0 {
                    guard keyCount < keyRoom else { return nil }
                    guard member(base, count: count, at: &i, keys: keys, from: keysStart, to: &keyCount) else { return false }
                }
                expectsValue = true
            case UInt8(ascii: "}") where keysStart >= 0:
                i += 1
                keyCount = keysStart
                depth -= 1
            case UInt8(ascii: "]") where keysStart < 0:
                i += 1
                depth -= 1
            default:
                return false
            }
        }
    }

    /// A member's key at `i` and its colon: the key is new among the object's keys so far
    /// (`keys[from..<to]`, fewer than ``memberLimit``) and kept; `i` moves to the member's value.
    @inline(__always)
    private static func member(_ base: UnsafePointer<UInt8>, count: Int, at i: inout Int,
                               keys: UnsafeMutablePointer<(start: Int, count: Int)>, from: Int, to: inout Int) -> Bool {
        guard to - from < memberLimit, i < count, base[i] == UInt8(ascii: "\""),
              let end = string(base, count: count, at: i) else { return false }
        let key = (start: i, count: end - i)
        var other = from
        while other < to {
            if keys[other].count == key.count && same(base + keys[other].start, base + key.start, count: key.count) { return false }
            other += 1
        }
        keys[to] = key
        to += 1
        guard end < count, base[end] == UInt8(ascii: ":") else { return false }
        i = end + 1
        return true
    }

    /// Whether `word` is at `i`.
    @inline(__always)
    private static func literal(_ base: UnsafePointer<UInt8>, count: Int, at i: Int, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        return i + length <= count && same(base + i, word.utf8Start, count: length)
    }

    /// Whether the `count` bytes at `a` and `b` are the same.
    @inline(__always)
    private static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        var k = 0
        while k < count {
            guard a[k] == b[k] else { return false }
            k += 1
        }
        return true
    }

    /// Where a number at `i` ends when it is written as the serializer writes it: a whole number
    /// of up to 15 digits as it is, a fraction told by ``shortestFraction(_:start:point:)``, any
    /// other read as a Double and written again (the shortest digits that read back); nil otherwise.
    private static func number(_ base: UnsafePointer<UInt8>, count: Int, at start: Int) -> Int? {
        @inline(__always) func byte(_ i: Int) -> UInt8 { i < count ? base[i] : 0 }
        var index = start
        var wholeDigits = 0
        if byte(index) == UInt8(ascii: "-") { index += 1 }
        while byte(index) &- UInt8(ascii: "0") < 10 {
            index += 1
            wholeDigits += 1
        }
        let leadingZero = wholeDigits > 1 && base[index - wholeDigits] == UInt8(ascii: "0")
        switch byte(index) {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
            break
        default:
            if wholeDigits >= 1 && wholeDigits <= 15 && !leadingZero { return index }
        }
        let all = UnsafeRawBufferPointer(start: base, count: count)
        if byte(index) == UInt8(ascii: "."), let end = shortestFraction(all, start: start, point: index) { return end }
        while index < count {
            switch base[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"):
                index += 1
                continue
            default:
                break
            }
            break
        }
        let token = UnsafeRawBufferPointer(rebasing: all[start..<index])
        var parser = _JSONParser(token)
        guard let number = try? parser.parseNumber(), parser.index == token.count else { return nil }
        var writer = JSONWriter(sortedKeys: false, pretty: false)
        writer.writeNumber(number)
        return writer.output.elementsEqual(token) ? index : nil
    }

    /// Where a string at `i` (its opening quote) ends, past its closing quote, when only what the
    /// serializer escapes is escaped, as it escapes it, and it is valid UTF-8; nil otherwise.
    @inline(__always)
    private static func string(_ base: UnsafePointer<UInt8>, count: Int, at start: Int) -> Int? {
        @inline(__always) func byte(_ i: Int) -> UInt8 { i < count ? base[i] : 0 }
        var i = start + 1
        while i < count {
            // Eight bytes at a time while none is a quote, a backslash, a control character or
            // past ASCII; then straight to the first that is (the lowest bit set is its high bit:
            // the bytes before it are not looked at one by one, nor their words loaded again).
            while i + 8 <= count {
                let word = JSONWord.load(base + i)
                let found = JSONWord.escaped(word) | (word & JSONWord.highs)
                if found != 0 {
                    i += found.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < count else { return nil }
            let b = base[i]
            if b == UInt8(ascii: "\"") { return i + 1 }
            if b < 0x20 { return nil }
            if b == UInt8(ascii: "\\") {
                switch byte(i + 1) {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"),
                     UInt8(ascii: "b"), UInt8(ascii: "f"):
                    i += 2
                case UInt8(ascii: "u"):
                    // \u00XX, lowercase, for a control character without a short escape.
                    guard byte(i + 2) == UInt8(ascii: "0"), byte(i + 3) == UInt8(ascii: "0"),
                          let high = hex(byte(i + 4)), high < 2, let low = hex(byte(i + 5)) else { return nil }
                    switch high << 4 | low {
                    case 0x08, 0x09, 0x0A, 0x0C, 0x0D: return nil
                    default: i += 6
                    }
                default:
                    return nil
                }
            } else if b < 0x80 {
                i += 1
            } else if let length = _JSONParser.utf8SequenceLength(UnsafeRawBufferPointer(start: base, count: count), at: i) {
                i += length
            } else {
                return nil
            }
        }
        return nil
    }

    /// The object, built.
    package var object: JSONObject { (try? JSONValue(parsing: bytes))?.objectValue ?? JSONObject() }

    /// Whether `text` (a whole number with a fraction) is told to be the serializer's form without
    /// reading and writing it (the check's fast path; false: left to the parser).
    static func isShortestFraction(_ text: [UInt8]) -> Bool {
        text.withUnsafeBytes { bytes in
            guard let point = bytes.firstIndex(of: UInt8(ascii: ".")), point > 0 else { return false }
            return shortestFraction(bytes, start: 0, point: point) == bytes.count
        }
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

    /// A lowercase hex digit's value.
    static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
