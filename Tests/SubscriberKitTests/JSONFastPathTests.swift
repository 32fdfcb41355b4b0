import Foundation
import Testing

@testable import SubscriberKit
@testable import SubscriberEventModel
@testable import SubscriberValues

/// The fast paths of the CLI's per-event work, held against the ordinary ones: answers written as
/// bytes by their shapes, a script line's members read from its bytes, and log attributes kept as
/// the text a plugin sent.
@Suite("JSON fast paths")
struct JSONFastPathTests {
    // MARK: Answers written by their shapes

    /// Answers as JSON that some answer shape reads back: each row's own answers are the ones its
    /// shape accepts.
    static let answerSamples: [JSONValue] = [
        .null, true, false, "done", "newData", "noData", "failed", "Default \"Configuration\"\n\u{1}é",
        [], ["portrait"], ["portrait", "portraitUpsideDown", "landscapeLeft", "landscapeRight"],
        ["sound", "banner"], ["badge", "list", "sound"],
        ["reply": ["n": 1, "s": "q\"\\", "f": 0.25, "a": [true, .null]]], [:],
        ["activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://news.example.com/a?b=1"],
        ["activityType": "t\"", "userInfo": ["k": 1, "nested": ["x": []]]],
    ]

    /// `type`'s answers among the samples, with their result when the result is the answer's type.
    static func answers<R: AnswerShape>(_ type: R.Type) -> [(answer: any Sendable, final: (any Sendable)?)] {
        answerSamples.compactMap { json in
            guard let answer = try? R.answer(json: json, path: "") else { return nil }
            return (answer, answer as? R.Final)
        }
    }

    @Test("every row's answers and results are written as bytes exactly as their JSON serializes")
    func answersAsBytes() {
        var checked = 0
        for row in EventTable.rows {
            var samples = Self.answers(row.answerType)
            if row.timing == .restoration {
                for restorable in [nil, [], ["article/7", "q\"\\\n"]] as [[String]?] {
                    let result = ContinueUserActivityResult(handled: restorable != nil, restorableObjects: restorable)
                    samples.append((result, result))
                }
            }
            #expect(!samples.isEmpty || row.timing == .notification, "\(row.name)")
            if row.timing == .notification { samples.append(((), ())) }
            for (answer, final) in samples {
                var bytes: [UInt8] = [0x2A]
                row.appendJSON(answer: answer, to: &bytes)
                #expect(bytes == [0x2A] + row.json(answer: answer).serializedBytes(), "\(row.name) \(answer)")
                if let final {
                    bytes = []
                    row.appendJSON(result: final, to: &bytes)
                    #expect(bytes == row.json(result: final).serializedBytes(), "\(row.name) \(final)")
                }
                checked += 1
            }
        }
        #expect(checked > EventTable.rows.count)
    }

    // MARK: Script lines read from their bytes

    @Test("a flat object's members are what the parser finds; anything it leaves to the parser is nil")
    func flatObjects() throws {
        let accepted = [
            #"{"event": "openURL", "url": "news://a", "options": {"sourceApplication": "x"}}"#,
            #"  {"a":1,"b":true,"c":null,"d":[1,{"e":"}"}],"f":"é\u00e9\"","g":-0.5e3}  "#,
            "{}", #"{"":""}"#,
        ]
        for text in accepted {
            let flat = try #require(FlatJSONObject(scanning: ArraySlice(text.utf8)), "\(text)")
            #expect(flat.object.map(JSONValue.object) == (try JSONValue(parsing: text)), "\(text)")
        }
        let refused = [
            #"{"a":1,"a":2}"#, #"{"a\u0062":1}"#, #"{"é":1}"#, "[1]", #"{"a":1} x"#, #"{"a":1"#, #"{"a" 1}"#,
            "{\"a\":\"tab\there\"}", #"{"a":1,}"#, #"{"a":}"#, #"{,}"#, "",
            "{\"a\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}",
        ]
        for text in refused {
            #expect(FlatJSONObject(scanning: ArraySlice(text.utf8)) == nil, "\(text)")
        }
        // Members whose text does not parse are found, and refused when read.
        let flat = try #require(FlatJSONObject(scanning: ArraySlice(#"{"a": tru, "b": [1}, "c": "x"}"#.utf8)))
        var reader = JSONObjectReader(flat: flat, path: "")
        #expect(reader.value("a") == nil && !reader.isIntact)
        #expect(try reader.string("c") == "x")
    }

