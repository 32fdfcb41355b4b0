import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// A manifest built in code is the manifest read from a file: the same value, the same host, the
/// same outcomes. Checked over manifests generated from a seed (a profile, reconcilers that fit,
/// deadlines, orientations, the bridge and restoration settings, a subset of the example plugins
/// with options and priorities), each written to a file and built in code from the same choices.
@MainActor
@Suite("Embedding without files: a manifest built in code gives the outcomes of the same manifest read from a file",
       .serialized, .timeLimit(.minutes(10)))
struct ManifestInCodeTests {
    /// A small deterministic generator (SplitMix64): the same seed, the same manifests.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The example plugins a generated manifest picks from, with options of news.json.
    static let examples: [(library: String, options: JSONValue)] = [
        ("AppLifecycleDelegate", [:]),
        ("SessionAnalytics", [:]),
        ("DeepLinkRouter", ["hosts": ["news.example.com"], "scheme": "news"]),
        ("NotificationFetcher", ["fetchResult": "newData"]),
        ("OrientationLock", ["phone": ["portrait"], "pad": ["portrait", "landscapeLeft"]]),
        ("ExtensionGuard", ["denyExtensionPoints": ["com.apple.keyboard-service"]]),
        ("QuietHours", ["quietHours": true]),
    ]

