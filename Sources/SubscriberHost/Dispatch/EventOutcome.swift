import SubscriberDelivery
import SubscriberKit

/// What dispatching one event produced: the reconciled result, every responder's answer, the
/// reports, and what the subscribers wrote and asked for meanwhile.
///
/// `Result` is the event's: what its UIKit method returns at once for
/// ``PluginHost/dispatchAtOnce(_:whenDelivered:)`` (`Bool` for `openURL`), what it delivers
/// in the end for ``PluginHost/dispatch(_:)`` (`BackgroundFetchResult` for `performFetch`);
/// `any Sendable` for a call whose types are erased (``AnyEventCall``).
public struct EventOutcome<Result: Sendable>: Sendable {
    /// The event.
    public var event: LifecycleEvent
    /// The reconciled result (what nobody answering gives when nobody answered).
    public var result: Result
    /// What the dispatcher noticed: this event's reports (conflicts, late or duplicate completions,
    /// a state violation), then late reports about earlier events.
    public var reports: [DispatchReport]
    /// How the app was launched, for the launch events; nil otherwise.
    public var invocation: LaunchInvocation?
    /// The application's state once the event was delivered.
    public var applicationState: ApplicationState
    /// The log records written while this event was dispatched, in order.
    public var logs: [LogRecord]
    /// The requests subscribers made while this event was dispatched (``PluginHost`` fills them).
    public var requests: [HostRequest]
    /// Why the host refused the event, when it did: a `stateViolation` or `sceneStateViolation`
    /// report (also among ``reports``) saying what was expected — UIKit would never send it now (before
    /// a launch, after `willTerminate`, dispatched from inside another event's calls, …). No subscriber
    /// was called, and ``result`` is only what nobody answering gives. Nil when it was delivered.
    public var refusal: DispatchReport?
    /// Whether the event was delivered to its subscribers (``refusal`` is nil).
    public var isDelivered: Bool { refusal == nil }
    /// Whether this was a notification response no subscriber handled, kept to be offered to
    /// subscribers added later (the manifest's `"pendingResponses"` says how long).
    public var isKept = false
    /// What the URL hooks (``URLHookSubscriber``) decided before it was delivered, one line each
    /// (`"LinkRewriter rewrote news://a → news://b"`, `"… dropped …"`); empty when none decided anything.
    public var urlHook: [String] = []
    /// The scene a scene event names (its session's persistent identifier); nil for other events.
    public var scene: String? {
        get { sceneFacts?.scene }
        set { sceneFacts = SceneFacts.make(scene: newValue, bridged: bridged) }
    }
    /// The app-level events the scene bridge replayed for this scene event, in order, each with its
    /// own result, answers and reports (the manifest's `"sceneBridge": true`); empty when none was.
    /// A scene event's `Bool` result is true when a replay was handled.
    public var bridged: [AnyEventOutcome] {
        get { sceneFacts?.bridged ?? [] }
        set { sceneFacts = SceneFacts.make(scene: scene, bridged: newValue) }
    }

    /// ``scene`` and ``bridged``, behind one optional reference: nil for an app event, so that an
    /// app event's outcome carries and copies nothing more for them. (Outcomes held directly in an
    /// outcome would make its layout recursive, and every outcome would look its metadata up at run
    /// time: callgrind, about 1,000 instructions per event.)
    private var sceneFacts: SceneFacts?

    private var rows: Rows

    /// The answers as the dispatcher recorded them, turned into ``SubscriberAnswer``s when read.
    private enum Rows: @unchecked Sendable {
        // @unchecked: the record is immutable.
        case record(AnswerRecord, names: [String])
        case list([SubscriberAnswer])
    }

    /// An outcome.
    public init(event: LifecycleEvent, result: Result, answers: [SubscriberAnswer], reports: [DispatchReport],
                invocation: LaunchInvocation? = nil, applicationState: ApplicationState, logs: [LogRecord] = [],
                requests: [HostRequest] = []) {
        self.event = event
        self.result = result
        self.rows = .list(answers)
        self.reports = reports
        self.invocation = invocation
        self.applicationState = applicationState
        self.logs = logs
        self.requests = requests
    }

    package init(event: LifecycleEvent, result: Result, record: AnswerRecord, names: [String], reports: [DispatchReport],
         invocation: LaunchInvocation?, applicationState: ApplicationState) {
        self.event = event
        self.result = result
        self.rows = .record(record, names: names)
        self.reports = reports
        self.invocation = invocation
        self.applicationState = applicationState
        self.logs = []
        self.requests = []
    }