    @Test("a member that is an object of plain strings is read from its bytes, as the parser reads it; any other object is parsed")
    func nestedPlainObjects() throws {
        let texts = [
            #"{"event": "openURL", "options": {"sourceApplication": "com.apple.mobilesafari"}}"#,
            #"{"o": {}}"#, #"{"o": { "a" : "b" , "b": "c" }}"#, #"{"o": {"a": "x", "a": "y"}}"#,
            #"{"o": {"a": 1, "b": "c"}}"#, #"{"o": {"a": {"b": "c"}}}"#, #"{"o": {"a": "\n"}}"#, #"{"o": {"a": "é"}}"#,
            #"{"o": {"a": "b",}}"#,
        ]
        for text in texts {
            guard let flat = FlatJSONObject(scanning: ArraySlice(text.utf8)) else { continue }
            let parsed = try? JSONValue(parsing: Array(text.utf8))
            for member in flat.members where !member.plain {
                // What the parser makes of the member; nil when it refuses the line (a duplicate key inside).
                #expect(flat.value(member) == parsed?[flat.string(member.key)], "\(text)")
            }
        }
        // Read from its bytes: the object of plain strings is made without the parser, in order.
        let line = #"{"o": {"z": "1", "a": "2"}}"#
        let flat = try #require(FlatJSONObject(scanning: ArraySlice(line.utf8)))
        let options = try #require(flat.value(flat.members[0])?.objectValue)
        #expect(options.members.map(\.key) == ["z", "a"])
    }

    @Test("a reader over a line's bytes reads what a reader over its parsed object reads, errors included")
    func flatReaderMatchesTree() throws {
        let text = #"{"s": "plain", "e": "q\"é", "n": 3, "b": false, "o": {"k": [1]}, "a": ["x", "y"]}"#
        let flat = try #require(FlatJSONObject(scanning: ArraySlice(text.utf8)))
        var fast = JSONObjectReader(flat: flat, path: "p")
        var slow = try JSONObjectReader(JSONValue(parsing: text), path: "p")
        #expect(try fast.string("s") == slow.string("s"))
        #expect(try fast.string("e") == slow.string("e"))
        #expect(try fast.int("n") == slow.int("n"))
        #expect(try fast.bool("b") == slow.bool("b"))
        #expect(try fast.object("o") == slow.object("o"))
        #expect(try fast.strings("a") == slow.strings("a"))
        #expect(fast.has("s") && !fast.has("zz"))
        #expect(throws: JSONShapeError(path: "p.n", expected: "a string", found: "the number 3")) { try fast.string("n") }
        #expect(throws: JSONShapeError(path: "p.n", expected: "a string", found: "the number 3")) { try slow.string("n") }
        #expect(fast.isIntact)
        // An unread key is named as the ordinary reader names it.
        let unread = try #require(FlatJSONObject(scanning: ArraySlice(#"{"s": "x", "extra": 1}"#.utf8)))
        var partial = JSONObjectReader(flat: unread, path: "")
        _ = try partial.string("s")
        #expect(throws: JSONShapeError(path: "extra", expected: "one of the known keys (s)", found: "an unknown key")) {
            try partial.rejectUnknownKeys()
        }
        // Keys asked for and absent are named too, as the ordinary reader names them.
        let text2 = #"{"b": "x", "extra": 1, "a": [2]}"#
        var fast2 = JSONObjectReader(flat: try #require(FlatJSONObject(scanning: ArraySlice(text2.utf8))), path: "o")
        var slow2 = try JSONObjectReader(JSONValue(parsing: text2), path: "o")
        for reader in [0, 1] {
            func read(_ r: inout JSONObjectReader) throws {
                _ = try r.string("zz")
                _ = try r.string("b")
                _ = r.value("a")
                _ = try r.bool("absent")
            }
            if reader == 0 { try read(&fast2) } else { try read(&slow2) }
        }
        let expected = JSONShapeError(path: "o.extra", expected: "one of the known keys (a, absent, b, zz)", found: "an unknown key")
        #expect(throws: expected) { try fast2.rejectUnknownKeys() }
        #expect(throws: expected) { try slow2.rejectUnknownKeys() }
    }

