import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The scene bridge (`sceneBridge`): a scene event no scene subscriber handled is replayed, once, to
/// the app-level subscribers that do not respond to it themselves — one `openURL` per URL, the user
/// activities and the quick action as their app events, the transitions as the app's when its
/// derived state changes — and the outcome lists each replay with its own answers. Off, nothing is
/// replayed.
@MainActor
@Suite("Scenes: the bridge to app-level subscribers", .timeLimit(.minutes(10)))
struct SceneBridgeTests {
    /// Which families a test subscriber responds to.
    enum Speaks { case scenes, app, both }

    /// A dispatcher over `cast` (each responding to the scene family, the app's, or both), the bridge
    /// on unless `bridge` is false, launched the scene way (scene `main` active); logs cleared.
    func bridged(_ cast: [(String, Speaks)], bridge: Bool = true,
                 configure: (inout DispatchConfiguration) throws -> Void = { _ in },
                 setUp: (TestSubscriber) -> Void = { _ in }) throws
        -> (dispatcher: LifecycleDispatcher, subscribers: [TestSubscriber], log: CallLog)
    {
        let log = CallLog()
        let subscribers = cast.map { TestSubscriber($0.0, log: log) }
        subscribers.forEach(setUp)
        var configuration = DispatchConfiguration(application: testApplication)
        configuration.sceneBridge = bridge
        try configure(&configuration)
        let registrations = zip(subscribers, cast).map { subscriber, entry in
            subscriber.registration { event in
                switch entry.1 {
                case .scenes: event.family == "scene"
                case .app: event.family != "scene"
                case .both: true
                }
            }
        }
        let dispatcher = LifecycleDispatcher(subscribers: registrations, configuration: configuration)
        for call in [EventCall.didFinishLaunching().erased, EventCall.sceneWillConnect(scene: "main").erased,
                     EventCall.sceneWillEnterForeground(scene: "main").erased, EventCall.sceneDidBecomeActive(scene: "main").erased] {
            #expect(dispatcher.dispatchAtOnce(call).reports.isEmpty)
        }
        log.entries = []
        for subscriber in subscribers {
            subscriber.arguments = []
            subscriber.applications = []
        }
        return (dispatcher, subscribers, log)
    }

