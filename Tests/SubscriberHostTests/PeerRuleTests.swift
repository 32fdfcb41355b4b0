import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Each rule a profile sets, played through the profile and through the manifest's own key, and
/// against `uikit` (today's rule): the transition order (Expo), the launch bookkeeping and its
/// replay to subscribers added later (Flutter), notification-response keeping (Expo), duplicate
/// registration (GoogleUtilities).
@MainActor
@Suite("Peer rules: each through its profile and through its own setting", .serialized, .timeLimit(.minutes(10)))
struct PeerRuleTests {
    /// The dispatch configuration of a manifest whose members besides `app` are `members`.
    static func configuration(_ members: String = "") throws -> DispatchConfiguration {
        try PluginHost.configuration(for: parseManifest(withApp(members)), options: HostOptions())
    }

    /// The profile's configuration, then the one with the rule's own key only.
    static func both(_ profile: PeerProfile, _ setting: String) throws -> [DispatchConfiguration] {
        [try configuration(#""profile": "\#(profile)""#), try configuration(setting)]
    }

    static func isStateViolation(_ report: DispatchReport) -> Bool {
        if case .stateViolation = report { true } else { false }
    }

    static func response(_ identifier: String) -> NotificationResponse {
        NotificationResponse(notification: UserNotification(identifier: identifier, userInfo: [:]))
    }

    // MARK: Transition order (Expo)

    @Test("lenient order (Expo, \"transitionOrder\": \"lenient\"): a transition UIKit refuses is forwarded, and reported")
    func lenientTransitions() throws {
        for configuration in try Self.both(.expo, #""transitionOrder": "lenient""#) {
            let (dispatcher, _, log) = makeDispatcher(["A", "B"], configuration: configuration, launched: false)
            let early = dispatcher.dispatchAtOnce(.didBecomeActive)  // before any launch
            #expect(log.callers(of: .didBecomeActive) == ["A", "B"])
            #expect(early.reports.contains(where: Self.isStateViolation))
            #expect(dispatcher.applicationState == .notRunning)  // the state machine's state is UIKit's still
        }
        let (dispatcher, _, log) = makeDispatcher(["A"], configuration: try Self.configuration(), launched: false)
        let refused = dispatcher.dispatchAtOnce(.didBecomeActive)
        #expect(log.callers(of: .didBecomeActive).isEmpty)
        #expect(refused.reports.contains(where: Self.isStateViolation))
        // Only transitions: a second launch is refused under the lenient order too.
        let (lenient, _, lenientLog) = makeDispatcher(["A"], configuration: try Self.configuration(#""transitionOrder": "lenient""#))
        #expect(lenient.dispatchAtOnce(.didFinishLaunching()).reports.contains(where: Self.isStateViolation))
        #expect(lenientLog.callers(of: .didFinishLaunching).isEmpty)
    }

    // MARK: Launch bookkeeping and its replay (Flutter)

    @Test("launch counted once received (\"launchOnce\": \"oncePluginReceived\"): a launch nobody received may come again, and is delivered")
    func launchOnceReceived() throws {
        let configuration = try Self.configuration(#""launchOnce": "oncePluginReceived""#)
        let (dispatcher, _, log) = makeDispatcher([], configuration: configuration, launched: false)
        #expect(dispatcher.dispatchAtOnce(.didFinishLaunching()).reports.isEmpty)  // nobody responds
        let plugin = TestSubscriber("Plugin", log: log)
        try dispatcher.add(plugin.registration())
        #expect(log.callers(of: .didFinishLaunching).isEmpty)  // no replay: that is its own rule
        let again = dispatcher.dispatchAtOnce(.didFinishLaunching())
        #expect(again.reports.isEmpty)
        #expect(log.callers(of: .didFinishLaunching) == ["Plugin"])
        // Received now: a third is refused, as always.
        #expect(dispatcher.dispatchAtOnce(.didFinishLaunching()).reports.contains(where: Self.isStateViolation))
        #expect(log.callers(of: .didFinishLaunching) == ["Plugin"])
        // UIKit's bookkeeping: the second launch is refused though nobody received the first.
        let (plain, _, plainLog) = makeDispatcher([], configuration: try Self.configuration(), launched: false)
        plain.dispatchAtOnce(.didFinishLaunching())
        try plain.add(TestSubscriber("Plugin", log: plainLog).registration())
        #expect(plain.dispatchAtOnce(.didFinishLaunching()).reports.contains(where: Self.isStateViolation))
        #expect(plainLog.callers(of: .didFinishLaunching).isEmpty)
    }

    @Test("launch counted once received (Flutter): willFinishLaunching after a received didFinishLaunching is refused, reported, forwarded to nobody")
    func willFinishAfterReceivedLaunch() throws {
        for configuration in try Self.both(.flutter, #""launchOnce": "oncePluginReceived""#) {
            let (dispatcher, _, log) = makeDispatcher(["Plugin"], configuration: configuration, launched: false)
            dispatcher.dispatchAtOnce(.didFinishLaunching())
            #expect(log.callers(of: .didFinishLaunching) == ["Plugin"])
            let late = dispatcher.dispatchAtOnce(.willFinishLaunching())
            #expect(log.callers(of: .willFinishLaunching).isEmpty)  // Flutter's plugin: called 0 times
            #expect(late.reports.contains(where: Self.isStateViolation))
        }
        // A didFinishLaunching nobody received does not count: willFinishLaunching is delivered, unreported.
        let (dispatcher, _, log) = makeDispatcher([], configuration: try Self.configuration(#""profile": "flutter""#), launched: false)
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        try dispatcher.add(TestSubscriber("Plugin", log: log).registration { $0 != .didFinishLaunching })
        #expect(dispatcher.dispatchAtOnce(.willFinishLaunching()).reports.isEmpty)
        #expect(log.callers(of: .willFinishLaunching) == ["Plugin"])
    }

    @Test("launch replayed (Flutter, \"replayLaunch\": true): a subscriber added after the launch is given it, alone, once, with its options")
    func launchReplayed() throws {
        let url = URL(string: "news://article/9")!
        for configuration in try Self.both(.flutter, #""replayLaunch": true"#) {
            let (dispatcher, _, log) = makeDispatcher(["Early"], configuration: configuration, launched: false)
            dispatcher.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(url: url)))
            let late = TestSubscriber("Late", log: log)
            try dispatcher.add(late.registration())
            #expect(log.callers(of: .didFinishLaunching) == ["Early", "Late"])
            #expect(late.applications.map(\.launchInvocation) == [.urlScheme(url)])
            try dispatcher.add(TestSubscriber("Later", log: log).registration { $0 != .didFinishLaunching })
            #expect(log.callers(of: .didFinishLaunching) == ["Early", "Late"])  // it does not respond
        }
        // And each connected scene's connection, oldest first; a disconnected one no more.
        for configuration in try Self.both(.flutter, #""replayLaunch": true"#) {
            let (dispatcher, _, log) = makeDispatcher([], configuration: configuration, launched: false)
            dispatcher.dispatchAtOnce(.didFinishLaunching())
            dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "main", options: SceneConnectionOptions(
                urlContexts: [OpenURLContext(url: url)])))
            dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "gone"))
            dispatcher.dispatchAtOnce(.sceneDidDisconnect(scene: "gone"))
            dispatcher.dispatchAtOnce(.sceneWillConnect(scene: "side"))
            let late = TestSubscriber("Late", log: log)
            try dispatcher.add(late.registration())
            #expect(log.entries == ["Late:didFinishLaunching", "Late:scene.willConnect", "Late:scene.willConnect"])
            #expect(late.scenes.map(\.identifier) == ["main", "side"])
        }
        // Before the launch, or without the rule, nothing is replayed.
        let (before, _, beforeLog) = makeDispatcher([], configuration: try Self.configuration(#""replayLaunch": true"#), launched: false)
        try before.add(TestSubscriber("Early", log: beforeLog).registration())
        #expect(beforeLog.callers(of: .didFinishLaunching).isEmpty)
        let (plain, _, plainLog) = makeDispatcher(["Early"], configuration: try Self.configuration(), launched: false)
        plain.dispatchAtOnce(.didFinishLaunching())
        try plain.add(TestSubscriber("Late", log: plainLog).registration())
        #expect(plainLog.callers(of: .didFinishLaunching) == ["Early"])
    }

    // MARK: Notification responses nobody handled (Expo)

    @Test("kept until one is handled (Expo, \"pendingResponses\": \"untilOneHandled\"): a handled response drops every kept one")
    func pendingUntilOneHandled() async throws {
        for (configuration, keepsAll) in zip(try Self.both(.expo, #""pendingResponses": "untilOneHandled""#) + [try Self.configuration()],
                                             [false, false, true]) {
            let (dispatcher, _, log) = makeDispatcher([], configuration: configuration)
            let decliner = TestSubscriber("Decliner", log: log)
            try dispatcher.add(decliner.registration())
            let kept = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("r1")))
            #expect(kept.isKept)  // the outcome says so (apphost prints "kept: …")
            _ = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("r2")))
            #expect(dispatcher.live.pendingResponses.count == 2)
            decliner.session = .now(())
            let handled = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("r3")))
            #expect(!handled.isKept)
            #expect(dispatcher.live.pendingResponses.count == (keepsAll ? 2 : 0))
            let late = TestSubscriber("Late", log: log)
            late.session = .now(())
            try dispatcher.add(late.registration())
            #expect(late.arguments.count == (keepsAll ? 2 : 0))
        }
    }

    @Test("the keeping cap is a setting (\"pendingResponseLimit\"), 32 by default, Expo's profile its largest; the oldest go first")
    func pendingLimit() async throws {
        #expect(try Self.configuration().rules.pendingResponseLimit == 32)
        #expect(try Self.configuration(#""profile": "expo""#).rules.pendingResponseLimit == 4096)
        let (dispatcher, _, _) = makeDispatcher([], configuration: try Self.configuration(#""pendingResponseLimit": 2"#))
        for name in ["r1", "r2", "r3"] { _ = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response(name))) }
        #expect(dispatcher.live.pendingResponses.count == 2)
        #expect(manifestError(withApp(#""pendingResponseLimit": 0"#))
            == "m.json: pendingResponseLimit: expected a whole number from 1 to 4096, found the number 0")
    }

    // MARK: Duplicate registration (GoogleUtilities)

    @Test("the same subscriber again (GoogleUtilities, \"duplicateRegistration\": \"sameIdAgain\"): its name back, nothing added; UIKit's rule: an error")
    func duplicateRegistration() throws {
        for members in [#""profile": "googleUtilities""#, #""duplicateRegistration": "sameIdAgain""#] {
            let host = try PluginHost(manifest: parseManifest(withApp(members)), inProcess: [InProcessSubscriber(ProfileProbe.self)])
            let first = try #require(host.subscriber(named: "ProfileProbe", as: ProfileProbe.self))
            #expect(try host.add(InProcessSubscriber(ProfileProbe.self)) == "ProfileProbe")
            #expect(host.subscriberNames == ["ProfileProbe"])
            #expect(host.subscriber(named: "ProfileProbe", as: ProfileProbe.self) === first)
            // Another type under the name is still a clash.
            #expect(throws: SubscriberChangeError.duplicateName("ProfileProbe")) {
                try host.add(InProcessSubscriber(OtherProbe.self, name: "ProfileProbe"))
            }
            // The same object through the dispatcher: nothing changes.
            let registration = host.dispatcher.subscribers[0]
            try host.dispatcher.add(registration)
            #expect(host.subscriberNames == ["ProfileProbe"])
        }
        let plain = try PluginHost(manifest: parseManifest(withApp()), inProcess: [InProcessSubscriber(ProfileProbe.self)])
        #expect(throws: SubscriberChangeError.duplicateName("ProfileProbe")) { try plain.add(InProcessSubscriber(ProfileProbe.self)) }
    }

    @Test("removing an unknown name (GoogleUtilities, \"duplicateRegistration\": \"sameIdAgain\"): nothing removed, no error, false; UIKit's rule: an error")
    func removeUnknown() throws {
        for members in [#""profile": "googleUtilities""#, #""duplicateRegistration": "sameIdAgain""#] {
            let host = try PluginHost(manifest: parseManifest(withApp(members)), inProcess: [InProcessSubscriber(ProfileProbe.self)])
            #expect(try host.remove(named: "Nobody") == false)  // GoogleUtilities' testInvalidInterceptor: no throw
            #expect(host.subscriberNames == ["ProfileProbe"])
            #expect(try host.remove(named: "ProfileProbe") == true)
            #expect(try host.remove(named: "ProfileProbe") == false)  // removed already: nothing again
            #expect(host.subscriberNames.isEmpty)
        }
        let plain = try PluginHost(manifest: parseManifest(withApp()), inProcess: [InProcessSubscriber(ProfileProbe.self)])
        #expect(throws: SubscriberChangeError.unknownName("Nobody")) { try plain.remove(named: "Nobody") }
        #expect(plain.subscriberNames == ["ProfileProbe"])
    }

    // MARK: The keys

    @Test("every rule's key refuses a value it does not know: one line with the key, the values, what was found")
    func badValues() {
        #expect(manifestError(withApp(#""transitionOrder": "loose""#))
            == #"m.json: transitionOrder: expected one of "strict", "lenient", found the string "loose""#)
        #expect(manifestError(withApp(#""duplicateRegistration": true"#))
            == #"m.json: duplicateRegistration: expected one of "error", "sameIdAgain", found true"#)
        #expect(manifestError(withApp(#""launchOnce": 1"#))
            == #"m.json: launchOnce: expected one of "perProcess", "oncePluginReceived", found the number 1"#)
        #expect(manifestError(withApp(#""pendingResponses": "never""#))
            == #"m.json: pendingResponses: expected one of "untilHandled", "untilOneHandled", found the string "never""#)
        #expect(manifestError(withApp(#""replayLaunch": "yes""#)) == #"m.json: replayLaunch: expected true or false, found the string "yes""#)
    }
}

/// Another in-process type, for name clashes.
final class OtherProbe: InstantiableSubscriber, DidBecomeActiveSubscriber {
    required init(context: SubscriberContext) {}
    func applicationDidBecomeActive(_ application: Application) {}
}
