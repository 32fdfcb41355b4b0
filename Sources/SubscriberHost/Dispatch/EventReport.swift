import SubscriberKit

/// An ``EventOutcome`` with its result as JSON: what ``LifecycleDispatcher/dispatch(_:)`` returns
/// and what `apphost` prints, one per event.
public struct EventReport: Sendable, Hashable {
    /// The event.
    public var event: LifecycleEvent
    /// The reconciled result as JSON (`null` for notifications and background sessions).
    public var result: JSONValue
    /// One row per responding subscriber that did not decline, in call order.
    public var answers: [SubscriberAnswer]
    /// Reports (this event's, then late ones about earlier events).
    public var reports: [DispatchReport]
    /// How the app was launched, for the launch events.
    public var invocation: LaunchInvocation?

    /// A report with the given fields.
    public init(event: LifecycleEvent, result: JSONValue, answers: [SubscriberAnswer], reports: [DispatchReport],
                invocation: LaunchInvocation? = nil) {
        self.event = event
        self.result = result
        self.answers = answers
        self.reports = reports
        self.invocation = invocation
    }

    /// The report of `outcome`, its result encoded by `encode`.
    public init<Result>(_ outcome: EventOutcome<Result>, result encode: (Result) -> JSONValue) {
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
