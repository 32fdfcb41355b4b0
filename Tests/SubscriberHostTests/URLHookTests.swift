import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// A URL hook rewrites or drops a URL before `openURL`, `scene.openURLContexts` or a launch's
/// classification fans it out; its decisions are in the outcome.
@MainActor
@Suite("URL hooks: rewrite or drop a URL before it is fanned out or classified", .serialized)
struct URLHookTests {
    static func host() throws -> PluginHost {
        try PluginHost(application: testApplication, inProcess: [
            InProcessSubscriber(LinkRewriter.self), InProcessSubscriber(LinkingProbe.self), InProcessSubscriber(SceneRouterProbe.self),
        ])
    }

    @Test("openURL: a rewritten URL reaches every subscriber rewritten; a dropped one reaches nobody and answers false")
    func openURL() throws {
        let host = try Self.host()
        let launch = host.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(url: URL(string: "news://old/launch")!)))
        #expect(launch.invocation == .urlScheme(URL(string: "news://new/launch")!))  // classified after the hook
        #expect(launch.urlHook == ["LinkRewriter rewrote news://old/launch → news://new/launch"])
        let rewritten = host.dispatchAtOnce(.openURL(url: URL(string: "news://old/1")!))
        #expect(rewritten.result == true)
        #expect(rewritten.urlHook == ["LinkRewriter rewrote news://old/1 → news://new/1"])
        let dropped = host.dispatchAtOnce(.openURL(url: URL(string: "news://spam")!))
        #expect(dropped.result == false && dropped.answers.isEmpty)
        #expect(dropped.urlHook == ["LinkRewriter dropped news://spam"])
        let plain = host.dispatchAtOnce(.openURL(url: URL(string: "news://other")!))
        #expect(plain.urlHook.isEmpty)
        #expect(host.subscriber(named: "LinkingProbe", as: LinkingProbe.self)!.heard == ["news://new/1", "news://other"])
        // A hook removed decides nothing more; one added does, from the next event on.
        try host.remove(named: "LinkRewriter")
        #expect(host.dispatchAtOnce(.openURL(url: URL(string: "news://spam")!)).urlHook.isEmpty)
        // Found to be none, the hooks are not asked again (the dispatcher's fast path) until the
        // subscribers change.
        #expect(host.dispatchAtOnce(.openURL(url: URL(string: "news://old/3")!)).urlHook.isEmpty)
        try host.add(InProcessSubscriber(LinkRewriter.self, name: "Rewriter2"))
        #expect(host.dispatchAtOnce(.openURL(url: URL(string: "news://spam")!)).urlHook == ["Rewriter2 dropped news://spam"])
    }

    @Test("scene.openURLContexts: each context decided on its own; all dropped: nobody is called")
    func urlContexts() throws {
        let host = try Self.host()
        host.dispatchAtOnce(.didFinishLaunching())
        host.dispatchAtOnce(.sceneWillConnect(scene: "main"))
        let outcome = host.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [
            OpenURLContext(url: URL(string: "news://spam")!), OpenURLContext(url: URL(string: "news://old/2")!)]))
        #expect(outcome.urlHook == ["LinkRewriter dropped news://spam", "LinkRewriter rewrote news://old/2 → news://new/2"])
        let none = host.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [OpenURLContext(url: URL(string: "news://spam")!)]))
        #expect(none.answers.isEmpty)
        #expect(host.subscriber(named: "SceneRouterProbe", as: SceneRouterProbe.self)!.heard == ["news://new/2"])
    }
}

/// Rewrites news://old/… to news://new/…, drops news://spam.
final class LinkRewriter: InstantiableSubscriber, URLHookSubscriber, DidBecomeActiveSubscriber {
    required init(context: SubscriberContext) {}
    func decide(_ url: URL, for event: LifecycleEvent) -> URLHookDecision {
        let text = url.absoluteString
        if text == "news://spam" { return .drop }
        if text.hasPrefix("news://old/") { return .rewrite(URL(string: "news://new/" + text.dropFirst("news://old/".count))!) }
        return .keep
    }
    func applicationDidBecomeActive(_ application: Application) {}
}
