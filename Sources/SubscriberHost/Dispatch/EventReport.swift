import SubscriberKit

/// An ``EventOutcome`` with its result as JSON: what ``LifecycleDispatcher/dispatch(_:)`` returns
/// and what `apphost` prints, one per event.
public typealias EventReport = EventOutcome<JSONValue>

extension EventOutcome where Result == JSONValue {
    /// The report of `outcome`, its result encoded by `encode`.
    public init<Typed>(_ outcome: EventOutcome<Typed>, result encode: (Typed) -> JSONValue) {
        self.init(event: outcome.event, result: encode(outcome.result), answers: outcome.answers,
                  reports: outcome.reports, invocation: outcome.invocation)
    }

    /// As JSON: {"event", "result", "invocation"?, "answers": [{"subscriber", "answer", "ms"}],
    /// "reports": [{"kind", "event", …, "message"}]}.
    public var json: JSONObject {
        var object: JSONObject = ["event": .string(event.name), "result": result]
        if let invocation { object["invocation"] = .object(invocation.json) }
        object["answers"] = .array(answers.map { .object($0.json) })
        object["reports"] = .array(reports.map { .object($0.json) })
        return object
    }
}
