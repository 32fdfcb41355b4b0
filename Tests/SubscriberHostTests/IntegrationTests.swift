import Foundation
import Testing
import SubscriberKit
@testable import SubscriberHost

/// The real thing: the example plugins built by `swift build` (five Swift, one C), loaded with
/// dlopen from `manifests/news.json` into this one process beside the host, playing events.
/// CI runs this suite in a debug and a release build.
@MainActor
@Suite("Integration: real plugins from manifests/news.json", .serialized)
struct IntegrationTests {
    static let packageRoot = FilePaths.directory(of: FilePaths.directory(of: FilePaths.directory(of: #filePath)))

    /// The news host; launched (the state most events come in) unless `launched` is false.
    func loadNews(launched: Bool = true) throws -> PluginHost {
        let host = try PluginHost(manifestAt: Self.packageRoot + "/manifests/news.json",
                                  options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
        if launched { host.dispatchAtOnce(.didFinishLaunching()) }
        return host
    }

    @Test("the host, five Swift plugins and two C plugins load into one process, in manifest and priority order")
    func loads() throws {
        let host = try loadNews()
        #expect(host.plugins.plugins.map(\.image.id) == [
            "dev.appdelegatehost.app-lifecycle-delegate", "dev.appdelegatehost.session-analytics",
            "dev.appdelegatehost.deep-link-router", "dev.appdelegatehost.notification-fetcher",
            "dev.appdelegatehost.orientation-lock", "dev.appdelegatehost.extension-guard", "dev.appdelegatehost.quiet-hours",
        ])
        #expect(host.plugins.plugins.filter(\.image.isCPlugin).map(\.image.name) == ["ExtensionGuard", "QuietHours"])
        // host.subscribers keeps manifest order; the dispatcher puts DeepLinkRouter (priority 10)
        // first and keeps manifest order for the rest.
        #expect(host.subscribers.map(\.name) == [
            "AppLifecycleDelegate", "SessionAnalytics", "DeepLinkRouter", "NotificationFetcher",
            "OrientationLock", "ExtensionGuard", "QuietHours",
        ])
        #expect(host.dispatcher.subscribers.map(\.name) == [
            "DeepLinkRouter", "AppLifecycleDelegate", "SessionAnalytics", "NotificationFetcher",
            "OrientationLock", "ExtensionGuard", "QuietHours",
        ])
        // The C plugin leaves NULL what it does not handle; Swift plugins respond to the events whose
        // protocols they adopt.
        #expect(host.dispatcher.responderNames(for: .shouldAllowExtensionPointIdentifier).contains("ExtensionGuard"))
        #expect(!host.dispatcher.responderNames(for: .openURL).contains("ExtensionGuard"))
        // Every event's list: the subscribers that respond to it, in dispatch order.
        for row in EventTable.rows {
            let expected = host.dispatcher.subscribers.filter { $0.responds(to: row.event) }.map(\.name)
            #expect(host.dispatcher.responderNames(for: row.event) == expected, "\(row.name)")
        }
        #expect(EventTable.rows.contains { host.dispatcher.responderNames(for: $0.event).count > 1 })
    }

    @Test("a cold launch from a universal link is classified and routed by the Swift plugin (generic code)")
    func launchFromUniversalLink() throws {
        let host = try loadNews(launched: false)
        let activity = UserActivity(activityType: UserActivity.browsingWeb,
                                    webpageURL: URL(string: "https://news.example.com/article/42"))
        let launch = host.dispatcher.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(userActivity: activity)))
        #expect(launch.invocation == .deepLink(URL(string: "https://news.example.com/article/42")!))
        #expect(launch.result == true)
        #expect(launch.answers.first { $0.subscriber == "DeepLinkRouter" }?.answer(as: Bool.self) == true)
        #expect(host.log.recorded.contains { $0.subscriber == "DeepLinkRouter" && $0.message == "routing to article/42" })
    }

    @Test("openURL: the router owns news:// and its hosts, and says false for the rest")
    func openURL() throws {
        let host = try loadNews()
        #expect(host.dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://article/7")!)).result == true)
        #expect(host.dispatcher.dispatchAtOnce(.openURL(url: URL(string: "https://elsewhere.example.org/x")!)).result == false)
        let answers = host.dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://article/8")!)).answers
        // Was: every Swift plugin had a row (they responded to every event). Only DeepLinkRouter adopts
        // OpenURLSubscriber; ExtensionGuard (C) leaves the entry NULL.
        #expect(answers.map(\.subscriber) == ["DeepLinkRouter"])
        #expect(host.dispatcher.responderNames(for: .openURL) == ["DeepLinkRouter"])
    }

    @Test("continueUserActivity: handled, with the router's restoration list")
    func continueUserActivity() async throws {
        let host = try loadNews()
        let activity = UserActivity(activityType: UserActivity.browsingWeb,
                                    webpageURL: URL(string: "https://news.example.com/article/9"))
        let outcome = await host.dispatcher.dispatch(.continueUserActivity(activity))
        #expect(outcome.result.handled == true)
        #expect(outcome.result.restorableObjects == ["article/9"])
    }

    @Test("remote notifications complete later from another thread: newData, failed, or declined (noData)")
    func remoteNotifications() async throws {
        let host = try loadNews()
        #expect(await host.dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: ["articles": [1, 2]])).result == .newData)
        #expect(await host.dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: ["error": "timeout"])).result == .failed)
        let notOurs = await host.dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: ["aps": ["alert": "hi"]]))
        #expect(notOurs.result == .noData)
        #expect(notOurs.answers.isEmpty)
        let fetch = await host.dispatcher.dispatch(.performFetch)
        #expect(fetch.result == .newData)
        #expect(fetch.reports.isEmpty)
    }

    @Test("a device token is logged in lowercase hex, two digits a byte, every byte value")
    func deviceTokenInHex() throws {
        let host = try loadNews()
        let token = Data((0...255).map { UInt8($0) } + [0x0a, 0xf0])
        _ = host.dispatcher.dispatchAtOnce(.didRegisterForRemoteNotifications(deviceToken: token))
        let expected = token.map { String(format: "%02x", $0) }.joined()
        let line = try #require(host.log.recorded.first { $0.subscriber == "NotificationFetcher" })
        #expect(line.message == "registered for remote notifications, token " + expected)
        #expect(expected.count == 2 * token.count && expected.hasPrefix("000102") && expected.hasSuffix("feff0af0"))
    }

    @Test("orientations: the lock's answer intersected; nobody answers for tv: the manifest's phone entry")
    func orientations() throws {
        let host = try loadNews()
        #expect(host.dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .pad)).result == [.portrait, .landscapeLeft])
        #expect(host.dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone)).result == .portrait)
        let tv = host.dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .tv))
        #expect(tv.answers.allSatisfy { $0.answer == nil })
        #expect(tv.result == .portrait)  // news.json lists phone ["portrait"] and pad, no tv
    }

    @Test("the C plugin vetoes the extension point its options deny, and logs memory warnings")
    func cPlugin() throws {
        let host = try loadNews()
        #expect(host.dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "com.apple.keyboard-service")).result == false)
        #expect(host.dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "com.apple.share-services")).result == true)
        #expect(host.dispatcher.dispatchAtOnce(.shouldSaveSecureApplicationState).result == true)
        _ = host.dispatcher.dispatchAtOnce(.didReceiveMemoryWarning)
        let events = host.log.recorded.filter { $0.kind == .event }.map { "\($0.subscriber):\($0.message)" }
        #expect(events.contains("ExtensionGuard:memory_warning_received"))
        #expect(events.contains("SessionAnalytics:memory_warning_received"))
    }

    @Test("a session: attributes from one Swift plugin (in its record's order), log lines from another")
    func session() throws {
        let host = try loadNews()
        _ = host.dispatcher.dispatchAtOnce(.didBecomeActive)
        _ = host.dispatcher.dispatchAtOnce(.willResignActive)
        let ended = try #require(host.log.recorded.first { $0.message == "session_ended" })
        #expect(ended.subscriber == "SessionAnalytics")
        #expect(ended.attributes["sessionNumber"] == 1)
        #expect(ended.attributes.members.map(\.key) == ["startedAt", "duration", "sessionNumber"])
        #expect(ended.attributes["duration"]?.doubleValue.map { $0 >= 0 } == true)
        // Sent by the SDK in the serializer's form: kept as the text the plugin sent, never parsed
        // on the way (output copies it); the object is built when asked, and serializes to it.
        #expect(ended.attributesText?.bytes == JSONValue.object(ended.attributes).serializedBytes())
        let lines = host.log.recorded.filter { $0.subscriber == "AppLifecycleDelegate" }.map(\.message)
        #expect(lines == ["The app has become active.", "The app is about to become inactive."])
    }

    @Test("optional plugins that fail are skipped; a required one stops the host before any event")
    func optionalAndRequired() throws {
        let expo = try PluginHost(manifestAt: Self.packageRoot + "/manifests/expo-style.json",
                                  options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
        #expect(expo.plugins.skipped.map(\.entry.index) == [3])
        #expect(expo.dispatcher.subscribers.map(\.name) == ["NotificationFetcher", "AppLifecycleDelegate", "SessionAnalytics"])

        let directory = try TestDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"library": "SessionAnalytics"}, {"library": "BrokenABIMajor"}]}
            """)
        #expect {
            try PluginHost(manifestAt: manifest, options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
        } throws: { error in
            let text = String(describing: error)
            return text.contains("plugins[1]") && text.contains("ABI mismatch: expected ABI 1.x (the host's), found 2.0; rebuild the plugin against this host's SubscriberABI.h, or use a host that speaks 2.x")
        }
    }
}
