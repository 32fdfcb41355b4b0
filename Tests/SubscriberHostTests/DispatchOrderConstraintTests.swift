import Foundation
import SubscriberKit
import Testing
import BuiltProducts
@testable import SubscriberHost

/// `after`/`before` ordering constraints: a topological sort with priority as the tie-break, then
/// registration (manifest) order; a cycle or an unknown name is an error naming where it was written.
@MainActor
@Suite("Dispatch order: after/before constraints, priority, cycles")
struct DispatchOrderConstraintTests {
    /// Registrations of test subscribers: (name, priority, after, before).
    private func registrations(_ specs: [(String, Int, [String], [String])], log: CallLog = CallLog()) -> [SubscriberRegistration] {
        specs.map { name, priority, after, before in
            var registration = TestSubscriber(name, log: log).registration(priority: priority)
            (registration.after, registration.before) = (after, before)
            return registration
        }
    }

    @Test("Expo (ExpoAppDelegateSubscriberRepository) and GoogleUtilities (interceptors in registration order): without constraints, registration order, stably sorted by priority")
    func noConstraintsIsPrioritySort() throws {
        let ordered = try SubscriberRegistration.ordered(registrations([
            ("A", 0, [], []), ("B", 5, [], []), ("C", 0, [], []), ("D", 5, [], []), ("E", -1, [], []),
        ]))
        #expect(ordered.map(\.name) == ["B", "D", "A", "C", "E"])
    }

    @Test("a constraint beats priority; among the subscribers it leaves free, priority then registration order decide")
    func constraintsThenPriority() async throws {
        let log = CallLog()
        // SessionAnalytics (priority 0) must see a link before DeepLinkRouter (priority 10) routes it;
        // Crashlytics comes after OrientationLock. Among the subscribers whose constraints are met,
        // the highest priority goes first: OrientationLock, then the priority-0 ones in registration
        // order, DeepLinkRouter as soon as SessionAnalytics is placed.
        let dispatcher = LifecycleDispatcher(subscribers: registrations([
            ("AppLifecycleDelegate", 0, [], []),
            ("SessionAnalytics", 0, [], ["DeepLinkRouter"]),
            ("DeepLinkRouter", 10, [], []),
            ("OrientationLock", 5, [], []),
            ("Crashlytics", 0, ["OrientationLock"], []),
        ], log: log), configuration: DispatchConfiguration(application: testApplication))
        let expected = ["OrientationLock", "AppLifecycleDelegate", "SessionAnalytics", "DeepLinkRouter", "Crashlytics"]
        #expect(dispatcher.subscribers.map(\.name) == expected)
        dispatcher.launch()
        #expect(log.callers(of: .didBecomeActive) == expected)
        #expect(dispatcher.responderNames(for: .openURL) == expected)
    }

    @Test("a chain of 4,000 subscribers, each after the next one registered: reversed, the whole chain ordered")
    func longChain() throws {
        let count = 4_000
        let specs = (0..<count).map { ("S\($0)", 0, $0 + 1 < count ? ["S\($0 + 1)"] : [], [String]()) }
        let ordered = try SubscriberRegistration.ordered(registrations(specs))
        #expect(ordered.map(\.name) == (0..<count).reversed().map { "S\($0)" })
    }

