#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberKit
import SubscriberEventModel

extension EventCall where Immediate == any Sendable, Final == any Sendable {
    /// Reads one event-script object (docs/cli.md): `{"event": "<wire name>", …arguments}`. The
    /// event's row says which keys it takes (its argument shape); unknown keys and wrong types are
    /// errors naming the key path under `path`.
    package init(json: JSONValue, path: String = "") throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        let name = try reader.requiredString("event")
        guard let event = LifecycleEvent(rawValue: name) else {
            let near = suggestion(for: name, among: LifecycleEvent.allCases.map(\.rawValue)).map { " (did you mean \($0)?)" } ?? ""
            throw JSONShapeError(path: reader.path(of: "event"), expected: "an event wire name such as performFetch",
                                 found: JSONValue.string(name).shapeDescription + near)
        }
        _ = try Self.recordedSource(&reader)
        self = try event.row.call(reading: &reader)
    }

    /// The keys `apphost run --record` adds to each line (docs/live-host.md), read and checked here
    /// and never an argument: `"source"` (a string, returned) and `"at"` (milliseconds since the host
    /// started, a number ≥ 0; a replay plays the lines in order and does not wait for it).
    static func recordedSource(_ reader: inout JSONObjectReader) throws(JSONShapeError) -> String? {
        // Read only when there: an unknown key's error lists the keys read, and these are no argument.
        let source = reader.has("source") ? try reader.string("source") : nil
        if reader.has("at"), let at = reader.value("at") {
            guard case .number(let milliseconds) = at, milliseconds >= 0, milliseconds.isFinite else {
                throw reader.mismatch("at", "milliseconds since the host started, a number ≥ 0", at)
            }
        }
        return source
    }

    /// ``init(json:path:)``, with the line's `"source"` when it has one.
    package static func readingSource(json: JSONValue) throws(JSONShapeError) -> (call: AnyEventCall, source: String?) {
        var reader = try JSONObjectReader(json, path: "")
        let source = try recordedSource(&reader)
        return (try AnyEventCall(json: json), source)
    }

    /// A line's call and its `"source"`, read straight from the line's bytes (``FlatJSONObject``):
    /// strings are made from the bytes, and only values that are not plain strings are built as
    /// `JSONValue`s. Nil whenever this fast path cannot read the line or finds anything wrong with
    /// it: the caller then reads it the ordinary way (``readingSource(json:)``), which names what is
    /// wrong and where. What it returns is what the ordinary way returns (`EventScriptTests`).
    static func readingSource(line: ArraySlice<UInt8>) -> (call: AnyEventCall, source: String?)? {
        var lines = ScriptLineReader()
        return lines.entry(line)
    }

    /// As an event-script object: `{"event": "<wire name>", …arguments}`; ``init(json:path:)`` reads it back.
    package var scriptJSON: JSONObject {
        var object: JSONObject = ["event": .string(event.name)]
        for (key, value) in event.row.scriptMembers(of: self).members { object[key] = value }
        return object
    }

    /// The call's arguments in a few words, for an event's heading: `news://article/7`,
    /// `{"articles":[101,102]}`, `pad`; nil for events without arguments (and the launch events,
    /// whose invocation says it better).
    var argumentSummary: String? { event.row.summary(of: self) }
}

/// Reads script lines straight from their bytes, one after another
/// (``AnyEventCall/readingSource(line:)`` for each): one reader for the run, whose member list
/// and list of keys asked for are reused from line to line (`JSONObjectReader(linesAt:)`); built
/// and freed once a line they cost about 580 instructions.
struct ScriptLineReader {
    private var reader = JSONObjectReader(linesAt: "")

    /// `line`'s call and its `"source"`, or nil where ``AnyEventCall/readingSource(line:)`` is nil.
    mutating func entry(_ line: ArraySlice<UInt8>) -> (call: AnyEventCall, source: String?)? {
        defer { reader.endLine() }
        guard reader.startLine(line) else { return nil }
        do {
            guard let name = reader.plainStringBytes("event", place: 0), let event = ScriptEventNames.event(named: name) else { return nil }
            // Read only from a line with either key: reading them (about 520 instructions a line)
            // finds nothing in one without, and its members' keys say so (about 340 to look for
            // them in the line's bytes).
            let source = reader.hasKey("source", or: "at") ? try AnyEventCall.recordedSource(&reader) : nil
            let call = try event.row.call(reading: &reader)
            return reader.isIntact ? (call, source) : nil
        } catch {
            return nil
        }
    }
}

/// The events by the bytes of their wire names, for lines read from their bytes: no `String` made
/// and hashed for a line's event. Made once from the event table, grouped by the name's length.
enum ScriptEventNames {
    private static let byLength: [[(name: [UInt8], event: LifecycleEvent)]] = {
        var table: [[(name: [UInt8], event: LifecycleEvent)]] = []
        for event in LifecycleEvent.allCases {
            let name = Array(event.name.utf8)
            while table.count <= name.count { table.append([]) }
            table[name.count].append((name, event))
        }
        return table
    }()

    /// The event whose wire name is `name`, or nil. Compared with `memcmp`: element by element
    /// through the slice's iterator cost about 340 instructions a line.
    static func event(named name: ArraySlice<UInt8>) -> LifecycleEvent? {
        let count = name.count
        let table = byLength
        guard count > 0, count < table.count else { return nil }
        return name.withUnsafeBufferPointer { bytes -> LifecycleEvent? in
            guard let base = bytes.baseAddress else { return nil }
            for entry in table[count] {
                let equal = entry.name.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, count) == 0 }
                if equal { return entry.event }
            }
            return nil
        }
    }
}
