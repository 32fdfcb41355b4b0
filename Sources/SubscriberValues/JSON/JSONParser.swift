/// Why a JSON text could not be parsed: where, what the grammar wanted there, and what was there.
///
/// `line` and `column` are 1-based; the column counts Unicode scalars from the start of the line.
/// Lines end at LF, CRLF or a lone CR.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line of the offending input, from 1.
    public let line: Int
    /// The column of the offending input, from 1, in Unicode scalars.
    public let column: Int
    /// What the parser wanted at that point, e.g. `',' or '}' after an object member`.
    public let expected: String
    /// What it found there, e.g. `'x'`, `end of input`, `invalid UTF-8 byte 0xC3`.
    public let found: String

    /// An error at `line`, `column`.

    package init(line: Int, column: Int, expected: String, found: String) {
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
    }

    public var description: String { "line \(line), column \(column): expected \(expected), found \(found)" }
}

extension JSONValue {
    /// Parses one JSON text (RFC 8259, strictly): a single value, optionally surrounded by whitespace.
    ///
    /// Rejected: trailing commas, comments, leading zeros, `NaN`/`Infinity`, numbers beyond the range
    /// of `Double`, invalid escapes, lone surrogates, invalid UTF-8, unescaped control characters,
    /// duplicate keys in an object, nesting deeper than 512 arrays/objects, and anything after the value.
    public init(parsing text: String) throws(JSONParseError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = _JSONParser(UnsafeRawBufferPointer(buffer))
                return try parser.parseDocument()
            }
        }
        self = try result.get()
    }

    /// Parses one JSON text from UTF-8 bytes. See ``init(parsing:)-(String)``.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
        var parser = _JSONParser(bytes)
        self = try parser.parseDocument()
    }

    /// Parses one JSON text from UTF-8 bytes (`[UInt8]`, `ArraySlice<UInt8>`, `Data`, `String.UTF8View`, …).
    public init<C: Collection>(parsing bytes: C) throws(JSONParseError) where C.Element == UInt8 {
        let parse = { (buffer: UnsafeRawBufferPointer) -> Result<JSONValue, JSONParseError> in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = _JSONParser(buffer)
                return try parser.parseDocument()
            }
        }
        let result =
            bytes.withContiguousStorageIfAvailable { parse(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { parse($0) }
        self = try result.get()
    }
}

/// The deepest nesting of arrays and objects the parser accepts.
let jsonMaximumNestingDepth = 512

/// Exact powers of ten representable in a Double, for the fast number path.
let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

private enum ASCII {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22  // "
    static let plus: UInt8 = 0x2B  // +
    static let comma: UInt8 = 0x2C  // ,
    static let minus: UInt8 = 0x2D  // -
    static let period: UInt8 = 0x2E  // .
    static let slash: UInt8 = 0x2F  // /
    static let zero: UInt8 = 0x30  // 0
    static let nine: UInt8 = 0x39  // 9
    static let colon: UInt8 = 0x3A  // :
    static let openBracket: UInt8 = 0x5B  // [
    static let backslash: UInt8 = 0x5C  // \
    static let closeBracket: UInt8 = 0x5D  // ]
    static let openBrace: UInt8 = 0x7B  // {
    static let closeBrace: UInt8 = 0x7D  // }
    static let upperE: UInt8 = 0x45  // E
    static let lowerE: UInt8 = 0x65  // e
    static let lowerU: UInt8 = 0x75  // u
}