    @Test("a cycle is an error that names it, blaming the constraint written last; a self-reference too")
    func cycles() {
        #expect(throws: DispatchOrderError.cycle(index: 2, list: .after, cycle: ["C", "A", "B", "C"])) {
            try SubscriberRegistration.ordered(registrations([
                ("A", 0, ["C"], []), ("B", 0, ["A"], []), ("C", 0, ["B"], []),
            ]))
        }
        #expect(throws: DispatchOrderError.cycle(index: 0, list: .before, cycle: ["A", "A"])) {
            try SubscriberRegistration.ordered(registrations([("A", 0, [], ["A"])]))
        }
        let error = DispatchOrderError.cycle(index: 1, list: .after, cycle: ["DeepLinkRouter", "SessionAnalytics", "DeepLinkRouter"])
        #expect(error.description
            == "subscribers[1].after: expected an order without cycles, found DeepLinkRouter → SessionAnalytics → DeepLinkRouter")
    }

    @Test("an unknown name, a list past the limit, and a name given twice while constraints are used are errors")
    func badConstraints() {
        #expect(throws: DispatchOrderError.unknownName(index: 1, list: .before, position: 1, name: "Nobody")) {
            try SubscriberRegistration.ordered(registrations([("A", 0, [], []), ("B", 0, [], ["A", "Nobody"])]))
        }
        let many = (0...DispatchOrder.maximumConstraintCount).map { "N\($0)" }
        #expect(throws: DispatchOrderError.tooManyNames(index: 0, list: .after, count: many.count)) {
            try SubscriberRegistration.ordered(registrations([("A", 0, many, [])]))
        }
        #expect(throws: DispatchOrderError.duplicateName(index: 1, name: "A", first: 0)) {
            try SubscriberRegistration.ordered(registrations([("A", 0, [], []), ("A", 0, ["B"], []), ("B", 0, [], [])]))
        }
    }

    // MARK: In a manifest

    @Test("manifest: after/before read per entry; a cycle among listed subscribers is a manifest error naming it")
    func manifestCycle() throws {
        let manifest = try parseManifest(withApp(#"""
        "plugins": [{"library": "AppLifecycleDelegate", "after": ["DeepLinkRouter"], "before": ["SessionAnalytics"]}]
        """#))
        #expect(manifest.plugins[0].after == ["DeepLinkRouter"])
        #expect(manifest.plugins[0].before == ["SessionAnalytics"])
        #expect(manifestError(withApp(#"""
        "plugins": [
          {"library": "AppLifecycleDelegate"},
          {"library": "SessionAnalytics", "subscribers": ["SessionAnalytics"], "after": ["DeepLinkRouter"]},
          {"library": "DeepLinkRouter", "subscribers": ["DeepLinkRouter"], "after": ["SessionAnalytics"]}
        ]
        """#)) == "m.json: plugins[2].after: expected an order without cycles, found DeepLinkRouter → SessionAnalytics → DeepLinkRouter")
    }

    @Test("manifest: after/before shapes — an array of at most 64 plain, distinct names")
    func manifestShapes() {
        #expect(manifestError(withApp(#""plugins": [{"library": "A", "after": "B"}]"#))
            == #"m.json: plugins[0].after: expected an array of subscriber names, found the string "B""#)
        #expect(manifestError(withApp(#""plugins": [{"library": "A", "before": ["B", 7]}]"#))
            == "m.json: plugins[0].before[1]: expected a subscriber name, found the number 7")
        #expect(manifestError(withApp(#""plugins": [{"library": "A", "after": ["B", "B"]}]"#))
            == #"m.json: plugins[0].after[1]: expected a subscriber name not listed before, found "B" again (first at plugins[0].after[0])"#)
        #expect(manifestError(withApp(#""plugins": [{"library": "A", "after": [""]}]"#))
            == "m.json: plugins[0].after[0]: expected a subscriber name, found an empty string")
        let many = (0...64).map { "\"N\($0)\"" }.joined(separator: ", ")
        #expect(manifestError(withApp(#""plugins": [{"library": "A", "after": [\#(many)]}]"#))
            == "m.json: plugins[0].after: expected at most 64 subscriber names, found 65")
    }

    /// The news manifest's plugins, with `entries` replacing its plugin list.
    private func host(_ entries: String, inProcess: [InProcessSubscriber] = []) throws -> PluginHost {
        let manifest = try parseManifest(withApp(#""plugins": [\#(entries)]"#))
        return try PluginHost(manifest: manifest, inProcess: inProcess,
                              options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
    }

    @Test("host: a manifest entry's constraints order the loaded plugins, also names the manifest does not list")
    func hostOrdersLoadedPlugins() throws {
        // DeepLinkRouter has priority 10 but must come after SessionAnalytics, whose entry lists no names.
        let host = try host(#"""
        {"library": "AppLifecycleDelegate"},
        {"library": "SessionAnalytics"},
        {"library": "DeepLinkRouter", "priority": 10, "after": ["SessionAnalytics"]}
        """#, inProcess: [InProcessSubscriber(InProcessRouter.self, name: "AppRouter", priority: 20, before: ["AppLifecycleDelegate"])])
        defer { host.shutDown() }
        #expect(host.dispatcher.subscribers.map(\.name) == ["AppRouter", "AppLifecycleDelegate", "SessionAnalytics", "DeepLinkRouter"])
    }

    @Test("host: an unknown name is a manifest error at the entry; a cycle through an in-process subscriber is placed where its last constraint is")
    func hostErrors() throws {
        func failure(_ entries: String, inProcess: [InProcessSubscriber] = []) -> String? {
            do {
                let made = try host(entries, inProcess: inProcess)
                made.shutDown()
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(failure(#"{"library": "SessionAnalytics", "after": ["Analytix"]}"#)
            == #"m.json: plugins[0].after[0]: expected the name of a subscriber of this host, found "Analytix", which no subscriber has"#)
        #expect(failure(#"{"library": "SessionAnalytics", "before": ["AppRouter"]}"#,
                        inProcess: [InProcessSubscriber(InProcessRouter.self, name: "AppRouter", before: ["SessionAnalytics"])])
            == "in-process subscribers[0].before: expected an order without cycles, found AppRouter → SessionAnalytics → AppRouter")
        #expect(failure("", inProcess: [InProcessSubscriber(InProcessRouter.self, name: "AppRouter", after: ["Nobody"])])
            == #"in-process subscribers[0].after[0]: expected the name of a subscriber of this host, found "Nobody", which no subscriber has"#)
        #expect(failure("", inProcess: [InProcessSubscriber(InProcessRouter.self, name: "AppRouter", after: ["X", "X"])])
            == #"in-process subscribers[0].after[1]: expected a subscriber name not listed before, found "X" again"#)
    }

    @Test("host: a constraint naming a subscriber of a skipped optional plugin constrains nothing")
    func skippedOptionalPlugin() throws {
        let host = try host(#"""
        {"library": "NoSuchPlugin", "optional": true, "subscribers": ["Ghost"]},
        {"library": "SessionAnalytics", "after": ["Ghost"]}
        """#)
        defer { host.shutDown() }
        #expect(host.plugins.skipped.count == 1)
        #expect(host.dispatcher.subscribers.map(\.name) == ["SessionAnalytics"])
    }
}
