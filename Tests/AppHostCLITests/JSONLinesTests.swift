import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

@Suite("JSON lines")
struct JSONLinesTests {
    /// The line as the generic serializer writes it: what `apphost --json` printed before event lines
    /// were written as bytes, and what they must still read.
    static func serialized(_ outcome: EventOutcome) -> String {
        var object: JSONObject = ["event": .string(outcome.event.name), "result": outcome.result.resultJSON]
        if let invocation = outcome.invocation { object["invocation"] = .object(invocation.json) }
        object["answers"] = .array(outcome.answers.map { row in
            .object(["subscriber": .string(row.subscriber), "answer": row.answer?.answerJSON ?? .null,
                     "ms": .number((Double(row.duration.nanosecondsSaturating) / 1_000).rounded() / 1_000)])
        })
        object["reports"] = .array(outcome.reports.map { .object($0.json) })
        return JSONValue.object(object).serialized() + "\n"
    }

    @Test("an event is its outcome's JSON on one line")
    func event() throws {
        let outcome = EventOutcome(event: .performFetch, result: .fetchResult(.failed),
                                   answers: [SubscriberAnswer(subscriber: "A", answer: .fetchResult(.failed), duration: .milliseconds(100))],
                                   reports: [.late(subscriber: "A", event: .performFetch)])
        let line = JSONLines.event(outcome)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
        #expect(line == Self.serialized(outcome))
        #expect(try line.parsedJSON()["answers"] == [["subscriber": "A", "answer": "failed", "ms": 100]])
        #expect(try line.parsedJSON()["reports"]?.arrayValue?.first?["kind"] == "late")
    }

    @Test("results and answers in the output's conventions, byte for byte as the generic serializer writes them")
    func everyResultShape() throws {
        let restored = ContinueUserActivityResult(handled: true, restorableObjects: ["article/7", "q\"\\\n"])
        let cases: [(EventResult?, result: JSONValue, answer: JSONValue)] = [
            (nil, .null, .null),
            (EventResult.none, .null, .null),
            (.done, .null, "done"),
            (.bool(true), true, true),
            (.bool(false), false, false),
            (.fetchResult(.newData), "newData", "newData"),
            (.orientationMask([.portrait, .landscapeLeft]), ["portrait", "landscapeLeft"], ["portrait", "landscapeLeft"]),
            (.orientationMask([]), [], []),
            (.configurationName("Default \"Configuration\""), "Default \"Configuration\"", "Default \"Configuration\""),
            (.dictionary(["reply": ["n": 1]]), ["reply": ["n": 1]], ["reply": ["n": 1]]),
            (.continuedActivity(restored), ["handled": true, "restorableObjects": ["article/7", "q\"\\\n"]],
             ["handled": true, "restorableObjects": ["article/7", "q\"\\\n"]]),
            (.continuedActivity(ContinueUserActivityResult(handled: false, restorableObjects: nil)),
             ["handled": false], ["handled": false]),
        ]
        for (value, result, answer) in cases {
            let outcome = EventOutcome(event: .handleEventsForBackgroundURLSession, result: value ?? .none,
                                       answers: [SubscriberAnswer(subscriber: "Tab\tName \u{7}é", answer: value, duration: .microseconds(1_500))],
                                       reports: [], invocation: nil)
            let line = JSONLines.event(outcome)
            #expect(line == Self.serialized(outcome))
            let json = try line.parsedJSON()
            #expect(json["result"] == result)
            #expect(json["answers"]?.arrayValue?.first?["answer"] == answer)
            #expect(json["answers"]?.arrayValue?.first?["subscriber"] == "Tab\tName \u{7}é")
        }
        let launch = EventOutcome(event: .didFinishLaunching, result: .bool(true), answers: [],
                                  reports: [.ignoredDecline(subscriber: "S", event: .didFinishLaunching)],
                                  invocation: .deepLink(URL(string: "https://news.example.com/a")!))
        #expect(JSONLines.event(launch) == Self.serialized(launch))
    }

    @Test("milliseconds are written as the generic serializer writes the rounded Double, up to the largest duration")
    func milliseconds() {
        var samples: [UInt64] = [0, 1, 499, 500, 501, 999, 1_000, 1_499, 1_500, 40_000, 12_345_678, 100_000_000,
                                 999_999_999_999_499, 999_999_999_999_500, 999_999_999_999_999, 1_000_000_000_000_000,
                                 1_234_567_891_234_567_891, UInt64.max]
        samples += stride(from: 0, to: 5_000_000, by: 997).map { UInt64($0) }
        samples += (0..<2_000).map { UInt64($0) * 7_919_000_013 }
        for nanoseconds in samples {
            var bytes: [UInt8] = []
            JSONLines.appendMilliseconds(nanoseconds, to: &bytes)
            let expected = JSONValue.number((Double(nanoseconds) / 1_000).rounded() / 1_000).serialized()
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(nanoseconds) ns")
        }
    }

    @Test("reports after the last event have the event shape with a null event")
    func afterLastEvent() throws {
        let json = try JSONLines.afterLastEvent([.completionAfterDelivery(subscriber: "B", event: .performFetch)]).parsedJSON()
        #expect(json["event"] == .null && json["result"] == .null && json["answers"] == [])
        #expect(json["reports"]?.arrayValue?.first?["kind"] == "completionAfterDelivery")
    }

    @Test("a log record carries the event it was written during")
    func log() throws {
        let record = LogRecord(time: Date(timeIntervalSince1970: 2), subscriber: "S", kind: .event, level: .info,
                               message: "session_started", attributes: ["n": 1])
        let during = try JSONLines.log(record, during: .didBecomeActive).parsedJSON()
        #expect(during == ["time": 2, "subscriber": "S", "kind": "event", "level": "info", "message": "session_started",
                           "attributes": ["n": 1], "event": "didBecomeActive"])
        #expect(try JSONLines.log(record, during: nil).parsedJSON()["event"] == .null)
    }

    @Test("a record as JSON")
    func recordJSON() {
        let record = LogRecord(time: Date(timeIntervalSince1970: 10), subscriber: "A", kind: .error, level: .error,
                               message: "boom", attributes: ["code": 7])
        #expect(record.json == ["time": 10, "subscriber": "A", "kind": "error", "level": "error", "message": "boom",
                                "attributes": ["code": 7]])
    }
}
