import SubscriberABI
import Testing
@testable import SubscriberEventModel
@testable import SubscriberValues

/// What the last restoration handler in ``RestorationAnswerTests/writesTheSerializersText()`` was called with.
nonisolated(unsafe) private var received: [UInt8]? = nil

/// What a plugin hands the restoration handler is read from its bytes: a JSON array of strings, and
/// anything else one line and [].
@Suite("Restoration handler: a JSON array of strings, anything else refused in one line")
struct RestorationAnswerTests {
    @Test("arrays of strings are read, escapes and all")
    func readsStrings() {
        for (text, expected) in [(#"["a","\u00e9"]"#, ["a", "\u{e9}"]), ("[]", []), (#" [ "x" , "y" ] "#, ["x", "y"])] {
            var problem: String?
            #expect(RestorationAnswer.identifiers(.bytes(Array(text.utf8)), problem: &problem) == expected, "\(text)")
            #expect(problem == nil, "\(text): \(problem ?? "")")
        }
    }

    @Test("anything else: [] and one line naming what came and what was expected")
    func refusesTheRest() {
        let nested = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let inputs: [[UInt8]] = [
            Array("[1]".utf8), Array(#"["a",null]"#.utf8), Array(#"[["a"]]"#.utf8), Array("{}".utf8),
            Array(#""a""#.utf8), Array("[".utf8), [], [0x5B, 0x22, 0xC3, 0x22, 0x5D], Array(nested.utf8),
            Array(#"["a"] x"#.utf8),
        ]
        for bytes in inputs {
            var problem: String?
            #expect(RestorationAnswer.identifiers(.bytes(bytes), problem: &problem) == [], "\(bytes)")
            #expect(problem == "restoration handler called with \(RawCompletion.describe(bytes)), expected a JSON array of strings; read as []",
                    "\(bytes): \(problem ?? "no problem said")")
        }
    }

    @Test("the SDK's restoration handler hands the host the serializer's text of the list, escapes and all")
    func writesTheSerializersText() {
        let completion = adh_json_completion(call: { _, json in
            received = json.data.map { Array(UnsafeRawBufferPointer(start: $0, count: json.length)) } ?? []
        }, context: nil)
        let lists: [[String]] = [
            [], [""], ["article-42"], ["a", "b", "c"], ["quote \"x\"", "back\\slash", "tab\tnew\nline\u{0}\u{1F}\u{7F}"],
            ["é", "😀 emoji", "\u{2028}\u{2029}", String(repeating: "long ", count: 40)],
            (0..<100).map { "item-\($0)" },
        ]
        for list in lists {
            received = nil
            RestorationAnswer.call(completion, with: list)
            let expected = Array(JSONValue.array(list.map { .string($0) }).serialized().utf8)
            #expect(received == expected, "\(list)")
            var problem: String?
            #expect(RestorationAnswer.identifiers(.bytes(received ?? []), problem: &problem) == list && problem == nil)
        }
    }
}
