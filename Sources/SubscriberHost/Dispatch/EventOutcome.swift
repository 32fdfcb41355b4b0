import SubscriberKit

/// What dispatching one event produced: the reconciled result, every responder's answer, the
/// reports, and the log lines the subscribers wrote meanwhile.
public struct EventOutcome: Sendable, Hashable {
    /// The event.
    public var event: LifecycleEvent
    /// The reconciled result (the no-answer default when nobody answered).
    public var result: EventResult
    /// One row per responding subscriber that was called and did not decline, in call order.
    public var answers: [SubscriberAnswer]
    /// What the dispatcher noticed: this event's reports, then late reports about earlier events
    /// (calls that arrived after their event had been delivered).
    public var reports: [DispatchReport]
    /// How the app was launched, for `willFinishLaunching` and `didFinishLaunching`; nil otherwise.
    public var invocation: LaunchInvocation?
    /// The log records written while this event was dispatched, in order (``PluginHost`` fills
    /// them; a bare ``LifecycleDispatcher`` leaves them empty).
    public var logs: [LogRecord]

    /// An outcome.
    public init(event: LifecycleEvent, result: EventResult, answers: [SubscriberAnswer], reports: [DispatchReport],
                invocation: LaunchInvocation? = nil, logs: [LogRecord] = []) {
        self.event = event
        self.result = result
        self.answers = answers
        self.reports = reports
        self.invocation = invocation
        self.logs = logs
    }
}
