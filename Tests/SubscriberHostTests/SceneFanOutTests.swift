import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Flutter's scene fan-out (`"sceneFanOut": "firstYes"`, and the `flutter` profile): a URL, an
/// activity or a quick action goes to scene subscribers in order until the first YES
/// (`FlutterPluginSceneLifeCycleDelegate`); under `uikit` every one is called.
@MainActor
@Suite("Peer rule: scene fan-out stops at the first YES (flutter), every subscriber under uikit")
struct SceneFanOutTests {
    /// Three scene subscribers: the first has no opinion (declines the quick action), the second
    /// says YES, the third too; the manifest `members` decides who is called.
    func host(_ members: String) throws -> PluginHost {
        try PluginHost(manifest: parseManifest(withApp(members)), inProcess: [
            InProcessSubscriber(FanOutProbe.self, name: "Silent", options: ["yes": false]),
            InProcessSubscriber(FanOutProbe.self, name: "Yes", options: ["yes": true]),
            InProcessSubscriber(FanOutProbe.self, name: "Later", options: ["yes": true]),
        ])
    }

    func heard(_ host: PluginHost) -> [String] {
        ["Silent", "Yes", "Later"].flatMap { name in host.subscriber(named: name, as: FanOutProbe.self)!.heard.map { "\(name):\($0)" } }
    }

    nonisolated static let firstYes = [#""profile": "flutter""#, #""sceneFanOut": "firstYes""#]
    nonisolated static let everyone = ["", #""profile": "uikit""#, #""profile": "flutter", "sceneFanOut": "allResponders""#]

    @Test("scene.openURLContexts and scene.continueUserActivity: none called after the first true", arguments: firstYes + everyone)
    func immediate(_ members: String) throws {
        let host = try host(members)
        host.dispatchAtOnce(.didFinishLaunching())
        host.dispatchAtOnce(.sceneWillConnect(scene: "main"))
        let url = host.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [OpenURLContext(url: URL(string: "news://x")!)]))
        let activity = host.dispatchAtOnce(.sceneContinueUserActivity(scene: "main", UserActivity(activityType: "com.example.read")))
        let stops = Self.firstYes.contains(members)
        let called = stops ? ["Silent", "Yes"] : ["Silent", "Yes", "Later"]
        #expect(heard(host) == ["Silent", "Yes", "Later"].filter(called.contains).flatMap { ["\($0):url", "\($0):activity"] }, "\(members)")
        for outcome in [url, activity] {
            #expect(outcome.result == true, "\(members)")
            #expect(outcome.answerNames == called, "\(members)")  // a row per subscriber called, no opinion too
        }
    }

    @Test("scene.performActionForShortcutItem: none called after the first that takes the completion", arguments: firstYes + everyone)
    func quickAction(_ members: String) async throws {
        let host = try host(members)
        host.dispatchAtOnce(.didFinishLaunching())
        host.dispatchAtOnce(.sceneWillConnect(scene: "main"))
        let outcome = await host.dispatch(.scenePerformActionForShortcutItem(scene: "main", ShortcutItem(type: "search")))
        let stops = Self.firstYes.contains(members)
        #expect(heard(host) == (stops ? ["Silent:shortcut", "Yes:shortcut"] : ["Silent:shortcut", "Yes:shortcut", "Later:shortcut"]),
                "\(members)")
        #expect(outcome.result == true)
        #expect(outcome.answerNames == (stops ? ["Yes"] : ["Yes", "Later"]), "\(members)")
    }

    @Test("other scene events and app events reach every subscriber under firstYes")
    func otherEventsUntouched() throws {
        let host = try host(#""sceneFanOut": "firstYes""#)
        host.dispatchAtOnce(.didFinishLaunching())
        host.dispatchAtOnce(.sceneWillConnect(scene: "main"))
        let outcome = host.dispatchAtOnce(.sceneWillContinueUserActivity(scene: "main", activityType: "com.example.read"))
        #expect(outcome.answerNames == ["Silent", "Yes", "Later"])
        #expect(heard(host) == ["Silent:will", "Yes:will", "Later:will"])
    }

    @Test("an unknown sceneFanOut is one line")
    func badValue() {
        #expect(manifestError(withApp(#""sceneFanOut": "first""#))
            == #"m.json: sceneFanOut: expected one of "allResponders", "firstYes", found the string "first""#)
    }
}

/// A scene subscriber of the URL, activity and quick-action events: answers its option `"yes"`
/// (true), or no opinion (false; it declines the quick action).
final class FanOutProbe: InstantiableSubscriber, SceneWillConnectSubscriber, SceneOpenURLContextsSubscriber,
    SceneContinueUserActivitySubscriber, SceneWillContinueUserActivitySubscriber, ScenePerformActionForShortcutItemSubscriber {
    var heard: [String] = []
    let yes: Bool
    required init(context: SubscriberContext) { yes = context.options["yes"]?.boolValue ?? false }
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {}
    func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool? {
        heard.append("url")
        return yes ? true : nil
    }
    func scene(_ scene: Scene, continue userActivity: UserActivity) -> Bool? {
        heard.append("activity")
        return yes ? true : nil
    }
    func scene(_ scene: Scene, willContinueUserActivityWithType userActivityType: String) -> Bool? {
        heard.append("will")
        return yes ? true : nil
    }
    func windowScene(_ windowScene: Scene, performActionFor shortcutItem: ShortcutItem, completionHandler: CompletionHandler<Bool>) {
        heard.append("shortcut")
        if yes { completionHandler(true) } else { completionHandler.decline() }
    }
}

