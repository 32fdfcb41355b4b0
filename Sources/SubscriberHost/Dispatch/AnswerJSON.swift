import SubscriberKit

// How answers and results appear in output (EventReport, DispatchReport). Internal: these are the
// dispatcher's output conventions, not a general JSON mapping of the SubscriberKit values.

extension BackgroundFetchResult {
    /// "newData", "noData" or "failed".
    var json: JSONValue { .string(name) }
}

extension InterfaceOrientationMask {
    /// The orientation names: ["portrait", "landscapeLeft"].
    var json: JSONValue { .array(names.map { .string($0) }) }
}

extension Bool {
    var json: JSONValue { .bool(self) }
}

extension JSONValue {
    /// Milliseconds, rounded to the microsecond, from nanoseconds.
    static func milliseconds(_ nanoseconds: UInt64) -> JSONValue {
        .number((Double(nanoseconds) / 1_000).rounded() / 1_000)
    }
}
