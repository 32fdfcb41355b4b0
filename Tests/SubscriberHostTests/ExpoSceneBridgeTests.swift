import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Expo's scene bridge: `ExpoAppSceneDelegate` passes `launchOptions: nil` and routes each URL context
/// and user activity of a scene's connection options, and every later one, to its app-delegate subscribers, whether
/// or not something else handled it. An app-delegate-only subscriber (expo-linking's kind) under a
/// scene-based app hears the URL that opened the scene and each URL context once, and nothing twice.
@MainActor
@Suite("Expo's scene bridge: connection URLs and claimed URLs reach app-delegate subscribers exactly once", .serialized)
struct ExpoSceneBridgeTests {
    static func host(_ members: String) throws -> PluginHost {
        try PluginHost(manifest: parseManifest(withApp(members)),
                       inProcess: [InProcessSubscriber(LinkingProbe.self), InProcessSubscriber(SceneRouterProbe.self)])
    }

    /// Plays a cold launch into a scene opened by a URL, then two URLs the scene router claims, and
    /// an activity at connection; returns what the app-delegate-only subscriber heard.
    static func play(_ host: PluginHost) -> [String] {
        host.dispatchAtOnce(.didFinishLaunching())
        let link = UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/a/1"))
        host.dispatchAtOnce(.sceneWillConnect(scene: "main", options: SceneConnectionOptions(
            urlContexts: [OpenURLContext(url: URL(string: "news://cold")!)], userActivity: link)))
        host.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [OpenURLContext(url: URL(string: "news://a")!),
                                                                             OpenURLContext(url: URL(string: "news://b")!)]))
        return host.subscriber(named: "LinkingProbe", as: LinkingProbe.self)!.heard
    }

    @Test("profile expo, and \"sceneBridgeForwards\": \"everything\": the cold-launch URL, the link and each URL context, once each")
    func everythingOnce() throws {
        for members in [#""profile": "expo""#, #""sceneBridge": true, "sceneBridgeForwards": "everything""#] {
            let host = try Self.host(members)
            #expect(Self.play(host) == ["news://cold", "activity https://news.example.com/a/1", "news://a", "news://b"], "\(members)")
            // The scene router, which speaks scenes, heard them through its own methods only.
            #expect(host.subscriber(named: "SceneRouterProbe", as: SceneRouterProbe.self)!.heard == ["connect news://cold", "news://a", "news://b"])
        }
    }

    @Test("the default bridge (Flutter's rule) forwards only what no scene subscriber handled; no bridge forwards nothing")
    func unhandledOnly() throws {
        #expect(Self.play(try Self.host(#""sceneBridge": true"#)).isEmpty)
        #expect(Self.play(try Self.host("")).isEmpty)
        #expect(manifestError(withApp(#""sceneBridgeForwards": "all""#))
            == #"m.json: sceneBridgeForwards: expected one of "unhandled", "everything", found the string "all""#)
    }
}

