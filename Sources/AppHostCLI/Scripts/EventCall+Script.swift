import SubscriberKit

extension EventCall where Immediate == any Sendable, Final == any Sendable {
    /// Reads one event-script object (docs/cli.md): `{"event": "<wire name>", …arguments}`. The
    /// event's row says which keys it takes (its argument shape); unknown keys and wrong types are
    /// errors naming the key path under `path`.
    package init(json: JSONValue, path: String = "") throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        let name = try reader.requiredString("event")
        guard let event = LifecycleEvent(rawValue: name) else {
            throw JSONShapeError(path: reader.path(of: "event"), expected: "an event wire name such as performFetch",
                                 found: JSONValue.string(name).shapeDescription)
        }
        _ = try Self.recordedSource(&reader)
        self = try event.row.call(reading: &reader)
    }

    /// The keys `apphost run --record` adds to each line (docs/live-host.md), read and checked here
    /// and never an argument: `"source"` (a string, returned) and `"at"` (milliseconds since the host
    /// started, a number ≥ 0; a replay plays the lines in order and does not wait for it).
    static func recordedSource(_ reader: inout JSONObjectReader) throws(JSONShapeError) -> String? {
        // Read only when there: an unknown key's error lists the keys read, and these are no argument.
        let source = reader.object["source"] == nil ? nil : try reader.string("source")
        if reader.object["at"] != nil, let at = reader.value("at") {
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
