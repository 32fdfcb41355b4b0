import Testing

@testable import SubscriberKit
@testable import SubscriberEventModel

// MARK: Helpers

private func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONValue(parsing: text) }

/// The error parsing `text` throws, or nil when it parses.
private func parseError(_ text: String) -> JSONParseError? {
    do {
        _ = try JSONValue(parsing: text)
        return nil
    } catch {
        return error
    }
}

private func parseError(bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSONValue(parsing: bytes)
        return nil
    } catch {
        return error
    }
}

private func isNegativeZero(_ value: JSONValue?) -> Bool {
    guard case .number(let number)? = value else { return false }
    return number == 0 && number.sign == .minus
}

// MARK: Parsing values

@Test func parsesLiterals() throws {
    #expect(try parse("null") == .null)
    #expect(try parse("true") == .bool(true))
    #expect(try parse("false") == .bool(false))
    #expect(try parse(" \t\r\n true \n") == .bool(true))
}

@Test func parsesNumbers() throws {
    #expect(try parse("0") == .number(0))
    #expect(try parse("-0") == .number(0))
    #expect(isNegativeZero(try parse("-0")))
    #expect(isNegativeZero(try parse("-0.0e5")))
    #expect(!isNegativeZero(try parse("0")))
    #expect(try parse("42") == .number(42))
    #expect(try parse("-17") == .number(-17))
    #expect(try parse("1e3") == .number(1000))
    #expect(try parse("1E+3") == .number(1000))
    #expect(try parse("1.5e-3") == .number(0.0015))
    #expect(try parse("0.1") == .number(0.1))
    #expect(try parse("-12.625") == .number(-12.625))
    #expect(try parse("0.000123") == .number(0.000123))
    #expect(try parse("9007199254740992") == .number(9_007_199_254_740_992))
    // 2^53 + 1 is not representable: rounds to even.
    #expect(try parse("9007199254740993") == .number(9_007_199_254_740_992))
    #expect(try parse("12345678901234567890") == .number(12_345_678_901_234_567_890.0))
    #expect(try parse("123456789012345678901234567890") == .number(1.2345678901234568e29))
    #expect(try parse("3.14159265358979323846264338327950288") == .number(Double.pi))
    #expect(try parse("1e22") == .number(1e22))
    #expect(try parse("1e23") == .number(1e23))
    #expect(try parse("5e-324") == .number(Double.leastNonzeroMagnitude))
    #expect(try parse("1.7976931348623157e308") == .number(Double.greatestFiniteMagnitude))
    #expect(try parse("2.2250738585072014e-308") == .number(Double.leastNormalMagnitude))
    #expect(try parse("1e-400") == .number(0))
    #expect(try parse("[1,-2.5,3e2]") == .array([1, -2.5, 300]))
}

@Test func parsesStringsAndEscapes() throws {
    #expect(try parse(#""""#) == .string(""))
    #expect(try parse(#""hello""#) == .string("hello"))
    #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
    #expect(try parse(#""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
    #expect(try parse(#""\uD83D\uDE00""#) == .string("😀"))
    #expect(try parse(#""a\ud834\udd1eb""#) == .string("a𝄞b"))
    #expect(try parse(#""é😀 raw \u00e9 mixed""#) == .string("é😀 raw é mixed"))
    #expect(try parse("\"\u{7F}\u{10FFFF}\"") == .string("\u{7F}\u{10FFFF}"))
    // Two strings with escapes in one document reuse the scratch buffer correctly.
    #expect(try parse(#"["a\nb","\tc","plain"]"#) == .array(["a\nb", "\tc", "plain"]))
}

