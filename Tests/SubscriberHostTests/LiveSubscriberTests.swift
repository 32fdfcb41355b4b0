import Foundation
import SubscriberABI
import SubscriberKit
import Synchronization
import Testing
import BuiltProducts
@testable import SubscriberHost

/// What the live-subscriber tests' subscribers did, in order, from any thread (a destroyed
/// subscriber's `deinit` runs where its last reference goes).
final class LiveLog: Sendable {
    private let stored = Mutex<[String]>([])
    static let shared = LiveLog()
    var entries: [String] { stored.withLock { $0 } }
    func append(_ entry: String) { stored.withLock { $0.append(entry) } }
    func clear() { stored.withLock { $0 = [] } }
}

/// A subscriber loaded through the C ABI (exported by this test image as a plugin's entry would):
/// logs its didBecomeActive and its destruction, and never completes performFetch.
final class LiveLoaded: InstantiableSubscriber, DidBecomeActiveSubscriber, PerformFetchSubscriber {
    static var subscriberName: String { "LiveLoaded" }
    let context: SubscriberContext
    init(context: SubscriberContext) { self.context = context }
    deinit { LiveLog.shared.append("LiveLoaded:destroyed") }

    func applicationDidBecomeActive(_ application: Application) { LiveLog.shared.append("LiveLoaded:didBecomeActive") }

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {}
}

/// An in-process subscriber that runs `action` in its didBecomeActive and openURL: adds or removes
/// subscribers from inside an event.
@MainActor
final class LiveRegistrar: AppDelegateSubscriber, DidBecomeActiveSubscriber, OpenURLSubscriber {
    var action: () -> Void = {}
    func applicationDidBecomeActive(_ application: Application) {
        LiveLog.shared.append("LiveRegistrar:didBecomeActive")
        action()
    }
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        LiveLog.shared.append("LiveRegistrar:openURL")
        action()
        return nil
    }
}

/// `LiveLoaded` made through the C ABI, as a plugin's subscriber is.
@MainActor
func liveLoaded() throws -> CSubscriber {
    let descriptor = SubscriberPlugin.export(id: "com.example.live-tests", name: "Live tests", version: "1.0",
                                             subscribers: [LiveLoaded.self])
        .assumingMemoryBound(to: adh_plugin_descriptor.self)
    return try #require(CSubscriber(descriptor: descriptor, name: "LiveLoaded",
                                    context: bridgeContext("LiveLoaded", sink: RecordingSink())))
}

/// Subscribers added and removed while the host runs: Expo's `registerSubscriber`
/// (ExpoAppDelegateSubscriberRepository, called at any time) and GoogleUtilities'
/// `GULAppDelegateSwizzler registerAppDelegateInterceptor:` / `unregisterAppDelegateInterceptorWithID:`.
@MainActor
@Suite("Dispatch: subscribers added and removed while the host runs", .serialized, .timeLimit(.minutes(10)))
struct LiveSubscriberTests {
    @Test("Expo's registerSubscriber / GoogleUtilities' unregisterAppDelegateInterceptorWithID: added and removed between events, taking effect from the next")
    func betweenEvents() throws {
        let (dispatcher, _, log) = makeDispatcher(["A", "B"])
        let late = TestSubscriber("Late", log: log)
        try dispatcher.add(late.registration(priority: 5))
        #expect(dispatcher.subscribers.map(\.name) == ["Late", "A", "B"])
        #expect(dispatcher.responderNames(for: .openURL) == ["Late", "A", "B"])
        dispatcher.dispatchAtOnce(.willResignActive)
        #expect(log.callers(of: .willResignActive) == ["Late", "A", "B"])

        try dispatcher.remove(named: "A")
        dispatcher.dispatchAtOnce(.didEnterBackground)
        #expect(log.callers(of: .didEnterBackground) == ["Late", "B"])
        #expect(dispatcher.responderNames(for: .openURL) == ["Late", "B"])

        // A second subscriber of equal priority goes after the ones registered before it.
        try dispatcher.add(TestSubscriber("Later", log: log).registration(priority: 5))
        #expect(dispatcher.subscribers.map(\.name) == ["Late", "Later", "B"])
    }

