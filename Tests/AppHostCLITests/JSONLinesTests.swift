import Foundation
import Testing
import SubscriberHost
import SubscriberKit
import SubscriberEventModel
import SubscriberDelivery
@testable import AppHostCLI

@Suite("JSON lines")
struct JSONLinesTests {
    /// The line as the generic serializer writes it: what `apphost --json` printed before event lines
    /// were written as bytes, and what they must still read.
    static func serialized(_ outcome: AnyEventOutcome) -> String {
        JSONValue.object(object(outcome)).serialized() + "\n"
    }

    /// The object of ``serialized(_:)``: a replay of the scene bridge is one too.
    static func object(_ outcome: AnyEventOutcome) -> JSONObject {
        let row = outcome.event.row
        var object: JSONObject = ["event": .string(outcome.event.name)]
        if let scene = outcome.scene { object["scene"] = .string(scene) }
        object["result"] = row.json(result: outcome.result)
        if let invocation = outcome.invocation { object["invocation"] = .object(invocation.json) }
        object["answers"] = .array(outcome.answers.map { answer in
            .object(["subscriber": .string(answer.subscriber), "answer": answer.answer.map { row.json(answer: $0) } ?? .null,
                     "ms": .number((Double(answer.duration.nanosecondsSaturating) / 1_000).rounded() / 1_000)])
        })
        if !outcome.requests.isEmpty {
            object["requests"] = .array(outcome.requests.map {
                .object(["subscriber": .string($0.subscriber), "request": .string($0.request.name)])
            })
        }
        if !outcome.bridged.isEmpty { object["bridged"] = .array(outcome.bridged.map { .object(Self.object($0)) }) }
        object["reports"] = .array(outcome.reports.map { .object($0.json) })
        return object
    }

    static func outcome(_ event: LifecycleEvent, _ result: any Sendable, answers: [SubscriberAnswer] = [],
                        reports: [DispatchReport] = [], invocation: LaunchInvocation? = nil,
                        requests: [HostRequest] = []) -> AnyEventOutcome {
        AnyEventOutcome(event: event, result: result, answers: answers, reports: reports, invocation: invocation,
                        applicationState: .active, requests: requests)
    }

    @Test("an event is its outcome's JSON on one line")
    func event() throws {
        let outcome = Self.outcome(.performFetch, BackgroundFetchResult.failed,
                                   answers: [SubscriberAnswer(subscriber: "A", answer: BackgroundFetchResult.failed, duration: .milliseconds(100))],
                                   reports: [.late(subscriber: "A", event: .performFetch)])
        let line = JSONLines.event(outcome)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
        #expect(line == Self.serialized(outcome))
        #expect(try line.parsedJSON()["answers"] == [["subscriber": "A", "answer": "failed", "ms": 100]])
        #expect(try line.parsedJSON()["reports"]?.arrayValue?.first?["kind"] == "late")
        #expect(try line.parsedJSON()["requests"] == nil)
    }

    @Test("a scene event names its scene; the bridge's replays are event objects of their own under \"bridged\"")
    func sceneAndBridged() throws {
        var outcome = Self.outcome(.sceneOpenURLContexts, true,
                                   answers: [SubscriberAnswer(subscriber: "Router", answer: false, duration: .microseconds(40))],
                                   reports: [.sceneStateViolation(event: .sceneOpenURLContexts, scene: "x\"y", sceneState: .background,
                                                                  expected: "something")])
        outcome.scene = "x\"y"
        outcome.bridged = [Self.outcome(.openURL, true, answers: [SubscriberAnswer(subscriber: "App", answer: true, duration: .zero)]),
                           Self.outcome(.openURL, false, reports: [.late(subscriber: "Slow", event: .openURL)])]
        let line = JSONLines.event(outcome)
        #expect(line == Self.serialized(outcome))
        let parsed = try line.parsedJSON()
        #expect(parsed["scene"] == "x\"y")
        #expect(parsed["bridged"]?.arrayValue?.map { $0["event"] } == ["openURL", "openURL"])
        #expect(parsed["bridged"]?.arrayValue?.last?["reports"]?.arrayValue?.first?["kind"] == "late")
        #expect(parsed["reports"]?.arrayValue?.first?["sceneState"] == "background")
        // The line counts the reports it lists, its replays' included (what the run counts).
        var bytes = OutputBytes()
        #expect(JSONLines.event(outcome, into: &bytes) == outcome.reports.count + outcome.bridged.reduce(0) { $0 + $1.reports.count })
        #expect(JSONLines.event(outcome, into: &bytes) == 2)
        // An app event has neither key.
        let plain = try JSONLines.event(Self.outcome(.openURL, true)).parsedJSON()
        #expect(plain["scene"] == nil && plain["bridged"] == nil)
    }