@Test func parsesArraysAndObjects() throws {
    #expect(try parse("[]") == .array([]))
    #expect(try parse("{}") == .object(JSONObject()))
    #expect(try parse("[ ]") == .array([]))
    #expect(try parse("{ }") == .object(JSONObject()))

    let value = try parse(#"{"b": [true, null, {"x": "y"}], "a": 1, "c": {}}"#)
    guard case .object(let object) = value else {
        Issue.record("not an object: \(value)")
        return
    }
    #expect(object.keys == ["b", "a", "c"])  // order as written
    #expect(object["a"] == .number(1))
    #expect(object["b"] == .array([true, nil, ["x": "y"]]))
    #expect(object["c"] == .object(JSONObject()))
    #expect(value["b"]?.arrayValue?[2]["x"]?.stringValue == "y")

    let nested = try parse("[[[[]]], [{}]]")
    #expect(nested == .array([.array([.array([.array([])])]), .array([.object(JSONObject())])]))
}

@Test func parsesEveryInputKind() throws {
    let text = #"{"k": [1, "é"]}"#
    let expected: JSONValue = ["k": [1, "é"]]
    let bytes = Array(text.utf8)
    #expect(try JSONValue(parsing: bytes) == expected)
    #expect(try JSONValue(parsing: bytes[...]) == expected)
    #expect(try JSONValue(parsing: text.utf8) == expected)
    // A collection without contiguous storage goes through a copy.
    #expect(try JSONValue(parsing: bytes.lazy.map { $0 }) == expected)
    let fromRaw = try bytes.withUnsafeBytes { (raw) throws(JSONParseError) -> JSONValue in
        try JSONValue(parsing: raw)
    }
    #expect(fromRaw == expected)
}

@Test func emptyRawBufferIsAnError() {
    #expect(throws: JSONParseError(line: 1, column: 1, expected: "a value", found: "end of input")) {
        try JSONValue(parsing: UnsafeRawBufferPointer(start: nil, count: 0))
    }
}

@Test func largeObjectsAndArrays() throws {
    let keys = (0..<500).map { "key\($0)" }
    let text = "{" + keys.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ",") + "}"
    let value = try parse(text)
    #expect(value.objectValue?.keys == keys)
    #expect(value["key499"] == .number(499))

    let array = try parse("[" + (0..<10_000).map(String.init).joined(separator: ",") + "]")
    #expect(array.arrayValue?.count == 10_000)
    #expect(array.arrayValue?.last == .number(9_999))
}

@Test func nestingUpToTheLimitParses() throws {
    let depth = 512
    var value = try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
    var levels = 0
    while case .array(let elements) = value {
        levels += 1
        guard let first = elements.first else { break }
        value = first
    }
    #expect(levels == depth)
    let objects = String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
    #expect(try parse(objects).objectValue?.keys == ["a"])
}

// MARK: Errors

@Test func errorDescriptionFormat() {
    let error = JSONParseError(line: 3, column: 14, expected: "',' or '}' after an object member", found: "'x'")
    #expect(error.description == "line 3, column 14: expected ',' or '}' after an object member, found 'x'")
    let parsed = parseError("{\n\"a\": 1,\n\"bb\": true   x}")
    #expect(parsed == error)
    #expect(parsed?.description == "line 3, column 14: expected ',' or '}' after an object member, found 'x'")
}

@Test func trailingCommas() {
    #expect(parseError("[1,2,]") == JSONParseError(line: 1, column: 6, expected: "a value after ','", found: "']'"))
    #expect(
        parseError(#"{"a":1,}"#) == JSONParseError(line: 1, column: 8, expected: "a quoted key after ','", found: "'}'"))
    #expect(parseError("[,]") == JSONParseError(line: 1, column: 2, expected: "a value or ']'", found: "','"))
}

@Test func missingColonAndBadMembers() {
    let error = parseError("{\n  \"a\" 1\n}")
    #expect(error == JSONParseError(line: 2, column: 7, expected: "':' after an object key", found: "'1'"))
    #expect(error?.description == "line 2, column 7: expected ':' after an object key, found '1'")
    #expect(parseError("{1:2}") == JSONParseError(line: 1, column: 2, expected: "a quoted key or '}'", found: "'1'"))
    #expect(parseError("{'a':2}") == JSONParseError(line: 1, column: 2, expected: "a quoted key or '}'", found: "'''"))
    #expect(
        parseError(#"{"a":}"#) == JSONParseError(line: 1, column: 6, expected: "a value after ':'", found: "'}'"))
    #expect(
        parseError("[1 2]")
            == JSONParseError(line: 1, column: 4, expected: "',' or ']' after an array element", found: "'2'"))
    #expect(
        parseError("[1")
            == JSONParseError(line: 1, column: 3, expected: "',' or ']' after an array element", found: "end of input"))
    #expect(
        parseError(#"{"a":1"#)
            == JSONParseError(line: 1, column: 7, expected: "',' or '}' after an object member", found: "end of input"))
}