    @Test("a member is found by its key among keys of the same length, at every place, the empty key and long keys included; absent keys are not")
    func membersFoundByKey() throws {
        let keys = ["", "a", "b", "ab", "ba", "url", "uri", "event", "evenT", "webpageURL", "webpageURI", "a key longer than sixteen bytes",
                    "a key longer than sixteen byteS"]
        for count in 1...keys.count {
            for start in 0..<keys.count {
                let chosen = (0..<count).map { keys[(start + $0) % keys.count] }
                let text = "{" + chosen.map { "\"\($0)\": 1" }.joined(separator: ", ") + "}"
                let flat = try #require(FlatJSONObject(scanning: ArraySlice(text.utf8)), "\(text)")
                for key in keys + ["abc", "eve", "events", "URL", String(repeating: "a", count: 40)] {
                    #expect(flat.index(of: key) == chosen.firstIndex(of: key), "\(key) in \(text)")
                    // A key made at run time (not a literal), as long as the scanned ones.
                    let made = String(decoding: Array(key.utf8), as: UTF8.self)
                    #expect(flat.index(of: made) == chosen.firstIndex(of: key), "\(key) in \(text)")
                }
            }
        }
    }

    @Test("the unknown-key check over a line's bytes: all members read passes at once, any one left unread is named as over the parsed object, at every member count up to the limit")
    func flatUnknownKeysAtEveryCount() throws {
        for count in 0...FlatJSONObject.memberLimit {
            let keys = (0..<count).map { "k\($0)" }
            let text = "{" + keys.map { "\"\($0)\": \"v\"" }.joined(separator: ", ") + "}"
            let flat = try #require(FlatJSONObject(scanning: ArraySlice(text.utf8)))
            for unread in [nil] + keys.map(Optional.some) {
                var fast = JSONObjectReader(flat: flat, path: "p")
                var slow = try JSONObjectReader(JSONValue(parsing: text), path: "p")
                for key in keys where key != unread {
                    #expect(try fast.string(key) == "v")
                    #expect(try slow.string(key) == "v")
                }
                if let unread {
                    let known = keys.filter { $0 != unread }.sorted().joined(separator: ", ")
                    let expected = JSONShapeError(path: "p.\(unread)", expected: "one of the known keys (\(known))", found: "an unknown key")
                    #expect(throws: expected) { try fast.rejectUnknownKeys() }
                    #expect(throws: expected) { try slow.rejectUnknownKeys() }
                } else {
                    try fast.rejectUnknownKeys()
                    try slow.rejectUnknownKeys()
                }
            }
        }
    }

    // MARK: Log attributes kept as text

    @Test("attributes in the serializer's form are kept as they are; any other form is left to the parser")
    func objectText() throws {
        let objects: [JSONObject] = [
            ["timestamp": .number(1_795_788_093.4646502)], ["n": 3, "m": -0.0, "big": 1e300, "small": .number(.leastNonzeroMagnitude), "i": 123_456_789_012_345],
            ["s": "q\"\\\n\r\t\u{8}\u{c}\u{1}\u{1f}é€😀/"], ["route": "article(7)", "scene": "s-1"],
            ["a": [1, [2, [3]], [:], []], "o": ["x": .null, "y": true, "z": false]], ["": ""],
        ]
        for object in objects {
            let bytes = JSONValue.object(object).serializedBytes()
            let text = try #require(bytes.withUnsafeBufferPointer { JSONObjectText(checking: $0) }, "\(object)")
            #expect(text.bytes == bytes && text.object == object)
        }
        let others = [
            "{}", "[1]", #"{"a": 1}"#, #"{"a":1.0}"#, #"{"a":1e2}"#, #"{"a":01}"#, #"{"a":1,"a":2}"#, #"{"a":"\/"}"#,
            #"{"a":"\u00e9"}"#, #"{"a":"\u000a"}"#, #"{"a":"\u001F"}"#, #"{"a":tru}"#, #"{"a":1}x"#, #"{"a":1"#,
            #"{"a":1234567890123456789}"#, #"{"a":-}"#, "{\"a\":\"\u{1}\"}",
        ]
        for other in others {
            #expect(Array(other.utf8).withUnsafeBufferPointer { JSONObjectText(checking: $0) } == nil, "\(other)")
        }
        #expect([UInt8]([0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D]).withUnsafeBufferPointer { JSONObjectText(checking: $0) } == nil)
    }

