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
}