    @Test("requests subscribers made are listed under the event they were made in")
    func requests() throws {
        let outcome = Self.outcome(.didBecomeActive, (), requests: [
            HostRequest(subscriber: "Push \"1\"", request: .registerForRemoteNotifications),
            HostRequest(subscriber: "Lock", request: .updateSupportedInterfaceOrientations),
        ])
        let line = JSONLines.event(outcome)
        #expect(line == Self.serialized(outcome))
        #expect(try line.parsedJSON()["requests"] == [["subscriber": "Push \"1\"", "request": "registerForRemoteNotifications"],
                                                       ["subscriber": "Lock", "request": "updateSupportedInterfaceOrientations"]])
    }

    @Test("results and answers in the output's conventions, byte for byte as the generic serializer writes them")
    func everyResultShape() throws {
        let restored = ContinueUserActivityResult(handled: true, restorableObjects: ["article/7", "q\"\\\n"])
        let cases: [(LifecycleEvent, (any Sendable)?, result: JSONValue, answer: JSONValue)] = [
            (.didBecomeActive, nil, .null, .null),
            (.didBecomeActive, (), .null, .null),
            (.handleEventsForBackgroundURLSession, (), .null, "done"),
            (.openURL, true, true, true),
            (.openURL, false, false, false),
            (.performFetch, BackgroundFetchResult.newData, "newData", "newData"),
            (.supportedInterfaceOrientations, ([.portrait, .landscapeLeft] as InterfaceOrientationMask),
             ["portrait", "landscapeLeft"], ["portrait", "landscapeLeft"]),
            (.supportedInterfaceOrientations, ([] as InterfaceOrientationMask), [], []),
            (.configurationForConnecting, "Default \"Configuration\"", "Default \"Configuration\"", "Default \"Configuration\""),
            (.handleWatchKitExtensionRequest, ["reply": ["n": 1]] as JSONObject, ["reply": ["n": 1]], ["reply": ["n": 1]]),
            (.continueUserActivity, restored, ["handled": true, "restorableObjects": ["article/7", "q\"\\\n"]],
             ["handled": true, "restorableObjects": ["article/7", "q\"\\\n"]]),
            (.continueUserActivity, ContinueUserActivityResult(handled: false, restorableObjects: nil),
             ["handled": false], ["handled": false]),
            (.willPresentNotification, ([.banner, .sound] as NotificationPresentationOptions), ["sound", "banner"], ["sound", "banner"]),
        ]
        for (event, value, result, answer) in cases {
            let outcome = Self.outcome(event, value ?? (),
                                       answers: [SubscriberAnswer(subscriber: "Tab\tName \u{7}é", answer: value, duration: .microseconds(1_500))])
            let line = JSONLines.event(outcome)
            #expect(line == Self.serialized(outcome))
            let json = try line.parsedJSON()
            #expect(json["result"] == result, "\(event)")
            #expect(json["answers"]?.arrayValue?.first?["answer"] == answer, "\(event)")
            #expect(json["answers"]?.arrayValue?.first?["subscriber"] == "Tab\tName \u{7}é")
        }
        let launch = Self.outcome(.didFinishLaunching, true, reports: [.ignoredDecline(subscriber: "S", event: .didFinishLaunching)],
                                  invocation: .deepLink(URL(string: "https://news.example.com/a")!))
        #expect(JSONLines.event(launch) == Self.serialized(launch))
    }

    @Test("a name with a byte the serializer escapes, at any place in an eight-byte word, is written as the serializer writes it")
    func escapesFoundWordAtATime() {
        /// Byte by byte: what the word-at-a-time check must say.
        func reference(_ bytes: [UInt8]) -> Bool { !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }
        // Every byte value at every place of strings of 1 to 24 bytes around the words' edges
        // (neighbours: plain ASCII, bytes just above and below the ones escaped, UTF-8 above 0x7F).
        for length in 1...24 {
            for place in 0..<length {
                for filler: UInt8 in [0x61, 0x21, 0x23, 0x5B, 0x5D, 0x20, 0xC3, 0xFF] {
                    for value in 0...255 {
                        var bytes = [UInt8](repeating: filler, count: length)
                        bytes[place] = UInt8(value)
                        let plain = bytes.withUnsafeBufferPointer { JSONLines.isPlain($0) }
                        #expect(plain == reference(bytes), "\(bytes)")
                        if plain != reference(bytes) { return }
                    }
                }
            }
        }
        // End to end: the line as the serializer writes it, whatever the name holds and where.
        for name in ["SessionAnalytics\"x", "0123456\\tail", "01234567\u{1F}", "Tab\tName", "plain name é long enough"] {
            let outcome = Self.outcome(.didBecomeActive, (), answers: [SubscriberAnswer(subscriber: name, answer: nil, duration: .zero)])
            #expect(JSONLines.event(outcome) == Self.serialized(outcome), "\(name)")
        }
    }

    @Test("a run's constant results and answers (no answer, done, true, false) are written as the row writes them, every time")
    func constantResultsWrittenAlikeEveryTime() throws {
        let values: [(LifecycleEvent, any Sendable)] = [
            (.didBecomeActive, ()), (.handleEventsForBackgroundURLSession, ()), (.openURL, true), (.openURL, false),
            (.shouldAllowExtensionPointIdentifier, false), (.shouldAllowExtensionPointIdentifier, true),
            (.performFetch, BackgroundFetchResult.noData), (.supportedInterfaceOrientations, ([.portrait] as InterfaceOrientationMask)),
        ]
        // Three rounds: the same values written again read as they did the first time.
        for _ in 0..<3 {
            for (event, value) in values {
                let outcome = Self.outcome(event, value, answers: [
                    SubscriberAnswer(subscriber: "A", answer: value, duration: .microseconds(7)),
                    SubscriberAnswer(subscriber: "B", answer: nil, duration: .zero),
                ])
                #expect(JSONLines.event(outcome) == Self.serialized(outcome), "\(event) \(value)")
            }
        }
        // done (handleEventsForBackgroundURLSession's answer) and no answer (didBecomeActive's) are both `()`: kept by event.
        let done = JSONLines.event(Self.outcome(.handleEventsForBackgroundURLSession, (),
                                                answers: [SubscriberAnswer(subscriber: "A", answer: (), duration: .zero)]))
        #expect(try done.parsedJSON()["answers"]?.arrayValue?.first?["answer"] == "done")
    }

    @Test("the values the line writes itself (Bool, nothing, fetch results, orientation masks, continueUserActivity's result) are written as every row's shape writes them")
    func commonValuesAsEveryRowWritesThem() throws {
        // The line writes these without the row's shape: every row's shape that has such a value must
        // write it the same way (EventTable.rows: a row added later is held to it too).
        let samples: [any Sendable] = [
            true, false, (), InterfaceOrientationMask(), InterfaceOrientationMask.portrait, InterfaceOrientationMask.all,
            [.portrait, .landscapeLeft] as InterfaceOrientationMask, [.landscapeRight, .portraitUpsideDown] as InterfaceOrientationMask,
            ContinueUserActivityResult(handled: true, restorableObjects: ["article/7", "q\"\\\n", "é"]),
            ContinueUserActivityResult(handled: false, restorableObjects: nil),
            ContinueUserActivityResult(handled: true, restorableObjects: []),
            BackgroundFetchResult.newData, BackgroundFetchResult.noData, BackgroundFetchResult.failed,
        ]
        func text(_ write: (inout [UInt8]) -> Void) -> String {
            var bytes: [UInt8] = []
            write(&bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        func common(_ value: any Sendable, result: Bool) -> String? {
            var line = OutputBytes()
            guard JSONLines.appendCommon(value, result: result, to: &line) else { return nil }
            return String(decoding: line.bytes, as: UTF8.self)
        }
        var written = 0
        func check<R: AnswerShape>(_: R.Type, row: EventRow) {
            for value in samples {
                if let answer = value as? R.Answer, let mine = common(value, result: false) {
                    #expect(mine == text { R.appendJSON(answer: answer, to: &$0) }, "\(row.name) answer \(value)")
                    written += 1
                }
                if let final = value as? R.Final, let mine = common(value, result: true) {
                    #expect(mine == text { R.appendJSON(final: final, to: &$0) }, "\(row.name) result \(value)")
                    written += 1
                }
            }
        }
        for row in EventTable.rows { check(row.answerType, row: row) }
        #expect(written > 50)
        // Nothing else is written without the shape: a `()` answer is `null` or `"done"` by row.
        #expect(common((), result: false) == nil)
        #expect(common("text", result: true) == nil)
        #expect(common(["k": 1] as JSONObject, result: true) == nil)
        // End to end, through the line, against the serializer: every row with each sample it takes.
        for event in LifecycleEvent.allCases {
            func line<R: AnswerShape>(_: R.Type) {
                for value in samples where value is R.Final {
                    let answers = samples.filter { $0 is R.Answer }.map { SubscriberAnswer(subscriber: "A", answer: $0, duration: .zero) }
                    let outcome = Self.outcome(event, value, answers: answers)
                    #expect(JSONLines.event(outcome) == Self.serialized(outcome), "\(event) \(value)")
                }
            }
            line(event.row.answerType)
        }
    }

    @Test("every orientation mask (any set of the named orientations, with bits of none) is written as its names, in the table's order")
    func everyOrientationMaskAsItsNames() {
        for raw in UInt32(0)..<64 {
            for extra: UInt32 in [0, 1 << 7, 1 << 31] {
                let mask = InterfaceOrientationMask(rawValue: raw | extra)
                var line = OutputBytes()
                #expect(JSONLines.appendCommon(mask, result: true, to: &line))
                let expected = JSONValue.array(mask.names.map { .string($0) }).serialized()
                #expect(String(decoding: line.bytes, as: UTF8.self) == expected, "\(raw | extra)")
            }
        }
    }

    @Test("answers the dispatcher recorded typed are written from their type exactly as the rows written the general way, for every row")
    func recordedAnswersAsTheGeneralWay() throws {
        // The samples of the test above, and more rows than one: names with bytes to escape, times.
        let samples: [any Sendable] = [
            true, false, InterfaceOrientationMask(), InterfaceOrientationMask.portrait, InterfaceOrientationMask.all,
            [.portrait, .landscapeLeft] as InterfaceOrientationMask,
            ContinueUserActivityResult(handled: true, restorableObjects: ["article/7", "q\"\\\n", "é"]),
            ContinueUserActivityResult(handled: false, restorableObjects: nil),
            ContinueUserActivityResult(handled: true, restorableObjects: []),
            BackgroundFetchResult.newData, BackgroundFetchResult.noData, BackgroundFetchResult.failed,
            "Default", ["reply": ["n": 1]] as JSONObject, (), NotificationPresentationOptions.banner,
        ]
        let names = ["Zero", "Tab\tName \u{7}é", "Two \"2\"", "Three"]
        var typed = 0
        func check<Answer: Sendable>(_ event: LifecycleEvent, _ answers: [Answer?], result: any Sendable) {
            let rows = answers.indices.map { (names.count - 1 - $0 % names.count) }
            let times: [UInt64] = answers.indices.map { UInt64($0) * 1_234_567 }
            let record = TypedAnswerRecord(subscribers: rows, answers: answers, nanoseconds: times)
            let recorded = AnyEventOutcome(event: event, result: result, record: record, names: names, reports: [],
                                           invocation: nil, applicationState: .active)
            #expect(recorded.recordedAnswers != nil)
            var general = recorded
            general.answers = recorded.answers  // the same rows as a list: written the general way
            #expect(general.recordedAnswers == nil)
            #expect(JSONLines.event(recorded) == JSONLines.event(general), "\(event) \(Answer.self)")
            #expect(JSONLines.event(recorded) == Self.serialized(general), "\(event) \(Answer.self)")
            var line = OutputBytes()
            if JSONLines.appendTyped(record, names: names, to: &line) { typed += 1 }
        }
        for event in LifecycleEvent.allCases {
            func rows<R: AnswerShape>(_: R.Type) {
                let answers = samples.compactMap { $0 as? R.Answer }
                guard let result = samples.first(where: { $0 is R.Final }) else { return }
                check(event, answers.map(Optional.some) + [nil] + answers.prefix(1).map(Optional.some), result: result)
                check(event, [nil] as [R.Answer?], result: result)
            }
            rows(event.row.answerType)
        }
        // Written typed: every row whose answers are Bools, masks, fetch results, continueUserActivity's.
        #expect(typed > 20)
        func written<T: Sendable>(_: T.Type) -> Bool {
            var line = OutputBytes()
            return JSONLines.appendTyped(TypedAnswerRecord<T>(subscribers: [0], answers: [nil], nanoseconds: []), names: ["A"], to: &line)
        }
        #expect(written(Bool.self) && written(InterfaceOrientationMask.self) && written(ContinueUserActivityResult.self)
                && written(BackgroundFetchResult.self))
        #expect(!written(Void.self) && !written(String.self) && !written(JSONObject.self))
        // A notification's record (no answers): every row null, as the general way writes it.
        let none = AnswerRecord(subscribers: [1, 0], nanoseconds: [5_000, 70])
        let recorded = AnyEventOutcome(event: .didBecomeActive, result: (), record: none, names: names, reports: [],
                                       invocation: nil, applicationState: .active)
        var general = recorded
        general.answers = recorded.answers
        #expect(JSONLines.event(recorded) == JSONLines.event(general))
        #expect(JSONLines.event(recorded) == Self.serialized(general))
    }

    /// An `openURL` outcome answered through `record` for `names`, written into `line` (emptied first,
    /// its kept row starts left for this event to reuse or replace), and the line the generic serializer
    /// writes for the same answers: what the bytes must read.
    static func openURLLine(_ record: TypedAnswerRecord<Bool>, names: [String], into line: inout OutputBytes)
        -> (bytes: [UInt8], expected: String) {
        let recorded = AnyEventOutcome(event: .openURL, result: true, record: record, names: names, reports: [],
                                       invocation: nil, applicationState: .active)
        var general = recorded
        general.answers = recorded.answers
        line.removeAll()
        JSONLines.event(recorded, into: &line)
        return (Array(line.bytes), Self.serialized(general))
    }

    @Test("one line's bytes reused for events of other subscriber lists (other names, the same count, a changed copy): each row names its own subscriber")
    func rowStartsFollowTheSubscriberList() throws {
        let first = ["Zero", "One \"1\""]
        let second = ["Tab\tName", "Three"]  // as many names as the first: kept row starts must not be reused
        var changed = first
        changed[1] = "Changed é"  // a copy of the first, changed: storage of its own
        var line = OutputBytes(capacity: 16)
        for names in [first, first, second, first, changed, changed, second] {
            let record = TypedAnswerRecord<Bool>(subscribers: [1, 0], answers: [true, nil], nanoseconds: [1_000, 2_000])
            let (bytes, expected) = Self.openURLLine(record, names: names, into: &line)
            let written = String(decoding: bytes, as: UTF8.self)
            #expect(written == expected, "\(names)")
            #expect(try written.parsedJSON()["answers"]?.arrayValue?.map { $0["subscriber"] } == [.string(names[1]), .string(names[0])])
        }
    }

    @Test("a list whose name is another Unicode form of the kept one's gets its own row starts, byte for byte")
    func rowStartsComparedByBytes() {
        let composed = ["Caf\u{E9}", "Other"]
        let decomposed = ["Cafe\u{301}", "Other"]  // equal to `composed` as Strings, not in bytes
        #expect(composed == decomposed)
        var line = OutputBytes(capacity: 16)
        for names in [composed, decomposed, composed] {
            let record = TypedAnswerRecord<Bool>(subscribers: [0], answers: [true], nanoseconds: [1_000])
            let (bytes, expected) = Self.openURLLine(record, names: names, into: &line)
            #expect(bytes == Array(expected.utf8), "\(names[0].unicodeScalars.count) scalars")
        }
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