    static let contexts = [OpenURLContext(url: URL(string: "news://article/7")!, options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari")),
                           OpenURLContext(url: URL(string: "news://article/8")!)]

    @Test("the table: which scene events bridge to which app events, from the rows")
    func rules() {
        let bridges = Dictionary(uniqueKeysWithValues: EventFamily.scene.events.compactMap { event in
            event.row.bridge.map { (event.name, "\($0.event.name)\($0.followsApplicationState ? " (state)" : "")") }
        })
        #expect(bridges == [
            "scene.didBecomeActive": "didBecomeActive (state)", "scene.willResignActive": "willResignActive (state)",
            "scene.willEnterForeground": "willEnterForeground (state)", "scene.didEnterBackground": "didEnterBackground (state)",
            "scene.openURLContexts": "openURL", "scene.willContinueUserActivity": "willContinueUserActivity",
            "scene.continueUserActivity": "continueUserActivity", "scene.didFailToContinueUserActivity": "didFailToContinueUserActivity",
            "scene.didUpdateUserActivity": "didUpdateUserActivity", "scene.performActionForShortcutItem": "performActionForShortcutItem",
        ])
        // Each bridged call is of its app event's shape: its row reads back what it writes.
        for event in EventFamily.scene.events {
            for call in event.row.canonicalCalls {
                for replay in event.row.bridgedCalls(of: call) {
                    guard var reader = try? JSONObjectReader(.object(replay.event.row.scriptMembers(of: replay)), path: "") else {
                        Issue.record("\(event) → \(replay.event): no script object")
                        continue
                    }
                    #expect((try? replay.event.row.call(reading: &reader)) == replay, "\(event) → \(replay.event)")
                }
            }
        }
    }

    // MARK: URLs

    @Test("openURLContexts no scene subscriber handled: one openURL per URL, to the app-level subscribers, once; shown in the outcome")
    func openURLReplayed() throws {
        let (dispatcher, subscribers, log) = try bridged([("Scene", .scenes), ("App", .app), ("Other", .app)])
        subscribers[0].answers[.sceneOpenURLContexts] = false
        subscribers[2].answers[.openURL] = true
        let outcome = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: Self.contexts))
        #expect(log.entries == ["Scene:scene.openURLContexts", "App:openURL", "Other:openURL", "App:openURL", "Other:openURL"])
        #expect(subscribers[1].arguments == ["news://article/7", "news://article/8"])
        // The outcome: the scene event's row, then the replays, each with its own rows; handled by the app.
        #expect(outcome.answerNames == ["Scene"])
        #expect(outcome.bridged.map(\.event) == [.openURL, .openURL])
        #expect(outcome.bridged.map { $0.answerNames } == [["App", "Other"], ["App", "Other"]])
        #expect(outcome.bridged.map { $0.result as? Bool } == [true, true])
        #expect(outcome.result == true, "a replay handled it")
        #expect(outcome.reports.isEmpty)
    }

    @Test("openURLContexts a scene subscriber handled (true): not replayed; false or no opinion: replayed")
    func openURLHandled() throws {
        let (dispatcher, subscribers, log) = try bridged([("Scene", .scenes), ("Nil", .scenes), ("App", .app)])
        subscribers[0].answers[.sceneOpenURLContexts] = true
        let handled = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: Self.contexts))
        #expect(handled.result == true && handled.bridged.isEmpty)
        #expect(log.callers(of: .openURL).isEmpty)
        subscribers[0].answers[.sceneOpenURLContexts] = false
        let unhandled = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: Self.contexts))
        #expect(unhandled.result == false, "nobody handled it, in the scene or through the bridge")
        #expect(unhandled.bridged.count == 2)
        #expect(log.callers(of: .openURL) == ["App", "App"])
    }

    @Test("never twice for one URL: a subscriber of both openURLContexts and openURL hears each URL once, in the scene")
    func neverTwice() throws {
        let (dispatcher, subscribers, log) = try bridged([("Both", .both), ("App", .app)])
        subscribers[0].answers[.sceneOpenURLContexts] = false
        let outcome = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: Self.contexts))
        #expect(log.entries == ["Both:scene.openURLContexts", "App:openURL", "App:openURL"])
        #expect(subscribers[0].arguments == ["main news://article/7 news://article/8"])
        #expect(outcome.bridged.allSatisfy { $0.answerNames == ["App"] })
        // With only subscribers of both, nothing is replayed at all.
        let (alone, _, aloneLog) = try bridged([("Both", .both)])
        #expect(alone.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: Self.contexts)).bridged.isEmpty)
        #expect(aloneLog.entries == ["Both:scene.openURLContexts"])
    }

    @Test("the bridge off (the default): nothing is replayed, whatever the scene subscribers say")
    func off() throws {
        #expect(DispatchConfiguration(application: testApplication).sceneBridge == false)
        let (dispatcher, _, log) = try bridged([("Scene", .scenes), ("App", .app)], bridge: false)
        let outcome = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: Self.contexts))
        dispatcher.dispatchAtOnce(.sceneWillResignActive(scene: "main"))
        dispatcher.dispatchAtOnce(.sceneContinueUserActivity(scene: "main", UserActivity(activityType: "t")))
        #expect(outcome.bridged.isEmpty && outcome.result == false)
        #expect(log.entries.allSatisfy { $0.hasPrefix("Scene:") }, "\(log.entries)")
    }

    // MARK: User activities

    @Test("the user-activity events: replayed as their app events with the same arguments when unhandled")
    func activities() async throws {
        let activity = UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/article/1"))
        let error = LifecycleError(domain: "NSCocoaErrorDomain", code: 4608, message: "failed")
        let (dispatcher, subscribers, log) = try bridged([("Scene", .scenes), ("App", .app)], setUp: { $0.restoration = .now(["article/1"]) })
        subscribers[1].answers[.continueUserActivity] = true
        subscribers[1].answers[.willContinueUserActivity] = true
        let willContinue = dispatcher.dispatchAtOnce(.sceneWillContinueUserActivity(scene: "main", activityType: activity.activityType))
        let continued = await dispatcher.dispatch(.sceneContinueUserActivity(scene: "main", activity))
        let updated = dispatcher.dispatchAtOnce(.sceneDidUpdateUserActivity(scene: "main", activity))
        let failed = dispatcher.dispatchAtOnce(.sceneDidFailToContinueUserActivity(scene: "main", activityType: "t", error: error))
        #expect(log.entries == ["Scene:scene.willContinueUserActivity", "App:willContinueUserActivity",
                                "Scene:scene.continueUserActivity", "App:continueUserActivity",
                                "Scene:scene.didUpdateUserActivity", "App:didUpdateUserActivity",
                                "Scene:scene.didFailToContinueUserActivity", "App:didFailToContinueUserActivity"])
        #expect(willContinue.result == true && continued.result == true, "handled by the app through the bridge")
        #expect(continued.bridged.first?.result as? ContinueUserActivityResult
                    == ContinueUserActivityResult(handled: true, restorableObjects: ["article/1"]))
        #expect(updated.bridged.map(\.event) == [.didUpdateUserActivity])
        #expect(failed.bridged.map(\.event) == [.didFailToContinueUserActivity])
        #expect(subscribers[1].arguments == [activity.activityType, "\(activity.activityType) https://news.example.com/article/1",
                                             "\(activity.activityType) https://news.example.com/article/1", "t: \(error)"])
        // Handled in the scene: not replayed.
        subscribers[0].answers[.sceneContinueUserActivity] = true
        log.entries = []
        #expect(await dispatcher.dispatch(.sceneContinueUserActivity(scene: "main", activity)).bridged.isEmpty)
        #expect(log.entries == ["Scene:scene.continueUserActivity"])
    }

    // MARK: Quick actions

    @Test("performActionForShortcutItem: replayed when every scene subscriber declined; its result is the app's, delivered once")
    func shortcutReplayed() async throws {
        let item = ShortcutItem(type: "com.example.news.search")
        let (dispatcher, subscribers, log) = try bridged([("Scene", .scenes), ("App", .app)])
        subscribers[0].shortcut = .decline
        subscribers[1].shortcut = .later(true)
        let deliveries = Deliveries<Bool>()
        dispatcher.dispatchAtOnce(.scenePerformActionForShortcutItem(scene: "main", item), whenDelivered: deliveries.handler)
        #expect(log.entries == ["Scene:scene.performActionForShortcutItem", "App:performActionForShortcutItem"])
        let outcome = try #require(await deliveries.first())
        #expect(outcome.result == true)
        #expect(outcome.answerNames.isEmpty)
        #expect(outcome.bridged.map(\.event) == [.performActionForShortcutItem])
        #expect(outcome.bridged.first?.answers(as: Bool.self) == [true])
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
    }

    @Test("performActionForShortcutItem a scene subscriber took (even answering false): not replayed — it owns the completion")
    func shortcutTaken() async throws {
        let (dispatcher, subscribers, log) = try bridged([("Scene", .scenes), ("App", .app)])
        subscribers[0].shortcut = .now(false)
        subscribers[1].shortcut = .now(true)
        let outcome = await dispatcher.dispatch(.scenePerformActionForShortcutItem(scene: "main", ShortcutItem(type: "s")))
        #expect(outcome.result == false && outcome.bridged.isEmpty)
        #expect(log.entries == ["Scene:scene.performActionForShortcutItem"])
    }

    // MARK: Transitions

    @Test("transitions: replayed to app-level subscribers only when the app's state changes, once, never to a scene subscriber of it")
    func transitions() async throws {
        let (dispatcher, _, log) = try bridged([("Scene", .scenes), ("App", .app), ("Both", .both)])
        // (scene event, the app events replayed)
        let steps: [(EventCall<Void, Void>, [String])] = [
            (.sceneWillConnect(scene: "side"), []),
            (.sceneWillEnterForeground(scene: "side"), []),  // the app stays active
            (.sceneWillResignActive(scene: "main"), ["willResignActive"]),  // active → inactive
            (.sceneDidBecomeActive(scene: "side"), ["didBecomeActive"]),  // inactive → active
            (.sceneWillResignActive(scene: "side"), ["willResignActive"]),
            (.sceneDidEnterBackground(scene: "side"), []),  // main is still in the foreground
            (.sceneDidEnterBackground(scene: "main"), ["didEnterBackground"]),  // inactive → background
            (.sceneDidDisconnect(scene: "side"), []),
            (.sceneWillEnterForeground(scene: "main"), ["willEnterForeground"]),  // background → inactive
            (.sceneDidBecomeActive(scene: "main"), ["didBecomeActive"]),
        ]
        for (call, replayed) in steps {
            log.entries = []
            let outcome = await dispatcher.dispatch(call)
            #expect(outcome.reports.isEmpty, "\(call.event)")
            #expect(outcome.bridged.map(\.event.name) == replayed, "\(call.event) \(outcome.scene ?? "")")
            #expect(outcome.bridged.allSatisfy { $0.answerNames == ["App"] }, "\(call.event): only the subscriber of the app event alone")
            #expect(log.entries == ["Scene:\(call.event.name)", "Both:\(call.event.name)"] + replayed.map { "App:\($0)" },
                    "\(call.event) \(outcome.scene ?? "")")
        }
    }

    @Test("the replayed transitions are delivered in the states UIKit gives the app's (will… in the state it leaves, did… in the one it enters)")
    func transitionStates() async throws {
        let (dispatcher, subscribers, _) = try bridged([("App", .app)])
        var seen: [String] = []
        for call in [EventCall<Void, Void>.sceneWillResignActive(scene: "main"), .sceneDidEnterBackground(scene: "main"),
                     .sceneWillEnterForeground(scene: "main"), .sceneDidBecomeActive(scene: "main")] {
            subscribers[0].applications = []
            let outcome = await dispatcher.dispatch(call)
            seen.append("\(outcome.bridged.first?.event.name ?? "-") in \(subscribers[0].applications.map(\.applicationState.name))")
        }
        #expect(seen == ["willResignActive in [\"active\"]", "didEnterBackground in [\"background\"]",
                         "willEnterForeground in [\"background\"]", "didBecomeActive in [\"active\"]"])
    }

    @Test("events without an app counterpart are never replayed: connect, disconnect, state restoration, geometry")
    func noCounterpart() async throws {
        let (dispatcher, _, log) = try bridged([("App", .app)])
        let calls: [AnyEventCall] = [EventCall.sceneWillConnect(scene: "b").erased, EventCall.sceneDidEnterBackground(scene: "b").erased,
                                     EventCall.sceneDidDisconnect(scene: "b").erased, EventCall.sceneStateRestorationActivity(scene: "main").erased,
                                     EventCall.sceneDidUpdateGeometry(scene: "main", SceneGeometry(interfaceOrientation: .portrait)).erased]
        for call in calls { #expect(await dispatcher.dispatch(call).bridged.isEmpty, "\(call.event)") }
        #expect(log.entries.isEmpty)
    }

    @Test("the manifest's sceneBridge reaches the host's configuration")
    func manifest() throws {
        let text = #"{"app": {"name": "N", "bundleIdentifier": "b"}, "sceneBridge": true}"#
        let manifest = try Manifest(bytes: Array(text.utf8), file: "m.json", directory: "/")
        #expect(manifest.sceneBridge)
        #expect(try PluginHost.configuration(for: manifest, options: HostOptions()).sceneBridge)
        let plain = try Manifest(bytes: Array(#"{"app": {"name": "N", "bundleIdentifier": "b"}}"#.utf8), file: "m.json", directory: "/")
        #expect(!plain.sceneBridge)
        #expect(throws: ManifestError.self) {
            try Manifest(bytes: Array(#"{"app": {"name": "N", "bundleIdentifier": "b"}, "sceneBridge": "yes"}"#.utf8), file: "m.json", directory: "/")
        }
    }

    // MARK: Subscribers changed while a scene event runs

    @Test("a subscriber added inside a scene event hears nothing of it, replays included, and every row keeps its name")
    func addedDuringSceneEvent() throws {
        let (dispatcher, _, log) = try bridged([("App", .app)])
        let registrar = SceneURLRegistrar()
        let late = TestSubscriber("Late", log: log)
        late.answers[.openURL] = true
        // First in order, app events only (a subscriber of the scene event itself gets no replay).
        registrar.action = { try? dispatcher.add(late.registration(priority: 100) { $0.family != "scene" }) }
        try dispatcher.add(SubscriberRegistration(name: "SceneRegistrar", subscriber: registrar))
        log.entries = []
        let outcome = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: Self.contexts))
        #expect(log.entries == ["App:openURL", "App:openURL"], "Late was added during the event: not replayed to")
        #expect(outcome.answerNames == ["SceneRegistrar"])
        #expect(outcome.bridged.map { $0.answerNames } == [["App"], ["App"]])
        registrar.action = {}
        log.entries = []
        _ = dispatcher.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [Self.contexts[0]]))
        #expect(log.entries == ["Late:openURL", "App:openURL"], "from the next event on, Late is replayed to first")
    }

    @Test("a subscriber removed while a bridged quick action waits for it: the event settles at once, as at shutdown")
    func removedWhileReplayWaits() async throws {
        let (dispatcher, subscribers, _) = try bridged([("App", .app), ("Other", .app)])
        subscribers[0].shortcut = .never
        subscribers[1].shortcut = .now(true)
        let deliveries = Deliveries<Bool>()
        dispatcher.dispatchAtOnce(.scenePerformActionForShortcutItem(scene: "main", ShortcutItem(type: "s")),
                                  whenDelivered: deliveries.handler)
        #expect(deliveries.outcomes.isEmpty, "App owes its completion")
        try dispatcher.remove(named: "App")
        // Settled now, not at the deadline: the removed subscriber's answer counts as late (false).
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
        #expect(deliveries.outcomes.first?.bridged.first?.answers(as: Bool.self) == [false, true])
    }
}

/// A scene subscriber that declines every URL context and runs `action` while it is called.
@MainActor
final class SceneURLRegistrar: AppDelegateSubscriber, SceneOpenURLContextsSubscriber {
    var action: () -> Void = {}
    func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool? {
        action()
        return false
    }
}
