import SubscriberValues


/// Something the dispatcher noticed while delivering an event: a subscriber that did not answer in
/// time, answered twice, contradicted the others. Reports never change the delivered result beyond
/// what the event's reconciler and completion rules say; they are there so that people see what happened.
public enum DispatchReport: Sendable, Hashable, CustomStringConvertible {
    /// `subscriber` had not called its completion when `event`'s deadline passed; it was counted as
    /// `failed` (fetch), `false` (Bool) or nothing (restoration, merge, background session).
    case late(subscriber: String, event: LifecycleEvent)
    /// `subscriber` called its completion for `event` again after answering; the `count` extra calls
    /// were ignored. Repeats are counted in one report, not reported one by one.
    case duplicateCompletion(subscriber: String, event: LifecycleEvent, count: Int = 1)
    /// `subscriber` called its completion for `event` after the result had been delivered (after the
    /// deadline); the `count` calls were ignored.
    case completionAfterDelivery(subscriber: String, event: LifecycleEvent, count: Int = 1)
    /// `subscriber` called its completion for `event` after declining it; the `count` calls were ignored.
    case completionAfterDecline(subscriber: String, event: LifecycleEvent, count: Int = 1)
    /// `subscriber` called the restoration handler of `event` (continueUserActivity) without having
    /// returned true; the `count` calls were ignored.
    case unexpectedRestoration(subscriber: String, event: LifecycleEvent, count: Int = 1)
    /// `subscriber`, while handling `event`, called a completion with a context the host never gave
    /// it (a forged or stale token); the `count` calls were ignored and completed nothing.
    case forgedCompletion(subscriber: String, event: LifecycleEvent, count: Int = 1)
    /// A completion was called `count` times with a context the host never gave, outside any
    /// subscriber's call (typically from a plugin's own thread), so no subscriber and no event can be
    /// named; the calls were ignored and completed nothing. Its kind is "forgedCompletion" too.
    case unattributedForgedCompletion(count: Int)
    /// `subscriber` declined `event` after its method had returned or after answering; ignored.
    case ignoredDecline(subscriber: String, event: LifecycleEvent)
    /// `subscriber` (a loaded plugin's) answered `event` with a value the C header does not allow
    /// (`problem` says what it returned or passed, what was expected and how it was read); `count`
    /// such answers to that event are counted in one report, the first one's `problem` kept.
    case invalidAnswer(subscriber: String, event: LifecycleEvent, problem: String, count: Int = 1)
    /// The orientation answers of `event` have an empty intersection; `fallback` (the configured
    /// default for the idiom) was delivered instead.
    case orientationConflict(event: LifecycleEvent, answers: [NamedAnswer<InterfaceOrientationMask>],
                             fallback: InterfaceOrientationMask)
    /// `subscriber` replied `key` for `event`, which `keptFrom` had already replied; the first was kept.
    case duplicateKey(key: String, subscriber: String, keptFrom: String, event: LifecycleEvent)
    /// `event` would break the application's state machine (UIKit never delivers it in `state`):
    /// it was not delivered. `expected` says when it may come.
    case stateViolation(event: LifecycleEvent, state: ApplicationState, expected: String)
    /// Scene event `event` names scene `scene`, which is in `sceneState` (nil: not connected — never
    /// connected, or disconnected), where UIKit never delivers it: it was not delivered. `expected` says
    /// when it may come. Its kind is "stateViolation" too.
    case sceneStateViolation(event: LifecycleEvent, scene: String, sceneState: SceneState?, expected: String)
    /// `subscriber` called a completion of `event` after the host shut down (its subscribers were
    /// destroyed); the `count` calls were ignored.
    case completionAfterShutdown(subscriber: String, event: LifecycleEvent, count: Int = 1)
    /// The child process of isolated plugin `plugin` ended (a signal, an exit, or a malformed message,
    /// said by `found`) during `subscriber`'s call of `event` (nil: between events, noticed at
    /// `event`): its answer counts as no opinion, its owed completions are settled as missed.
    case crashed(plugin: String, subscriber: String?, event: LifecycleEvent, found: String)
    /// `subscriber` of isolated plugin `plugin` did not answer `event` within the call budget; its
    /// child was killed.
    case hung(plugin: String, subscriber: String, event: LifecycleEvent, budgetMilliseconds: Int)
    /// The child of isolated plugin `plugin` was started again before `event` (restart `restart` of
    /// at most `max` in the restart window); its subscribers were made anew.
    case restarted(plugin: String, event: LifecycleEvent, restart: Int, max: Int)
    /// Isolated plugin `plugin` ended more often than its restart policy allows (`restarts` within
    /// `withinSeconds`): it is not started again, and its subscribers are skipped from `event` on.
    case disabled(plugin: String, event: LifecycleEvent, restarts: Int, withinSeconds: Int)

