import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// A dispatcher over test subscribers named `names`, launched the scene way (didFinishLaunching, then
/// scene `main` connects, enters the foreground and becomes active), with the log cleared.
@MainActor
func sceneDispatcher(_ names: [String], configuration: DispatchConfiguration = .standingStill,
                     setUp: (TestSubscriber) -> Void = { _ in })
    -> (dispatcher: LifecycleDispatcher, subscribers: [TestSubscriber], log: CallLog)
{
    let made = makeDispatcher(names, configuration: configuration, launched: false, setUp: setUp)
    for call in [EventCall.didFinishLaunching().erased, EventCall.sceneWillConnect(scene: "main").erased,
                 EventCall.sceneWillEnterForeground(scene: "main").erased, EventCall.sceneDidBecomeActive(scene: "main").erased] {
        let outcome = made.dispatcher.dispatchAtOnce(call)
        #expect(outcome.reports.isEmpty, "setting up: \(call.event): \(outcome.reports)")
    }
    made.log.entries = []
    for subscriber in made.subscribers {
        subscriber.applications = []
        subscriber.arguments = []
        subscriber.scenes = []
    }
    return made
}

/// The scene family's events (UIWindowSceneDelegate), each one: its reconciler and what nobody
/// answering gives (read from the row's answer shape, so every event of the family is covered by the
/// table-driven tests), that every responder is called in order after the answer is decided, and
/// that each receives its scene as the host knows it — the role it connected with, its activation
/// state during the call — and its arguments whole.
@MainActor
@Suite("Scenes: each event", .timeLimit(.minutes(10)))
struct SceneEventTests {
    nonisolated static let family = LifecycleEvent.allCases.filter { $0.family == "scene" }

    @Test("the scene family is the table's events of family scene, one vtable, each event naming its scene")
    func familyIsTheTables() {
        #expect(!Self.family.isEmpty)
        #expect(Set(Self.family) == Set(EventFamily.scene.events))
        for event in Self.family {
            #expect(event.name.hasPrefix("scene."), "\(event)")
            // Every scene event's canonical calls name a scene.
            #expect(event.row.canonicalCalls.allSatisfy { event.row.scene(of: $0) != nil }, "\(event)")
        }
        // No event of another family names a scene.
        #expect(LifecycleEvent.allCases.filter { $0.family != "scene" }.allSatisfy { $0.row.canonicalCalls.allSatisfy { $0.event.row.scene(of: $0) == nil } })
    }

    // MARK: Every event, from the table

