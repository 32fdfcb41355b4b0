import Dispatch
import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Adopts every scene protocol; how it answers comes from its options, so that one type exported
/// through C can play several subscribers. Logs every call with its scene (identifier, role,
/// activation state), the app's state and launch it saw, and its arguments, so that call order and
/// what crossed the C boundary are visible in the sink.
///
/// Options: `open` (true/false; absent: no opinion) for the URL and activity events, `shortcut`:
/// "now", "thread" (from another thread), "twice", "never", "decline"; `restore`: an activity type
/// to answer stateRestorationActivity with (absent: no opinion).
final class SceneProbe: InstantiableSubscriber, SceneWillConnectSubscriber, SceneDidDisconnectSubscriber,
    SceneDidBecomeActiveSubscriber, SceneWillResignActiveSubscriber, SceneWillEnterForegroundSubscriber,
    SceneDidEnterBackgroundSubscriber, SceneOpenURLContextsSubscriber, SceneWillContinueUserActivitySubscriber,
    SceneContinueUserActivitySubscriber, SceneDidFailToContinueUserActivitySubscriber, SceneDidUpdateUserActivitySubscriber,
    ScenePerformActionForShortcutItemSubscriber, SceneStateRestorationActivitySubscriber, SceneDidUpdateGeometrySubscriber {
    let context: SubscriberContext
    let open: Bool?
    let shortcut: String
    let restore: String?

    init(context: SubscriberContext) {
        self.context = context
        open = context.options["open"]?.boolValue
        shortcut = context.options["shortcut"]?.stringValue ?? "decline"
        restore = context.options["restore"]?.stringValue
    }

    private func saw(_ event: LifecycleEvent, _ scene: Scene, _ detail: String = "") {
        let launched = scene.application.launchInvocation.map(\.description) ?? "nothing"
        context.log("\(event) \(scene.identifier) \(scene.session.role) \(scene.activationState)\(detail) "
                    + "while \(scene.application.applicationState), launched by \(launched)")
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
        saw(.sceneWillConnect, scene)
    }
    func sceneDidDisconnect(_ scene: Scene) { saw(.sceneDidDisconnect, scene) }
    func sceneDidBecomeActive(_ scene: Scene) { saw(.sceneDidBecomeActive, scene) }
    func sceneWillResignActive(_ scene: Scene) { saw(.sceneWillResignActive, scene) }
    func sceneWillEnterForeground(_ scene: Scene) { saw(.sceneWillEnterForeground, scene) }
    func sceneDidEnterBackground(_ scene: Scene) { saw(.sceneDidEnterBackground, scene) }

    func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool? {
        saw(.sceneOpenURLContexts, scene, " " + urlContexts.map { "\($0.url.absoluteString) \(JSONValue.object($0.options.json))" }
                .joined(separator: " "))
        return open
    }
    func scene(_ scene: Scene, willContinueUserActivityWithType userActivityType: String) -> Bool? {
        saw(.sceneWillContinueUserActivity, scene, " " + userActivityType)
        return open
    }
    func scene(_ scene: Scene, continue userActivity: UserActivity) -> Bool? {
        saw(.sceneContinueUserActivity, scene, " " + JSONValue.object(userActivity.json).serialized())
        return open
    }
    func scene(_ scene: Scene, didFailToContinueUserActivityWithType userActivityType: String, error: LifecycleError) {
        saw(.sceneDidFailToContinueUserActivity, scene, " \(userActivityType) \(error)")
    }
    func scene(_ scene: Scene, didUpdate userActivity: UserActivity) {
        saw(.sceneDidUpdateUserActivity, scene, " " + JSONValue.object(userActivity.json).serialized())
    }
    func windowScene(_ windowScene: Scene, performActionFor shortcutItem: ShortcutItem, completionHandler: CompletionHandler<Bool>) {
        saw(.scenePerformActionForShortcutItem, windowScene, " " + JSONValue.object(shortcutItem.json).serialized())
        switch shortcut {
        case "now": completionHandler(true)
        case "thread": CompletionsOnTheirWay.run { completionHandler(false) }
        case "twice":
            completionHandler(false)
            completionHandler(true)
        case "never": break
        default: completionHandler.decline()
        }
    }
    func stateRestorationActivity(for scene: Scene) -> UserActivity? {
        saw(.sceneStateRestorationActivity, scene)
        return restore.map { UserActivity(activityType: $0, webpageURL: URL(string: "https://news.example.com/restore"),
                                          userInfo: ["restores": .string($0)]) }
    }
    func windowScene(_ windowScene: Scene, didUpdate geometry: SceneGeometry) {
        saw(.sceneDidUpdateGeometry, windowScene, " \(geometry.interfaceOrientation) \(geometry.idiom)")
    }
}

