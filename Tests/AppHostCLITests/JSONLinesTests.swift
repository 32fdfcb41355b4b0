import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

@Suite("JSON lines")
struct JSONLinesTests {
    @Test("an event is its report's JSON on one line")
    func event() throws {
        let report = EventReport(event: .performFetch, result: "failed",
                                 answers: [SubscriberAnswer(subscriber: "A", answer: "failed", duration: .milliseconds(100))],
                                 reports: [.late(subscriber: "A", event: .performFetch)])
        let line = JSONLines.event(report)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
        #expect(try line.parsedJSON() == .object(report.json))
        #expect(try line.parsedJSON()["answers"] == [["subscriber": "A", "answer": "failed", "ms": 100]])
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
}
