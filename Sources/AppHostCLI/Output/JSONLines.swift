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
        var line = OutputBytes()
        event(outcome, into: &line)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    /// Appends the line of ``event(_:)`` to `line`: the run's own bytes, written in place (the hot
    /// path of `apphost --json`, one line per event). Returns how many reports it lists, its
    /// bridged replays' included (what the run counts: the replays read once an event, not twice).
    @discardableResult
    static func event(_ outcome: AnyEventOutcome, into line: inout OutputBytes) -> Int {
        let reports = object(outcome, into: &line)
        line.append(UInt8(ascii: "\n"))
        return reports
    }

    /// Appends `outcome`'s object, without a newline; returns how many reports it lists.
    private static func object(_ outcome: AnyEventOutcome, into line: inout OutputBytes) -> Int {
        let event = outcome.event
        line.append(#"{"event":"#)
        EventNames.append(event, to: &line)
        if let scene = outcome.scene {
            line.append(#","scene":"#)
            appendString(scene, to: &line)
        }
        line.append(#","result":"#)
        if let refusal = outcome.refusal {
            // Not delivered: no result, and why.
            line.append(#"null,"refused":"#)
            appendString(refusal.refusalReason, to: &line)
        } else {
            appendValue(outcome.result, result: true, of: event, to: &line)
        }
        if outcome.isKept { line.append(#","kept":true"#) }
        if !outcome.urlHook.isEmpty {
            line.append(#","urlHook":"#)
            appendStrings(outcome.urlHook, to: &line)
        }
        if let invocation = outcome.invocation {
            line.append(#","invocation":"#)
            line.append(JSONValue.object(invocation.json).serializedBytes())
        }
        line.append(#","answers":["#)
        if let (record, names) = outcome.recordedAnswers, appendTyped(record, names: names, to: &line) {
            // Written from the typed answers.
        } else {
            var first = true
            outcome.forEachAnswer { subscriber, answer, nanoseconds in
                appendRowStart(subscriber, first: first, to: &line)
                first = false
                if let answer {
                    appendValue(answer, result: false, of: event, to: &line)
                } else {
                    line.append("null")
                }
                appendRowEnd(nanoseconds, to: &line)
            }
        }
        line.append(UInt8(ascii: "]"))
        if !outcome.requests.isEmpty {
            line.append(#","requests":["#)
            for (index, request) in outcome.requests.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                line.append(#"{"subscriber":"#)
                appendString(request.subscriber, to: &line)
                line.append(#","request":"#)
                appendString(request.request.name, to: &line)
                line.append(UInt8(ascii: "}"))
            }
            line.append(UInt8(ascii: "]"))
        }
        var reports = outcome.reports.count
        let bridged = outcome.bridged
        if !bridged.isEmpty {
            line.append(#","bridged":["#)
            for (index, replay) in bridged.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                reports += object(replay, into: &line)
            }
            line.append(UInt8(ascii: "]"))
        }
        line.append(#","reports":"#)
        if outcome.reports.isEmpty {
            line.append("[]")
        } else {
            line.append(JSONValue.array(outcome.reports.map { .object($0.json) }).serializedBytes())
        }
        line.append(UInt8(ascii: "}"))
        return reports
    }

    /// A result (`result`) or an answer of `event`, as its row's answer shape writes it: the common
    /// values here (``appendCommon(_:result:to:)``), anything else by the row's shape (the row read
    /// only then: reading it retains it).
    @inline(__always)
    private static func appendValue(_ value: any Sendable, result: Bool, of event: LifecycleEvent, to line: inout OutputBytes) {
        if appendCommon(value, result: result, to: &line) { return }
        let row = event.row
        // The shape writes into an `[UInt8]`: the line's own, kept for the run (one allocation).
        let written = line.withScratch { scratch in
            if result { row.appendJSON(result: value, to: &scratch) } else { row.appendJSON(answer: value, to: &scratch) }
            return scratch
        }
        line.append(written)
    }

    /// Writes a value whose text is the same for every answer shape that has it, and returns true;
    /// false (nothing written) for any other. A `Bool` is `true` or `false`; a result that is nothing
    /// (`()`) is `null` (an answer that is `()` is `null` or `"done"` by row: not here); a fetch
    /// result is its name; an orientation mask is its names in the table's order; `continueUserActivity`'s result is
    /// `{"handled", "restorableObjects"?}`. Written straight from the value, told by its type and
    /// read without a dynamic cast (the shapes cast it from `any Sendable` and write strings through
    /// the serializer: about 1,400 instructions an orientation mask). JSONLinesTests hold this
    /// against every row's shape.
    static func appendCommon(_ value: any Sendable, result: Bool, to line: inout OutputBytes) -> Bool {
        // Opened: its type is the one the existential holds, read from it without
        // `swift_getDynamicType`, and the value is read in place (about 130 instructions a value).
        appendCommon(opened: value, result: result, to: &line)
    }

    /// ``appendCommon(_:result:to:)`` for the value opened from its existential: `T` is its type.
    private static func appendCommon<T>(opened value: T, result: Bool, to line: inout OutputBytes) -> Bool {
        if T.self == Bool.self {
            appendBool(unsafeBitCast(value, to: Bool.self), to: &line)
        } else if result, T.self == Void.self {
            line.append("null")
        } else if T.self == BackgroundFetchResult.self {
            appendFetchResult(unsafeBitCast(value, to: BackgroundFetchResult.self), to: &line)
        } else if T.self == InterfaceOrientationMask.self {
            appendMask(unsafeBitCast(value, to: InterfaceOrientationMask.self), to: &line)
        } else if T.self == ContinueUserActivityResult.self {
            appendRestored(unsafeBitCast(value, to: ContinueUserActivityResult.self), to: &line)
        } else {
            return false
        }
        return true
    }

    /// The rows of `record` (its subscribers named from `names`), written from its typed answers
    /// when they are of a type ``appendCommon(_:result:to:)`` writes (the same writers), or when
    /// it has none (a notification's: every answer `null`), and true; false (nothing written) for
    /// any other type: the caller writes the rows by the row's shape. The answers are read as
    /// their own type: no `any Sendable` per row, copied and asked its type (about 400
    /// instructions a row). JSONLinesTests hold this against the rows written the general way.
    static func appendTyped(_ record: AnswerRecord, names: [String], to line: inout OutputBytes) -> Bool {
        guard let type = record.answerType else {
            appendRows(of: record, names: names, answers: nil as [Bool?]?, to: &line) { _, _ in }
            return true
        }
        if type == Bool.self {
            appendRows(of: record, names: names, answers: record.answers(as: Bool.self), to: &line, appendBool)
        } else if type == InterfaceOrientationMask.self {
            appendRows(of: record, names: names, answers: record.answers(as: InterfaceOrientationMask.self), to: &line, appendMask)
        } else if type == ContinueUserActivityResult.self {
            appendRows(of: record, names: names, answers: record.answers(as: ContinueUserActivityResult.self), to: &line, appendRestored)
        } else if type == BackgroundFetchResult.self {
            appendRows(of: record, names: names, answers: record.answers(as: BackgroundFetchResult.self), to: &line, appendFetchResult)
        } else {
            return false
        }
        return true
    }

    /// Each row of `record`: its subscriber, its answer in `answers` written by `write` (`null`
    /// when it has none, or without `answers`), its time.
    @inline(__always)
    private static func appendRows<T>(of record: AnswerRecord, names: [String], answers: [T?]?, to line: inout OutputBytes,
                                      _ write: (T, inout OutputBytes) -> Void) {
        let subscribers = record.subscriberIndices
        // Each row's start written once per subscriber list, not escaped and assembled per row.
        let starts = line.rowStarts(for: names)
        for index in 0..<subscribers.count {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            starts.append(subscribers[index], to: &line)
            if let answer = answers?[index] {
                write(answer, &line)
            } else {
                line.append("null")
            }
            // As ``EventOutcome/answers`` makes its duration: clamped to Int64 nanoseconds.
            appendRowEnd(UInt64(Int64(clamping: record.time(index))), to: &line)
        }
    }

    /// `{"subscriber":"…","answer":` (after a comma unless `first`).
    @inline(__always)
    static func appendRowStart(_ subscriber: String, first: Bool, to line: inout OutputBytes) {
        line.append(first ? #"{"subscriber":"# : #",{"subscriber":"#)
        appendString(subscriber, to: &line)
        line.append(#","answer":"#)
    }

    /// `,"ms":…}`.
    @inline(__always)
    private static func appendRowEnd(_ nanoseconds: UInt64, to line: inout OutputBytes) {
        line.append(#","ms":"#)
        appendMilliseconds(nanoseconds, to: &line)
        line.append(UInt8(ascii: "}"))
    }

    /// `true` or `false`.
    private static func appendBool(_ value: Bool, to line: inout OutputBytes) {
        line.append(value ? "true" : "false")
    }

    /// A fetch result's name.
    private static func appendFetchResult(_ value: BackgroundFetchResult, to line: inout OutputBytes) {
        appendString(value.name, to: &line)
    }

    /// An orientation mask: its names in the table's order, one copy of the text made once for its
    /// set of named orientations (``MaskLiterals``), not each name appended and checked for escapes
    /// (about 450 instructions a mask).
    private static func appendMask(_ mask: InterfaceOrientationMask, to line: inout OutputBytes) {
        MaskLiterals.table.append(mask, to: &line)
    }

    /// ``appendMask(_:to:)`` as each name appended one by one writes it: `["portrait","landscapeLeft"]`
    /// (bits of no named orientation are not written). What ``MaskLiterals`` is made of.
    static func maskText(_ mask: InterfaceOrientationMask, to line: inout OutputBytes) {
        line.append(UInt8(ascii: "["))
        var first = true
        for (name, orientation) in InterfaceOrientationMask.named where mask.contains(orientation) {
            if !first { line.append(UInt8(ascii: ",")) }
            first = false
            appendString(name, to: &line)
        }
        line.append(UInt8(ascii: "]"))
    }

    /// The text of every set of the named orientations (16 of four), by the set's bits (bit `i`:
    /// the mask holds the table's orientation `i`), made once.
    final class MaskLiterals: Sendable {
        static let table = MaskLiterals()
        /// The named orientations' bits, in the table's order: tested here (``InterfaceOrientationMask/contains(_:)``
        /// is a call into another module, four a mask).
        private let bits: [UInt32]
        private let literals: PackedLiterals

        private init() {
            let masks = InterfaceOrientationMask.named.map(\.mask)
            bits = masks.map(\.rawValue)
            literals = PackedLiterals((0..<(1 << masks.count)).map { subset in
                var mask: InterfaceOrientationMask = []
                for (index, one) in masks.enumerated() where subset & (1 << index) != 0 { mask = mask.union(one) }
                var line = OutputBytes(capacity: 128)
                JSONLines.maskText(mask, to: &line)
                return Array(line.bytes)
            })
        }

        @inline(__always)
        func append(_ mask: InterfaceOrientationMask, to line: inout OutputBytes) {
            let raw = mask.rawValue
            var subset = 0
            for index in 0..<bits.count where raw & bits[index] == bits[index] { subset |= 1 << index }
            literals.append(subset, to: &line)
        }
    }

    /// `continueUserActivity`'s result: `{"handled", "restorableObjects"?}`.
    private static func appendRestored(_ restored: ContinueUserActivityResult, to line: inout OutputBytes) {
        line.append(#"{"handled":"#)
        line.append(restored.handled ? "true" : "false")
        if let restorable = restored.restorableObjects {
            line.append(#","restorableObjects":"#)
            appendStrings(restorable, to: &line)
        }
        line.append(UInt8(ascii: "}"))
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
    private static func appendStrings(_ strings: [String], to line: inout OutputBytes) {
        line.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            appendString(string, to: &line)
        }
        line.append(UInt8(ascii: "]"))
    }

    /// `string` as a JSON string literal, by the serializer's rules; strings with nothing to
    /// escape (names, events) copied as they are.
    static func appendString(_ string: String, to line: inout OutputBytes) {
        let plain = string.utf8.withContiguousStorageIfAvailable { utf8 in
            if !isPlain(utf8) { return false }
            line.append(UInt8(ascii: "\""))
            line.append(utf8)
            line.append(UInt8(ascii: "\""))
            return true
        }
        if plain != true { line.append(JSONValue.string(string).serializedBytes()) }
    }

    /// Whether `utf8` holds no byte the serializer escapes (below 0x20, `"`, `\\`): eight bytes at
    /// a time (byte by byte, the names and events of a line cost about 600 instructions an event).
    static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        return !JSONWord.anyEscaped(base, count: utf8.count)
    }

    /// The events' names as JSON string literals, made once from the event table: an event's line
    /// names its event without checking the name's bytes again.
    private enum EventNames {
        static let literals = PackedLiterals(LifecycleEvent.allCases.map { JSONValue.string($0.name).serializedBytes() })

        @inline(__always)
        static func append(_ event: LifecycleEvent, to line: inout OutputBytes) {
            literals.append(event.index, to: &line)
        }
    }

    /// Milliseconds rounded to the microsecond, as the serializer writes the Double
    /// `(Double(nanoseconds) / 1_000).rounded() / 1_000`: `0`, `0.04`, `12.5`, `1.234`. Below a
    /// million seconds the digits are the microseconds' own (`Double` holds them exactly and
    /// prints the shortest text that reads back); beyond, the Double itself is written.
    static func appendMilliseconds(_ nanoseconds: UInt64, to bytes: inout [UInt8]) {
        var line = OutputBytes(capacity: 32)
        appendMilliseconds(nanoseconds, to: &line)
        bytes.append(contentsOf: line.bytes)
    }

    /// ``appendMilliseconds(_:to:)-([UInt8])`` into the run's bytes.
    static func appendMilliseconds(_ nanoseconds: UInt64, to bytes: inout OutputBytes) {
        guard nanoseconds < 1_000_000_000_000_000 else {
            bytes.append(JSONValue.number((Double(nanoseconds) / 1_000).rounded() / 1_000).serializedBytes())
            return
        }
        let microseconds = (nanoseconds + 500) / 1_000
        let whole = microseconds / 1_000
        // Nearly always below 10 ms: one digit.
        if whole < 10 { bytes.append(UInt8(ascii: "0") + UInt8(whole)) } else { appendDecimal(whole, to: &bytes) }
        let fraction = microseconds % 1_000
        guard fraction > 0 else { return }
        // `.d`, `.dd` or `.ddd`: the three digits written at once, the count leaving out the
        // trailing zeros (divided by constants, not digit by digit: about 100 instructions a row).
        let (hundreds, tens, ones) = (UInt8(fraction / 100), UInt8(fraction / 10 % 10), UInt8(fraction % 10))
        bytes.append(upTo: 4) { at in
            at[0] = UInt8(ascii: ".")
            at[1] = UInt8(ascii: "0") + hundreds
            at[2] = UInt8(ascii: "0") + tens
            at[3] = UInt8(ascii: "0") + ones
            return ones != 0 ? 4 : tens != 0 ? 3 : 2
        }
    }

    /// `value` in decimal digits.
    private static func appendDecimal(_ value: UInt64, to bytes: inout OutputBytes) {
        guard value >= 10 else {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        appendDecimal(value / 10, to: &bytes)
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}


/// `{"subscriber":"NAME","answer":` for each name of one subscriber list, written as
/// ``JSONLines/appendRowStart(_:first:to:)`` writes it, made once for the list (an event's line
/// kept the last: ``OutputBytes/rowStarts(for:)``): a row's start is one copy, not its name checked
/// for escapes and three pieces appended (about 170 instructions a row).
final class SubscriberRowStarts {
    /// The names they are made of, by subscriber index.
    let names: [String]
    /// Every start, by subscriber index.
    private let starts: PackedLiterals

    init(_ names: [String]) {
        self.names = names
        starts = PackedLiterals(names.map { name in
            var line = OutputBytes(capacity: 64)
            JSONLines.appendRowStart(name, first: true, to: &line)
            return Array(line.bytes)
        })
    }

    /// Appends subscriber `index`'s row start to `line`.
    @inline(__always)
    func append(_ index: Int, to line: inout OutputBytes) {
        starts.append(index, to: &line)
    }
}

/// Byte strings made once and written many times (an event's name, a row's start), by number:
/// one after another in one array, so that writing one reads no array of its own (retained and
/// let go, about 25 instructions a string).
struct PackedLiterals: Sendable {
    /// Every string, one after another; string `index` ends at `ends[index]`.
    private let bytes: [UInt8]
    private let ends: [Int]

    init(_ strings: [[UInt8]]) {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        ends.reserveCapacity(strings.count)
        for string in strings {
            bytes += string
            ends.append(bytes.count)
        }
        self.bytes = bytes
        self.ends = ends
    }

    /// Appends string `index` to `line`.
    @inline(__always)
    func append(_ index: Int, to line: inout OutputBytes) {
        let start = index == 0 ? 0 : ends[index - 1]
        let end = ends[index]
        bytes.withUnsafeBufferPointer { line.append(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }
}
