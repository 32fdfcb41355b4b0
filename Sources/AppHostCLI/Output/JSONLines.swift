import SubscriberHost
import SubscriberKit

/// The machine-readable output: one JSON object per line.
///
/// An event's line is the hot path of `apphost --json` (one per event): ``event(_:into:)`` writes it
/// straight into the output's bytes, with no `JSONObject` built for it and the milliseconds
/// formatted with integer arithmetic. Measured on a 100,000-event script (news.json, release):
/// building the object and serializing it took 41 % of the run's instructions, this writer 8 %
/// (see the commit for the figures). The text is exactly what the generic serializer writes for
/// `{"event", "result", "invocation"?, "answers", "reports"}`; the tests compare the two.
enum JSONLines {
    /// One event: `{"event", "result", "invocation"?, "answers": [{"subscriber", "answer", "ms"}], "reports"}`.
    static func event(_ outcome: EventOutcome) -> String {
        var bytes: [UInt8] = []
        event(outcome, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line of ``event(_:)`` to `bytes`.
    static func event(_ outcome: EventOutcome, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"event":"#.utf8)
        appendString(outcome.event.name, to: &bytes)
        bytes.append(contentsOf: #","result":"#.utf8)
        appendValue(outcome.result, asResult: true, to: &bytes)
        if let invocation = outcome.invocation {
            bytes.append(contentsOf: #","invocation":"#.utf8)
            bytes.append(contentsOf: JSONValue.object(invocation.json).serializedBytes())
        }
        bytes.append(contentsOf: #","answers":["#.utf8)
        for (index, row) in outcome.answers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: #"{"subscriber":"#.utf8)
            appendString(row.subscriber, to: &bytes)
            bytes.append(contentsOf: #","answer":"#.utf8)
            if let answer = row.answer { appendValue(answer, asResult: false, to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
            bytes.append(contentsOf: #","ms":"#.utf8)
            appendMilliseconds(row.duration.nanosecondsSaturating, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(contentsOf: #"],"reports":"#.utf8)
        bytes.append(contentsOf: JSONValue.array(outcome.reports.map { .object($0.json) }).serializedBytes())
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// Reports that arrived after the last event, in the shape of an event with `"event": null`.
    static func afterLastEvent(_ reports: [DispatchReport]) -> String {
        let object: JSONObject = ["event": .null, "result": .null, "answers": [],
                                  "reports": .array(reports.map { .object($0.json) })]
        return JSONValue.object(object).serialized() + "\n"
    }

    /// One log record with the event it was written during (`null` before the first event or after
    /// the last): LogRecord's JSON plus `"event"`.
    static func log(_ record: LogRecord, during event: LifecycleEvent?) -> String {
        var object = record.json
        object["event"] = event.map { .string($0.name) } ?? .null
        return JSONValue.object(object).serialized() + "\n"
    }

    /// A result or answer as ``EventResult/resultJSON`` or ``EventResult/answerJSON`` writes it; the
    /// common ones without building a `JSONValue`.
    private static func appendValue(_ value: EventResult, asResult: Bool, to bytes: inout [UInt8]) {
        switch value {
        case .none: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .fetchResult(let result): appendString(result.name, to: &bytes)
        case .configurationName(let name): appendString(name, to: &bytes)
        default: bytes.append(contentsOf: (asResult ? value.resultJSON : value.answerJSON).serializedBytes())
        }
    }

    /// `string` as a JSON string literal, by the serializer's rules; the plain ASCII strings that
    /// names and events are without a detour.
    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        let plain = string.withUTF8 { utf8 in
            guard utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { bytes.append(contentsOf: JSONValue.string(string).serializedBytes()) }
    }

    /// Milliseconds rounded to the microsecond, as the serializer writes the Double
    /// `(Double(nanoseconds) / 1_000).rounded() / 1_000`: `0`, `0.04`, `12.5`, `1.234`. Below a
    /// million seconds the digits are the microseconds' own (`Double` holds them exactly and
    /// prints the shortest text that reads back); beyond, the Double itself is written.
    static func appendMilliseconds(_ nanoseconds: UInt64, to bytes: inout [UInt8]) {
        guard nanoseconds < 1_000_000_000_000_000 else {
            bytes.append(contentsOf: JSONValue.number((Double(nanoseconds) / 1_000).rounded() / 1_000).serializedBytes())
            return
        }
        let microseconds = (nanoseconds + 500) / 1_000
        appendDecimal(microseconds / 1_000, to: &bytes)
        var fraction = microseconds % 1_000
        guard fraction > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var divisor: UInt64 = 100
        while fraction > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// `value` in decimal digits.
    private static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        guard value >= 10 else {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        appendDecimal(value / 10, to: &bytes)
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