    @Test("every responder is called, in order, with its scene as connected; the outcome names the scene",
          arguments: Self.family)
    func everyResponderCalled(_ event: LifecycleEvent) async throws {
        let (dispatcher, subscribers, log) = sceneDispatcher(["A", "B", "C"]) { subscriber in
            subscriber.shortcut = .now(false)
            subscriber.answers[event] = false
        }
        #expect(dispatcher.prepareScene(for: event), "\(event)")
        log.entries = []
        subscribers.forEach { $0.scenes = [] }
        let call = event.row.canonicalCalls[0]
        let state = dispatcher.sceneState(of: "main")
        let outcome = await dispatcher.dispatch(call)
        #expect(outcome.reports.isEmpty, "\(event): \(outcome.reports)")
        #expect(log.callers(of: event) == ["A", "B", "C"], "\(event)")
        #expect(outcome.scene == "main", "\(event)")
        // Each received scene main, with the default role it connected with, in the state the row says.
        let expectedState: SceneState? = switch event.row.state {
        case .sceneConnect: .unattached
        case .sceneTransition(_, let to, let side): side == .leaving ? state : to
        default: state
        }
        for subscriber in subscribers {
            #expect(subscriber.scenes == [SceneReference(identifier: "main", role: SceneSession.windowApplicationRole,
                                                         state: expectedState ?? .unattached)], "\(event)")
        }
    }

    @Test("the default reconciler decides after every call; nobody answering gives the row's value", arguments: Self.family)
    func reconcilerAndNobody(_ event: LifecycleEvent) async throws {
        let row = event.row
        let call = row.canonicalCalls[0]
        let article = UserActivity(activityType: "com.example.news.reading", userInfo: ["article": 7])
        let other = UserActivity(activityType: "com.example.news.browsing")
        // Three subscribers: the first has no opinion, the next two answer (false then true, or two activities).
        let (dispatcher, subscribers, log) = sceneDispatcher(["A", "B", "C"])
        subscribers[1].answers[event] = false
        subscribers[2].answers[event] = true
        subscribers[0].shortcut = .decline
        subscribers[1].shortcut = .now(false)
        subscribers[2].shortcut = .later(true)
        subscribers[1].restorationActivity = article
        subscribers[2].restorationActivity = other
        #expect(dispatcher.prepareScene(for: event))
        log.entries = []
        let outcome = await dispatcher.dispatch(call)
        #expect(log.callers(of: event) == ["A", "B", "C"], "\(event)")
        switch row.answerShape {
        case "OptionalBoolAnswer", "BoolCompletionAnswer":
            #expect(row.defaultReconciler == .anyTrue)
            #expect(outcome.result as? Bool == true, "\(event): any true")
        case "UserActivityAnswer":
            #expect(row.defaultReconciler == .firstAnswer)
            #expect(outcome.result as? UserActivity == article, "\(event): the first answer in order")
        case "NoAnswer":
            #expect(row.defaultReconciler == nil)
            #expect(outcome.answerNames == ["A", "B", "C"], "\(event): a row per subscriber called")
        default:
            Issue.record("\(event): a new answer shape \(row.answerShape) needs its expectations here")
        }

        // Nobody answering: no opinions, declines; and no subscriber at all.
        let silent = sceneDispatcher(["A", "B"]) { $0.shortcut = .decline }
        #expect(silent.dispatcher.prepareScene(for: event))
        let nobody = await silent.dispatcher.dispatch(call)
        let none = sceneDispatcher([])
        #expect(none.dispatcher.prepareScene(for: event))
        let alone = await none.dispatcher.dispatch(call)
        for result in [nobody, alone] {
            #expect(result.reports.isEmpty, "\(event)")
            #expect(row.json(result: result.result).serialized() == (row.timing == .notification ? "null" : row.nobodyAnswers),
                    "\(event): nobody answers \(row.nobodyAnswers)")
        }
        switch row.answerShape {
        case "OptionalBoolAnswer", "BoolCompletionAnswer": #expect(nobody.result as? Bool == false)
        case "UserActivityAnswer": #expect(nobody.result is UserActivity? && nobody.result as? UserActivity == nil)
        default: break
        }
    }

    // MARK: Connecting

    static let connection = SceneConnectionOptions(
        urlContexts: [OpenURLContext(url: URL(string: "news://article/42")!, options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari")),
                      OpenURLContext(url: URL(string: "https://news.example.com/article/9")!)],
        userActivity: UserActivity(activityType: "com.example.news.reading"),
        shortcutItem: ShortcutItem(type: "com.example.news.search"),
        notificationResponse: NotificationResponse(notification: UserNotification(identifier: "breaking-42")))

    @Test("willConnect: every subscriber receives the whole connection options and the role; the scene is unattached; the app's state stays")
    func willConnect() async throws {
        let (dispatcher, subscribers, log) = sceneDispatcher(["A", "B", "C"])
        let role = SceneSession.windowExternalDisplayNonInteractiveRole
        let outcome = await dispatcher.dispatch(.sceneWillConnect(scene: "tv", role: role, options: Self.connection))
        #expect(outcome.reports.isEmpty)
        #expect(log.callers(of: .sceneWillConnect) == ["A", "B", "C"])
        #expect(outcome.scene == "tv" && outcome.applicationState == .active)
        #expect(dispatcher.sceneState(of: "tv") == .unattached)
        for subscriber in subscribers {
            #expect(subscriber.scenes == [SceneReference(identifier: "tv", role: role, state: .unattached)])
            // Every option, none consumed by an earlier subscriber.
            #expect(subscriber.arguments == ["tv \(role) news://article/42 https://news.example.com/article/9 com.example.news.reading com.example.news.search breaking-42"])
        }
        // Later events of the scene carry the role it connected with.
        _ = await dispatcher.dispatch(.sceneDidEnterBackground(scene: "tv"))
        #expect(subscribers[0].scenes.last == SceneReference(identifier: "tv", role: role, state: .background))
    }

    @Test("willConnect: a Swift subscriber gets the scene, its session and the options as UIKit's method has them")
    func willConnectTyped() async {
        final class Connector: InstantiableSubscriber, SceneWillConnectSubscriber, SceneDidBecomeActiveSubscriber {
            var connected: [(Scene, SceneSession, SceneConnectionOptions)] = []
            var active: [Scene] = []
            init(context: SubscriberContext) {}
            func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
                connected.append((scene, session, connectionOptions))
            }
            func sceneDidBecomeActive(_ scene: Scene) { active.append(scene) }
        }
        let connector = Connector(context: RecordingSink().context(for: "Connector", application: testApplication))
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(name: "Connector", subscriber: connector)],
                                             configuration: DispatchConfiguration(application: testApplication))
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main", options: Self.connection))
        dispatcher.dispatchAtOnce(.sceneWillEnterForeground(scene: "main"))
        dispatcher.dispatchAtOnce(.sceneDidBecomeActive(scene: "main"))
        #expect(connector.connected.count == 1)
        if let (scene, session, options) = connector.connected.first {
            #expect(scene.identifier == "main" && scene.activationState == .unattached)
            #expect(session == SceneSession(persistentIdentifier: "main", role: SceneSession.windowApplicationRole))
            #expect(options == Self.connection)
            // A user activity that is not a universal link classifies the launch as unknown (the launch options' order).
            #expect(scene.application.launchInvocation == .unknown)
        }
        #expect(connector.active.map(\.activationState) == [.foregroundActive])
        #expect(connector.active.first?.application.applicationState == .active)
        #expect(dispatcher.responderNames(for: .sceneWillConnect) == ["Connector"])
        #expect(dispatcher.responderNames(for: .sceneOpenURLContexts).isEmpty)
    }

    // MARK: Transitions

    @Test("the transitions: each delivered in the scene state it leaves (will…) or enters (did…), the app's state derived from its scenes")
    func transitions() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"], launched: false)
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        // (call, the scene's state seen, the app's state seen, the app's state after)
        let steps: [(EventCall<Void, Void>, SceneState, ApplicationState, ApplicationState)] = [
            (.sceneWillConnect(scene: "main"), .unattached, .inactive, .inactive),
            (.sceneWillEnterForeground(scene: "main"), .unattached, .inactive, .inactive),
            (.sceneDidBecomeActive(scene: "main"), .foregroundActive, .active, .active),
            (.sceneWillConnect(scene: "side"), .unattached, .active, .active),
            (.sceneWillEnterForeground(scene: "side"), .unattached, .active, .active),
            (.sceneWillResignActive(scene: "main"), .foregroundActive, .active, .inactive),
            (.sceneDidEnterBackground(scene: "main"), .background, .inactive, .inactive),
            (.sceneDidEnterBackground(scene: "side"), .background, .background, .background),
            (.sceneDidDisconnect(scene: "side"), .background, .background, .background),
            (.sceneWillEnterForeground(scene: "main"), .background, .background, .inactive),
            (.sceneDidBecomeActive(scene: "main"), .foregroundActive, .active, .active),
        ]
        for (call, sceneState, during, after) in steps {
            subscribers[0].scenes = []
            subscribers[0].applications = []
            let outcome = await dispatcher.dispatch(call)
            #expect(outcome.reports.isEmpty, "\(call.event) \(outcome.scene ?? "")")
            #expect(subscribers[0].scenes.map(\.state) == [sceneState], "\(call.event) \(outcome.scene ?? ""): the scene's state seen")
            #expect(subscribers[0].applications.map(\.applicationState) == [during], "\(call.event) \(outcome.scene ?? ""): the app's state seen")
            #expect(outcome.applicationState == after && dispatcher.applicationState == after, "\(call.event) \(outcome.scene ?? "")")
            #expect(dispatcher.stateCell.state == after, "what C plugins read")
        }
        #expect(dispatcher.sceneState(of: "side") == nil)
        #expect(dispatcher.sceneState(of: "main") == .foregroundActive)
    }

    // MARK: URLs, user activities, quick actions

    @Test("openURLContexts: every URL reaches every responder; any true; allTrue (chosen) vetoes; nobody: false")
    func openURLContexts() async throws {
        let contexts = [OpenURLContext(url: URL(string: "news://article/7")!), OpenURLContext(url: URL(string: "news://article/8")!)]
        let (dispatcher, subscribers, log) = sceneDispatcher(["A", "B", "C"])
        subscribers[1].answers[.sceneOpenURLContexts] = true
        subscribers[2].answers[.sceneOpenURLContexts] = false
        let outcome = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: contexts))
        #expect(outcome.result == true)
        #expect(log.callers(of: .sceneOpenURLContexts) == ["A", "B", "C"])
        #expect(outcome.answers(as: Bool.self) == [nil, true, false])
        #expect(subscribers.allSatisfy { $0.arguments == ["main news://article/7 news://article/8"] })

        let vetoing = sceneDispatcher(["A", "B"], configuration: try configuration { try $0.setReconciler(.allTrue, for: .sceneOpenURLContexts) })
        vetoing.subscribers[0].answers[.sceneOpenURLContexts] = true
        vetoing.subscribers[1].answers[.sceneOpenURLContexts] = false
        #expect(vetoing.dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: contexts)).result == false)
        #expect(vetoing.log.callers(of: .sceneOpenURLContexts) == ["A", "B"])
        // A reconciler of another answer type is refused.
        var wrong = DispatchConfiguration(application: testApplication)
        #expect(throws: DispatchConfigurationError.self) { try wrong.setReconciler(.union, for: .sceneOpenURLContexts) }
    }

    @Test("performActionForShortcutItem: any true once every responder completed, exactly once; late counts false; nobody: false at once")
    func shortcut() async throws {
        let item = ShortcutItem(type: "com.example.news.search", title: "Search")
        let clock = ManualHostClock()
        let (dispatcher, subscribers, log) = sceneDispatcher(["A", "B", "C"], configuration: try configuration(on: clock) {
            try $0.setDeadline(.milliseconds(80), for: .scenePerformActionForShortcutItem)
        })
        subscribers[0].shortcut = .twice(false, true)
        subscribers[1].shortcut = .later(true)
        subscribers[2].shortcut = .never
        let deliveries = Deliveries<Bool>()
        dispatcher.dispatchAtOnce(.scenePerformActionForShortcutItem(scene: "main", item), whenDelivered: deliveries.handler)
        #expect(log.callers(of: .scenePerformActionForShortcutItem) == ["A", "B", "C"])
        // B's call came before the deadline passes; C's never does.
        await deliveries.wait(until: { subscribers[1].threads.calls.count == 1 })
        await clock.advance(by: .milliseconds(80), onceArmed: 1)
        let outcome = try #require(await deliveries.first())
        #expect(outcome.result == true)
        #expect(outcome.answers(as: Bool.self) == [false, true, false])
        #expect(Set(outcome.reports) == [.duplicateCompletion(subscriber: "A", event: .scenePerformActionForShortcutItem),
                                         .late(subscriber: "C", event: .scenePerformActionForShortcutItem)])
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)

        let declining = sceneDispatcher(["A"]) { $0.shortcut = .decline }
        let nobody = Deliveries<Bool>()
        declining.dispatcher.dispatchAtOnce(.scenePerformActionForShortcutItem(scene: "main", item), whenDelivered: nobody.handler)
        #expect(nobody.outcomes.map(\.result) == [false], "delivered at once")
    }

    @Test("stateRestorationActivity: the first answer in subscriber order, everyone called; nobody: none")
    func stateRestoration() async {
        let first = UserActivity(activityType: "com.example.news.reading", webpageURL: URL(string: "https://news.example.com/article/3"))
        let (dispatcher, subscribers, log) = sceneDispatcher(["A", "B", "C"])
        subscribers[1].restorationActivity = first
        subscribers[2].restorationActivity = UserActivity(activityType: "com.example.news.other")
        let outcome = dispatcher.dispatchAtOnce(.sceneStateRestorationActivity(scene: "main"))
        #expect(outcome.result == first)
        #expect(log.callers(of: .sceneStateRestorationActivity) == ["A", "B", "C"])
        #expect(outcome.answerPairs["A"] == .some(nil))
        #expect(outcome.answerPairs["B"] == .some(.object(first.json)))
        #expect(sceneDispatcher([]).dispatcher.dispatchAtOnce(.sceneStateRestorationActivity(scene: "main")).result == nil)
    }

    @Test("the user-activity events and geometry: every responder, with the activity, error or geometry as given")
    func activitiesAndGeometry() async {
        let (dispatcher, subscribers, log) = sceneDispatcher(["A", "B"])
        let activity = UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/article/5"))
        subscribers[1].answers[.sceneContinueUserActivity] = true
        subscribers[0].answers[.sceneWillContinueUserActivity] = true
        #expect(dispatcher.dispatchAtOnce(.sceneWillContinueUserActivity(scene: "main", activityType: UserActivity.browsingWeb)).result == true)
        #expect(dispatcher.dispatchAtOnce(.sceneContinueUserActivity(scene: "main", activity)).result == true)
        dispatcher.dispatchAtOnce(.sceneDidUpdateUserActivity(scene: "main", activity))
        dispatcher.dispatchAtOnce(.sceneDidFailToContinueUserActivity(scene: "main", activityType: "com.example.news.reading",
                                                                      error: LifecycleError(domain: "NSCocoaErrorDomain", code: 4608, message: "failed")))
        dispatcher.dispatchAtOnce(.sceneDidUpdateGeometry(scene: "main", SceneGeometry(interfaceOrientation: .landscapeLeft, idiom: .pad)))
        for event in [LifecycleEvent.sceneWillContinueUserActivity, .sceneContinueUserActivity, .sceneDidUpdateUserActivity,
                      .sceneDidFailToContinueUserActivity, .sceneDidUpdateGeometry] {
            #expect(log.callers(of: event) == ["A", "B"], "\(event)")
        }
        #expect(subscribers[0].arguments == [
            "main NSUserActivityTypeBrowsingWeb",
            "main NSUserActivityTypeBrowsingWeb https://news.example.com/article/5",
            "main NSUserActivityTypeBrowsingWeb https://news.example.com/article/5",
            "main com.example.news.reading: NSCocoaErrorDomain 4608: failed",
            "main landscapeLeft pad",
        ])
    }
}