    /// The event the report is about; nil for ``unattributedForgedCompletion(count:)``.
    public var event: LifecycleEvent? {
        switch self {
        case .unattributedForgedCompletion:
            nil
        case .late(_, let event), .duplicateCompletion(_, let event, _), .completionAfterDelivery(_, let event, _),
             .completionAfterDecline(_, let event, _), .unexpectedRestoration(_, let event, _),
             .forgedCompletion(_, let event, _), .ignoredDecline(_, let event), .invalidAnswer(_, let event, _, _),
             .orientationConflict(let event, _, _),
             .duplicateKey(_, _, _, let event), .stateViolation(let event, _, _), .completionAfterShutdown(_, let event, _),
             .sceneStateViolation(let event, _, _, _), .crashed(_, _, let event, _), .hung(_, _, let event, _),
             .restarted(_, let event, _, _), .disabled(_, let event, _, _):
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
        case .forgedCompletion, .unattributedForgedCompletion: "forgedCompletion"
        case .ignoredDecline: "ignoredDecline"
        case .invalidAnswer: "invalidAnswer"
        case .orientationConflict: "orientationConflict"
        case .duplicateKey: "duplicateKey"
        case .stateViolation, .sceneStateViolation: "stateViolation"
        case .completionAfterShutdown: "completionAfterShutdown"
        case .crashed: "crashed"
        case .hung: "hung"
        case .restarted: "restarted"
        case .disabled: "disabled"
        }
    }

    /// One line for people.
    public var description: String {
        switch self {
        case .late(let subscriber, let event):
            "late: \(subscriber) did not complete \(event) before its deadline"
        case .duplicateCompletion(let subscriber, let event, let count):
            count == 1
                ? "duplicate completion: \(subscriber) completed \(event) more than once; the extra call was ignored"
                : "duplicate completion: \(subscriber) completed \(event) \(Self.times(count + 1)); "
                    + "the \(Self.number(count)) extra calls were ignored"
        case .completionAfterDelivery(let subscriber, let event, let count):
            "late completion: \(subscriber) completed \(event) after the result was delivered\(Self.repeated(count)); ignored"
        case .completionAfterDecline(let subscriber, let event, let count):
            "completion after decline: \(subscriber) declined \(event), then completed it\(Self.repeated(count)); ignored"
        case .unexpectedRestoration(let subscriber, let event, let count):
            "unexpected restoration: \(subscriber) called the restoration handler of \(event) without returning true"
                + "\(Self.repeated(count)); ignored"
        case .forgedCompletion(let subscriber, let event, let count):
            "forged completion: \(subscriber) called a completion with a context it was not given while handling "
                + "\(event)\(Self.repeated(count)); ignored"
        case .unattributedForgedCompletion(let count):
            "forged completion: a completion was called with a context the host never gave\(Self.repeated(count)); "
                + "ignored (called outside any subscriber's call, so no subscriber can be named)"
        case .ignoredDecline(let subscriber, let event):
            "ignored decline: \(subscriber) declined \(event) after returning or answering"
        case .invalidAnswer(let subscriber, let event, let problem, let count):
            "invalid answer: \(subscriber), \(event): \(problem)"
                + (count == 1 ? "" : " (\(Self.times(count)), the first shown)")
        case .orientationConflict(let event, let answers, let fallback):
            "orientation conflict: \(event) answers have no orientation in common ("
                + answers.map { "\($0.subscriber) \($0.answer)" }.joined(separator: ", ")
                + (fallback.isEmpty ? "); delivered the empty mask (intersectionAllowingEmpty)" : "); delivered the default \(fallback)")
        case .duplicateKey(let key, let subscriber, let keptFrom, let event):
            "duplicate key: \(subscriber) replied \"\(key)\" to \(event), already replied by \(keptFrom); kept \(keptFrom)'s"
        case .stateViolation(let event, let state, let expected):
            "state violation: \(event) while the app is \(state); expected \(expected); not delivered"
        case .sceneStateViolation(let event, let scene, let sceneState, let expected):
            "state violation: \(event) for scene \"\(scene)\", which is \(sceneState.map(\.name) ?? "not connected"); "
                + "expected \(expected); not delivered"
        case .completionAfterShutdown(let subscriber, let event, let count):
            "completion after shutdown: \(subscriber) completed \(event) after the host shut down\(Self.repeated(count)); ignored"
        case .crashed(let plugin, let subscriber?, let event, let found):
            "crashed: \(plugin) (isolated) ended during the call of \(subscriber) for \(event); expected a reply, found: \(found); "
                + "its answer counts as no opinion"
        case .crashed(let plugin, nil, let event, let found):
            "crashed: \(plugin) (isolated) ended between events (noticed at \(event)); expected a running child, found: \(found)"
        case .hung(let plugin, let subscriber, let event, let budget):
            "hung: \(plugin) (isolated): \(subscriber) did not answer \(event) within its call budget; expected a reply within "
                + "\(budget) ms, found none; its child was killed and its answer counts as no opinion"
        case .restarted(let plugin, let event, let restart, let max):
            "restarted: \(plugin) (isolated) was started again before \(event) (restart \(restart) of at most \(max)); "
                + "its subscribers were made anew"
        case .disabled(let plugin, let event, let restarts, let within):
            "disabled: \(plugin) (isolated) ended again after \(restarts) restarts within \(within) s; expected at most "
                + "\(restarts) restarts in that window, found one more; its subscribers are skipped from \(event) on"
        }
    }

