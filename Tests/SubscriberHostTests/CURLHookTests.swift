import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// A C plugin is a URL hook through `get_extension("adh.url-hook/1")` (adh/ext/url_hook.h): asked like
/// an in-process hook, in dispatch order, in every profile; a bad answer keeps the URL and says so.
@MainActor
@Suite("URL hooks in C: adh.url-hook/1 rewrites, drops, keeps; bad answers are kept and reported", .serialized)
struct CURLHookTests {
    /// A host of `plugin` (loaded) and the probes (in process), under `profile`.
    static func host(_ plugin: String, profile: PeerProfile = .uikit, inProcess: [InProcessSubscriber] = []) throws -> PluginHost {
        let json = """
            {"app": {"name": "Hooks", "bundleIdentifier": "com.example.hooks", "version": "1"},
             "profile": "\(profile)", "plugins": [{"library": "\(plugin)"}]}
            """
        let manifest = try Manifest(bytes: Array(json.utf8), file: "hooks.json", directory: FilePaths.absolute("."))
        return try PluginHost(manifest: manifest, inProcess: inProcess + [
            InProcessSubscriber(LinkingProbe.self), InProcessSubscriber(SceneRouterProbe.self),
        ], options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
    }

    @Test("LinkRewriterC rewrites, drops and keeps openURL, launch and URL-context URLs, in every profile",
          arguments: PeerProfile.allCases)
    func rewriteDropKeep(_ profile: PeerProfile) throws {
        let host = try Self.host("LinkRewriterC", profile: profile)
        defer { host.shutDown() }
        #expect(host.dispatcher.responderNames(for: .openURL) == ["LinkingProbe"])  // a hook responds to no event
        let launch = host.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(url: URL(string: "news://old/launch")!)))
        #expect(launch.invocation == .urlScheme(URL(string: "news://new/launch")!))  // classified after the hook
        #expect(launch.urlHook == ["LinkRewriterC rewrote news://old/launch → news://new/launch"])
        host.dispatchAtOnce(.didBecomeActive)
        let rewritten = host.dispatchAtOnce(.openURL(url: URL(string: "news://old/1")!))
        #expect(rewritten.result == true)
        #expect(rewritten.urlHook == ["LinkRewriterC rewrote news://old/1 → news://new/1"])
        let dropped = host.dispatchAtOnce(.openURL(url: URL(string: "news://spam")!))
        #expect(dropped.result == false && dropped.answers.isEmpty)
        #expect(dropped.urlHook == ["LinkRewriterC dropped news://spam"])
        let kept = host.dispatchAtOnce(.openURL(url: URL(string: "news://other")!))
        #expect(kept.urlHook.isEmpty && kept.result == true)
        host.dispatchAtOnce(.sceneWillConnect(scene: "main"))
        let contexts = host.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [
            OpenURLContext(url: URL(string: "news://spam")!), OpenURLContext(url: URL(string: "news://old/2")!)]))
        #expect(contexts.urlHook == ["LinkRewriterC dropped news://spam", "LinkRewriterC rewrote news://old/2 → news://new/2"])
        let linking = try #require(host.subscriber(named: "LinkingProbe", as: LinkingProbe.self))
        // Expo's bridge also forwards the scene's URL contexts to app-delegate subscribers: what it
        // forwards is what the hook left.
        #expect(linking.heard.prefix(2) == ["news://new/1", "news://other"])
        #expect(!linking.heard.contains { $0.contains("spam") || $0.contains("old") })
        let router = try #require(host.subscriber(named: "SceneRouterProbe", as: SceneRouterProbe.self))
        #expect(router.heard == ["news://new/2"])
    }

    @Test("a C hook and an in-process hook are asked in dispatch order, each seeing the previous one's rewrite")
    func dispatchOrder() throws {
        // The in-process hook first (priority 1): it rewrites; the C hook sees news://new/1 and keeps it.
        let swiftFirst = try Self.host("LinkRewriterC", inProcess: [InProcessSubscriber(LinkRewriter.self, priority: 1)])
        defer { swiftFirst.shutDown() }
        swiftFirst.dispatchAtOnce(.didFinishLaunching())
        #expect(swiftFirst.dispatchAtOnce(.openURL(url: URL(string: "news://old/1")!)).urlHook
                == ["LinkRewriter rewrote news://old/1 → news://new/1"])
        // The C hook first (the in-process one at priority -1): the C hook rewrites.
        let cFirst = try Self.host("LinkRewriterC", inProcess: [InProcessSubscriber(LinkRewriter.self, priority: -1)])
        defer { cFirst.shutDown() }
        cFirst.dispatchAtOnce(.didFinishLaunching())
        #expect(cFirst.dispatchAtOnce(.openURL(url: URL(string: "news://old/1")!)).urlHook
                == ["LinkRewriterC rewrote news://old/1 → news://new/1"])
        #expect(cFirst.dispatchAtOnce(.openURL(url: URL(string: "news://spam")!)).urlHook == ["LinkRewriterC dropped news://spam"])
    }

    static let badAnswers: [(url: String, expected: String, found: String)] = [
        ("bad://decision", "a decision 0 (keep), 1 (rewrite) or 2 (drop)", "7"),
        ("bad://null", "a rewritten URL", "NULL"),
        ("bad://empty", "a rewritten URL", "an empty string"),
        ("bad://utf8", "a rewritten URL in UTF-8", "bytes that are not UTF-8"),
        ("bad://relative", "an absolute URL with a scheme", "\"no scheme here\""),
        ("bad://long", "a rewritten URL of at most 8192 bytes", "8193 bytes"),
    ]

    @Test("each bad answer keeps the URL, delivered as it was, with one line naming plugin, subscriber, expected, found",
          arguments: PeerProfile.allCases)
    func badAnswers(_ profile: PeerProfile) throws {
        let host = try Self.host("BadURLHookAnswers", profile: profile)
        defer { host.shutDown() }
        let launch = host.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(url: URL(string: "bad://decision")!)))
        #expect(launch.invocation == .urlScheme(URL(string: "bad://decision")!))
        #expect(launch.urlHook.count == 1)
        for bad in Self.badAnswers {
            let outcome = host.dispatchAtOnce(.openURL(url: URL(string: bad.url)!))
            #expect(outcome.result == true)  // kept: LinkingProbe heard it
            #expect(outcome.urlHook == [
                "BadURLHookAnswers (plugin dev.appdelegatehost.broken.bad-url-hook-answers): bad URL hook answer for "
                    + "\(bad.url): expected \(bad.expected), found \(bad.found); kept",
            ])
        }
        let good = host.dispatchAtOnce(.openURL(url: URL(string: "news://fine")!))
        #expect(good.urlHook.isEmpty)
        let linking = try #require(host.subscriber(named: "LinkingProbe", as: LinkingProbe.self))
        #expect(linking.heard == Self.badAnswers.map(\.url) + ["news://fine"])
    }
}
