import SubscriberKit

/// Something the dispatcher noticed while delivering an event: a subscriber that did not answer in
/// time, answered twice, contradicted the others. Reports never change the delivered result beyond
/// what SPEC §3 says; they are there so that people see what happened.
public enum DispatchReport: Sendable, Hashable, CustomStringConvertible {
    /// `subscriber` had not called its completion when `event`'s deadline passed; it was counted as
    /// `failed` (fetch), `false` (Bool) or nothing (restoration, merge, background session).
    case late(subscriber: String, event: LifecycleEvent)
    /// `subscriber` called its completion for `event` a second time; the call was ignored.
    case duplicateCompletion(subscriber: String, event: LifecycleEvent)
    /// `subscriber` called its completion for `event` after the result had been delivered (after the
    /// deadline); the call was ignored.
    case completionAfterDelivery(subscriber: String, event: LifecycleEvent)
    /// `subscriber` called its completion for `event` after declining it; the call was ignored.
    case completionAfterDecline(subscriber: String, event: LifecycleEvent)
    /// `subscriber` called the restoration handler of `event` (continueUserActivity) without having
    /// returned true; the call was ignored.
    case unexpectedRestoration(subscriber: String, event: LifecycleEvent)
    /// `subscriber` declined `event` after its method had returned or after answering; ignored.
    case ignoredDecline(subscriber: String, event: LifecycleEvent)
    /// The orientation answers of `event` have an empty intersection; `fallback` (the configured
    /// default for the idiom) was delivered instead.
    case orientationConflict(event: LifecycleEvent, answers: [NamedAnswer<InterfaceOrientationMask>],
                             fallback: InterfaceOrientationMask)
    /// `subscriber` replied `key` for `event`, which `keptFrom` had already replied; the first was kept.
    case duplicateKey(key: String, subscriber: String, keptFrom: String, event: LifecycleEvent)

    /// The event the report is about.
    public var event: LifecycleEvent {
        switch self {
        case .late(_, let event), .duplicateCompletion(_, let event), .completionAfterDelivery(_, let event),
             .completionAfterDecline(_, let event), .unexpectedRestoration(_, let event),
             .ignoredDecline(_, let event), .orientationConflict(let event, _, _),
             .duplicateKey(_, _, _, let event):
            event
        }
    }

    /// The report's kind as it appears in JSON: "late", "duplicateCompletion", …
    public var kind: String {
        switch self {
        case .late: "late"
        case .duplicateCompletion: "duplicateCompletion"
        case .completionAfterDelivery: "completionAfterDelivery"
        case .completionAfterDecline: "completionAfterDecline"
        case .unexpectedRestoration: "unexpectedRestoration"
        case .ignoredDecline: "ignoredDecline"
        case .orientationConflict: "orientationConflict"
        case .duplicateKey: "duplicateKey"
        }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .late(let subscriber, let event):
            "late: \(subscriber) did not complete \(event) before its deadline"
        case .duplicateCompletion(let subscriber, let event):
            "duplicate completion: \(subscriber) completed \(event) more than once; the extra call was ignored"
        case .completionAfterDelivery(let subscriber, let event):
            "late completion: \(subscriber) completed \(event) after the result was delivered; ignored"
        case .completionAfterDecline(let subscriber, let event):
            "completion after decline: \(subscriber) declined \(event), then completed it; ignored"
        case .unexpectedRestoration(let subscriber, let event):
            "unexpected restoration: \(subscriber) called the restoration handler of \(event) without returning true; ignored"
        case .ignoredDecline(let subscriber, let event):
            "ignored decline: \(subscriber) declined \(event) after returning or answering"
        case .orientationConflict(let event, let answers, let fallback):
            "orientation conflict: \(event) answers have no orientation in common ("
                + answers.map { "\($0.subscriber) \($0.answer)" }.joined(separator: ", ")
                + "); delivered the default \(fallback)"
        case .duplicateKey(let key, let subscriber, let keptFrom, let event):
            "duplicate key: \(subscriber) replied \"\(key)\" to \(event), already replied by \(keptFrom); kept \(keptFrom)'s"
        }
    }

    /// As JSON: {"kind", "event", "subscriber"?, …, "message"}.
    public var json: JSONObject {
        var object: JSONObject = ["kind": .string(kind), "event": .string(event.name)]
        switch self {
        case .late(let subscriber, _), .duplicateCompletion(let subscriber, _),
             .completionAfterDelivery(let subscriber, _), .completionAfterDecline(let subscriber, _),
             .unexpectedRestoration(let subscriber, _), .ignoredDecline(let subscriber, _):
            object["subscriber"] = .string(subscriber)
        case .orientationConflict(_, let answers, let fallback):
            object["answers"] = .array(answers.map {
                .object(["subscriber": .string($0.subscriber), "answer": $0.answer.json])
            })
            object["fallback"] = fallback.json
        case .duplicateKey(let key, let subscriber, let keptFrom, _):
            object["subscriber"] = .string(subscriber)
            object["key"] = .string(key)
            object["keptFrom"] = .string(keptFrom)
        }
        object["message"] = .string(description)
        return object
    }
}
