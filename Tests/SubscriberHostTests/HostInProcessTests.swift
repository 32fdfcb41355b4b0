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
        // news.json: DeepLinkRouter has priority 10, the other five 0.
        #expect(host.dispatcher.subscribers.map(\.name) == [
            "First", "DeepLinkRouter", "Tied10", "AppLifecycleDelegate", "SessionAnalytics", "NotificationFetcher",
            "OrientationLock", "ExtensionGuard", "Tied0", "Last",
        ])
        #expect(host.subscribers.map(\.name).contains("Tied10") == false)  // only the plugins' CSubscribers
        #expect(host.dispatcher.subscribers.first { $0.name == "First" }?.respondingEvents == [.openURL])
        let opened = try #require(host.dispatchAtOnce(.openURL(url: URL(string: "app://home")!)))
        #expect(opened.result == .bool(true))
        let inProcessRows = opened.answers.filter { ["First", "Tied10", "Tied0", "Last"].contains($0.subscriber) }
        #expect(inProcessRows.map(\.subscriber) == ["First", "Tied10", "Tied0", "Last"])
        #expect(inProcessRows.allSatisfy { $0.answer == .bool(true) })
    }

    @Test("an in-process name already taken by a plugin's subscriber or another in-process one is refused")
    func duplicateNames() {
        func refusal(_ inProcess: [InProcessSubscriber]) -> (name: String, index: Int)? {
            do {
                let host = try PluginHost(manifestAt: Self.newsManifest, inProcess: inProcess, options: Self.options)
                host.shutDown()
                return nil
            } catch {
                guard case .duplicateInProcessName(let name, let index) = error else {
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
        let opened = await host.dispatch(.openURL(url: URL(string: "app://settings")!))
        #expect(opened.logs.filter { $0.subscriber == "InProcessRouter" }.map(\.message) == ["opening app://settings"])
        let launched = await host.dispatch(.didFinishLaunching(options: LaunchOptions(
            userActivity: UserActivity(activityType: UserActivity.browsingWeb,
                                       webpageURL: URL(string: "https://news.example.com/article/42"))))
        )
        #expect(launched.logs.contains { $0.subscriber == "DeepLinkRouter" && $0.message == "routing to article/42" })
        #expect(!launched.logs.contains { $0.subscriber == "InProcessRouter" })
        let atOnce = try #require(host.dispatchAtOnce(.openURL(url: URL(string: "app://again")!)))
        #expect(atOnce.logs.filter { $0.subscriber == "InProcessRouter" }.map(\.message) == ["opening app://again"])
        // Handed out: nothing left over.
        #expect(host.takeLogs().isEmpty)
    }

    @Test("dispatchAtOnce returns nil for each completion event and delivers nothing")
    func atOnceRefusesCompletionEvents() throws {
        let (dispatcher, _, log) = makeDispatcher(["A"]) { subscriber in
            subscriber.fetch = .now(.newData)
            subscriber.session = .now(())
            subscriber.shortcut = .now(true)
            subscriber.restoration = .now([])
            subscriber.reply = .now([:])
            subscriber.answers[.continueUserActivity] = true
        }
        let completionCalls = oneCallPerEvent.filter(\.event.answersThroughCompletion)
        #expect(completionCalls.map(\.event) == [.didReceiveRemoteNotification, .performFetch,
                                                 .handleEventsForBackgroundURLSession, .continueUserActivity,
                                                 .performActionForShortcutItem, .handleWatchKitExtensionRequest])
        for call in completionCalls {
            #expect(dispatcher.dispatchAtOnce(call) == nil, "\(call.event)")
        }
        #expect(log.entries.isEmpty)
        #expect(dispatcher.takeLateReports().isEmpty)
        // The others answer at once, through the same entry point.
        for call in oneCallPerEvent where !call.event.answersThroughCompletion {
            #expect(dispatcher.dispatchAtOnce(call)?.event == call.event)
        }
        #expect(log.entries.count == LifecycleEvent.allCases.count - 6)

        let host = try PluginHost(manifestAt: Self.newsManifest, options: Self.options)
        defer { host.shutDown() }
        _ = host.takeLogs()
        for call in completionCalls { #expect(host.dispatchAtOnce(call) == nil, "\(call.event)") }
        #expect(host.takeLogs().isEmpty)  // NotificationFetcher logs when a fetch finishes: it was not called
    }
}
