import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Each scene's state (unattached, foregroundInactive, foregroundActive, background) as the host
/// keeps it: a scene event UIKit would never deliver — for an unknown scene, a second connection,
/// active before the foreground, anything after a disconnection — is not delivered and its outcome
/// carries one stateViolation naming the scene; the app's state follows its scenes once they exist,
/// and the app delegate's own transitions are then refused (UIKit calls them no more); a scene's
/// connection options tell how the app was launched while it launches.
@MainActor
@Suite("Scenes: state rules, the app's state from its scenes, the launch from connection options")
struct SceneStateTests {
    /// Expects `outcome` to be `event` refused for `scene` found in `sceneState`: one report naming the
    /// scene, nobody called, the app's state still `state`.
    func expectRefused<Result>(_ outcome: EventOutcome<Result>, _ event: LifecycleEvent, scene: String,
                               sceneState: SceneState?, expecting fragment: String, state: ApplicationState,
                               dispatcher: LifecycleDispatcher, log: CallLog, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.reports.count == 1, "\(outcome.reports)", sourceLocation: sourceLocation)
        if case .sceneStateViolation(let reported, let named, let found, let expected)? = outcome.reports.first {
            #expect(reported == event && named == scene && found == sceneState, sourceLocation: sourceLocation)
            #expect(expected.contains(fragment), "\(expected)", sourceLocation: sourceLocation)
            #expect(outcome.reports[0].description.contains("scene \"\(scene)\""), sourceLocation: sourceLocation)
            #expect(outcome.reports[0].kind == "stateViolation", sourceLocation: sourceLocation)
        } else {
            Issue.record("expected one sceneStateViolation, found \(outcome.reports)", sourceLocation: sourceLocation)
        }
        #expect(outcome.scene == scene, sourceLocation: sourceLocation)
        #expect(log.entries.isEmpty, "delivered to \(log.entries)", sourceLocation: sourceLocation)
        #expect(outcome.answers.isEmpty, sourceLocation: sourceLocation)
        #expect(dispatcher.applicationState == state && outcome.applicationState == state, sourceLocation: sourceLocation)
    }

    @Test("a scene event for a scene that never connected: refused, naming it")
    func unknownScene() {
        let (dispatcher, _, log) = sceneDispatcher(["A", "B"])
        for call in [EventCall.sceneDidBecomeActive(scene: "ghost").erased,
                     EventCall.sceneOpenURLContexts(scene: "ghost", urlContexts: [OpenURLContext(url: URL(string: "news://a")!)]).erased,
                     EventCall.sceneStateRestorationActivity(scene: "ghost").erased] {
            expectRefused(dispatcher.dispatchAtOnce(call), call.event, scene: "ghost", sceneState: nil,
                          expecting: "scene.willConnect of \"ghost\" first", state: .active, dispatcher: dispatcher, log: log)
        }
        #expect(dispatcher.sceneState(of: "ghost") == nil)
        #expect(dispatcher.sceneState(of: "main") == .foregroundActive)
    }

    @Test("a second connection of a connected scene: refused, naming it and its state; its state unchanged")
    func secondConnect() {
        let (dispatcher, _, log) = sceneDispatcher(["A"])
        expectRefused(dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main")), .sceneWillConnect, scene: "main",
                      sceneState: .foregroundActive, expecting: "scene.didDisconnect first", state: .active, dispatcher: dispatcher, log: log)
        #expect(dispatcher.sceneState(of: "main") == .foregroundActive)
    }

    @Test("active before connecting, and before entering the foreground: refused")
    func activeTooSoon() {
        let (dispatcher, _, log) = makeDispatcher(["A"], launched: false)
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        log.entries = []
        expectRefused(dispatcher.dispatchAtOnce(.sceneDidBecomeActive(scene: "main")), .sceneDidBecomeActive, scene: "main",
                      sceneState: nil, expecting: "scene.willConnect", state: .inactive, dispatcher: dispatcher, log: log)
        dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main"))
        log.entries = []
        expectRefused(dispatcher.dispatchAtOnce(.sceneDidBecomeActive(scene: "main")), .sceneDidBecomeActive, scene: "main",
                      sceneState: .unattached, expecting: "the scene foregroundInactive", state: .inactive, dispatcher: dispatcher, log: log)
        expectRefused(dispatcher.dispatchAtOnce(.sceneWillResignActive(scene: "main")), .sceneWillResignActive, scene: "main",
                      sceneState: .unattached, expecting: "the scene foregroundActive", state: .inactive, dispatcher: dispatcher, log: log)
        #expect(dispatcher.sceneState(of: "main") == .unattached)
    }

    @Test("after a disconnection every event of the scene is refused, until it connects again (a session UIKit reconnects)")
    func afterDisconnect() {
        let (dispatcher, _, log) = sceneDispatcher(["A"])
        for call in [EventCall.sceneWillResignActive(scene: "main"), .sceneDidEnterBackground(scene: "main"), .sceneDidDisconnect(scene: "main")] {
            #expect(dispatcher.dispatchAtOnce(call).reports.isEmpty, "\(call.event)")
        }
        log.entries = []
        for call in [EventCall.sceneWillEnterForeground(scene: "main").erased, EventCall.sceneDidDisconnect(scene: "main").erased,
                     EventCall.sceneContinueUserActivity(scene: "main", UserActivity(activityType: "t")).erased] {
            expectRefused(dispatcher.dispatchAtOnce(call), call.event, scene: "main", sceneState: nil,
                          expecting: "after scene.didDisconnect", state: .background, dispatcher: dispatcher, log: log)
        }
        // Reconnected, it starts over, unattached, with the role it connects with now.
        let again = dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main", role: "CustomRole"))
        #expect(again.reports.isEmpty)
        #expect(dispatcher.sceneState(of: "main") == .unattached)
        #expect(dispatcher.dispatchAtOnce(.sceneWillEnterForeground(scene: "main")).reports.isEmpty)
        #expect(dispatcher.applicationState == .inactive)
    }

    @Test("a scene disconnects only from the background or unattached: from the foreground it is refused")
    func disconnectFromForeground() {
        let (dispatcher, _, log) = sceneDispatcher(["A"])
        expectRefused(dispatcher.dispatchAtOnce(.sceneDidDisconnect(scene: "main")), .sceneDidDisconnect, scene: "main",
                      sceneState: .foregroundActive, expecting: "unattached or background", state: .active, dispatcher: dispatcher, log: log)
    }

    @Test("scene events before launch and after termination are refused by the app's state")
    func beforeLaunchAfterTermination() {
        let (dispatcher, _, log) = makeDispatcher(["A"], launched: false)
        let early = dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main"))
        #expect(early.reports.count == 1)
        if case .stateViolation(.sceneWillConnect, .notRunning, _)? = early.reports.first {} else { Issue.record("\(early.reports)") }
        #expect(early.scene == "main")
        let (running, _, runningLog) = sceneDispatcher(["A"])
        running.dispatchAtOnce(.willTerminate)
        runningLog.entries = []
        let late = running.dispatchAtOnce(.sceneWillResignActive(scene: "main"))
        if case .stateViolation(.sceneWillResignActive, .terminated, _)? = late.reports.first {} else { Issue.record("\(late.reports)") }
        #expect(log.entries.isEmpty && runningLog.entries.isEmpty)
    }

    @Test("with scenes, the app delegate's transitions are refused (UIKit sends the scenes'); willTerminate still comes")
    func appTransitionsWithScenes() {
        let (dispatcher, _, log) = sceneDispatcher(["A", "B"])
        for call in [EventCall.willResignActive, .didBecomeActive, .didEnterBackground, .willEnterForeground] {
            let outcome = dispatcher.dispatchAtOnce(call)
            #expect(outcome.reports.count == 1, "\(call.event)")
            if case .stateViolation(call.event, .active, let expected)? = outcome.reports.first {
                #expect(expected.contains("scene.\(call.event.name)"), "\(expected)")
            } else {
                Issue.record("\(call.event): \(outcome.reports)")
            }
        }
        #expect(log.entries.isEmpty)
        #expect(dispatcher.applicationState == .active)
        let terminated = dispatcher.dispatchAtOnce(.willTerminate)
        #expect(terminated.reports.isEmpty)
        #expect(log.callers(of: .willTerminate) == ["A", "B"])
        #expect(dispatcher.applicationState == .terminated)
    }

    @Test("the app's state is derived from every scene's, as UIKit does: active if any is active, else inactive if any is in the foreground, else background")
    func derivedState() {
        let (dispatcher, _, _) = sceneDispatcher(["A"])
        for scene in ["b", "c"] {
            dispatcher.dispatchAtOnce(.sceneWillConnect(scene: scene))
            dispatcher.dispatchAtOnce(.sceneWillEnterForeground(scene: scene))
        }
        // main active, b and c foregroundInactive.
        #expect(dispatcher.applicationState == .active)
        dispatcher.dispatchAtOnce(.sceneWillResignActive(scene: "main"))
        #expect(dispatcher.applicationState == .inactive)
        dispatcher.dispatchAtOnce(.sceneDidEnterBackground(scene: "main"))
        dispatcher.dispatchAtOnce(.sceneDidEnterBackground(scene: "b"))
        #expect(dispatcher.applicationState == .inactive, "c is still in the foreground")
        dispatcher.dispatchAtOnce(.sceneDidBecomeActive(scene: "c"))
        #expect(dispatcher.applicationState == .active)
        dispatcher.dispatchAtOnce(.sceneWillResignActive(scene: "c"))
        dispatcher.dispatchAtOnce(.sceneDidEnterBackground(scene: "c"))
        #expect(dispatcher.applicationState == .background)
        #expect(dispatcher.stateCell.state == .background, "what C plugins read")
        #expect(dispatcher.application.applicationState == .background)
        // A scene connecting unattached does not move the app.
        dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "d"))
        #expect(dispatcher.applicationState == .background)
        #expect(["main", "b", "c", "d"].map { dispatcher.sceneState(of: $0) } == [.background, .background, .background, .unattached])
    }

    // MARK: The launch

    /// A scene-based cold launch whose first scene connects with `options`: the invocation the
    /// connection's outcome says, and the one subscribers see afterwards.
    func launch(connecting options: SceneConnectionOptions, launchOptions: LaunchOptions = LaunchOptions())
        -> (connected: LaunchInvocation?, after: LaunchInvocation?, seen: [LaunchInvocation?])
    {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"], launched: false)
        dispatcher.dispatchAtOnce(.didFinishLaunching(options: launchOptions))
        dispatcher.dispatchAtOnce(.configurationForConnecting())
        let connected = dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main", options: options))
        subscribers[0].applications = []
        dispatcher.dispatchAtOnce(.sceneWillEnterForeground(scene: "main"))
        dispatcher.dispatchAtOnce(.sceneDidBecomeActive(scene: "main"))
        return (connected.invocation, dispatcher.application.launchInvocation, subscribers[0].applications.map(\.launchInvocation))
    }

    @Test("a cold launch classified from the first scene's connection options: URL scheme, universal link, activity, quick action, notification")
    func launchFromConnectionOptions() {
        let scheme = URL(string: "news://article/42")!, link = URL(string: "https://news.example.com/article/42")!
        let tap = NotificationResponse(notification: UserNotification(identifier: "n", userInfo: ["article": 42]))
        let cases: [(SceneConnectionOptions, LaunchInvocation)] = [
            (SceneConnectionOptions(urlContexts: [OpenURLContext(url: scheme)]), .urlScheme(scheme)),
            (SceneConnectionOptions(urlContexts: [OpenURLContext(url: link)]), .deepLink(link)),
            (SceneConnectionOptions(userActivity: UserActivity(activityType: UserActivity.browsingWeb, webpageURL: link)), .deepLink(link)),
            (SceneConnectionOptions(shortcutItem: ShortcutItem(type: "com.example.news.search")), .shortcut("com.example.news.search")),
            (SceneConnectionOptions(notificationResponse: tap), .notification(["article": 42])),
            // The launch options' order: the activity first, then the notification, the URL, the shortcut.
            (SceneConnectionOptions(urlContexts: [OpenURLContext(url: scheme)], shortcutItem: ShortcutItem(type: "s"),
                                    notificationResponse: tap), .notification(["article": 42])),
        ]
        for (options, expected) in cases {
            let (connected, after, seen) = launch(connecting: options)
            #expect(connected == expected, "\(options)")
            #expect(after == expected && seen == [expected, expected], "\(options)")
        }
        // A plain connection leaves the launch as its launch options said.
        let plain = launch(connecting: SceneConnectionOptions())
        #expect(plain.connected == nil && plain.after == .appIconClick)
    }

    @Test("connection options do not override a launch classified before them, nor reclassify once the app became active")
    func launchClassifiedOnce() {
        let link = URL(string: "https://news.example.com/article/1")!
        let launched = launch(connecting: SceneConnectionOptions(urlContexts: [OpenURLContext(url: URL(string: "news://article/2")!)]),
                              launchOptions: LaunchOptions(userActivity: UserActivity(activityType: UserActivity.browsingWeb, webpageURL: link)))
        #expect(launched.after == .deepLink(link))
        // A second scene connecting with a URL while the app runs is no launch.
        let (dispatcher, _, _) = sceneDispatcher(["A"])
        let second = dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "second", options: SceneConnectionOptions(
            urlContexts: [OpenURLContext(url: URL(string: "news://article/3")!)])))
        #expect(second.invocation == nil)
        #expect(dispatcher.application.launchInvocation == .appIconClick)
    }

    @Test("through C, a plugin reads the launch classified from connection options (adh.host.state/1) and the scene's state in its adh_scene")
    func throughC() throws {
        let descriptor = SubscriberPlugin.export(id: "com.example.scene-state-tests", name: "Scene state tests", version: "1.0",
                                                 subscribers: [SceneProbe.self])
            .assumingMemoryBound(to: adh_plugin_descriptor.self)
        let sink = RecordingSink()
        let state = ApplicationStateCell()
        let adapter = try CSubscriber(creating: SceneProbe.subscriberName, from: descriptor,
                                      context: bridgeContext("SceneProbe", sink: sink), state: state)
        defer { adapter.destroy() }
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(adapter)],
                                             configuration: DispatchConfiguration(application: testApplication), state: state)
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main", role: "Role", options: SceneConnectionOptions(
            urlContexts: [OpenURLContext(url: URL(string: "news://article/42")!)])))
        dispatcher.dispatchAtOnce(.sceneWillEnterForeground(scene: "main"))
        dispatcher.dispatchAtOnce(.sceneDidBecomeActive(scene: "main"))
        #expect(sink.lines == [
            "[SceneProbe] info: scene.willConnect main Role unattached while inactive, launched by urlScheme(news://article/42)",
            "[SceneProbe] info: scene.willEnterForeground main Role unattached while inactive, launched by urlScheme(news://article/42)",
            "[SceneProbe] info: scene.didBecomeActive main Role foregroundActive while active, launched by urlScheme(news://article/42)",
        ])
    }
}
