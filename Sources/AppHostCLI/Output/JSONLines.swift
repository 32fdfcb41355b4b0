import SubscriberHost
import SubscriberKit

/// The machine-readable output: one JSON object per line.
///
/// An event's line is the hot path of `apphost --json` (one per event): ``event(_:into:)`` writes it
/// straight into bytes, with no `JSONObject` built for it and the milliseconds formatted with
/// integer arithmetic. Measured with callgrind on 10,000 events of the benchmark's script
/// (news.json, release build): building the object and serializing it cost 19,300 instructions per
/// event, 31 % of the run; this writer costs 3,800 (8 %), and the run 25 % fewer instructions in
/// all (623 M → 468 M). The text is exactly what the generic serializer writes for
/// `{"event", "result", "invocation"?, "answers", "reports"}`; the tests compare the two.
enum JSONLines {
    /// One event: `{"event", "scene"?, "result", "invocation"?, "answers": [{"subscriber", "answer", "ms"}],
    /// "requests"?: [{"subscriber", "request"}], "bridged"?: [{"event", "result", "answers", "reports"}],
    /// "reports"}`. A scene event names its scene; `bridged` lists the app-level events the scene
    /// bridge replayed for it, each an event object of its own.
    static func event(_ outcome: AnyEventOutcome) -> String {
        var bytes: [UInt8] = []
        event(outcome, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line of ``event(_:)`` to `bytes`.
    static func event(_ outcome: AnyEventOutcome, into bytes: inout [UInt8]) {
        var constants = Constants()
        event(outcome, into: &bytes, constants: &constants)
    }

    /// Appends the line of ``event(_:)`` to `bytes`. Each result and answer is written by its
    /// event's answer shape, straight from the typed value (``EventRow/appendJSON(answer:to:)``).
    /// `constants` is kept for callers that hold one for a run: the shapes write `true`, `false`
    /// and nothing without asking anything, so there is nothing left to keep.
    static func event(_ outcome: AnyEventOutcome, into bytes: inout [UInt8], constants: inout Constants) {
        object(outcome, into: &bytes, constants: &constants)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Results and answers as their event's row writes them. Once a table of the constant ones'
    /// text, by event, so that they were not built as `JSONValue`s for every event; the answer
    /// shapes now write every value's bytes themselves.
    struct Constants {
        mutating func appendResult(_ value: any Sendable, of row: EventRow, event: LifecycleEvent, to bytes: inout [UInt8]) {
            row.appendJSON(result: value, to: &bytes)
        }

        mutating func appendAnswer(_ value: any Sendable, of row: EventRow, event: LifecycleEvent, to bytes: inout [UInt8]) {
            row.appendJSON(answer: value, to: &bytes)
        }
    }

    /// Appends `outcome`'s object, without a newline.
    private static func object(_ outcome: AnyEventOutcome, into bytes: inout [UInt8], constants: inout Constants) {
        append(#"{"event":"#, to: &bytes)
        appendString(outcome.event.name, to: &bytes)
        if let scene = outcome.scene {
            append(#","scene":"#, to: &bytes)
            appendString(scene, to: &bytes)
        }
        let row = outcome.event.row
        append(#","result":"#, to: &bytes)
        if let refusal = outcome.refusal {
            // Not delivered: no result, and why.
            append(#"null,"refused":"#, to: &bytes)
            appendString(refusal.refusalReason, to: &bytes)
        } else {
            constants.appendResult(outcome.result, of: row, event: outcome.event, to: &bytes)
        }
        if outcome.isKept { append(#","kept":true"#, to: &bytes) }
        if !outcome.urlHook.isEmpty {
            append(#","urlHook":"#, to: &bytes)
            appendStrings(outcome.urlHook, to: &bytes)
        }
        if let invocation = outcome.invocation {
            append(#","invocation":"#, to: &bytes)
            bytes.append(contentsOf: JSONValue.object(invocation.json).serializedBytes())
        }
        append(#","answers":["#, to: &bytes)
        var first = true
        outcome.forEachAnswer { subscriber, answer, nanoseconds in
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            append(#"{"subscriber":"#, to: &bytes)
            appendString(subscriber, to: &bytes)
            append(#","answer":"#, to: &bytes)
            if let answer {
                constants.appendAnswer(answer, of: row, event: outcome.event, to: &bytes)
            } else {
                append("null", to: &bytes)
            }
            append(#","ms":"#, to: &bytes)
            appendMilliseconds(nanoseconds, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        if !outcome.requests.isEmpty {
            append(#","requests":["#, to: &bytes)
            for (index, request) in outcome.requests.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                append(#"{"subscriber":"#, to: &bytes)
                appendString(request.subscriber, to: &bytes)
                append(#","request":"#, to: &bytes)
                appendString(request.request.name, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        if !outcome.bridged.isEmpty {
            append(#","bridged":["#, to: &bytes)
            for (index, replay) in outcome.bridged.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                object(replay, into: &bytes, constants: &constants)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        append(#","reports":"#, to: &bytes)
        if outcome.reports.isEmpty {
            append("[]", to: &bytes)
        } else {
            bytes.append(contentsOf: JSONValue.array(outcome.reports.map { .object($0.json) }).serializedBytes())
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Reports that arrived after the last event, in the shape of an event with `"event": null`.
    /// Requests made after it are listed under `"requests"`, as an event's are.
    static func afterLastEvent(_ reports: [DispatchReport], requests: [HostRequest] = []) -> String {
        var object: JSONObject = ["event": .null, "result": .null, "answers": []]
        if !requests.isEmpty { object["requests"] = .array(requests.map(requestJSON)) }
        object["reports"] = .array(reports.map { .object($0.json) })
        return JSONValue.object(object).serialized() + "\n"
    }

    /// `{"subscriber", "request"}`, as ``event(_:into:)`` writes it.
    private static func requestJSON(_ request: HostRequest) -> JSONValue {
        ["subscriber": .string(request.subscriber), "request": .string(request.request.name)]
    }

    /// One log record with the event it was written during (`null` before the first event or after
    /// the last): LogRecord's JSON plus `"event"`.
    static func log(_ record: LogRecord, during event: LifecycleEvent?) -> String {
        var object = record.json
        object["event"] = event.map { .string($0.name) } ?? .null
        return JSONValue.object(object).serialized() + "\n"
    }

    /// `["a","b"]`.
    private static func appendStrings(_ strings: [String], to bytes: inout [UInt8]) {
        append("[", to: &bytes)
        for (index, string) in strings.enumerated() {
            if index > 0 { append(",", to: &bytes) }
            appendString(string, to: &bytes)
        }
        append("]", to: &bytes)
    }

    /// `string` as a JSON string literal, by the serializer's rules; strings with nothing to
    /// escape (names, events) copied as they are.
    private static func appendString(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        let plain = string.withUTF8 { utf8 in
            if !isPlain(utf8) { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { bytes.append(contentsOf: JSONValue.string(string).serializedBytes()) }
    }

    /// Whether `utf8` holds no byte the serializer escapes (below 0x20, `"`, `\\`): eight bytes at
    /// a time (byte by byte, the names and events of a line cost about 600 instructions an event).
    static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = utf8.count
        var index = 0
        if let base = utf8.baseAddress {
            while index + 8 <= count {
                if JSONWord.escaped(JSONWord.load(base + index)) != 0 { return false }
                index += 8
            }
        }
        while index < count {
            let byte = utf8[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
            index += 1
        }
        return true
    }

    /// The literal `text`'s bytes.
    @inline(__always)
    private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
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