/// Who gets `scene.willConnect`'s connection options (`"sceneConnectionOptions"`, and the
/// `flutter` profile): the first scene subscriber only, the later ones empty options; every one
/// under `uikit`.
@MainActor
@Suite("Peer rule: a scene's connection options to the first scene subscriber only (flutter), to every one under uikit")
struct SceneConnectionOptionsTests {
    nonisolated static let firstOnly = [#""profile": "flutter""#, #""sceneConnectionOptions": "firstSubscriber""#]
    nonisolated static let everyone = ["", #""profile": "uikit""#, #""profile": "flutter", "sceneConnectionOptions": "everySubscriber""#]

    @Test("scene.willConnect: the options to the first subscriber, or to every one", arguments: firstOnly + everyone)
    func options(_ members: String) throws {
        let host = try PluginHost(manifest: parseManifest(withApp(members)), inProcess: [
            InProcessSubscriber(ConnectionProbe.self, name: "First"), InProcessSubscriber(ConnectionProbe.self, name: "Second"),
            InProcessSubscriber(ConnectionProbe.self, name: "Third"),
        ])
        host.dispatchAtOnce(.didFinishLaunching())
        let options = SceneConnectionOptions(urlContexts: [OpenURLContext(url: URL(string: "news://cold")!)],
                                             userActivity: UserActivity(activityType: "com.example.read"))
        host.dispatchAtOnce(.sceneWillConnect(scene: "main", options: options))
        host.dispatchAtOnce(.sceneWillConnect(scene: "second"))  // no options: the same for everyone
        let heard = ["First", "Second", "Third"].map { host.subscriber(named: $0, as: ConnectionProbe.self)!.heard }
        let full = "main: news://cold, com.example.read"
        let later = Self.firstOnly.contains(members) ? "main: -" : full
        #expect(heard == [[full, "second: -"], [later, "second: -"], [later, "second: -"]], "\(members)")
    }

    @Test("an unknown sceneConnectionOptions is one line")
    func badValue() {
        #expect(manifestError(withApp(#""sceneConnectionOptions": "first""#))
            == #"m.json: sceneConnectionOptions: expected one of "everySubscriber", "firstSubscriber", found the string "first""#)
    }
}

/// A scene subscriber that records each connection's scene and options.
final class ConnectionProbe: InstantiableSubscriber, SceneWillConnectSubscriber {
    var heard: [String] = []
    required init(context: SubscriberContext) {}
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
        let parts = connectionOptions.urlContexts.map(\.url.absoluteString) + [connectionOptions.userActivity?.activityType].compactMap { $0 }
        heard.append("\(scene.identifier): \(parts.isEmpty ? "-" : parts.joined(separator: ", "))")
    }
}

/// `willPresent`'s answer as the first completion in time (`"willPresentAnswer": "firstCompleted"`,
/// and the `expo` profile); the union of every answer under `uikit`.
@MainActor
@Suite("Peer rule: willPresent answered by the first completion in time (expo), the union under uikit")
struct WillPresentFirstCompletedTests {
    nonisolated static let firstCompleted = [#""profile": "expo""#, #""willPresentAnswer": "firstCompleted""#]
    nonisolated static let union = ["", #""profile": "uikit""#, #""profile": "expo", "willPresentAnswer": "reconciled""#]

    @Test("the first subscriber answers after the second: the second's answer, or the union", arguments: firstCompleted + union)
    func firstInTime(_ members: String) async throws {
        let host = try PluginHost(manifest: parseManifest(withApp(members)), inProcess: [
            InProcessSubscriber(PresentProbe.self, name: "Slow"), InProcessSubscriber(PresentProbe.self, name: "Fast"),
        ])
        host.dispatchAtOnce(.didFinishLaunching())
        let deliveries = Deliveries<NotificationPresentationOptions>()
        host.dispatchAtOnce(.willPresentNotification(UserNotification(identifier: "n")), whenDelivered: deliveries.handler)
        let slow = host.subscriber(named: "Slow", as: PresentProbe.self)!
        let fast = host.subscriber(named: "Fast", as: PresentProbe.self)!
        fast.held.removeFirst()([.banner])  // the second called answers first
        #expect(deliveries.outcomes.isEmpty)
        slow.held.removeFirst()([.sound])
        let outcome = try #require(await deliveries.first())
        #expect(outcome.result == (Self.firstCompleted.contains(members) ? [.banner] : [.banner, .sound]), "\(members)")
        #expect(outcome.answerNames == ["Slow", "Fast"])  // both rows, in call order
    }

    @Test("an unknown willPresentAnswer is one line")
    func badValue() {
        #expect(manifestError(withApp(#""willPresentAnswer": "first""#))
            == #"m.json: willPresentAnswer: expected one of "reconciled", "firstCompleted", found the string "first""#)
    }
}

/// Keeps each willPresent completion for the test to call.
final class PresentProbe: InstantiableSubscriber, WillPresentNotificationSubscriber {
    var held: [CompletionHandler<NotificationPresentationOptions>] = []
    required init(context: SubscriberContext) {}
    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>) {
        held.append(completionHandler)
    }
}
