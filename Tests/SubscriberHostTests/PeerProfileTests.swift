import SubscriberKit
import Testing
@testable import SubscriberHost

/// A manifest's `"profile"` sets every rule where its peer differs, from one table
/// (``PeerProfile/rules``); each of the manifest's own settings overrides its profile's value; the
/// default, `uikit`, is today's rules.
@MainActor
@Suite("Peer profiles: one setting, one table, every single setting overriding it")
struct PeerProfileTests {
    /// The settings each peer needed one by one before profiles (the shipped manifests' former content).
    static let ownSettings: [PeerProfile: String] = [
        .uikit: "",
        .expo: #"""
            "reconcilers": {"performFetch": ["newData", "failed", "noData"],
                            "didReceiveRemoteNotification": ["newData", "failed", "noData"],
                            "didFinishLaunching": {"always": true},
                            "supportedInterfaceOrientations": "intersectionAllowingEmpty"},
            "restorationFromEveryCaller": true, "sceneBridge": true, "transitionOrder": "lenient",
            "pendingResponses": "untilOneHandled", "pendingResponseLimit": 4096,
            "sceneBridgeForwards": "everything", "willPresentAnswer": "firstCompleted"
            """#,
        .flutter: #"""
            "reconcilers": {"willFinishLaunching": "allTrue", "didFinishLaunching": "allTrue",
                            "performFetch": "firstAnswer", "didReceiveRemoteNotification": "firstAnswer"},
            "sceneBridge": true, "launchOnce": "oncePluginReceived", "replayLaunch": true,
            "sceneConnectAsLaunch": true, "sceneBridgeSkips": "sceneSubscribers", "sceneFanOut": "firstYes",
            "sceneConnectionOptions": "firstSubscriber"
            """#,
        .googleUtilities: #"""
            "reconcilers": {"didReceiveRemoteNotification": ["newData", "noData", "failed"]},
            "restorationFromEveryCaller": true, "duplicateRegistration": "sameIdAgain"
            """#,
    ]

    @Test("each profile gives the same rules, reconcilers and dispatch configuration as its settings written one by one",
          arguments: PeerProfile.allCases)
    func profileEqualsItsSettings(_ profile: PeerProfile) throws {
        let byProfile = try parseManifest(withApp(#""profile": "\#(profile)""#))
        let bySettings = try parseManifest(withApp(Self.ownSettings[profile]!))
        #expect(byProfile.profile == profile)
        #expect(byProfile.rules == bySettings.rules)
        #expect(byProfile.rules == profile.rules)
        let configurations = try [byProfile, bySettings].map { try PluginHost.configuration(for: $0, options: HostOptions()) }
        for event in LifecycleEvent.allCases {
            #expect(configurations[0].reconciler(for: event) == configurations[1].reconciler(for: event), "\(event)")
        }
        #expect(configurations[0].sceneBridge == configurations[1].sceneBridge)
        #expect(configurations[0].restorationFromEveryCaller == configurations[1].restorationFromEveryCaller)
        #expect(configurations[0].rules == configurations[1].rules)
    }

    @Test("no profile is uikit: today's rules, nothing set")
    func defaultIsUIKit() throws {
        let plain = try parseManifest(withApp())
        #expect(plain.profile == .uikit)
        #expect(plain.rules == PeerRules())
        #expect(PeerProfile.uikit.rules == PeerRules())
        #expect(try parseManifest(withApp(#""profile": "uikit""#)) == plain.with(profile: .uikit))
        #expect(plain.reconcilers.isEmpty && !plain.sceneBridge && !plain.restorationFromEveryCaller)
    }

    @Test("every profile but uikit differs from UIKit somewhere, and no two profiles are the same")
    func profilesDiffer() {
        let all = PeerProfile.allCases.map(\.rules)
        #expect(Set(all).count == all.count)
    }

    @Test("a single setting overrides its profile's value; the profile's others stay")
    func settingOverridesProfile() throws {
        let manifest = try parseManifest(withApp(#"""
            "profile": "expo", "reconcilers": {"didFinishLaunching": "anyTrue"}, "sceneBridge": false
            """#))
        #expect(manifest.reconcilers[.didFinishLaunching] == .anyTrue)
        #expect(manifest.reconcilers[.performFetch] == .precedence([.newData, .failed, .noData]))
        #expect(manifest.restorationFromEveryCaller)
        #expect(!manifest.sceneBridge)
        let flutter = try parseManifest(withApp(#""profile": "flutter", "restorationFromEveryCaller": true"#))
        #expect(flutter.restorationFromEveryCaller && flutter.sceneBridge)
        #expect(flutter.reconcilers == PeerProfile.flutter.rules.reconcilers)
    }

    @Test("a manifest built in code from a profile is the manifest read from a file with it")
    func builtInCode() throws {
        for profile in PeerProfile.allCases {
            let read = try parseManifest(withApp(#""profile": "\#(profile)", "reconcilers": {"openURL": "allTrue"}"#))
            let built = Manifest(file: "m.json", directory: "/apps/news", app: Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0"),
                                 profile: profile, reconcilers: [.openURL: .allTrue])
            #expect(built == read)
        }
    }

    @Test("an unknown profile, or one that is not a string, is one line: the key path, the names, what was found")
    func unknownProfile() {
        #expect(manifestError(withApp(#""profile": "react""#))
            == #"m.json: profile: expected one of "uikit", "expo", "flutter", "googleUtilities", found the string "react""#)
        #expect(manifestError(withApp(#""profile": 2"#))
            == #"m.json: profile: expected one of "uikit", "expo", "flutter", "googleUtilities", found the number 2"#)
        #expect(manifestError(withApp(#""profile": "Expo""#))?.hasSuffix(#"found the string "Expo""#) == true)
    }

    @Test("the shipped peer manifests name their profile, and the host says which")
    func shippedManifests() throws {
        for (file, profile) in [("expo-style.json", PeerProfile.expo), ("flutter-style.json", .flutter),
                                ("google-utilities-style.json", .googleUtilities), ("news.json", .uikit)] {
            let manifest = try Manifest(contentsOfFile: IntegrationTests.packageRoot + "/manifests/" + file)
            #expect(manifest.profile == profile, "\(file)")
            #expect(manifest.rules == profile.rules, "\(file)")
        }
        let host = try PluginHost(application: testApplication, inProcess: [])
        #expect(host.profile == .uikit)
    }
}

extension Manifest {
    /// This manifest as if read with `profile` (its rules are the profile's).
    func with(profile: PeerProfile) -> Manifest {
        var copy = self
        copy.profile = profile
        copy.rules = profile.rules
        return copy
    }
}