    @Test("an object's keys are compared with every key before it, at every depth; up to the member limit, each level its own")
    func objectTextKeys() {
        func checked(_ text: String) -> Bool { Array(text.utf8).withUnsafeBufferPointer { JSONObjectText(checking: $0) } != nil }
        let limit = JSONObjectText.memberLimit
        let keys = (0..<limit).map { "k\($0)" }
        func object(_ keys: [String], inner: String = "1") -> String { "{" + keys.map { "\"\($0)\":\(inner)" }.joined(separator: ",") + "}" }
        #expect(checked(object(keys)))
        #expect(!checked(object(keys + ["k\(limit)"])))
        // A key repeated at any later position, the first or the last before it.
        for position in 1..<limit {
            #expect(!checked(object(Array(keys[..<position]) + [keys[0]])), "\(position)")
            #expect(!checked(object(Array(keys[..<position]) + [keys[position - 1]])), "\(position)")
        }
        // Nested objects: each level's keys are its own (the same names at two levels are fine), and
        // a duplicate inside a nested object, after the outer one has many keys, is found.
        let nested = object(keys, inner: object(keys, inner: object(keys)))
        #expect(checked(nested))
        #expect(!checked(object(keys, inner: object(["a", "b", "a"]))))
        #expect(!checked("{\"a\":{\"x\":1},\"b\":{\"y\":2,\"y\":3}}"))
        #expect(checked("{\"a\":{\"x\":1},\"b\":{\"x\":2,\"y\":3}}"))
    }

    /// A number's text as the full check finds it: the serializer's form when reading it and
    /// writing it again gives the same bytes.
    static func writtenAgain(_ text: [UInt8]) -> Bool {
        (try? JSONValue(parsing: text))?.serializedBytes() == text
    }

