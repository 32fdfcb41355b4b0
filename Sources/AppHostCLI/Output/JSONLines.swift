import SubscriberHost
import SubscriberKit

/// The machine-readable output: one JSON object per line.
enum JSONLines {
    /// One event: `{"event", "result", "invocation"?, "answers": [{"subscriber", "answer", "ms"}], "reports"}`.
    static func event(_ report: EventReport) -> String {
        JSONValue.object(report.json).serialized() + "\n"
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
}
