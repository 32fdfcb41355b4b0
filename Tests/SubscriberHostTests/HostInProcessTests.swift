import Foundation
import Testing
import SubscriberKit
@testable import SubscriberHost

/// An app's own subscriber registered beside the manifest's plugins: opens its own scheme and logs
/// through the context the host made for it.
final class InProcessRouter: InstantiableSubscriber, OpenURLSubscriber {
    let context: SubscriberContext

    init(context: SubscriberContext) {
        self.context = context
        context.log("made for \(context.application.name) with \(context.options)")
    }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        guard url.scheme == "app" else { return nil }
        context.log("opening \(url.absoluteString)")
        return true
    }
}

/// PluginHost with in-process subscribers: ordering among the loaded plugins, name clashes, and the
/// log records each outcome (and the load) hands out.
@MainActor
@Suite("Host: in-process subscribers beside loaded plugins; logs per outcome", .serialized)
struct HostInProcessTests {
    static let newsManifest = IntegrationTests.packageRoot + "/manifests/news.json"
    static let options = HostOptions(extraSearchDirectories: [BuiltPlugins.directory])

    @Test("in-process subscribers are ordered by priority with the loaded plugins, the manifest's first on ties")
    func orderedWithPlugins() throws {
        let host = try PluginHost(manifestAt: Self.newsManifest, inProcess: [
            InProcessSubscriber(InProcessRouter.self, name: "Tied10", priority: 10),
            InProcessSubscriber(InProcessRouter.self, name: "Tied0"),
            InProcessSubscriber(InProcessRouter.self, name: "First", priority: 20),
            InProcessSubscriber(InProcessRouter.self, name: "Last", priority: -1),
        ], options: Self.options)
        defer { host.shutDown() }
        // news.json: DeepLinkRouter has priority 10, the others 0.
        #expect(host.dispatcher.subscribers.map(\.name) == [
            "First", "DeepLinkRouter", "Tied10", "AppLifecycleDelegate", "SessionAnalytics", "NotificationFetcher",
            "OrientationLock", "ExtensionGuard", "QuietHours", "Tied0", "Last",
        ])
        #expect(host.subscribers.map(\.name).contains("Tied10") == false)  // only the plugins' CSubscribers
        #expect(host.dispatcher.subscribers.first { $0.name == "First" }?.respondingEvents == [.openURL])
        host.launch()
        let opened = host.dispatchAtOnce(.openURL(url: URL(string: "app://home")!))
        #expect(opened.result == true)
        let inProcessRows = opened.answers.filter { ["First", "Tied10", "Tied0", "Last"].contains($0.subscriber) }
        #expect(inProcessRows.map(\.subscriber) == ["First", "Tied10", "Tied0", "Last"])
        #expect(inProcessRows.allSatisfy { $0.answer(as: Bool.self) == true })
    }

    @Test("an in-process name already taken by a plugin's subscriber or another in-process one is refused")
    func duplicateNames() {
        func refusal(_ inProcess: [InProcessSubscriber]) -> (name: String, index: Int)? {
            do {
                let host = try PluginHost(manifestAt: Self.newsManifest, inProcess: inProcess, options: Self.options)
                host.shutDown()
                return nil
            } catch {
                guard case .duplicateInProcessName(let name, let index) = error.reason else {
                    Issue.record("expected duplicateInProcessName, found \(error)")
                    return nil
                }
                #expect(error.description == "in-process subscribers[\(index)]: expected a subscriber name no other "
                                              + "subscriber has, found \"\(name)\" again")
                return (name, index)
            }
        }
        let plugin = refusal([InProcessSubscriber(InProcessRouter.self), InProcessSubscriber(InProcessRouter.self, name: "SessionAnalytics")])
        #expect(plugin?.name == "SessionAnalytics" && plugin?.index == 1)
        let twice = refusal([InProcessSubscriber(InProcessRouter.self), InProcessSubscriber(InProcessRouter.self)])
        #expect(twice?.name == "InProcessRouter" && twice?.index == 1)
    }

    @Test("an in-process subscriber's context: the manifest's app, its options, the host's log")
    func contextFromTheHost() throws {
        let host = try PluginHost(manifestAt: Self.newsManifest,
                                  inProcess: [InProcessSubscriber(InProcessRouter.self, options: ["flavor": "blue"])],
                                  options: Self.options)
        defer { host.shutDown() }
        let atLoad = host.takeLogs()
        #expect(atLoad.contains { $0.subscriber == "InProcessRouter" && $0.message == #"made for News with {"flavor":"blue"}"# })
        #expect(host.takeLogs().isEmpty)
    }

    @Test("host.dispatch hands each outcome the records logged during it, and only those")
    func logsPerOutcome() async throws {
        let host = try PluginHost(manifestAt: Self.newsManifest, inProcess: [InProcessSubscriber(InProcessRouter.self)],
                                  options: Self.options)
        defer { host.shutDown() }
        _ = host.takeLogs()
        let launched = await host.dispatch(.didFinishLaunching(options: LaunchOptions(
            userActivity: UserActivity(activityType: UserActivity.browsingWeb,
                                       webpageURL: URL(string: "https://news.example.com/article/42"))))
        )
        let opened = await host.dispatch(.openURL(url: URL(string: "app://settings")!))
        #expect(opened.logs.filter { $0.subscriber == "InProcessRouter" }.map(\.message) == ["opening app://settings"])
        #expect(launched.logs.contains { $0.subscriber == "DeepLinkRouter" && $0.message == "routing to article/42" })
        #expect(!launched.logs.contains { $0.subscriber == "InProcessRouter" })
        let atOnce = host.dispatchAtOnce(.openURL(url: URL(string: "app://again")!))
        #expect(atOnce.logs.filter { $0.subscriber == "InProcessRouter" }.map(\.message) == ["opening app://again"])
        // Handed out: nothing left over.
        #expect(host.takeLogs().isEmpty)
    }

    @Test("dispatchAtOnce delivers every event: what UIKit returns at once now, the completions' result to whenDelivered")
    func atOnceDeliversCompletionEvents() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A"]) { subscriber in
            subscriber.fetch = .later(.newData)
            subscriber.session = .later(())
            subscriber.shortcut = .later(true)
            subscriber.restoration = .later(["r"])
            subscriber.reply = .later(["k": 1])
            subscriber.presentation = .later(.banner)
            subscriber.answers[.continueUserActivity] = true
        }
        let completionCalls = oneCallPerEvent.filter(\.event.answersThroughCompletion)
        #expect(!completionCalls.isEmpty)
        var delivered: [LifecycleEvent] = []
        for call in completionCalls {
            #expect(dispatcher.prepare(for: call.event))
            log.entries = []
            let atOnce = await withCheckedContinuation { continuation in
                var immediate: AnyEventOutcome?
                immediate = dispatcher.dispatchAtOnce(call) { later in
                    delivered.append(later.event)
                    // The result came later, with the answer row of the subscriber that completed.
                    #expect(later.answerNames == ["A"], "\(call.event)")
                    continuation.resume(returning: immediate)
                }
                // Nothing awaited yet: the at-once outcome has no answer rows of completions.
                #expect(immediate?.answers.isEmpty == true || call.event.row.timing == .restoration, "\(call.event)")
            }
            #expect(atOnce?.event == call.event)
            #expect(log.entries == ["A:\(call.event.name)"])
        }
        #expect(delivered == completionCalls.map(\.event))
        // continueUserActivity answers at once with the handled Bool.
        #expect(dispatcher.prepare(for: .continueUserActivity))
        #expect(dispatcher.dispatchAtOnce(.continueUserActivity(UserActivity(activityType: "t"))).result == true)
        _ = subscribers
    }
}

