import Foundation
import SubscriberHost
import SubscriberKit
import Synchronization
import Testing

/// Every call any test subscriber received, in order: "name:event".
@MainActor
final class CallLog {
    var entries: [String] = []

    /// The names of the subscribers that received `event`, in call order.
    func callers(of event: LifecycleEvent) -> [String] {
        entries.compactMap { entry in
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            return parts.count == 2 && parts[1] == event.name ? parts[0] : nil
        }
    }
}

/// How a test subscriber treats a completion handler.
enum Completion<Value: Sendable>: Sendable {
    /// Declines before returning (does not respond).
    case decline
    /// Calls it synchronously, inside the method.
    case now(Value)
    /// Calls it twice, synchronously.
    case twice(Value, Value)
    /// Calls it from a global-queue thread, right away (``TestSubscriber/threads`` records it after the call).
    case fromAnotherThread(Value)
    /// Calls it from a global-queue thread, later: once the method has returned and the code that
    /// dispatched gave the main actor up (so never before `dispatchAtOnce` returned, however busy
    /// the machine is).
    case later(Value)
    /// Never calls it (the handler is kept for the test to call).
    case never
    /// Declines, then calls it anyway, synchronously.
    case declineThenCall(Value)
    /// From another thread, once the method has returned and the main actor is free (as ``later(_:)``):
    /// declines (too late), then calls it.
    case declineAfterReturn(Value)
}

/// A thread-safe flag set by completions to record which thread they ran on.
final class ThreadRecord: Sendable {
    private let onMain = Mutex<[Bool]>([])
    func record() { onMain.withLock { $0.append(Thread.isMainThread) } }
    var calls: [Bool] { onMain.withLock { $0 } }
}

/// A subscriber that responds to every event of the table, answering as configured, and records
/// each call in a shared log. Its handlers are the rows' own (``EventRow/erasedHandler(_:)``), so it
/// follows the table: an event added there is one it responds to, with no edit here.
@MainActor
final class TestSubscriber {
    let name: String
    let log: CallLog
    /// Answers of the Bool? events, and the handled answer of continueUserActivity (absent: nil).
    var answers: [LifecycleEvent: Bool] = [:]
    var orientations: InterfaceOrientationMask?
    var sceneConfiguration: String?
    /// The answer of scene.stateRestorationActivity (nil: no opinion).
    var restorationActivity: UserActivity?
    /// How completions are treated, by the value they take.
    var fetch: Completion<BackgroundFetchResult> = .decline
    var session: Completion<Void> = .decline
    var shortcut: Completion<Bool> = .decline
    var restoration: Completion<[String]> = .decline
    var reply: Completion<JSONObject> = .decline
    var presentation: Completion<NotificationPresentationOptions> = .decline
    /// Applications seen, one per call.
    var applications: [Application] = []
    /// The arguments of each call that carries some, in a few words (the row's summary).
    var arguments: [String] = []
    /// The scene each scene event's call named, as delivered (role and activation state filled in).
    var scenes: [SceneReference] = []
    let threads = ThreadRecord()
    /// The last completion handed to it for each event, erased.
    var completions: [LifecycleEvent: ErasedCompletion] = [:]

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }

    /// Registers it under its name: a handler for every event (of those `responds` accepts).
    func registration(priority: Int = 0, responds: (LifecycleEvent) -> Bool = { _ in true }) -> SubscriberRegistration {
        SubscriberRegistration(name: name, subscriber: self, handlers: EventTable.rows.map { row in
            responds(row.event) ? row.erasedHandler { [unowned self] invocation in self.handle(invocation) } : nil
        }, priority: priority)
    }

    private func handle(_ invocation: ErasedInvocation) -> (any Sendable)? {
        let call = invocation.call
        let row = call.event.row
        log.entries.append("\(name):\(call.event.name)")
        applications.append(invocation.application)
        if let summary = row.summary(of: call) { arguments.append(summary) }
        if let scene = row.scene(of: call) { scenes.append(scene) }
        completions[call.event] = invocation.completion
        switch row.answerShape {
        case "FetchResultAnswer": run(fetch, invocation.completion)
        case "DoneAnswer": run(session, invocation.completion)
        case "BoolCompletionAnswer": run(shortcut, invocation.completion)
        case "DictionaryAnswer": run(reply, invocation.completion)
        case "PresentationOptionsAnswer": run(presentation, invocation.completion)
        case "RestorationAnswer":
            run(restoration, invocation.completion)
            return answers[call.event]
        case "OrientationMaskAnswer": return orientations
        case "ConfigurationNameAnswer": return sceneConfiguration
        // The answer type is UserActivity? (none is a result); nil here is no opinion.
        case "UserActivityAnswer": return restorationActivity.map { UserActivity?.some($0) }
        case "OptionalBoolAnswer": return answers[call.event]
        default: break
        }
        return nil
    }

    private func run<Value: Sendable>(_ behaviour: Completion<Value>, _ handler: ErasedCompletion?) {
        guard let handler else {
            Issue.record("\(name): a completion event without a completion")
            return
        }
        let threads = threads
        switch behaviour {
        case .decline: handler.decline()
        case .now(let value): handler.complete(value)
        case .twice(let first, let second):
            handler.complete(first)
            handler.complete(second)
        case .fromAnotherThread(let value):
            CompletionsOnTheirWay.run {
                handler.complete(value)
                threads.record()
            }
        case .later(let value):
            CompletionsOnTheirWay.runAfterTheDispatch {
                handler.complete(value)
                threads.record()
            }
        case .never: break
        case .declineThenCall(let value):
            handler.decline()
            handler.complete(value)
        case .declineAfterReturn(let value):
            CompletionsOnTheirWay.runAfterTheDispatch {
                handler.decline()
                handler.complete(value)
            }
        }
    }
}