@Test func badEscapes() {
    let error = parseError(#""ab\q""#)
    #expect(
        error
            == JSONParseError(
                line: 1, column: 5, expected: #"an escape (one of " \ / b f n r t u) after '\'"#, found: "'q'"))
    #expect(error?.description == #"line 1, column 5: expected an escape (one of " \ / b f n r t u) after '\', found 'q'"#)
    #expect(
        parseError(#""\u12G4""#)
            == JSONParseError(line: 1, column: 6, expected: #"four hex digits after '\u'"#, found: "'G'"))
    #expect(
        parseError(#""\u12"#)
            == JSONParseError(line: 1, column: 6, expected: #"four hex digits after '\u'"#, found: "end of input"))
    #expect(
        parseError(#""\x41""#)
            == JSONParseError(line: 1, column: 3, expected: #"an escape (one of " \ / b f n r t u) after '\'"#, found: "'x'"))
}

@Test func loneSurrogates() {
    #expect(
        parseError(#""\uD800""#)
            == JSONParseError(line: 1, column: 2, expected: "a surrogate pair", found: #"lone surrogate '\uD800'"#))
    #expect(
        parseError(#"["ok", "x\udc00"]"#)
            == JSONParseError(line: 1, column: 10, expected: "a surrogate pair", found: #"lone surrogate '\udc00'"#))
    // A high surrogate followed by a non-surrogate escape, or by plain text.
    #expect(
        parseError(#""\uD83D\u0041""#)
            == JSONParseError(line: 1, column: 2, expected: "a surrogate pair", found: #"lone surrogate '\uD83D'"#))
    #expect(
        parseError(#""\uD83Dx""#)
            == JSONParseError(line: 1, column: 2, expected: "a surrogate pair", found: #"lone surrogate '\uD83D'"#))
    // Two high surrogates.
    #expect(
        parseError(#""\uD83D\uD83D""#)
            == JSONParseError(line: 1, column: 2, expected: "a surrogate pair", found: #"lone surrogate '\uD83D'"#))
}

@Test func invalidUTF8() throws {
    // A lead byte without its continuation.
    let truncated = parseError(bytes: [0x22, 0x61, 0xC3, 0x28, 0x22])
    #expect(
        truncated
            == JSONParseError(line: 1, column: 3, expected: "valid UTF-8 in a string", found: "invalid UTF-8 byte 0xC3"))
    #expect(truncated?.description == "line 1, column 3: expected valid UTF-8 in a string, found invalid UTF-8 byte 0xC3")
    // The column counts scalars: "é" is two bytes but one column.
    #expect(
        parseError(bytes: [0x22, 0xC3, 0xA9, 0xFF, 0x22])
            == JSONParseError(line: 1, column: 3, expected: "valid UTF-8 in a string", found: "invalid UTF-8 byte 0xFF"))
    // Overlong encoding, UTF-8-encoded surrogate, stray continuation byte, truncated at end of input.
    #expect(parseError(bytes: [0x22, 0xC0, 0x80, 0x22])?.found == "invalid UTF-8 byte 0xC0")
    #expect(parseError(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22])?.found == "invalid UTF-8 byte 0xED")
    #expect(parseError(bytes: [0x22, 0x80, 0x22])?.found == "invalid UTF-8 byte 0x80")
    #expect(parseError(bytes: [0x22, 0xF0, 0x9F, 0x98])?.found == "invalid UTF-8 byte 0xF0")
    #expect(parseError(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22])?.found == "invalid UTF-8 byte 0xF4")
    // Outside a string.
    #expect(
        parseError(bytes: [0x20, 0xFF])
            == JSONParseError(line: 1, column: 2, expected: "a value", found: "invalid UTF-8 byte 0xFF"))
    // Valid four-byte UTF-8 is accepted.
    #expect(try JSONValue(parsing: [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22] as [UInt8]) == .string("😀"))
}

@Test func leadingZeros() {
    #expect(
        parseError("[01]")
            == JSONParseError(line: 1, column: 2, expected: "a number without leading zeros", found: "'01'"))
    #expect(
        parseError("-007")
            == JSONParseError(line: 1, column: 2, expected: "a number without leading zeros", found: "'007'"))
    #expect(parseError("00.5")?.found == "'00'")
}

@Test func malformedNumbers() {
    #expect(parseError("-") == JSONParseError(line: 1, column: 2, expected: "a digit after '-'", found: "end of input"))
    #expect(parseError("-a") == JSONParseError(line: 1, column: 2, expected: "a digit after '-'", found: "'a'"))
    #expect(parseError("1.") == JSONParseError(line: 1, column: 3, expected: "a digit after '.'", found: "end of input"))
    #expect(parseError("1.e5") == JSONParseError(line: 1, column: 3, expected: "a digit after '.'", found: "'e5'"))
    #expect(parseError("1e") == JSONParseError(line: 1, column: 3, expected: "a digit in the exponent", found: "end of input"))
    #expect(parseError("1e+") == JSONParseError(line: 1, column: 4, expected: "a digit in the exponent", found: "end of input"))
    #expect(parseError(".5") == JSONParseError(line: 1, column: 1, expected: "a value", found: "'.'"))
    #expect(parseError("+1") == JSONParseError(line: 1, column: 1, expected: "a value", found: "'+'"))
    #expect(parseError("NaN") == JSONParseError(line: 1, column: 1, expected: "a value", found: "'NaN'"))
    #expect(parseError("[-Infinity]") == JSONParseError(line: 1, column: 3, expected: "a digit after '-'", found: "'Infinity'"))
    #expect(
        parseError("[1, 1e400]")
            == JSONParseError(line: 1, column: 5, expected: "a number within the range of a Double", found: "'1e400'"))
    #expect(parseError("-1e309")?.found == "'-1e309'")
}

@Test func badLiterals() {
    #expect(parseError("tru") == JSONParseError(line: 1, column: 1, expected: "a value", found: "'tru'"))
    #expect(parseError("[nul]") == JSONParseError(line: 1, column: 2, expected: "a value or ']'", found: "'nul'"))
    #expect(parseError("True") == JSONParseError(line: 1, column: 1, expected: "a value", found: "'True'"))
    #expect(parseError("nulll") == JSONParseError(line: 1, column: 5, expected: "the end of input after the top-level value", found: "'l'"))
}

@Test func unterminatedStrings() {
    let error = parseError(#"{"key": "abc"#)
    #expect(error == JSONParseError(line: 1, column: 13, expected: #"'"' to close the string"#, found: "end of input"))
    #expect(error?.description == #"line 1, column 13: expected '"' to close the string, found end of input"#)
    #expect(
        parseError("\"a\nb\"")
            == JSONParseError(
                line: 1, column: 3, expected: #"'"' or a string character"#, found: "control character U+000A"))
    #expect(parseError("\"a\tb\"")?.found == "control character U+0009")
    #expect(parseError(#"""#) == JSONParseError(line: 1, column: 2, expected: #"'"' to close the string"#, found: "end of input"))
}

@Test func trailingGarbage() {
    let expected = "the end of input after the top-level value"
    #expect(parseError("{} x") == JSONParseError(line: 1, column: 4, expected: expected, found: "'x'"))
    #expect(parseError("1 2") == JSONParseError(line: 1, column: 3, expected: expected, found: "'2'"))
    #expect(parseError("[]]") == JSONParseError(line: 1, column: 3, expected: expected, found: "']'"))
    #expect(parseError("\"a\"\n\n  ,") == JSONParseError(line: 3, column: 3, expected: expected, found: "','"))
    #expect(parseError("1 // comment") == JSONParseError(line: 1, column: 3, expected: expected, found: "'/'"))
    #expect(parseError("null\u{0}") == JSONParseError(line: 1, column: 5, expected: expected, found: "control character U+0000"))
}

@Test func emptyAndWhitespaceOnlyInput() {
    #expect(parseError("") == JSONParseError(line: 1, column: 1, expected: "a value", found: "end of input"))
    #expect(parseError(" \n  ") == JSONParseError(line: 2, column: 3, expected: "a value", found: "end of input"))
    #expect(parseError("/* c */ 1") == JSONParseError(line: 1, column: 1, expected: "a value", found: "'/'"))
    #expect(
        parseError("\u{FEFF}1") == JSONParseError(line: 1, column: 1, expected: "a value", found: "U+FEFF"))
    #expect(parseError("é") == JSONParseError(line: 1, column: 1, expected: "a value", found: "'é' (U+00E9)"))
}

@Test func duplicateKeys() {
    let error = parseError(#"{"k":1,"k":2}"#)
    #expect(error == JSONParseError(line: 1, column: 8, expected: "a unique key", found: #"duplicate key "k""#))
    #expect(error?.description == #"line 1, column 8: expected a unique key, found duplicate key "k""#)
    // Escapes are decoded before comparing, and the key is shown escaped.
    #expect(parseError(#"{"a\n":1, "a\u000a":2}"#)?.found == #"duplicate key "a\n""#)
    // In a nested object, and in an object large enough to use a hash set.
    #expect(parseError("[{\"x\":{\"y\":1,\n\"y\":2}}]") == JSONParseError(line: 2, column: 1, expected: "a unique key", found: #"duplicate key "y""#))
    let keys = (0..<40).map { "\"k\($0)\":0" }.joined(separator: ",")
    #expect(parseError("{" + keys + ",\"k17\":1}")?.found == #"duplicate key "k17""#)
    #expect(parseError("{" + keys + ",\"k39\":1}")?.found == #"duplicate key "k39""#)
    #expect(parseError("{" + keys + ",\"k40\":1}") == nil)
    // The same key in different objects is fine.
    #expect(parseError(#"[{"k":1},{"k":2}]"#) == nil)
}

@Test func tooDeep() {
    let arrays = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
    let error = parseError(arrays)
    #expect(
        error
            == JSONParseError(
                line: 1, column: 513, expected: "at most 512 levels of nesting", found: "'[' at depth 513"))
    let objects = String(repeating: #"{"a":"#, count: 513) + "1" + String(repeating: "}", count: 513)
    #expect(
        parseError(objects)
            == JSONParseError(
                line: 1, column: 1 + 512 * 5, expected: "at most 512 levels of nesting", found: "'{' at depth 513"))
    // Far deeper input fails the same way instead of overflowing the stack.
    #expect(parseError(String(repeating: "[", count: 1_000_000))?.column == 513)
}

@Test func lineAndColumnCounting() {
    // CRLF counts as one line break; a lone CR counts as one too.
    #expect(parseError("[\r\n1,\r\n]")?.line == 3)
    #expect(parseError("[\r\n1,\r\n]")?.column == 1)
    #expect(parseError("[\r1,\r]")?.line == 3)
    // Non-ASCII before the error counts one column per scalar.
    #expect(parseError(#"["€😀", x]"#) == JSONParseError(line: 1, column: 8, expected: "a value after ','", found: "'x'"))
}

// MARK: Serializing

@Test func serializesCompactly() {
    let value: JSONValue = ["a": 1, "b": [true, nil], "c": "x", "d": [:], "e": []]
    #expect(value.serialized() == #"{"a":1,"b":[true,null],"c":"x","d":{},"e":[]}"#)
    #expect(value.description == value.serialized())
    #expect("\(value)" == #"{"a":1,"b":[true,null],"c":"x","d":{},"e":[]}"#)
    #expect(value.serializedBytes() == Array(value.serialized().utf8))
    #expect(JSONValue.null.serialized() == "null")
    #expect(JSONValue.bool(false).serialized() == "false")
    #expect(JSONValue.string("").serialized() == #""""#)
}

@Test func serializesNumbers() {
    func text(_ number: Double) -> String { JSONValue.number(number).serialized() }
    #expect(text(1.0) == "1")
    #expect(text(0) == "0")
    #expect(text(-0.0) == "-0")
    #expect(text(-42) == "-42")
    #expect(text(1.5) == "1.5")
    #expect(text(0.1) == "0.1")
    #expect(text(0.0015) == "0.0015")
    #expect(text(9_007_199_254_740_992) == "9007199254740992")
    #expect(text(1e15) == "1000000000000000")
    #expect(text(1e20) == "1e+20")
    #expect(text(1e-7) == "1e-07")
    #expect(text(.infinity) == "null")
    #expect(text(-.infinity) == "null")
    #expect(text(.nan) == "null")
    #expect(JSONValue.array([.number(.nan), 2]).serialized() == "[null,2]")
    // Every one of these reads back to the identical Double.
    let samples: [Double] = [
        0.1, 1.0 / 3, -2.5e-8, 1e20, 1e16, 1.2345678901234568e16, 123456789.125, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude, .leastNormalMagnitude, -1.5e300, 9_007_199_254_740_994, 4.35, 1e-7,
    ]
    for sample in samples {
        let back = try? JSONValue(parsing: text(sample))
        #expect(back?.doubleValue?.bitPattern == sample.bitPattern, "\(sample) -> \(text(sample))")
    }
}

@Test func serializesStringEscapes() {
    #expect(JSONValue.string("a\"b\\c/d").serialized() == #""a\"b\\c/d""#)
    #expect(JSONValue.string("\n\r\t\u{8}\u{C}").serialized() == #""\n\r\t\b\f""#)
    #expect(JSONValue.string("\u{0}\u{1}\u{1F}\u{7F}").serialized() == "\"\\u0000\\u0001\\u001f\u{7F}\"")
    #expect(JSONValue.string("é€😀\u{2028}").serialized() == "\"é€😀\u{2028}\"")
    #expect(JSONValue.string("é").serializedBytes() == [0x22, 0xC3, 0xA9, 0x22])
    #expect(JSONValue.object(["k\n": "v"]).serialized() == #"{"k\n":"v"}"#)
}

@Test func serializesSortedKeys() {
    let value: JSONValue = ["b": 1, "a": ["z": 1, "y": 2], "B": true, "é": nil, "aa": 0]
    #expect(value.serialized() == #"{"b":1,"a":{"z":1,"y":2},"B":true,"é":null,"aa":0}"#)
    #expect(value.serialized(sortedKeys: true) == #"{"B":true,"a":{"y":2,"z":1},"aa":0,"b":1,"é":null}"#)
}

@Test func serializesPretty() {
    let value: JSONValue = ["a": 1, "b": [true, nil, [:], []], "c": ["d": "e"]]
    let expected = """
        {
          "a": 1,
          "b": [
            true,
            null,
            {},
            []
          ],
          "c": {
            "d": "e"
          }
        }
        """
    #expect(value.serialized(pretty: true) == expected)
    #expect(JSONValue.array([]).serialized(pretty: true) == "[]")
    #expect(JSONValue.number(3).serialized(pretty: true) == "3")
    #expect(
        JSONValue.object(["b": 1, "a": 2]).serialized(sortedKeys: true, pretty: true) == "{\n  \"a\": 2,\n  \"b\": 1\n}")
}

@Test func objectConvenience() {
    let object: JSONObject = ["x": [1, 2], "y": "z"]
    #expect(object.serialized() == #"{"x":[1,2],"y":"z"}"#)
    #expect(object.serialized(sortedKeys: true, pretty: true) == "{\n  \"x\": [\n    1,\n    2\n  ],\n  \"y\": \"z\"\n}")
}

// MARK: Round trips

private let roundTripSamples: [JSONValue] = [
    nil, true, false, 0, -0.0, 1, -1, 0.1, 1e20, 1e-7, .number(.leastNonzeroMagnitude), 1.7976931348623157e308, 9_007_199_254_740_994,
    "", "plain", "quote \" backslash \\ slash /", "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}",
    "unicode é € 😀 𝄞 \u{10FFFF} \u{2028}",
    [], [:], [nil, true, 1.5, "s", [], [:]],
    ["a": 1, "b": ["c": [1, 2, ["d": nil]]], "": "empty key", "é": "😀"],
    .array((0..<100).map { .number(Double($0) * 1.1) }),
]

@Test(arguments: roundTripSamples)
func roundTrips(_ value: JSONValue) throws {
    #expect(try JSONValue(parsing: value.serialized()) == value)
    #expect(try JSONValue(parsing: value.serialized(pretty: true)) == value)
    #expect(try JSONValue(parsing: value.serializedBytes()) == value)
    // Sorting changes only the order of members.
    let sorted = try JSONValue(parsing: value.serialized(sortedKeys: true))
    #expect(sorted.serialized(sortedKeys: true) == value.serialized(sortedKeys: true))
    if case .number(let number) = value {
        #expect(try JSONValue(parsing: value.serialized()).doubleValue?.bitPattern == number.bitPattern)
    }
}

@Test func textRoundTripsToItself() throws {
    let texts = [
        #"{"a":1,"b":[true,null],"c":{"d":"e\n"}}"#,
        #"[-0,0.5,1e+20,1e-07,"\u0000é"]"#,
        #"{"z":{},"y":[],"x":""}"#,
    ]
    for text in texts {
        #expect(try JSONValue(parsing: text).serialized() == text)
    }
}

/// Integral numbers are written digit by digit (no string made): the text is `String(Int64(x))`'s,
/// at the ends of the range written that way and around each power of ten.
@Test func integralNumbersAreWrittenAsTheirDecimalDigits() {
    var values: [Int64] = [1, -1, 7, -7, 9_007_199_254_740_992, -9_007_199_254_740_992, 1 << 52, -(1 << 52)]
    var power: Int64 = 10
    while power < 10_000_000_000_000_000 {  // below 1e16, exact as Doubles
        values += [power - 1, power, power + 1, -power, -(power - 1)]
        power *= 10
    }
    for value in values {
        #expect(JSONValue.number(Double(value)).serialized() == String(value), "\(value)")
    }
}

/// An object's bytes appended in place (what a plugin sends a logged event's attributes as) are
/// the serializer's text, after what the bytes held, and reusing the bytes leaves nothing behind.
@Test func objectAppendedInPlaceIsTheSerializersText() {
    let object: JSONObject = ["timestamp": .number(1795821398.1609185), "n": 12, "s": "a\"b\n", "l": [true, .null]]
    var bytes = Array("x".utf8)
    object.appendSerialized(to: &bytes)
    #expect(bytes == Array(("x" + object.serialized()).utf8))
    bytes.removeAll(keepingCapacity: true)
    let small: JSONObject = ["a": 1]
    small.appendSerialized(to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == #"{"a":1}"#)
}

/// Every kind of member value an object appended in place may hold (a plain one written at once,
/// an array or object through the serializer), and the empty object: the serializer's text.
@Test func objectAppendedInPlaceWritesEveryKindOfMember() {
    let objects: [JSONObject] = [
        [:], ["t": true], ["z": .null],
        ["t": true, "f": false, "z": .null, "e": "", "q": "é\u{1}\"\\", "m": -0.0, "big": 1e300, "fraction": 0.1, "i": -42,
         "a": [1, "b", [:], []], "o": ["k": ["n": .null]], "empty": [:], "\u{7}key": "v"],
    ]
    for object in objects {
        var bytes = Array("[".utf8)
        object.appendSerialized(to: &bytes)
        #expect(bytes == Array("[".utf8) + JSONValue.object(object).serializedBytes(), "\(object)")
    }
}

/// An object made from members (a literal): in order, a repeated key keeping its last value in its
/// first position, whatever the number of members.
@Test func objectFromMembersKeepsOrderAndTheLastOfARepeatedKey() {
    #expect(JSONObject([]).members.isEmpty)
    let literal: JSONObject = ["b": 1, "a": 2, "b": 3, "c": .null, "a": "x"]
    #expect(literal.keys == ["b", "a", "c"])
    #expect(literal["b"] == 3 && literal["a"] == "x" && literal["c"] == .null)
    for count in [1, 2, 3, 17, 40] {
        let members = (0..<count).map { ("k\($0 % 7)", JSONValue.number(Double($0))) }
        var expected = JSONObject()
        for (key, value) in members { expected[key] = value }
        #expect(JSONObject(members).members.map(\.key) == expected.keys, "\(count)")
        #expect(JSONObject(members) == expected, "\(count)")
    }
}
