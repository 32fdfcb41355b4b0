import SubscriberKit
import Testing
@testable import SubscriberHost

/// A manifest and the one line it must be refused with.
struct BadManifest: Sendable, CustomTestStringConvertible {
    let text: String
    let error: String
    init(_ text: String, _ error: String) {
        self.text = text
        self.error = error
    }
    var testDescription: String { error }
}

/// `plugins: [<entry>]` after a valid app.
private func plugin(_ entry: String) -> String { withApp(#""plugins": [\#(entry)]"#) }

private let rootKeys = "app, callBudget, deadlines, duplicateRegistration, isolation, isolationGroup, launchOnce, limits, pendingResponseLimit, pendingResponses, pluginSearchPaths, plugins, profile, reconcilers, replayLaunch, restart, restorationFromEveryCaller, sceneBased, sceneBridge, sceneBridgeForwards, sceneBridgeSkips, sceneConnectAsLaunch, sceneConnectionOptions, sceneFanOut, supportedInterfaceOrientations, terminationDeadline, transitionOrder, willPresentAnswer"
private let pluginKeys = "after, apple, before, callBudget, ios, isolation, isolationGroup, library, limits, optional, options, path, priority, restart, sha256, subscriberOptions, subscribers"
/// What a priority may be, as its error says.
private let priorityRange = "a whole number from -9007199254740991 to 9007199254740991 (±(2^53 − 1))"
/// The events with a deadline, as the table says.
private let completionEvents = LifecycleEvent.allCases.filter(\.answersThroughCompletion).map(\.name).joined(separator: ", ")

@Suite("Manifest: every bad shape names its key path")
struct ManifestErrorTests {
    static let root: [BadManifest] = [
        BadManifest("[]", "m.json: (root): expected an object, found an array"),
        BadManifest(withApp(#""plugin": []"#),
                    "m.json: plugin: expected one of the known keys (\(rootKeys)), found an unknown key"),
        BadManifest("{}", "m.json: app: expected an object with name and bundleIdentifier, found nothing"),
    ]

    static let app: [BadManifest] = [
        BadManifest(#"{"app": "News"}"#, #"m.json: app: expected an object, found the string "News""#),
        BadManifest(#"{"app": {"bundleIdentifier": "b"}}"#, "m.json: app.name: expected a string, found nothing"),
        BadManifest(#"{"app": {"name": 7, "bundleIdentifier": "b"}}"#, "m.json: app.name: expected a string, found the number 7"),
        BadManifest(#"{"app": {"name": "N"}}"#, "m.json: app.bundleIdentifier: expected a string, found nothing"),
        BadManifest(#"{"app": {"name": "N", "bundleIdentifier": "b", "version": true}}"#,
                    "m.json: app.version: expected a string, found true"),
        BadManifest(#"{"app": {"name": "", "bundleIdentifier": "b"}}"#,
                    "m.json: app.name: expected a non-empty string, found an empty string"),
        BadManifest(#"{"app": {"name": "N", "bundleIdentifier": "b", "id": 1}}"#,
                    "m.json: app.id: expected one of the known keys (bundleIdentifier, name, version), found an unknown key"),
    ]

    static let orientations: [BadManifest] = [
        BadManifest(withApp(#""supportedInterfaceOrientations": []"#),
                    "m.json: supportedInterfaceOrientations: expected an object, found an array"),
        BadManifest(withApp(#""supportedInterfaceOrientations": {"watch": ["portrait"]}"#),
                    "m.json: supportedInterfaceOrientations.watch: expected an idiom (phone, pad, tv, carPlay, mac, vision, ~ipad, ~iphone), found an unknown key"),
        BadManifest(withApp(#""supportedInterfaceOrientations": {"phone": "portrait"}"#),
                    #"m.json: supportedInterfaceOrientations.phone: expected an array of orientation names, found the string "portrait""#),
        BadManifest(withApp(#""supportedInterfaceOrientations": {"phone": ["portrait", "sideways"]}"#),
                    #"m.json: supportedInterfaceOrientations.phone[1]: expected one of portrait, portraitUpsideDown, landscapeLeft, landscapeRight, found the string "sideways""#),
        BadManifest(withApp(#""supportedInterfaceOrientations": {"phone": []}"#),
                    "m.json: supportedInterfaceOrientations.phone: expected at least one orientation, found an empty array"),
        BadManifest(withApp(#""supportedInterfaceOrientations": {"pad": ["portrait"], "~ipad": ["portrait"]}"#),
                    "m.json: supportedInterfaceOrientations.~ipad: expected one entry per idiom, found a second entry for pad (first: pad)"),
    ]

    static let deadlines: [BadManifest] = [
        BadManifest(withApp(#""deadlines": 30"#), "m.json: deadlines: expected an object, found the number 30"),
        BadManifest(withApp(#""deadlines": {"performFetch": 0}"#),
                    "m.json: deadlines.performFetch: expected a whole number of milliseconds from 1 to 8999999999999999, found the number 0"),
        BadManifest(withApp(#""deadlines": {"default": -5}"#),
                    "m.json: deadlines.default: expected a whole number of milliseconds from 1 to 8999999999999999, found the number -5"),
        BadManifest(withApp(#""deadlines": {"performFetch": 1.5}"#),
                    "m.json: deadlines.performFetch: expected a whole number of milliseconds from 1 to 8999999999999999, found the number 1.5"),
        BadManifest(withApp(#""deadlines": {"default": 9007199254740991}"#),
                    "m.json: deadlines.default: expected a whole number of milliseconds from 1 to 8999999999999999, found the number 9007199254740991"),
        BadManifest(withApp(#""deadlines": {"performFetch": "30"}"#),
                    #"m.json: deadlines.performFetch: expected a whole number of milliseconds from 1 to 8999999999999999, found the string "30""#),
        BadManifest(withApp(#""deadlines": {"perfromFetch": 10}"#),
                    #"m.json: deadlines.perfromFetch: expected "default" or an event answered through a completion (\#(completionEvents)), found an unknown key"#),
        BadManifest(withApp(#""deadlines": {"didBecomeActive": 10}"#),
                    #"m.json: deadlines.didBecomeActive: expected "default" or an event answered through a completion (\#(completionEvents)), found an event without a completion"#),
    ]

    static let reconcilers: [BadManifest] = [
        BadManifest(withApp(#""reconcilers": []"#), "m.json: reconcilers: expected an object, found an array"),
        BadManifest(withApp(#""reconcilers": {"openUrl": "anyTrue"}"#),
                    "m.json: reconcilers.openUrl: expected an event's wire name (didFinishLaunching, openURL, …), found an unknown key"),
        BadManifest(withApp(#""reconcilers": {"openURL": "anyFalse"}"#),
                    #"m.json: reconcilers.openURL: expected anyTrue, allTrue, firstAnswer, always true or always false, found the string "anyFalse""#),
        BadManifest(withApp(#""reconcilers": {"openURL": 1}"#),
                    #"m.json: reconcilers.openURL: expected a reconciler's name, a precedence list or {"always": answer}, found the number 1"#),
        BadManifest(withApp(#""reconcilers": {"performFetch": ["newData", "late", "noData"]}"#),
                    #"m.json: reconcilers.performFetch[1]: expected one of newData, noData, failed, found the string "late""#),
        BadManifest(withApp(#""reconcilers": {"performFetch": ["newData", "failed", "newData"]}"#),
                    #"m.json: reconcilers.performFetch[2]: expected a fetch result not listed before, found "newData" again"#),
        BadManifest(withApp(#""reconcilers": {"performFetch": ["failed", "newData"]}"#),
                    "m.json: reconcilers.performFetch: expected every fetch result (newData, noData, failed) once, found a list without noData"),
    ]

    static let searchPaths: [BadManifest] = [
        BadManifest(withApp(#""pluginSearchPaths": "lib""#), #"m.json: pluginSearchPaths: expected an array, found the string "lib""#),
        BadManifest(withApp(#""pluginSearchPaths": ["lib", 3]"#), "m.json: pluginSearchPaths[1]: expected a string, found the number 3"),
        BadManifest(withApp(#""pluginSearchPaths": [""]"#), "m.json: pluginSearchPaths[0]: expected a directory path, found an empty string"),
    ]

    static let plugins: [BadManifest] = [
        BadManifest(withApp(#""plugins": {}"#), "m.json: plugins: expected an array, found an object"),
        BadManifest(plugin(#""libA.so""#), #"m.json: plugins[0]: expected an object, found the string "libA.so""#),
        BadManifest(plugin("{}"), #"m.json: plugins[0]: expected "path" or "library", found neither"#),
        BadManifest(plugin(#"{"path": "a", "library": "b"}"#), #"m.json: plugins[0]: expected either "path" or "library", found both"#),
        BadManifest(plugin(#"{"path": 5}"#), "m.json: plugins[0].path: expected a string, found the number 5"),
        BadManifest(plugin(#"{"path": ""}"#), "m.json: plugins[0].path: expected a file path, found an empty string"),
        BadManifest(plugin(#"{"library": ["A"]}"#), "m.json: plugins[0].library: expected a string, found an array"),
        BadManifest(plugin(#"{"library": "lib/A"}"#),
                    #"m.json: plugins[0].library: expected a library name without "/" (use "path" for files), found the string "lib/A""#),
        BadManifest(plugin(#"{"library": "libA.so"}"#),
                    #"m.json: plugins[0].library: expected a library name like "Analytics" for libAnalytics.so, found the string "libA.so""#),
        BadManifest(plugin(#"{"library": "A", "subscribers": "One"}"#),
                    #"m.json: plugins[0].subscribers: expected an array, found the string "One""#),
        BadManifest(plugin(#"{"library": "A", "subscribers": ["One", 2]}"#),
                    "m.json: plugins[0].subscribers[1]: expected a string, found the number 2"),
        BadManifest(plugin(#"{"library": "A", "subscribers": []}"#),
                    "m.json: plugins[0].subscribers: expected at least one subscriber name (omit the list for all the plugin declares), found an empty array"),
        BadManifest(plugin(#"{"library": "A", "subscribers": [""]}"#),
                    "m.json: plugins[0].subscribers[0]: expected a subscriber name, found an empty string"),
        BadManifest(plugin(#"{"library": "A", "subscribers": ["One", "Two", "One"]}"#),
                    #"m.json: plugins[0].subscribers[2]: expected a subscriber name not listed before, found "One" again (first at plugins[0].subscribers[0])"#),
        BadManifest(plugin(#"{"library": "A", "subscribers": ["One"]}, {"library": "B", "ios": {"appDelegateSubscribers": ["Two", "One"]}}"#),
                    #"m.json: plugins[1].ios.appDelegateSubscribers[1]: expected a subscriber name no other plugin entry lists, found "One", already listed at plugins[0].subscribers[0]"#),
        BadManifest(plugin(#"{"library": "A", "sha256": 12}"#), "m.json: plugins[0].sha256: expected a string, found the number 12"),
        BadManifest(plugin(#"{"library": "A", "sha256": "abc"}"#),
                    #"m.json: plugins[0].sha256: expected 64 hexadecimal digits, found the string "abc""#),
        BadManifest(plugin(#"{"library": "A", "priority": "high"}"#),
                    #"m.json: plugins[0].priority: expected \#(priorityRange), found the string "high""#),
        BadManifest(plugin(#"{"library": "A", "priority": 1.5}"#),
                    "m.json: plugins[0].priority: expected \(priorityRange), found the number 1.5"),
        // −2^63 and 2^53 are whole, but out of the range a JSON number holds exactly: the range is said.
        BadManifest(plugin(#"{"library": "A", "priority": -9223372036854775808}"#),
                    "m.json: plugins[0].priority: expected \(priorityRange), found the number -9.223372036854776e+18"),
        BadManifest(plugin(#"{"library": "A", "priority": 9007199254740992}"#),
                    "m.json: plugins[0].priority: expected \(priorityRange), found the number 9007199254740992"),
        BadManifest(plugin(#"{"library": "A", "optional": "yes"}"#),
                    #"m.json: plugins[0].optional: expected true or false, found the string "yes""#),
        BadManifest(plugin(#"{"library": "A", "options": 5}"#),
                    "m.json: plugins[0].options: expected an object, found the number 5"),
        BadManifest(plugin(#"{"library": "A", "options": ["deny"]}"#),
                    "m.json: plugins[0].options: expected an object, found an array"),
        BadManifest(plugin(#"{"library": "A", "name": "A"}"#),
                    "m.json: plugins[0].name: expected one of the known keys (\(pluginKeys)), found an unknown key"),
        BadManifest(plugin(#"{"library": "A", "subscribers": ["One"], "ios": {"appDelegateSubscribers": ["Two"]}}"#),
                    "m.json: plugins[0]: expected one subscriber list (subscribers, ios or apple), found subscribers and ios"),
    ]

    static let expo: [BadManifest] = [
        BadManifest(plugin(#"{"library": "A", "ios": []}"#), "m.json: plugins[0].ios: expected an object, found an array"),
        BadManifest(plugin(#"{"library": "A", "ios": {}}"#),
                    "m.json: plugins[0].ios.appDelegateSubscribers: expected an array of subscriber names, found nothing"),
        BadManifest(plugin(#"{"library": "A", "ios": {"appDelegateSubscribers": ["One"], "modules": []}}"#),
                    "m.json: plugins[0].ios.modules: expected one of the known keys (appDelegateSubscribers), found an unknown key"),
        BadManifest(plugin(#"{"library": "A", "apple": {"appDelegateSubscribers": "One"}}"#),
                    #"m.json: plugins[0].apple.appDelegateSubscribers: expected an array, found the string "One""#),
        BadManifest(plugin(#"{"library": "A", "apple": {"appDelegateSubscribers": []}}"#),
                    "m.json: plugins[0].apple.appDelegateSubscribers: expected at least one subscriber name (omit the list for all the plugin declares), found an empty array"),
    ]

    @Test("root", arguments: root) func rootErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }
    @Test("app", arguments: app) func appErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }
    @Test("supportedInterfaceOrientations", arguments: orientations)
    func orientationErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }
    @Test("deadlines", arguments: deadlines) func deadlineErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }
    @Test("reconcilers", arguments: reconcilers)
    func reconcilerErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }
    @Test("pluginSearchPaths", arguments: searchPaths)
    func searchPathErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }
    @Test("plugins", arguments: plugins) func pluginErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }
    @Test("Expo's ios/apple shape", arguments: expo) func expoErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }
}

@Suite("Manifest: the range of priority")
struct ManifestPriorityRangeTests {
    @Test("the ends of the range are accepted, exactly; one past either end is refused with the range")
    func ends() throws {
        for priority in [9007199254740991, -9007199254740991] {
            let manifest = try parseManifest(plugin(#"{"library": "A", "priority": \#(priority)}"#))
            #expect(manifest.plugins[0].priority == priority)
        }
        #expect(ManifestPlugin.priorityRange == -9007199254740991...9007199254740991)
        #expect(manifestError(plugin(#"{"library": "A", "priority": -9007199254740992}"#))
            == "m.json: plugins[0].priority: expected \(priorityRange), found the number -9007199254740992")
    }
}