/// The scene family through the C ABI: the same subscriber class, registered in-process and exported
/// by SubscriberPlugin.export then wrapped back by CSubscriber (every call crosses the `adh.scene/1`
/// vtable), gives the same results, answers, reports, call order and arguments — the scene with its
/// role and state, the URL contexts with their options, the activities, the geometry — and both give
/// what the event rules say.
@MainActor
@Suite("Scenes through C: same outcomes as in-process", .timeLimit(.minutes(10)))
struct SceneThroughCTests {
    /// The dispatchers' clock: a deadline passes when ``play(throughC:)`` advances it, once every
    /// completion from a thread arrived.
    let clock = ManualHostClock()

    static func descriptor() -> UnsafePointer<adh_plugin_descriptor> {
        SubscriberPlugin.export(id: "com.example.scene-tests", name: "Scene tests", version: "1.0", subscribers: [SceneProbe.self])
            .assumingMemoryBound(to: adh_plugin_descriptor.self)
    }

    static let cast: [(name: String, options: JSONValue)] = [
        ("Silent", [:]),
        ("Router", ["open": true, "shortcut": "thread", "restore": "com.example.news.article"]),
        ("Refuser", ["open": false, "shortcut": "twice", "restore": "com.example.news.other"]),
        ("Late", ["shortcut": "never"]),
    ]

    /// A dispatcher over the cast, in-process or through C; deadlines of 300 ms on ``clock``; launched the scene way.
    func dispatcher(throughC: Bool, sink: RecordingSink) throws -> (LifecycleDispatcher, [CSubscriber]) {
        let state = ApplicationStateCell()
        var adapters: [CSubscriber] = []
        var registrations: [SubscriberRegistration] = []
        for (name, options) in Self.cast {
            let context = bridgeContext(name, sink: sink, options: options)
            if throughC {
                let adapter = try CSubscriber(creating: SceneProbe.subscriberName, from: Self.descriptor(), context: context, state: state)
                adapters.append(adapter)
                registrations.append(SubscriberRegistration(adapter, name: name))
            } else {
                registrations.append(SubscriberRegistration(name: name, subscriber: SceneProbe(context: context)))
            }
        }
        var configuration = DispatchConfiguration(application: bridgeTestApplication)
        configuration.clock = clock
        try configuration.setDefaultDeadline(.milliseconds(300))
        return (LifecycleDispatcher(subscribers: registrations, configuration: configuration, state: state), adapters)
    }

