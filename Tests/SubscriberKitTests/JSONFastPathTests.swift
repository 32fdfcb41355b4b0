import Foundation
import Testing

@testable import SubscriberKit

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
    }
}