/// Flutter's fallback: a scene's connection replayed to app-delegate plugins as `didFinishLaunching`,
/// with the connection's options as launch options, once per scene.
@MainActor
@Suite("Flutter's scene bridge: willConnect replayed as didFinishLaunching to app-delegate plugins", .serialized)
struct FlutterSceneBridgeTests {
    @Test("profile flutter, and \"sceneConnectAsLaunch\": true: each scene's connection is a launch for app plugins, with its URL")
    func connectAsLaunch() throws {
        for members in [#""profile": "flutter""#, #""sceneBridge": true, "sceneConnectAsLaunch": true"#, #""sceneBridge": true"#] {
            let host = try PluginHost(manifest: parseManifest(withApp(members)),
                                      inProcess: [InProcessSubscriber(LaunchProbe.self), InProcessSubscriber(SceneRouterProbe.self)])
            host.dispatchAtOnce(.didFinishLaunching())
            let opened = host.dispatchAtOnce(.sceneWillConnect(scene: "main", options: SceneConnectionOptions(
                urlContexts: [OpenURLContext(url: URL(string: "news://cold")!, options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari"))])))
            host.dispatchAtOnce(.sceneWillConnect(scene: "second"))
            let launches = host.subscriber(named: "LaunchProbe", as: LaunchProbe.self)!.launches
            if members == #""sceneBridge": true"# {
                #expect(launches == ["-"])  // the app's own launch only
            } else {
                // A connection with no URL and no quick action is not replayed (Flutter's
                // testSceneWillConnectFallbackSkippedNoOptions).
                #expect(launches == ["-", "news://cold from com.apple.mobilesafari"], "\(members)")
                #expect(opened.bridged.map(\.event) == [.didFinishLaunching])
            }
        }
    }
}

extension FlutterSceneBridgeTests {
    @Test("profile flutter: a connection is a launch only with what ConvertConnectionOptions keeps (URL, source application, quick action)")
    func launchOptionsAsFlutterConvertsThem() throws {
        let host = try PluginHost(manifest: parseManifest(withApp(#""profile": "flutter""#)),
                                  inProcess: [InProcessSubscriber(LaunchOptionsProbe.self)])
        host.dispatchAtOnce(.didFinishLaunching())
        let link = UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/a/1"))
        // An activity alone, or a notification alone: nothing Flutter converts, so no launch.
        host.dispatchAtOnce(.sceneWillConnect(scene: "link", options: SceneConnectionOptions(userActivity: link)))
        let shortcut = host.dispatchAtOnce(.sceneWillConnect(scene: "search", options: SceneConnectionOptions(
            shortcutItem: ShortcutItem(type: "com.example.search"))))
        #expect(shortcut.bridged.map(\.event) == [.didFinishLaunching])
        let probe = try #require(host.subscriber(named: "LaunchOptionsProbe", as: LaunchOptionsProbe.self))
        #expect(probe.launches.count == 2, "\(probe.launches)")
        #expect(probe.launches.last == LaunchOptions(shortcutItem: ShortcutItem(type: "com.example.search")))
    }

    @Test("profile flutter, and \"sceneBridgeSkips\": \"sceneSubscribers\": a subscriber that adopted the scene life cycle gets no replay")
    func skipsSceneSubscribers() throws {
        for (members, expected) in [(#""profile": "flutter""#, [false]), (#""sceneBridge": true, "sceneBridgeSkips": "sceneSubscribers""#, [false]),
                                    (#""sceneBridge": true"#, [true])] {
            let host = try PluginHost(manifest: parseManifest(withApp(members)),
                                      inProcess: [InProcessSubscriber(LinkingProbe.self), InProcessSubscriber(HybridProbe.self)])
            host.dispatchAtOnce(.didFinishLaunching())
            host.dispatchAtOnce(.sceneWillConnect(scene: "main"))
            host.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [OpenURLContext(url: URL(string: "news://x")!)]))
            #expect(host.subscriber(named: "LinkingProbe", as: LinkingProbe.self)!.heard == ["news://x"], "\(members)")
            #expect([host.subscriber(named: "HybridProbe", as: HybridProbe.self)!.heard == ["news://x"]] == expected, "\(members)")
        }
        #expect(manifestError(withApp(#""sceneBridgeSkips": "none""#))
            == #"m.json: sceneBridgeSkips: expected one of "eventResponders", "sceneSubscribers", found the string "none""#)
    }
}

/// A subscriber of one scene event and of the app delegate's openURL.
final class HybridProbe: InstantiableSubscriber, SceneWillConnectSubscriber, OpenURLSubscriber {
    var heard: [String] = []
    required init(context: SubscriberContext) {}
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {}
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        heard.append(url.absoluteString)
        return true
    }
}

/// An app-delegate plugin that records each launch's URL and source.
final class LaunchProbe: InstantiableSubscriber, DidFinishLaunchingSubscriber {
    var launches: [String] = []
    required init(context: SubscriberContext) {}
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        launches.append(launchOptions.url.map { "\($0.absoluteString) from \(launchOptions.sourceApplication ?? "?")" } ?? "-")
        return true
    }
}

/// An app-delegate-only subscriber: URLs and activities through the app delegate's methods.
final class LinkingProbe: InstantiableSubscriber, OpenURLSubscriber, ContinueUserActivitySubscriber {
    var heard: [String] = []
    required init(context: SubscriberContext) {}
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        heard.append(url.absoluteString)
        return true
    }
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        heard.append("activity \(userActivity.webpageURL?.absoluteString ?? "")")
        return true
    }
}

/// A scene subscriber that claims every URL.
final class SceneRouterProbe: InstantiableSubscriber, SceneWillConnectSubscriber, SceneOpenURLContextsSubscriber {
    var heard: [String] = []
    required init(context: SubscriberContext) {}
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
        heard += connectionOptions.urlContexts.map { "connect \($0.url.absoluteString)" }
    }
    func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool? {
        heard += urlContexts.map(\.url.absoluteString)
        return true
    }
}

/// An app-delegate plugin that keeps each launch's options.
final class LaunchOptionsProbe: InstantiableSubscriber, DidFinishLaunchingSubscriber {
    var launches: [LaunchOptions] = []
    required init(context: SubscriberContext) {}
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        launches.append(launchOptions)
        return true
    }
}