    /// One row per responding subscriber that was called and did not decline, in call order.
    public var answers: [SubscriberAnswer] {
        get {
            switch rows {
            case .list(let answers): return answers
            case .record(let record, let names):
                return (0..<record.count).map { index in
                    SubscriberAnswer(subscriber: names[record.subscribers[index]], answer: record.answer(index),
                                     duration: .nanoseconds(Int64(clamping: record.time(index))))
                }
            }
        }
        set { rows = .list(newValue) }
    }

    /// This outcome with its result as `T`: the event's own result type, or `any Sendable`.
    package func withResult<T: Sendable>(as _: T.Type) -> EventOutcome<T> {
        let copied: EventOutcome<T>.Rows = switch rows {
        case .list(let answers): .list(answers)
        case .record(let record, let names): .record(record, names: names)
        }
        var typed = EventOutcome<T>(event: event, result: result as! T, rows: copied, reports: reports, invocation: invocation,
                                    applicationState: applicationState, logs: logs, requests: requests, sceneFacts: sceneFacts)
        typed.refusal = refusal
        typed.isKept = isKept
        typed.urlHook = urlHook
        return typed
    }

    /// Every stored property as given: what ``withResult(as:)`` copies, in one initialization
    /// (inlined, so that the generic struct is not built field by field out of line).
    @inline(__always)
    private init(event: LifecycleEvent, result: Result, rows: Rows, reports: [DispatchReport], invocation: LaunchInvocation?,
                 applicationState: ApplicationState, logs: [LogRecord], requests: [HostRequest], sceneFacts: SceneFacts?) {
        self.event = event
        self.result = result
        self.rows = rows
        self.reports = reports
        self.invocation = invocation
        self.applicationState = applicationState
        self.logs = logs
        self.requests = requests
        self.sceneFacts = sceneFacts
    }
}

/// A request a subscriber made (``SubscriberRequest``): what the embedding app decides to do.
public struct HostRequest: Sendable, Hashable, CustomStringConvertible {
    /// The subscriber that asked.
    public var subscriber: String
    /// What it asked for.
    public var request: SubscriberRequest

    /// A request.
    public init(subscriber: String, request: SubscriberRequest) {
        self.subscriber = subscriber
        self.request = request
    }

    /// "DeepLinkRouter: registerForRemoteNotifications".
    public var description: String { "\(subscriber): \(request)" }
}

/// The outcome of a call whose types are erased (``AnyEventCall``): what a script's events give.
public typealias AnyEventOutcome = EventOutcome<any Sendable>

/// A scene event's outcome's scene and replays (``EventOutcome/scene``, ``EventOutcome/bridged``).
private final class SceneFacts: Sendable {
    let scene: String?
    let bridged: [AnyEventOutcome]

    private init(scene: String?, bridged: [AnyEventOutcome]) {
        self.scene = scene
        self.bridged = bridged
    }

    /// The facts, or nil when there are none.
    static func make(scene: String?, bridged: [AnyEventOutcome]) -> SceneFacts? {
        scene == nil && bridged.isEmpty ? nil : SceneFacts(scene: scene, bridged: bridged)
    }
}

extension EventOutcome {
    /// The answers as the dispatcher recorded them, with the subscribers' names that the record's
    /// rows index; nil when they were set as a list (``answers``' setter, the public initializer).
    /// What the JSON output reads typed (``AnswerRecord/answers(as:)``).
    package var recordedAnswers: (record: AnswerRecord, names: [String])? {
        guard case .record(let record, let names) = rows else { return nil }
        return (record, names)
    }

    /// Each row of ``answers`` in turn — subscriber, answer, nanoseconds — without building the list
    /// (the JSON output's hot path).
    package func forEachAnswer(_ body: (String, (any Sendable)?, UInt64) -> Void) {
        switch rows {
        case .list(let answers):
            for answer in answers { body(answer.subscriber, answer.answer, answer.duration.nanosecondsSaturating) }
        case .record(let record, let names):
            for index in 0..<record.count {
                // As ``answers`` makes its duration: clamped to Int64 nanoseconds.
                body(names[record.subscribers[index]], record.answer(index), UInt64(Int64(clamping: record.time(index))))
            }
        }
    }
}
