import SubscriberKit

/// What dispatching one event produced: the reconciled result, every responder's answer, and the
/// reports. Returned by the typed entry points of ``LifecycleDispatcher``.
public struct EventOutcome<Result> {
    /// The event.
    public var event: LifecycleEvent
    /// The reconciled result (the no-answer default when nobody answered).
    public var result: Result
    /// One row per responding subscriber that was called and did not decline, in call order.
    public var answers: [SubscriberAnswer]
    /// What the dispatcher noticed: this event's reports, then late reports about earlier events
    /// (calls that arrived after their event had been delivered).
    public var reports: [DispatchReport]
    /// How the app was launched, for `willFinishLaunching` and `didFinishLaunching`; nil otherwise.
    public var invocation: LaunchInvocation?

    /// An outcome.
    public init(event: LifecycleEvent, result: Result, answers: [SubscriberAnswer], reports: [DispatchReport],
                invocation: LaunchInvocation? = nil) {
        self.event = event
        self.result = result
        self.answers = answers
        self.reports = reports
        self.invocation = invocation
    }
}

extension EventOutcome: Sendable where Result: Sendable {}
extension EventOutcome: Equatable where Result: Equatable {}
extension EventOutcome: Hashable where Result: Hashable {}

/// The result of `continueUserActivity`: whether it was handled, and what the restoration handler
/// received.
public struct ContinueUserActivityResult: Sendable, Hashable {
    /// The reconciled Bool (any true by default; false when nobody answers).
    public var handled: Bool
    /// The identifiers handed to the app's restoration handler: the lists of the subscribers that
    /// returned true, concatenated in subscriber order. `nil` means the handler is not called
    /// (the result is false).
    public var restorableObjects: [String]?

    /// A result.
    public init(handled: Bool, restorableObjects: [String]?) {
        self.handled = handled
        self.restorableObjects = restorableObjects
    }

    /// As JSON: {"handled", "restorableObjects"?}.
    public var json: JSONValue {
        var object: JSONObject = ["handled": .bool(handled)]
        if let restorableObjects { object["restorableObjects"] = .array(restorableObjects.map { .string($0) }) }
        return .object(object)
    }
}