    // MARK: Repeats

    /// What identifies a report that repeats: its kind, subscriber and event (nil when unknown).
    package struct RepeatKey: Hashable, Sendable {
        let kind: String
        let subscriber: String?
        let event: LifecycleEvent?
    }

    /// The key of a report counted rather than repeated (the completion misuses a plugin can make
    /// in a loop); nil for the others.
    var repeatKey: RepeatKey? {
        switch self {
        case .duplicateCompletion(let subscriber, let event, _), .completionAfterDelivery(let subscriber, let event, _),
             .completionAfterDecline(let subscriber, let event, _), .unexpectedRestoration(let subscriber, let event, _),
             .forgedCompletion(let subscriber, let event, _), .completionAfterShutdown(let subscriber, let event, _):
            RepeatKey(kind: kind, subscriber: subscriber, event: event)
        case .invalidAnswer(let subscriber, let event, _, _):
            RepeatKey(kind: kind, subscriber: subscriber, event: event)
        case .unattributedForgedCompletion:
            RepeatKey(kind: kind, subscriber: nil, event: nil)
        default:
            nil
        }
    }

    /// This report with `other`'s count added (both of the same ``repeatKey``).
    func adding(_ other: DispatchReport) -> DispatchReport {
        switch (self, other) {
        case (.duplicateCompletion(let s, let e, let a), .duplicateCompletion(_, _, let b)):
            .duplicateCompletion(subscriber: s, event: e, count: a &+ b)
        case (.completionAfterDelivery(let s, let e, let a), .completionAfterDelivery(_, _, let b)):
            .completionAfterDelivery(subscriber: s, event: e, count: a &+ b)
        case (.completionAfterDecline(let s, let e, let a), .completionAfterDecline(_, _, let b)):
            .completionAfterDecline(subscriber: s, event: e, count: a &+ b)
        case (.unexpectedRestoration(let s, let e, let a), .unexpectedRestoration(_, _, let b)):
            .unexpectedRestoration(subscriber: s, event: e, count: a &+ b)
        case (.forgedCompletion(let s, let e, let a), .forgedCompletion(_, _, let b)):
            .forgedCompletion(subscriber: s, event: e, count: a &+ b)
        case (.completionAfterShutdown(let s, let e, let a), .completionAfterShutdown(_, _, let b)):
            .completionAfterShutdown(subscriber: s, event: e, count: a &+ b)
        case (.invalidAnswer(let s, let e, let problem, let a), .invalidAnswer(_, _, _, let b)):
            .invalidAnswer(subscriber: s, event: e, problem: problem, count: a &+ b)
        case (.unattributedForgedCompletion(let a), .unattributedForgedCompletion(let b)):
            .unattributedForgedCompletion(count: a &+ b)
        default:
            self
        }
    }

    /// " (200,000 times)" for a count above 1, "" otherwise.
    private static func repeated(_ count: Int) -> String { count == 1 ? "" : " (\(times(count)))" }

    /// "200,000 times".
    private static func times(_ count: Int) -> String { "\(number(count)) times" }

    /// `count` with thousands separators: "200,000".
    private static func number(_ count: Int) -> String {
        var digits = String(count)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }
}

/// Reports in the order they first happened, where a report that repeats (``DispatchReport/repeatKey``)
/// is kept once and counted: a plugin calling a completion 200,000 times makes one report, not 199,999.
package struct DispatchReportList: Sendable {
    package private(set) var reports: [DispatchReport] = []
    /// Where each repeating report sits in `reports`.
    private var positions: [DispatchReport.RepeatKey: Int] = [:]

    package init() {}

    /// Adds `report`, or counts it into the earlier one of the same kind, subscriber and event.
    package mutating func append(_ report: DispatchReport) {
        guard let key = report.repeatKey else { return reports.append(report) }
        if let position = positions[key] {
            reports[position] = reports[position].adding(report)
        } else {
            positions[key] = reports.count
            reports.append(report)
        }
    }

    /// Takes every report and starts empty.
    package mutating func removeAll() -> [DispatchReport] {
        defer {
            reports = []
            positions = [:]
        }
        return reports
    }
}