    static let script: [AnyEventCall] = [
        EventCall.didFinishLaunching().erased,
        EventCall.sceneWillConnect(scene: "main", options: SceneConnectionOptions(
            urlContexts: [OpenURLContext(url: URL(string: "news://article/42")!)])).erased,
        EventCall.sceneWillEnterForeground(scene: "main").erased,
        EventCall.sceneDidBecomeActive(scene: "main").erased,
        EventCall.sceneWillConnect(scene: "tv", role: SceneSession.windowExternalDisplayNonInteractiveRole).erased,
        EventCall.sceneOpenURLContexts(scene: "main", urlContexts: [
            OpenURLContext(url: URL(string: "news://article/7")!, options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari",
                                                                                        annotation: ["k": 1], openInPlace: true)),
            OpenURLContext(url: URL(string: "https://news.example.com/article/8")!)]).erased,
        EventCall.sceneWillContinueUserActivity(scene: "main", activityType: UserActivity.browsingWeb).erased,
        EventCall.sceneContinueUserActivity(scene: "main", UserActivity(activityType: UserActivity.browsingWeb,
                                                                       webpageURL: URL(string: "https://news.example.com/article/9"),
                                                                       userInfo: ["ref": "mail"])).erased,
        EventCall.sceneDidUpdateUserActivity(scene: "main", UserActivity(activityType: "com.example.news.reading")).erased,
        EventCall.sceneDidFailToContinueUserActivity(scene: "main", activityType: "com.example.news.reading",
                                                     error: LifecycleError(domain: "NSCocoaErrorDomain", code: 4608, message: "gone")).erased,
        EventCall.scenePerformActionForShortcutItem(scene: "main", ShortcutItem(type: "com.example.news.search", title: "Search",
                                                                                userInfo: ["q": "swift"])).erased,
        EventCall.sceneDidUpdateGeometry(scene: "main", SceneGeometry(interfaceOrientation: .landscapeRight, idiom: .pad)).erased,
        EventCall.sceneWillResignActive(scene: "main").erased,
        EventCall.sceneStateRestorationActivity(scene: "main").erased,
        EventCall.sceneDidEnterBackground(scene: "main").erased,
        EventCall.sceneDidEnterBackground(scene: "tv").erased,
        EventCall.sceneDidDisconnect(scene: "tv").erased,
    ]

    /// Each outcome in a few comparable words: event, scene, result, answer rows, reports.
    static func describe(_ outcome: AnyEventOutcome) -> String {
        let row = outcome.event.row
        let answers = outcome.answers.map { "\($0.subscriber)=\($0.answer.map { row.json(answer: $0).serialized() } ?? "nil")" }
        return "\(outcome.event) \(outcome.scene ?? "-") → \(row.json(result: outcome.result).serialized()) "
            + "[\(answers.joined(separator: ", "))] \(Set(outcome.reports.map(\.description)).sorted())"
    }

    func play(throughC: Bool) async throws -> (outcomes: [String], lines: [String]) {
        let sink = RecordingSink()
        let (dispatcher, adapters) = try dispatcher(throughC: throughC, sink: sink)
        defer { adapters.forEach { $0.destroy() } }
        var outcomes: [String] = []
        for call in Self.script {
            outcomes.append(Self.describe(await dispatcher.dispatch(call, advancing: clock, by: .milliseconds(300))))
        }
        outcomes += dispatcher.takeLateReports().map(\.description)
        return (outcomes, sink.lines)
    }

    @Test("every scene event through C matches in-process: results, rows, reports, and what each subscriber received")
    func sameOutcomes() async throws {
        let direct = try await play(throughC: false)
        let loaded = try await play(throughC: true)
        #expect(loaded.outcomes == direct.outcomes)
        #expect(loaded.lines == direct.lines)
        let restored = #"{"activityType":"com.example.news.article","webpageURL":"https://news.example.com/restore","userInfo":{"restores":"com.example.news.article"}}"#
        // The rules, whichever way.
        #expect(direct.outcomes.contains("scene.openURLContexts main → true [Silent=nil, Router=true, Refuser=false, Late=nil] []"))
        #expect(direct.outcomes.contains("scene.continueUserActivity main → true [Silent=nil, Router=true, Refuser=false, Late=nil] []"))
        #expect(direct.outcomes.contains { $0.hasPrefix("scene.stateRestorationActivity main → \(restored) ") },
                "\(direct.outcomes)")
        // The quick action: Router's false from a thread, Refuser's false then a duplicate, Late late (false).
        #expect(direct.outcomes.contains("scene.performActionForShortcutItem main → false [Router=false, Refuser=false, Late=false] "
                                         + "[\"duplicate completion: Refuser completed scene.performActionForShortcutItem more than once; the extra call was ignored\", "
                                         + "\"late: Late did not complete scene.performActionForShortcutItem before its deadline\"]"),
                "\(direct.outcomes)")
        // What crossed: the role, the state, the options of each URL context, the launch from the connection options.
        #expect(direct.lines.contains("[Router] info: scene.willConnect tv UIWindowSceneSessionRoleExternalDisplayNonInteractive unattached while active, launched by urlScheme(news://article/42)"))
        #expect(direct.lines.contains(#"[Router] info: scene.openURLContexts main UIWindowSceneSessionRoleApplication foregroundActive news://article/7 {"sourceApplication":"com.apple.mobilesafari","annotation":{"k":1},"openInPlace":true} https://news.example.com/article/8 {} while active, launched by urlScheme(news://article/42)"#),
                "\(direct.lines)")
        #expect(direct.lines.contains("[Silent] info: scene.didUpdateGeometry main UIWindowSceneSessionRoleApplication foregroundActive landscapeRight pad while active, launched by urlScheme(news://article/42)"))
        #expect(direct.lines.contains("[Late] info: scene.didDisconnect tv UIWindowSceneSessionRoleExternalDisplayNonInteractive background while background, launched by urlScheme(news://article/42)"))
        #expect(direct.lines.count == Self.cast.count * (Self.script.count - 1))
    }

    @Test("a Swift scene subscriber exported through C fills the adh.scene/1 vtable with exactly its events")
    func vtable() throws {
        let adapter = try CSubscriber(creating: SceneProbe.subscriberName, from: Self.descriptor(),
                                      context: bridgeContext("SceneProbe", sink: RecordingSink()))
        defer { adapter.destroy() }
        #expect(adapter.speaksExtensions)
        #expect(adapter.respondingEvents == EventFamily.scene.events)
        // A subscriber without scene protocols gets no scene vtable at all.
        let other = try CSubscriber(creating: NotificationProbe.subscriberName, from: NotificationCenterBridgeTests.descriptor(),
                                    context: bridgeContext("NotificationProbe", sink: RecordingSink()))
        defer { other.destroy() }
        #expect(other.respondingEvents.allSatisfy { $0.row.family !== EventFamily.scene })
        #expect(ABI.readCovered(other.me).get_extension?(other.me, ADH_EXT_SCENE) == nil)
        #expect(ABI.readCovered(adapter.me).get_extension?(adapter.me, ADH_EXT_SCENE) != nil)
    }
}