extension DispatchConfiguration {
    /// The test application's configuration on a manual clock nobody advances: its 30 s deadlines
    /// never pass, however long a loaded machine keeps a test from completing what it holds.
    static var standingStill: DispatchConfiguration {
        var configuration = DispatchConfiguration(application: testApplication)
        configuration.clock = ManualHostClock()
        return configuration
    }
}

/// The application used by dispatch tests.
let testApplication = Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0")

/// A dispatcher over test subscribers named `names`, all sharing one log; `configure` adjusts the
/// configuration (orientations; start from `configuration` for choices that throw) and `setUp` each
/// subscriber (the trailing closure). Unless `launched` is false, the app has launched and become
/// active (UIKit delivers nearly every event to a running app only), and the log, applications and
/// arguments of that are cleared: a test sees its own events only.
@MainActor
func makeDispatcher(_ names: [String], configuration: DispatchConfiguration = .standingStill,
                    launched: Bool = true,
                    setUp: (TestSubscriber) -> Void = { _ in },
                    configure: (inout DispatchConfiguration) -> Void = { _ in })
    -> (dispatcher: LifecycleDispatcher, subscribers: [TestSubscriber], log: CallLog)
{
    let log = CallLog()
    let subscribers = names.map { TestSubscriber($0, log: log) }
    subscribers.forEach(setUp)
    var configuration = configuration
    configure(&configuration)
    let dispatcher = LifecycleDispatcher(subscribers: subscribers.map { $0.registration() }, configuration: configuration)
    if launched {
        dispatcher.launch()
        log.entries = []
        for subscriber in subscribers {
            subscriber.applications = []
            subscriber.arguments = []
            subscriber.scenes = []
        }
    }
    return (dispatcher, subscribers, log)
}

extension LifecycleDispatcher {
    /// Launches the app (didFinishLaunching, no options) and makes it active: the state most events
    /// come in.
    func launch() {
        dispatchAtOnce(.didFinishLaunching())
        dispatchAtOnce(.didBecomeActive)
    }