/// A recursive-descent parser over UTF-8 bytes. `bytes` must stay valid while it runs.
struct _JSONParser {
    let bytes: UnsafeRawBufferPointer
    let count: Int
    var index = 0
    var depth = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.count = bytes.count
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(expecting: "a value")
        skipWhitespace()
        if index < count { throw error(at: index, expected: "the end of input after the top-level value") }
        return value
    }

    // MARK: Bytes

    /// The byte at `i`, or 0 past the end (0 is never valid where it is tested).
    @inline(__always)
    func byte(_ i: Int) -> UInt8 { i < count ? bytes[i] : 0 }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- ASCII.zero < 10 }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count {
            switch bytes[index] {
            case ASCII.space, ASCII.lineFeed, ASCII.carriageReturn, ASCII.tab: index += 1
            default: return
            }
        }
    }

    // MARK: Values

    mutating func parseValue(expecting expected: String) throws(JSONParseError) -> JSONValue {
        switch byte(index) {
        case ASCII.openBrace: return try parseObject()
        case ASCII.openBracket: return try parseArray()
        case ASCII.quote: return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseLiteral("true", expected: expected)
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseLiteral("false", expected: expected)
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseLiteral("null", expected: expected)
            return .null
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return .number(try parseNumber())
        default:
            throw error(at: index, expected: expected)
        }
    }

    mutating func parseLiteral(_ literal: StaticString, expected: String) throws(JSONParseError) {
        let length = literal.utf8CodeUnitCount
        let matches = literal.withUTF8Buffer { word in
            guard index + length <= count else { return false }
            for k in 0..<length where bytes[index + k] != word[k] { return false }
            return true
        }
        guard matches else { throw error(at: index, expected: expected) }
        index += length
    }

    mutating func enterContainer(_ opener: Character) throws(JSONParseError) {
        depth += 1
        if depth > jsonMaximumNestingDepth {
            throw error(
                at: index, expected: "at most \(jsonMaximumNestingDepth) levels of nesting",
                found: "'\(opener)' at depth \(depth)")
        }
        index += 1
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer("[")
        skipWhitespace()
        var elements: [JSONValue] = []
        if byte(index) == ASCII.closeBracket {
            index += 1
            depth -= 1
            return .array(elements)
        }
        var expected = "a value or ']'"
        while true {
            elements.append(try parseValue(expecting: expected))
            skipWhitespace()
            switch byte(index) {
            case ASCII.comma:
                index += 1
                skipWhitespace()
                expected = "a value after ','"
            case ASCII.closeBracket:
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw error(at: index, expected: "',' or ']' after an array element")
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer("{")
        skipWhitespace()
        // Labelled like JSONObject's own members: an unlabelled array would be converted element by
        // element through the runtime's dynamic cast (and instantiate a second array type).
        var members: [(key: String, value: JSONValue)] = []
        if byte(index) == ASCII.closeBrace {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        var expected = "a quoted key or '}'"
        var seen: Set<String>? = nil  // built once the object is large enough that a linear scan hurts
        while true {
            guard byte(index) == ASCII.quote else { throw error(at: index, expected: expected) }
            let keyStart = index
            let key = try parseString()
            let duplicate: Bool
            if seen != nil {
                duplicate = !seen!.insert(key).inserted
            } else {
                duplicate = members.contains { $0.key == key }
                if members.count >= 16 { seen = Set(members.lazy.map(\.key)); seen!.insert(key) }
            }
            if duplicate {
                throw error(at: keyStart, expected: "a unique key", found: "duplicate key \(JSONWriter.quoted(key))")
            }
            skipWhitespace()
            guard byte(index) == ASCII.colon else { throw error(at: index, expected: "':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue(expecting: "a value after ':'")
            members.append((key: key, value: value))
            skipWhitespace()
            switch byte(index) {
            case ASCII.comma:
                index += 1
                skipWhitespace()
                expected = "a quoted key after ','"
            case ASCII.closeBrace:
                index += 1
                depth -= 1
                return .object(JSONObject(uniqueMembers: members))
            default:
                throw error(at: index, expected: "',' or '}' after an object member")
            }
        }
    }

    // MARK: Strings

    /// Parses a string starting at the opening quote at `index`.
    mutating func parseString() throws(JSONParseError) -> String {
        var i = index + 1
        var segmentStart = i
        var escaped = false
        while true {
            guard i < count else { throw stringError(at: i, expected: "'\"' to close the string") }
            let b = bytes[i]
            if b == ASCII.quote { break }
            if b == ASCII.backslash {
                if !escaped {
                    scratch.removeAll(keepingCapacity: true)
                    escaped = true
                }
                scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[segmentStart..<i]))
                i = try parseEscape(at: i)
                segmentStart = i
            } else if b < 0x20 {
                throw error(at: i, expected: "'\"' or a string character", found: Self.controlCharacter(b))
            } else if b < 0x80 {
                i += 1
            } else if let length = Self.utf8SequenceLength(bytes, at: i) {
                i += length
            } else {
                throw stringError(at: i, expected: "valid UTF-8 in a string")
            }
        }
        index = i + 1
        if escaped {
            scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[segmentStart..<i]))
            return String(decoding: scratch, as: UTF8.self)
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[segmentStart..<i]), as: UTF8.self)
    }

    /// Decodes the escape whose backslash is at `i` into `scratch`; returns the index after it.
    mutating func parseEscape(at i: Int) throws(JSONParseError) -> Int {
        let decoded: UInt8
        switch byte(i + 1) {
        case ASCII.quote: decoded = ASCII.quote
        case ASCII.backslash: decoded = ASCII.backslash
        case ASCII.slash: decoded = ASCII.slash
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = ASCII.lineFeed
        case UInt8(ascii: "r"): decoded = ASCII.carriageReturn
        case UInt8(ascii: "t"): decoded = ASCII.tab
        case ASCII.lowerU:
            let unit = try parseHex4(at: i + 2)
            switch unit {
            case 0xD800...0xDBFF:
                guard byte(i + 6) == ASCII.backslash, byte(i + 7) == ASCII.lowerU else {
                    throw loneSurrogate(at: i)
                }
                let low = try parseHex4(at: i + 8)
                guard (0xDC00...0xDFFF).contains(low) else { throw loneSurrogate(at: i) }
                appendUTF8(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                return i + 12
            case 0xDC00...0xDFFF:
                throw loneSurrogate(at: i)
            default:
                appendUTF8(unit)
                return i + 6
            }
        default:
            throw stringError(at: i + 1, expected: "an escape (one of \" \\ / b f n r t u) after '\\'")
        }
        scratch.append(decoded)
        return i + 2
    }

    func parseHex4(at start: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for i in start..<start + 4 {
            let b = byte(i)
            let digit: UInt8
            switch b {
            case ASCII.zero...ASCII.nine: digit = b - ASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw stringError(at: i, expected: "four hex digits after '\\u'")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    func loneSurrogate(at i: Int) -> JSONParseError {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<i + 6]), as: UTF8.self)
        return error(at: i, expected: "a surrogate pair", found: "lone surrogate '\(text)'")
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The length of the well-formed multi-byte UTF-8 sequence at `i`, or nil (Unicode Table 3-7).
    static func utf8SequenceLength(_ bytes: UnsafeRawBufferPointer, at i: Int) -> Int? {
        let count = bytes.count
        @inline(__always) func isContinuation(_ j: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            j < count && range.contains(bytes[j])
        }
        switch bytes[i] {
        case 0xC2...0xDF:
            return isContinuation(i + 1) ? 2 : nil
        case 0xE0:
            return isContinuation(i + 1, 0xA0...0xBF) && isContinuation(i + 2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return isContinuation(i + 1) && isContinuation(i + 2) ? 3 : nil
        case 0xED:
            return isContinuation(i + 1, 0x80...0x9F) && isContinuation(i + 2) ? 3 : nil
        case 0xF0:
            return isContinuation(i + 1, 0x90...0xBF) && isContinuation(i + 2) && isContinuation(i + 3) ? 4 : nil
        case 0xF1...0xF3:
            return isContinuation(i + 1) && isContinuation(i + 2) && isContinuation(i + 3) ? 4 : nil
        case 0xF4:
            return isContinuation(i + 1, 0x80...0x8F) && isContinuation(i + 2) && isContinuation(i + 3) ? 4 : nil
        default:
            return nil
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = index
        var i = index
        let negative = byte(i) == ASCII.minus
        if negative { i += 1 }

        var mantissa: UInt64 = 0
        var significantDigits = 0  // digits in `mantissa`, leading zeros excluded
        var exponent = 0  // decimal exponent applied to `mantissa`
        var exact = true  // false when digits did not fit `mantissa`

        @inline(__always) func accumulate(_ digit: UInt8, fractional: Bool) {
            if significantDigits < 19 {
                if mantissa != 0 || digit != 0 { significantDigits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if fractional { exponent -= 1 }
            } else {
                exact = false
            }
        }

        let first = byte(i)
        if first == ASCII.zero {
            i += 1
            if Self.isDigit(byte(i)) {
                var end = i
                while Self.isDigit(byte(end)), end - (i - 1) < 24 { end += 1 }
                let run = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(i - 1)..<end]), as: UTF8.self)
                throw error(at: i - 1, expected: "a number without leading zeros", found: "'\(run)'")
            }
        } else if Self.isDigit(first) {
            while Self.isDigit(byte(i)) {
                accumulate(byte(i) - ASCII.zero, fractional: false)
                i += 1
            }
        } else {
            throw error(at: i, expected: "a digit after '-'")
        }

        if byte(i) == ASCII.period {
            i += 1
            guard Self.isDigit(byte(i)) else { throw error(at: i, expected: "a digit after '.'") }
            while Self.isDigit(byte(i)) {
                accumulate(byte(i) - ASCII.zero, fractional: true)
                i += 1
            }
        }

        if byte(i) == ASCII.lowerE || byte(i) == ASCII.upperE {
            i += 1
            var exponentNegative = false
            if byte(i) == ASCII.plus || byte(i) == ASCII.minus {
                exponentNegative = byte(i) == ASCII.minus
                i += 1
            }
            guard Self.isDigit(byte(i)) else { throw error(at: i, expected: "a digit in the exponent") }
            var value = 0
            while Self.isDigit(byte(i)) {
                if value < 1_000_000 { value = value * 10 + Int(byte(i) - ASCII.zero) }
                i += 1
            }
            exponent += exponentNegative ? -value : value
        }
        index = i

        let magnitude: Double
        if mantissa == 0 && exact {
            magnitude = 0
        } else if exact && mantissa <= 1 << 53 && (-22...22).contains(exponent) {
            // Both operands are exact, so one IEEE operation rounds correctly (Clinger's fast path).
            magnitude =
                exponent >= 0
                ? Double(mantissa) * exactPowersOfTen[exponent]
                : Double(mantissa) / exactPowersOfTen[-exponent]
        } else {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            guard let value = Double(text), value.isFinite else {
                throw error(at: start, expected: "a number within the range of a Double", found: "'\(text)'")
            }
            return value
        }
        return negative ? -magnitude : magnitude
    }

    // MARK: Errors

    /// An error inside a string, where the found text is the single character at `position`.
    func stringError(at position: Int, expected: String) -> JSONParseError {
        error(at: position, expected: expected, found: describe(at: position, wholeWord: false))
    }

    func error(at position: Int, expected: String, found: String? = nil) -> JSONParseError {
        var line = 1
        var column = 1
        var j = 0
        while j < position && j < count {
            let b = bytes[j]
            if b == ASCII.lineFeed {
                line += 1
                column = 1
            } else if b == ASCII.carriageReturn && byte(j + 1) != ASCII.lineFeed {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            j += 1
        }
        return JSONParseError(line: line, column: column, expected: expected, found: found ?? describe(at: position, wholeWord: true))
    }

    /// A short description of the input at `i`: `'x'`, `end of input`, `invalid UTF-8 byte 0xC3`, ….
    /// With `wholeWord`, a run of letters and digits is quoted whole (`'NaN'`, `'tru'`).
    func describe(at i: Int, wholeWord: Bool) -> String {
        guard i < count else { return "end of input" }
        let b = bytes[i]
        func isWordByte(_ b: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
                || Self.isDigit(b) || b == UInt8(ascii: "_")
        }
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z") where wholeWord, UInt8(ascii: "A")...UInt8(ascii: "Z") where wholeWord:
            var end = i + 1
            while end < count, isWordByte(bytes[end]), end - i < 24 { end += 1 }
            return "'\(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self))'"
        case 0x20...0x7E:
            return "'\(Character(Unicode.Scalar(b)))'"
        case 0..<0x20, 0x7F:
            return Self.controlCharacter(b)
        default:
            guard let length = Self.utf8SequenceLength(bytes, at: i) else {
                return "invalid UTF-8 byte \(Self.hexByte(b))"
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[i..<i + length]), as: UTF8.self)
            let scalar = text.unicodeScalars.first!
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned,
                .spaceSeparator, .lineSeparator, .paragraphSeparator, .nonspacingMark, .enclosingMark:
                return Self.scalarName(scalar.value)
            default:
                return "'\(text)' (\(Self.scalarName(scalar.value)))"
            }
        }
    }

    static func controlCharacter(_ b: UInt8) -> String { "control character \(scalarName(UInt32(b)))" }

    static func scalarName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func hexByte(_ b: UInt8) -> String {
        let hex = String(b, radix: 16, uppercase: true)
        return "0x" + (hex.count == 1 ? "0" : "") + hex
    }
}