    /// One generated manifest: its JSON text and the same manifest built in code.
    static func generate(_ random: inout Seeded, directory: String) -> (text: String, built: Manifest) {
        var members: [String: JSONValue] = ["app": ["name": "News", "bundleIdentifier": "com.example.news", "version": "1.0"]]
        let profile = PeerProfile.allCases.randomElement(using: &random)!
        if Bool.random(using: &random) || profile != .uikit { members["profile"] = .string(profile.rawValue) }
        var reconcilers: [LifecycleEvent: ReconcilerChoice] = [:]
        for event in LifecycleEvent.allCases where !event.fittingReconcilers.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
            reconcilers[event] = event.fittingReconcilers.randomElement(using: &random)!
        }
        if !reconcilers.isEmpty {
            members["reconcilers"] = .object(JSONObject(reconcilers.map { ($0.key.name, $0.value.json) }.sorted { $0.0 < $1.0 }))
        }
        // Generous deadlines: an outcome never depends on how fast the machine is.
        let defaultDeadline = [20_000, 30_000].randomElement(using: &random)!
        members["deadlines"] = ["default": .number(Double(defaultDeadline))]
        let sceneBridge = [nil, true, false].randomElement(using: &random)!
        if let sceneBridge { members["sceneBridge"] = .bool(sceneBridge) }
        let restoration = [nil, true, false].randomElement(using: &random)!
        if let restoration { members["restorationFromEveryCaller"] = .bool(restoration) }
        var orientations: [UserInterfaceIdiom: InterfaceOrientationMask] = [:]
        if Bool.random(using: &random) {
            orientations[.phone] = [.portrait, .landscapeLeft].randomElement(using: &random)!
            members["supportedInterfaceOrientations"] = ["phone": orientations[.phone] == .portrait ? ["portrait"] : ["landscapeLeft"]]
        }
        var plugins: [ManifestPlugin] = []
        var entries: [JSONValue] = []
        for example in examples where Bool.random(using: &random) {
            let priority = Int.random(in: 0...3, using: &random)
            plugins.append(ManifestPlugin(index: plugins.count, source: .library(example.library), options: example.options,
                                          priority: priority))
            entries.append(["library": .string(example.library), "options": example.options, "priority": .number(Double(priority))])
        }
        members["plugins"] = .array(entries)
        let text = JSONValue.object(JSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })).serialized(pretty: true)
        let built = Manifest(file: "m.json", directory: directory,
                             app: Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0"),
                             supportedInterfaceOrientations: orientations, defaultDeadline: defaultDeadline, profile: profile,
                             reconcilers: reconcilers, plugins: plugins, sceneBridge: sceneBridge,
                             restorationFromEveryCaller: restoration)
        return (text, built)
    }

    /// Plays one script on `host` and describes every outcome (durations left out: not measured).
    static func play(_ host: PluginHost) async -> [String] {
        var lines: [String] = []
        func describe<Result>(_ outcome: EventOutcome<Result>) {
            let answers = outcome.answers.map { "\($0.subscriber)=\(String(describing: $0.answer))" }
            lines.append("\(outcome.event) → \(outcome.result) [\(answers.joined(separator: ", "))] "
                + "reports: \(outcome.reports) invocation: \(String(describing: outcome.invocation)) state: \(outcome.applicationState) "
                + "logs: \(outcome.logs.map { "\($0.subscriber): \($0.message)" })")
        }
        let link = UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/article/7"))
        describe(await host.dispatch(.willFinishLaunching(options: LaunchOptions(userActivity: link))))
        describe(await host.dispatch(.didFinishLaunching(options: LaunchOptions(userActivity: link))))
        describe(await host.dispatch(.didBecomeActive))
        describe(await host.dispatch(.openURL(url: URL(string: "news://article/42")!)))
        describe(await host.dispatch(.openURL(url: URL(string: "https://elsewhere.example.org/")!)))
        describe(await host.dispatch(.supportedInterfaceOrientations(idiom: .phone)))
        describe(await host.dispatch(.supportedInterfaceOrientations(idiom: .pad)))
        describe(await host.dispatch(.shouldAllowExtensionPointIdentifier(identifier: "com.apple.keyboard-service")))
        describe(await host.dispatch(.continueUserActivity(link)))
        describe(await host.dispatch(.performFetch))
        describe(await host.dispatch(.didReceiveRemoteNotification(userInfo: ["aps": ["content-available": 1]])))
        describe(await host.dispatch(.willResignActive))
        describe(await host.dispatch(.didEnterBackground))
        describe(await host.dispatch(.willTerminate))
        lines.append("left: \(host.shutDown().reports)")
        return lines
    }

    @Test("twelve generated manifests: the same value and the same outcomes, from a file and from code")
    func fileAndCodeAgree() async throws {
        let directory = FileManager.default.temporaryDirectory.path + "/manifest-in-code-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var random = Seeded(state: 23)
        var profilesSeen: Set<PeerProfile> = []
        for index in 0..<12 {
            let (text, built) = Self.generate(&random, directory: directory)
            let path = directory + "/m\(index).json"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let options = HostOptions(extraSearchDirectories: [BuiltPlugins.directory])
            let fromFile = try PluginHost(manifestAt: path, options: options)
            var expected = built
            expected.file = path
            #expect(fromFile.manifest == expected, "\(text)")
            let fromCode = try PluginHost(manifest: built, options: options)
            #expect(fromCode.subscriberNames == fromFile.subscriberNames)
            let (a, b) = (await Self.play(fromFile), await Self.play(fromCode))
            #expect(a == b, "\(text)")
            profilesSeen.insert(built.profile)
        }
        #expect(profilesSeen.count >= 3)
    }

    @Test("the host hands back the in-process subscriber objects it made, by name and by type; never a plugin's")
    func subscriberInstances() throws {
        let host = try PluginHost(manifest: Manifest(file: "(code)", directory: "/", app: testApplication, profile: .expo),
                                  inProcess: [InProcessSubscriber(ProfileProbe.self), InProcessSubscriber(ProfileProbe.self, name: "Second")])
        let probe = try #require(host.subscriber(named: "ProfileProbe", as: ProfileProbe.self))
        #expect(host.subscribers(of: ProfileProbe.self).map { ObjectIdentifier($0) }
            == [ObjectIdentifier(probe), ObjectIdentifier(host.subscriber(named: "Second", as: ProfileProbe.self)!)])
        #expect(host.subscriber(named: "Nobody", as: ProfileProbe.self) == nil)
        host.dispatchAtOnce(.didFinishLaunching())
        #expect(probe.launches == 1)
        try host.remove(named: "Second")
        #expect(host.subscriber(named: "Second", as: ProfileProbe.self) == nil)
        #expect(host.profile == .expo)
    }
}

/// An in-process subscriber that counts its launches.
final class ProfileProbe: InstantiableSubscriber, DidFinishLaunchingSubscriber {
    var launches = 0
    required init(context: SubscriberContext) {}
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        launches += 1
        return nil
    }
}