    /// Brings the app into a state `event` may be delivered in, by the transitions UIKit makes
    /// (read from the rows' state rules); false when no such state can be reached any more (after
    /// `willTerminate`, or a launch event already delivered).
    @discardableResult
    func prepare(for event: LifecycleEvent) -> Bool {
        let allowed: [ApplicationState]
        switch event.row.state {
        case .launch: return applicationState == .notRunning
        case .running: allowed = [.inactive, .active, .background]
        case .transition(let from, _, _): allowed = from
        case .sceneConnect, .sceneTransition, .scene: return prepareScene(for: event)
        }
        if applicationState == .notRunning { dispatchAtOnce(.didFinishLaunching()) }
        // inactive → active → inactive → background → inactive …: at most three steps reach any state.
        for _ in 0..<4 where !allowed.contains(applicationState) {
            switch applicationState {
            case .inactive: dispatchAtOnce(allowed.contains(.background) ? .didEnterBackground : .didBecomeActive)
            case .active: dispatchAtOnce(.willResignActive)
            case .background: dispatchAtOnce(.willEnterForeground)
            case .notRunning, .terminated: return false
            }
        }
        return allowed.contains(applicationState)
    }

    /// The scene every event's canonical call names.
    static let canonicalScene = "main"

    /// Brings the canonical scene into a state scene event `event` may be delivered in (connected,
    /// or not for a connection), by the transitions UIKit makes; false when it cannot be.
    @discardableResult
    func prepareScene(for event: LifecycleEvent) -> Bool {
        let scene = Self.canonicalScene
        if applicationState == .notRunning { dispatchAtOnce(.didFinishLaunching()) }
        guard [.inactive, .active, .background].contains(applicationState) else { return false }
        let allowed: [SceneState]
        switch event.row.state {
        case .sceneConnect:
            // A connected scene must leave first: to the background, then disconnected.
            if sceneState(of: scene) != nil, prepareScene(for: .sceneDidDisconnect) {
                dispatchAtOnce(.sceneDidDisconnect(scene: scene))
            }
            return sceneState(of: scene) == nil
        case .scene: allowed = [.unattached, .foregroundInactive, .foregroundActive, .background]
        case .sceneTransition(let from, _, _): allowed = from
        default: return false
        }
        if sceneState(of: scene) == nil { dispatchAtOnce(.sceneWillConnect(scene: scene)) }
        // unattached → foregroundInactive → foregroundActive → foregroundInactive → background …
        for _ in 0..<5 {
            guard let state = sceneState(of: scene), !allowed.contains(state) else { break }
            switch state {
            case .unattached:
                dispatchAtOnce(allowed.contains(.background) ? .sceneDidEnterBackground(scene: scene) : .sceneWillEnterForeground(scene: scene))
            case .foregroundInactive:
                dispatchAtOnce(allowed.contains(.background) ? .sceneDidEnterBackground(scene: scene) : .sceneDidBecomeActive(scene: scene))
            case .foregroundActive: dispatchAtOnce(.sceneWillResignActive(scene: scene))
            case .background: dispatchAtOnce(.sceneWillEnterForeground(scene: scene))
            }
        }
        return sceneState(of: scene).map(allowed.contains) ?? false
    }
}

extension EventOutcome {
    /// The answer rows as (subscriber, answer shown as JSON) pairs, for compact expectations; nil
    /// for no opinion.
    var answerPairs: [String: JSONValue?] {
        Dictionary(uniqueKeysWithValues: answers.map { ($0.subscriber, $0.answer.map(event.row.json(answer:))) })
    }
    /// The answers as `T` (the row's answer type), in order; nil for no opinion.
    func answers<T>(as type: T.Type) -> [T?] { answers.map { $0.answer(as: type) } }
    /// The names of the subscribers with an answer row, in order.
    var answerNames: [String] { answers.map(\.subscriber) }
}

/// The test application's configuration, adjusted by `change` (which may throw: reconciler choices).
func configuration(_ change: (inout DispatchConfiguration) throws -> Void) rethrows -> DispatchConfiguration {
    var configuration = DispatchConfiguration(application: testApplication)
    try change(&configuration)
    return configuration
}

/// One ordinary call of each event, in table order: the first of its row's canonical calls.
let oneCallPerEvent: [AnyEventCall] = EventTable.rows.map { $0.canonicalCalls[0] }

extension PluginHost {
    /// Launches the app (didFinishLaunching, no options) and makes it active, dropping what the
    /// subscribers wrote meanwhile: the state most events come in.
    func launch() {
        dispatchAtOnce(.didFinishLaunching())
        dispatchAtOnce(.didBecomeActive)
    }
}
