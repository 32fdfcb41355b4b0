import Foundation
import SubscriberKit
import Testing
import BuiltProducts
@testable import SubscriberHost

/// The same subscriber registered twice is refused, however it is asked for, with one clear line
/// each (Expo's `registerSubscriber` stops the app with "Given app delegate subscriber … is already
/// registered"; GoogleUtilities returns the same interceptor id and registers nothing new).
@MainActor
@Suite("The same subscriber twice: one clear error each way")
struct SameSubscriberTwiceTests {
    static let options = HostOptions(extraSearchDirectories: [BuiltPlugins.directory])

    /// The error line of a host made from `entries` (and `inProcess`), or nil when it was made.
    static func failure(_ entries: String, inProcess: [InProcessSubscriber] = []) -> String? {
        do {
            let host = try PluginHost(manifest: try parseManifest(withApp(#""plugins": [\#(entries)]"#)), inProcess: inProcess,
                                      options: options)
            host.shutDown()
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("a manifest that lists a name twice: a manifest error at the second listing")
    func manifestListsTwice() {
        #expect(Self.failure(#"{"library": "SessionAnalytics", "subscribers": ["SessionAnalytics"]}, {"library": "SessionAnalytics", "subscribers": ["SessionAnalytics"]}"#)
            == #"m.json: plugins[1].subscribers[0]: expected a subscriber name no other plugin entry lists, found "SessionAnalytics", already listed at plugins[0].subscribers[0]"#)
    }

    @Test("a plugin listed twice without lists (by library and by path): load-time check 10 at the second entry")
    func pluginListedTwice() throws {
        let path = BuiltPlugins.path("SessionAnalytics")
        let line = try #require(Self.failure(#"{"library": "SessionAnalytics"}, {"path": "\#(path)"}"#))
        #expect(line.hasPrefix("m.json: plugins[1]: plugin "))
        #expect(line.hasSuffix(#"expected subscriber names unique across plugins, found SessionAnalytics also in plugins[0] "\#(path)""#))
    }

    @Test("an in-process subscriber with a loaded one's name, or twice in-process: refused at the second")
    func inProcessTwice() {
        #expect(Self.failure(#"{"library": "SessionAnalytics"}"#,
                             inProcess: [InProcessSubscriber(InProcessRouter.self, name: "SessionAnalytics")])
            == #"in-process subscribers[0]: expected a subscriber name no other subscriber has, found "SessionAnalytics" again"#)
        #expect(Self.failure("", inProcess: [InProcessSubscriber(InProcessRouter.self), InProcessSubscriber(InProcessRouter.self)])
            == #"in-process subscribers[1]: expected a subscriber name no other subscriber has, found "InProcessRouter" again"#)
    }

    @Test("added twice while running, or the same object under two names: refused, nothing changed")
    func addedTwice() throws {
        let host = try PluginHost(manifest: try parseManifest(withApp()), options: Self.options)
        defer { host.shutDown() }
        try host.add(InProcessSubscriber(InProcessRouter.self))
        #expect(throws: SubscriberChangeError.duplicateName("InProcessRouter")) { try host.add(InProcessSubscriber(InProcessRouter.self)) }
        #expect(host.dispatcher.subscribers.map(\.name) == ["InProcessRouter"])
        let object = try #require(host.dispatcher.subscribers.first)
        var again = object
        again.name = "Router2"
        #expect(throws: SubscriberChangeError.duplicateSubscriber(name: "Router2", existing: "InProcessRouter")) {
            try host.dispatcher.add(again)
        }
        #expect(throws: SubscriberChangeError.duplicateSubscriber(name: "Router2", existing: "InProcessRouter")) {
            try LifecycleDispatcher(checking: [object, again], configuration: DispatchConfiguration(application: testApplication))
        }
        #expect(SubscriberChangeError.duplicateSubscriber(name: "Router2", existing: "InProcessRouter").description
            == #"adding "Router2": expected a subscriber object not registered yet, found the one registered as "InProcessRouter""#)
    }
}