/// Adopts no event protocol: compiles, and would receive nothing.
final class ForgotItsProtocols: AppDelegateSubscriberBase, InstantiableSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { true }
}

/// Answers every URL: in-process beside `ForgotItsProtocols`.
final class OpensEverything: AppDelegateSubscriberBase, InstantiableSubscriber, OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { true }
}

@MainActor
@Suite("PluginHost without a manifest, and what it tells an app")
struct HostWithoutManifestTests {
    @Test("PluginHost(application:inProcess:): the defaults a manifest leaves; what the host answers about itself")
    func inProcessOnly() async throws {
        let host = try PluginHost(application: testApplication, inProcess: [InProcessSubscriber(OpensEverything.self)])
        defer { host.shutDown() }
        #expect(host.application == testApplication)
        #expect(host.subscriberNames == ["OpensEverything"])
        #expect(host.responderNames(for: .openURL) == ["OpensEverything"])
        #expect(host.responderNames(for: .performFetch).isEmpty)
        #expect(host.skippedPlugins.isEmpty)
        #expect(host.applicationState == .notRunning)
        _ = await host.dispatch(.didFinishLaunching())
        #expect(host.applicationState == .inactive)
        #expect(host.dispatchAtOnce(.openURL(url: URL(string: "news://x")!)).result == true)
        #expect(host.sceneState(of: "main") == nil)
    }

    @Test("an in-process subscriber that adopts no event protocol is warned about, made at start or added later")
    func respondsToNothingWarns() throws {
        let host = try PluginHost(application: testApplication, inProcess: [InProcessSubscriber(ForgotItsProtocols.self)])
        defer { host.shutDown() }
        let warning = "ForgotItsProtocols responds to no event: adopt the event protocols of the methods it implements "
            + "(OpenURLSubscriber for application(_:open:options:), …)"
        #expect(host.takeLogs().map(\.message) == [warning])
        try host.add(InProcessSubscriber(ForgotItsProtocols.self, name: "Later"))
        #expect(host.takeLogs().map(\.message) == [warning.replacingOccurrences(of: "ForgotItsProtocols", with: "Later")])
        try host.add(InProcessSubscriber(OpensEverything.self))
        #expect(host.takeLogs().isEmpty)
    }

    @Test("a HostError is one line; a manifest's own error is kept for the app to read")
    func hostErrorLine() {
        #expect {
            _ = try PluginHost(manifestAt: "/nonexistent/manifest.json")
        } throws: { error in
            guard let error = error as? HostError, let manifest = error.manifestError else { return false }
            return manifest.file == "/nonexistent/manifest.json" && !error.description.contains("\n")
        }
    }
}