    @Test("added and removed from inside an event: the event goes on with its subscribers; the change holds from the next one")
    func insideAnEvent() throws {
        LiveLog.shared.clear()
        let log = CallLog()
        let registrar = LiveRegistrar()
        let doomed = TestSubscriber("Doomed", log: log)
        let newcomer = TestSubscriber("Newcomer", log: log)
        let dispatcher = LifecycleDispatcher(
            subscribers: [SubscriberRegistration(name: "LiveRegistrar", subscriber: registrar), doomed.registration()],
            configuration: DispatchConfiguration(application: testApplication))
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        registrar.action = {
            _ = try? dispatcher.remove(named: "Doomed")
            try? dispatcher.add(newcomer.registration())
            registrar.action = {}
        }
        dispatcher.dispatchAtOnce(.didBecomeActive)
        // Doomed, after LiveRegistrar, still got the event it was removed in; Newcomer did not.
        #expect(log.callers(of: .didBecomeActive) == ["Doomed"])
        #expect(dispatcher.subscribers.map(\.name) == ["LiveRegistrar", "Newcomer"])
        log.entries = []
        let opened = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))
        #expect(log.callers(of: .openURL) == ["Newcomer"])
        #expect(opened.answerNames == ["LiveRegistrar", "Newcomer"])
    }

    @Test("a loaded subscriber removed inside an event still gets that event, then is destroyed once its calls are over")
    func loadedRemovedInsideAnEvent() throws {
        LiveLog.shared.clear()
        let registrar = LiveRegistrar()
        let loaded = try liveLoaded()
        let dispatcher = LifecycleDispatcher(
            subscribers: [SubscriberRegistration(name: "LiveRegistrar", subscriber: registrar), SubscriberRegistration(loaded)],
            configuration: DispatchConfiguration(application: testApplication))
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        registrar.action = { _ = try? dispatcher.remove(named: "LiveLoaded") }
        let outcome = dispatcher.dispatchAtOnce(.didBecomeActive)
        #expect(outcome.answerNames == ["LiveRegistrar", "LiveLoaded"])
        #expect(LiveLog.shared.entries == ["LiveRegistrar:didBecomeActive", "LiveLoaded:didBecomeActive", "LiveLoaded:destroyed"])
        #expect(loaded.entries.allSatisfy { $0 == nil })  // destroyed: no entry left
        #expect(dispatcher.responderNames(for: .didBecomeActive) == ["LiveRegistrar"])
    }

    @Test("a removed loaded subscriber's owed completion is settled as at shutdown: late, counted as failed, the event no longer waits for it")
    func removedWhileOwingACompletion() async throws {
        let log = CallLog()
        let fetcher = TestSubscriber("Fetcher", log: log)
        fetcher.fetch = .later(.newData)
        var configuration = DispatchConfiguration(application: testApplication)
        try configuration.setDeadline(.seconds(600), for: .performFetch)  // far past the test's time limit
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(try liveLoaded()), fetcher.registration()],
                                             configuration: configuration)
        dispatcher.launch()
        let outcome: EventOutcome<BackgroundFetchResult> = await withCheckedContinuation { continuation in
            dispatcher.dispatchAtOnce(.performFetch) { continuation.resume(returning: $0) }
            _ = try? dispatcher.remove(named: "LiveLoaded")
        }
        #expect(outcome.result == .failed)  // LiveLoaded counts as failed, which wins by default
        #expect(outcome.reports == [.late(subscriber: "LiveLoaded", event: .performFetch)])
        #expect(outcome.answerNames == ["LiveLoaded", "Fetcher"])
    }

    @Test("an outcome delivered after a subscriber was removed names its responders as they were when it was dispatched")
    func outcomeNamesSurviveRemoval() async throws {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B", "C"])
        subscribers[0].fetch = .now(.noData)
        subscribers[1].fetch = .now(.noData)
        subscribers[2].fetch = .later(.newData)
        let outcome: EventOutcome<BackgroundFetchResult> = await withCheckedContinuation { continuation in
            dispatcher.dispatchAtOnce(.performFetch) { continuation.resume(returning: $0) }
            _ = try? dispatcher.remove(named: "A")
        }
        #expect(outcome.result == .newData)
        #expect(outcome.answerNames == ["A", "B", "C"])
        #expect(outcome.answers(as: BackgroundFetchResult.self) == [.noData, .noData, .newData])
    }

    @Test("the same subscriber twice is refused with one clear error: a name taken, the same object, an unknown name to remove")
    func refusals() throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A"])
        #expect(throws: SubscriberChangeError.duplicateName("A")) { try dispatcher.add(TestSubscriber("A", log: log).registration()) }
        // Expo: "Given app delegate subscriber … is already registered."
        var again = subscribers[0].registration()
        again.name = "A2"
        #expect(throws: SubscriberChangeError.duplicateSubscriber(name: "A2", existing: "A")) { try dispatcher.add(again) }
        #expect(throws: SubscriberChangeError.unknownName("Nobody")) { try dispatcher.remove(named: "Nobody") }
        #expect(SubscriberChangeError.duplicateName("A").description
            == #"adding "A": expected a subscriber name no other subscriber has, found "A" already registered"#)
        #expect(SubscriberChangeError.unknownName("Nobody").description
            == #"removing "Nobody": expected the name of a registered subscriber, found no subscriber named "Nobody""#)
        // A cycle: refused, nothing changed.
        var cyclic = TestSubscriber("B", log: log).registration()
        (cyclic.after, cyclic.before) = (["A"], ["A"])
        #expect(throws: SubscriberChangeError.order(subscriber: "B", key: "before", expected: "an order without cycles",
                                                    found: "B → A → B")) { try dispatcher.add(cyclic) }
        #expect(dispatcher.subscribers.map(\.name) == ["A"])
        #expect(throws: SubscriberChangeError.duplicateName("A")) {
            try LifecycleDispatcher(checking: [subscribers[0].registration(), TestSubscriber("A", log: log).registration()],
                                    configuration: DispatchConfiguration(application: testApplication))
        }
    }

    @Test("a constraint naming a subscriber not added yet waits for it")
    func constraintWaitsForItsSubscriber() throws {
        let (dispatcher, _, log) = makeDispatcher(["A"])
        var early = TestSubscriber("Early", log: log).registration(priority: -5)
        early.before = ["Later"]
        try dispatcher.add(early)
        try dispatcher.add(TestSubscriber("Later", log: log).registration(priority: 10))
        #expect(dispatcher.subscribers.map(\.name) == ["A", "Early", "Later"])
    }

    // MARK: Through PluginHost

    @Test("PluginHost.add / remove: in-process subscribers made while running, a plugin's subscriber removed and destroyed; names stay unique")
    func pluginHost() throws {
        let host = try PluginHost(manifestAt: HostInProcessTests.newsManifest, options: HostInProcessTests.options)
        defer { host.shutDown() }
        host.launch()
        _ = host.takeLogs()
        try host.add(InProcessSubscriber(InProcessRouter.self, name: "AppRouter", options: ["k": 1], before: ["DeepLinkRouter"]))
        #expect(host.takeLogs().map(\.description) == [#"[AppRouter] info: made for News with {"k":1}"#])
        #expect(host.dispatcher.responderNames(for: .openURL).prefix(2) == ["AppRouter", "DeepLinkRouter"])
        let opened = host.dispatchAtOnce(.openURL(url: URL(string: "app://home")!))
        #expect(opened.result == true)
        #expect(opened.logs.map(\.description).contains("[AppRouter] info: opening app://home"))

        #expect(throws: SubscriberChangeError.duplicateName("DeepLinkRouter")) {
            try host.add(InProcessSubscriber(InProcessRouter.self, name: "DeepLinkRouter"))
        }
        #expect(throws: SubscriberChangeError.invalidName(expected: "a non-empty subscriber name", found: "\"\"")) {
            try host.add(InProcessSubscriber(InProcessRouter.self, name: ""))
        }
        let loaded = try #require(host.subscribers.first { $0.name == "DeepLinkRouter" })
        try host.remove(named: "DeepLinkRouter")
        #expect(loaded.entries.allSatisfy { $0 == nil })  // destroyed at once, outside an event
        #expect(!host.dispatcher.responderNames(for: .openURL).contains("DeepLinkRouter"))
        #expect(host.dispatchAtOnce(.openURL(url: URL(string: "news://article/1")!)).result == false)
        host.shutDown()
        #expect(throws: SubscriberChangeError.hostShutDown("Again")) {
            try host.add(InProcessSubscriber(InProcessRouter.self, name: "Again"))
        }
    }
}