    @Test("numbers with a fraction the serializer writes are told without reading them; near misses are left to the parser")
    func fractionNumbers() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var samples: [Double] = [
            0.1, 0.5, 1.5, -0.25, 0.0001, 0.00012, -0.000123456, 123.456, 1_795_812_336.244834, 1_795_788_093.4646502,
            0.12839829921722412, 4_503_599_627_370_495.5, 0.9999999999999999, 1.0 / 3, -2.0 / 3, 0.1 + 0.2, 1e15 + 0.5,
            0.00001, 1.5e-7, .leastNonzeroMagnitude,
        ]
        for _ in 0..<3_000 {
            let unit = Double(random()) / Double(1 << 53)
            samples.append(1_795_000_000 + Double(random() % 1_000_000_000_000) / 1_000_000)  // a timestamp, microseconds
            samples.append(unit)  // a duration
            samples.append(unit * [1e-4, 1e-2, 1, 1e3, 1e7, 1e12, 1e15][Int(random() % 7)] * (random() % 2 == 0 ? 1 : -1))
            samples.append(Double(random() % 100_000) / 1_000)  // few digits
        }
        var fast = 0
        var decimal = 0
        for sample in samples where sample.rounded(.towardZero) != sample {
            let text = JSONValue.number(sample).serializedBytes()
            // Every form the serializer writes is kept as it is, by either path.
            let object = Array("{\"n\":".utf8) + text + [UInt8(ascii: "}")]
            #expect(object.withUnsafeBufferPointer { JSONObjectText(checking: $0) }?.bytes == object, "\(sample)")
            let told = JSONObjectText.isShortestFraction(text)
            if told { fast += 1 }
            #expect(!told || Self.writtenAgain(text), "\(String(decoding: text, as: UTF8.self))")
            let significant = text.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }
                .filter { $0 != UInt8(ascii: ".") }.count
            if !text.contains(UInt8(ascii: "e")) && significant <= 17 {
                decimal += 1
                // Every form the serializer writes in decimal notation takes the fast path, but for a
                // tie (a Double exactly halfway between two texts of its digits: large ones), left to the parser.
                if abs(sample) < 1e10 { #expect(told, "\(String(decoding: text, as: UTF8.self))") }
            } else {
                #expect(!told, "\(String(decoding: text, as: UTF8.self))")
            }
            // Near misses: a trailing zero, the last digit one off, one digit fewer, a leading zero, an exponent.
            var misses: [[UInt8]] = [text + [UInt8(ascii: "0")], Array(text.dropLast()), [UInt8(ascii: "0")] + text,
                                     text + Array("e0".utf8), text + [UInt8(ascii: ".")]]
            for delta: UInt8 in [1, 255] where text.last != UInt8(ascii: delta == 1 ? "9" : "0") {
                misses.append(text.dropLast() + [text.last! &+ delta])
            }
            for miss in misses {
                let missTold = JSONObjectText.isShortestFraction(miss)
                #expect(!missTold || Self.writtenAgain(miss), "\(String(decoding: miss, as: UTF8.self))")
                let missObject = Array("{\"n\":".utf8) + miss + [UInt8(ascii: "}")]
                let kept = missObject.withUnsafeBufferPointer { JSONObjectText(checking: $0) } != nil
                #expect(kept == Self.writtenAgain(miss), "\(String(decoding: miss, as: UTF8.self))")
            }
        }
        #expect(decimal > 11_000 && fast >= decimal * 99 / 100, "\(fast) of \(decimal)")
        // Texts that read back as a Double whose shortest digits are others: left to the parser.
        for text in ["0.10", "1.50", "0.1000000000000000", "0.300000000000000044", "0.30000000000000005", "1.0000000000000001", "1.0", "0.00001", "-0.0", "01.5", ".5", "-.5",
                     "1.", "1.5.5", "0.99999999999999994", "9007199254740993.5", "0.000012"] {
            #expect(!JSONObjectText.isShortestFraction(Array(text.utf8)), "\(text)")
        }
    }

    /// What the serializer writes for a number, from Swift's `description`: `0`/`-0`, a whole
    /// number below 10^16 in digits, anything else as described without a trailing `.0`.
    static func describedNumber(_ x: Double) -> String {
        if x == 0 { return x.sign == .minus ? "-0" : "0" }
        if x.magnitude < 1e16 && x.rounded(.towardZero) == x { return String(Int64(x)) }
        let text = x.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    @Test("a number is written as Swift's description writes it, without a String, for random and edge values")
    func numbersWrittenAsDescribed() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        var samples: [Double] = [0.1, 0.2, 0.3, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 0.5, 0.25, 0.125, 1.5, 123.456, -0.0, 0.0,
                                 .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, .ulpOfOne,
                                 1e21, 1e-7, 1e16, 1e15 + 0.5, 4_503_599_627_370_495.5, 0.9999999999999999,
                                 1_795_812_336.244834, 1_795_788_093.4646502, 0.12839829921722412]
        // Powers of ten and two, the boundaries between notations (1e-4, 1e-7, 1e16, 1e21, 2^52,
        // 2^53), and their neighbours.
        for exponent in -30...30 {
            let ten = Double("1e\(exponent)")!
            samples += [ten, ten.nextUp, ten.nextDown, 2 * ten, 5 * ten, 9.5 * ten]
        }
        for exponent in -80...60 {
            let two = Double(sign: .plus, exponent: exponent, significand: 1)
            samples += [two, two.nextUp, two.nextDown, two * 1.5, two + 0.5, two + 0.25, two + 0.125]
        }
        for _ in 0..<20_000 {
            let unit = Double(random() >> 11) / Double(1 << 53)
            samples.append(Double(bitPattern: random()))  // anywhere, subnormals and NaNs included
            samples.append(unit * [1e-5, 1e-4, 1e-3, 1, 1e3, 1e7, 1e12, 1e15][Int(random() % 8)])
            samples.append(1_795_000_000 + Double(random() % 1_000_000_000_000) / 1_000_000)  // a timestamp
            samples.append(Double(Int64(bitPattern: random()) % 1_000_000) / [10, 100, 1_000, 1e6][Int(random() % 4)])
            samples.append(-unit)
        }
        var decimal = 0
        var written = 0
        for sample in samples where sample.isFinite {
            let text = JSONValue.number(sample).serialized()
            #expect(text == Self.describedNumber(sample), "\(sample.bitPattern)")
            // The writer itself: what it writes is the description, and it writes nearly every
            // number with a fraction in decimal notation.
            let direct = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDigits.maximumLength) { buffer in
                let count = ShortestDigits.write(sample, into: buffer.baseAddress!)
                return count == 0 ? nil : String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
            }
            if let direct { #expect(direct == sample.description, "\(sample.bitPattern)") }
            if sample.rounded(.towardZero) != sample && !sample.description.contains("e") {
                decimal += 1
                if direct != nil { written += 1 }
            } else {
                #expect(direct == nil, "\(sample)")
            }
        }
        #expect(decimal > 50_000 && written >= decimal * 999 / 1_000, "\(written) of \(decimal)")
    }

    @Test("attributes are written at once, when flat, exactly as the general writer writes them; anything else as before")
    func flatAttributesAsWritten() {
        // Lengths around the block written at once (512 bytes): a piece that would not fit leaves
        // the object to the general writer.
        let lengths = [0, 1, 7, 8, 15, 16, 100, 400, 480, 490, 500, 505, 507, 508, 509, 510, 511, 512, 600]
        var objects: [JSONObject] = [
            ["route": .string("article/0")],
            ["timestamp": .number(1_795_865_619.4860597)],
            ["startedAt": .number(1_795_865_619.4860597), "duration": .number(0.001234), "sessionNumber": .number(3)],
            ["a": .bool(true), "b": .bool(false), "c": .null, "d": .number(-0.0), "e": .number(0), "f": .number(-12)],
            ["big": .number(1e21), "small": .number(1e-7), "nan": .number(.nan), "inf": .number(-.infinity)],
            ["whole": .number(9_007_199_254_740_994), "max": .number(Double(Int64.max)), "min": .number(-1e16)],
            ["esc\"aped": .string("x")], ["k": .string("line\nbreak")], ["k": .string("\u{1}")], ["é": .string("ü")],
            ["nested": .array([.number(1)])], ["nested": .object(["a": .string("b")])],
        ]
        for length in lengths {
            objects.append(["k": .string(String(repeating: "v", count: length))])
            objects.append([String(repeating: "k", count: length): .number(0.1)])
            objects.append(["a": .string(String(repeating: "v", count: length)), "n": .number(1_795_865_619.4860597)])
        }
        for object in objects {
            var bytes: [UInt8] = Array("kept".utf8)
            object.appendSerialized(to: &bytes)
            #expect(bytes == Array("kept".utf8) + JSONValue.object(object).serializedBytes(),
                    "\(String(decoding: bytes.prefix(60), as: UTF8.self))")
        }
    }

    /// A string as JSON escapes it, byte by byte (the serializer's rule).
    static func escapedByByte(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{8}": text += "\\b"
            case "\u{C}": text += "\\f"
            case _ where scalar.value < 0x20: text += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }

    @Test("a string with nothing to escape is written whole, one with anything to escape byte by byte, at every length and place")
    func stringsEscapedAtEveryPlace() {
        for length in 0..<80 {
            let plain = String((0..<length).map { "abcdéfgh"[String.Index(utf16Offset: $0 % 5, in: "abcdé")] })
            #expect(JSONValue.string(plain).serialized() == Self.escapedByByte(plain), "\(length)")
            for position in 0..<length {
                for special: Character in ["\"", "\\", "\n", "\u{1}", "\u{1F}"] {
                    var characters = Array(plain)
                    characters[position] = special
                    let string = String(characters)
                    #expect(JSONValue.string(string).serialized() == Self.escapedByByte(string), "\(length) \(position)")
                }
            }
        }
    }

    @Test("whatever text is kept reads back and serializes to the same bytes (every byte of many texts altered)")
    func objectTextRoundTrips() {
        let seeds: [JSONObject] = [
            ["timestamp": .number(1_795_788_093.4646502), "n": 12, "s": "q\"\\\u{1}é"],
            ["a": [0.1, -2, "x"], "o": ["k": .null]],
        ]
        let replacements: [UInt8] = Array(#"0 1 9 . e - " \ u { } [ ] , : a"#.utf8) + [0x00, 0x80, 0xC3]
        var kept = 0
        for seed in seeds {
            let original = JSONValue.object(seed).serializedBytes()
            for position in original.indices {
                for replacement in replacements {
                    var altered = original
                    altered[position] = replacement
                    guard let text = altered.withUnsafeBufferPointer({ JSONObjectText(checking: $0) }) else { continue }
                    kept += 1
                    let reparsed = try? JSONValue(parsing: text.bytes)
                    #expect(reparsed?.serializedBytes() == text.bytes, "\(String(decoding: altered, as: UTF8.self))")
                }
            }
        }
        #expect(kept > 0)
    }
}
