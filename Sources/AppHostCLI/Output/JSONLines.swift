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

    /// Appends the line of ``event(_:)`` to `bytes`, with the text of results and answers that are
    /// `()`, `true` or `false` kept in `constants` once the event's row has written it: a run's
    /// lines (``EventOutput``) write those without asking the row again.
    static func event(_ outcome: AnyEventOutcome, into bytes: inout [UInt8], constants: inout Constants) {
        object(outcome, into: &bytes, constants: &constants)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The JSON text of results and answers whose value is one of a few constants — `()` (no
    /// answer, `done`), `false`, `true` — by event and value, as the event's row wrote it the first
    /// time: those values' text never changes, so the row is asked once per event and value (and
    /// what it wrote is what is written, byte for byte).
    struct Constants {
        private var results: [[UInt8]?] = []
        private var answers: [[UInt8]?] = []

        /// The slot of `value` (0: `()`, 1: `false`, 2: `true`) for `event`; nil for any other value.
        private static func slot(_ value: any Sendable, _ event: LifecycleEvent) -> Int? {
            if let flag = value as? Bool { return event.index * 3 + (flag ? 2 : 1) }
            if value is Void { return event.index * 3 }
            return nil
        }

        mutating func appendResult(_ value: any Sendable, of row: EventRow, event: LifecycleEvent, to bytes: inout [UInt8]) {
            Self.append(value, event, table: &results, to: &bytes) { row.json(result: value) }
        }

        mutating func appendAnswer(_ value: any Sendable, of row: EventRow, event: LifecycleEvent, to bytes: inout [UInt8]) {
            Self.append(value, event, table: &answers, to: &bytes) { row.json(answer: value) }
        }

        private static func append(_ value: any Sendable, _ event: LifecycleEvent, table: inout [[UInt8]?],
                                   to bytes: inout [UInt8], json: () -> JSONValue) {
            guard let slot = slot(value, event) else { return appendJSON(json(), to: &bytes) }
            if slot < table.count, let text = table[slot] { return bytes.append(contentsOf: text) }
            if table.count <= slot { table += Array(repeating: nil, count: slot + 1 - table.count) }
            var text: [UInt8] = []
            appendJSON(json(), to: &text)
            table[slot] = text
            bytes.append(contentsOf: text)
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
            bytes.append(contentsOf: JSONValue.array(outcome.urlHook.map { .string($0) }).serializedBytes())
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

    /// A result or answer as its event's answer shape writes it: literals and strings without
    /// building anything, the rest through the serializer.
    private static func appendJSON(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: append("null", to: &bytes)
        case .bool(let flag): flag ? append("true", to: &bytes) : append("false", to: &bytes)
        case .string(let string): appendString(string, to: &bytes)
        default: bytes.append(contentsOf: value.serializedBytes())
        }
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
            for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { bytes.append(contentsOf: JSONValue.string(string).serializedBytes()) }
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
