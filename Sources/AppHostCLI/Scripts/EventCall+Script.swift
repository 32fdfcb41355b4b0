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
        self = try event.row.call(reading: &reader)
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
