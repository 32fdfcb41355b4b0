import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Each peer behaviour is one manifest setting: the shipped manifests that reproduce Expo
/// (manifests/expo-style.json), Flutter (flutter-style.json) and GoogleUtilities
/// (google-utilities-style.json), each tested with that peer's own case. The defaults are this host's
/// own rules and differ from the peers' where a test says so.
@MainActor
@Suite("Matching a peer: one manifest setting per behaviour, each with the peer's own case", .timeLimit(.minutes(10)))
struct PeerMatchingTests {
    /// The dispatch configuration a shipped manifest gives.
    static func configuration(_ manifest: String) throws -> DispatchConfiguration {
        let read = try Manifest(contentsOfFile: IntegrationTests.packageRoot + "/manifests/" + manifest)
        return try PluginHost.configuration(for: read, options: HostOptions())
    }

    static let defaults = DispatchConfiguration(application: testApplication)

    // MARK: Expo

    @Test("Expo, ExpoAppDelegateSubscriberManager.didFinishLaunchingWithOptions: true whatever subscribers answer — {\"always\": true}")
    func expoDidFinishLaunchingAlwaysTrue() throws {
        let expo = try Self.configuration("expo-style.json")
        #expect(expo.reconciler(for: .didFinishLaunching) == .always(true))
        for configuration in [expo, Self.defaults] {
            let (dispatcher, _, log) = makeDispatcher(["ExpoModule", "Updates"], configuration: configuration, launched: false) {
                $0.answers[.didFinishLaunching] = false
            }
            let launched = dispatcher.dispatchAtOnce(.didFinishLaunching())
            // Every subscriber is still called, and their answers shown; only the result is constant.
            #expect(log.callers(of: .didFinishLaunching) == ["ExpoModule", "Updates"])
            #expect(launched.answers(as: Bool.self) == [false, false])
            #expect(launched.result == (configuration.reconciler(for: .didFinishLaunching) == .always(true)))
        }
        #expect(manifestError(withApp(#""reconcilers": {"didFinishLaunching": {"always": "yes"}}"#))?
            .hasPrefix("m.json: reconcilers.didFinishLaunching: expected ") == true)
    }

    @Test("Expo, ExpoAppDelegateSubscriberManager.supportedInterfaceOrientationsFor: an empty intersection is delivered empty — intersectionAllowingEmpty")
    func expoEmptyOrientationIntersection() throws {
        let expo = try Self.configuration("expo-style.json")
        for configuration in [expo, Self.defaults] {
            let (dispatcher, subscribers, _) = makeDispatcher(["ScreenOrientation", "VideoPlayer"], configuration: configuration)
            subscribers[0].orientations = .portrait
            subscribers[1].orientations = .landscape
            let outcome = dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone))
            let expo = configuration.reconciler(for: .supportedInterfaceOrientations) == .intersectionAllowingEmpty
            // Expo intersects from .all and returns what is left, empty or not; the default falls back.
            #expect(outcome.result == (expo ? [] : InterfaceOrientationMask.allButUpsideDown))
            #expect(outcome.reports.map(\.kind) == ["orientationConflict"])
        }
    }

    @Test("Expo, ExpoAppDelegateSubscriberManager continue:restorationHandler: lists from every subscriber that calls back — restorationFromEveryCaller")
    func expoRestorationFromEveryCaller() async throws {
        let expo = try Self.configuration("expo-style.json")
        #expect(expo.restorationFromEveryCaller)
        #expect(try Self.configuration("google-utilities-style.json").restorationFromEveryCaller)
        for configuration in [expo, Self.defaults] {
            let (dispatcher, subscribers, _) = makeDispatcher(["Linking", "Analytics"], configuration: configuration)
            subscribers[0].answers[.continueUserActivity] = true
            subscribers[0].restoration = .now(["article-42"])
            subscribers[1].restoration = .now(["reading-list"])  // returns nil, calls the handler anyway
            let outcome = await dispatcher.dispatch(.continueUserActivity(UserActivity(activityType: "reading")))
            if configuration.restorationFromEveryCaller {
                #expect(outcome.result == ContinueUserActivityResult(handled: true, restorableObjects: ["article-42", "reading-list"]))
                #expect(outcome.reports.isEmpty)
            } else {
                #expect(outcome.result == ContinueUserActivityResult(handled: true, restorableObjects: ["article-42"]))
                #expect(outcome.reports == [.unexpectedRestoration(subscriber: "Analytics", event: .continueUserActivity)])
            }
        }
        #expect(manifestError(withApp(#""restorationFromEveryCaller": "yes""#))
            == #"m.json: restorationFromEveryCaller: expected true or false, found the string "yes""#)
    }

    // MARK: Flutter

    @Test("Flutter, FlutterPluginAppLifeCycleDelegate: launch events at most once per process (kAppLifecycleDidLaunchSent) — the default")
    func flutterLaunchAtMostOnce() throws {
        for configuration in [try Self.configuration("flutter-style.json"), Self.defaults] {
            let (dispatcher, _, log) = makeDispatcher(["UrlLauncher", "Firebase"], configuration: configuration, launched: false) {
                $0.answers[.didFinishLaunching] = true
            }
            #expect(dispatcher.dispatchAtOnce(.willFinishLaunching()).reports.isEmpty)
            #expect(dispatcher.dispatchAtOnce(.didFinishLaunching()).result == true)
            let again = dispatcher.dispatchAtOnce(.didFinishLaunching())
            let willAgain = dispatcher.dispatchAtOnce(.willFinishLaunching())
            // Flutter returns YES without calling a plugin again; here too, and the repeat is reported.
            #expect(again.result == true && willAgain.result == true)
            #expect(again.reports == [.stateViolation(event: .didFinishLaunching, state: .inactive,
                                                      expected: "didFinishLaunching at most once per process")])
            #expect(willAgain.reports.map(\.kind) == ["stateViolation"])
            #expect(log.callers(of: .didFinishLaunching) == ["UrlLauncher", "Firebase"])
            #expect(log.callers(of: .willFinishLaunching) == ["UrlLauncher", "Firebase"])
        }
    }

    @Test("Flutter, FlutterPluginAppLifeCycleDelegate didFinishLaunching: one plugin's NO fails the launch — allTrue (every plugin still called)")
    func flutterLaunchVeto() throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["First", "Veto", "Last"], configuration: try Self.configuration("flutter-style.json"),
                                                            launched: false) { $0.answers[.didFinishLaunching] = true }
        subscribers[1].answers[.didFinishLaunching] = false
        #expect(dispatcher.dispatchAtOnce(.didFinishLaunching()).result == false)
        #expect(log.callers(of: .didFinishLaunching) == ["First", "Veto", "Last"])
    }

    // MARK: GoogleUtilities

    @Test("GoogleUtilities, GULAppDelegateSwizzler didReceiveRemoteNotification: failed only when every result failed, else newData if any")
    func googleUtilitiesFetchResults() async throws {
        let gul = try Self.configuration("google-utilities-style.json")
        let cases: [([BackgroundFetchResult], BackgroundFetchResult, BackgroundFetchResult)] = [
            // (results, GoogleUtilities, this host's default)
            ([.failed, .noData], .noData, .failed),
            ([.failed, .failed], .failed, .failed),
            ([.failed, .newData, .noData], .newData, .failed),
            ([.noData, .noData], .noData, .noData),
        ]
        for (results, expected, byDefault) in cases {
            for (configuration, want) in [(gul, expected), (Self.defaults, byDefault)] {
                let names = results.indices.map { "Interceptor\($0)" }
                let (dispatcher, subscribers, _) = makeDispatcher(names, configuration: configuration)
                for (subscriber, result) in zip(subscribers, results) { subscriber.fetch = .now(result) }
                let outcome = await dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: ["aps": ["content-available": 1]]))
                #expect(outcome.result == want, "\(results)")
            }
        }
    }
}
