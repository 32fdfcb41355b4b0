import Foundation
import Glibc
import Testing
import BuiltProducts
import SubscriberKit
@testable import SubscriberHost

/// An isolated subscriber differs from an in-process one only by its failures: what its completion
/// calls are reported as, what it answers, and what it reads of the host during a call are the same;
/// a crash in `destroy` or on a plugin thread between events costs its child and is said.
@MainActor
@Suite("Isolation: the same subscriber in a child as in process", .serialized)
struct IsolationFidelityTests {
    /// A host of `plugins`, isolated or (the same manifest otherwise) in process.
    static func host(_ plugins: [Isolated.Plugin], isolated: Bool) throws -> PluginHost {
        var manifest = Isolated.manifest(plugins)
        if !isolated { for index in manifest.plugins.indices { manifest.plugins[index].isolation.mode = .inProcess } }
        return try PluginHost(manifest: manifest, options: HostOptions(extraSearchDirectories: [BuiltProducts.directory],
                                                                          clock: ManualHostClock()))
    }

    @Test("a group whose entries disagree is refused for a manifest built in code, before any child starts")
    func groupsThatDisagreeInCode() {
        var manifest = Isolated.manifest([.init(library: "DiesOnEvent", group: "g"), .init(library: "IsolationFaults", group: "g")])
        manifest.plugins[1].isolation.restart = .init(max: 1, withinSeconds: 60)
        #expect {
            try PluginHost(manifest: manifest, options: HostOptions(extraSearchDirectories: [BuiltProducts.directory]))
        } throws: { error in
            let manifestError = (error as? HostError)?.manifestError
            return manifestError?.description.contains("plugins[1].restart") == true
                && manifestError?.description.contains(#"the restart of group "g""#) == true
        }
    }

    @Test("a second completion call is reported in the event's outcome, named as in process", arguments: [false, true])
    func duplicateCompletion(isolated: Bool) async throws {
        let host = try Self.host([.init(library: "CompletesTwice")], isolated: isolated)
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        let outcome = await host.dispatch(.performFetch)
        #expect(outcome.result == .newData)
        #expect(outcome.reports == [.duplicateCompletion(subscriber: "CompletesTwice", event: .performFetch)])
        #expect(host.shutDown().reports.isEmpty)
    }

    @Test("a second completion call after delivery is reported with the event during which it came, as in process",
          arguments: [false, true])
    func duplicateCompletionAfterDelivery(isolated: Bool) async throws {
        let host = try Self.host([.init(library: "ReadsHostState")], isolated: isolated)
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        let fetch = await host.dispatch(.performFetch)
        #expect(fetch.result == .newData && fetch.reports.isEmpty)
        host.dispatchAtOnce(.didBecomeActive)
        let resign = host.dispatchAtOnce(.willResignActive)  // calls performFetch's completion again
        #expect(resign.reports == [.duplicateCompletion(subscriber: "ReadsHostState", event: .performFetch)])
        #expect(host.shutDown().reports.isEmpty)
    }

    @Test("a second completion call in destroy is in shutDown's leftovers, as in process", arguments: [false, true])
    func duplicateCompletionAtShutDown(isolated: Bool) async throws {
        let host = try Self.host([.init(library: "ReadsHostState")], isolated: isolated)
        host.dispatchAtOnce(.didFinishLaunching())
        let fetch = await host.dispatch(.performFetch)
        #expect(fetch.result == .newData && fetch.reports.isEmpty)
        let leftovers = host.shutDown()  // destroy calls performFetch's completion again
        #expect(leftovers.reports == [.duplicateCompletion(subscriber: "ReadsHostState", event: .performFetch)])
        #expect(host.shutDown().reports.isEmpty)
    }

    @Test("continueUserActivity: an explicit false is an answer, not no opinion", arguments: [false, true])
    func restorationFalse(isolated: Bool) async throws {
        let host = try Self.host([.init(library: "ReadsHostState")], isolated: isolated)
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        let activity = UserActivity(activityType: "com.example.reading", webpageURL: nil)
        let outcome = await host.dispatch(.continueUserActivity(activity))
        #expect(outcome.answers.map(\.subscriber) == ["ReadsHostState"])
        #expect(outcome.answers.first?.answer as? ContinueUserActivityResult
                    == ContinueUserActivityResult(handled: false, restorableObjects: nil))
        #expect(outcome.reports.isEmpty)
    }

    @Test("during a call, a subscriber reads the application's state and how the app was launched", arguments: [false, true])
    func hostStateDuringACall(isolated: Bool) throws {
        let host = try Self.host([.init(library: "ReadsHostState")], isolated: isolated)
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(url: URL(string: "news://article/7")!)))
        let active = host.dispatchAtOnce(.didBecomeActive)
        #expect(active.reports.isEmpty)
        // The state the host gives during didBecomeActive (active, 0, in process); a URL-scheme launch (3) and its URL.
        #expect(active.logs.map(\.message) == ["state 0 invocation 3 news://article/7"])
    }

    @Test("a crash in destroy at shutDown: the host goes on, nothing waits, and its last log line says how the child ended")
    func crashInDestroy() throws {
        let host = try Isolated.host([.init(library: "IsolationFaults", options: ["destroy": "segv"])])
        host.dispatchAtOnce(.didFinishLaunching())
        let pid = try #require(host.isolationGroups.first?.connection?.pid)
        let leftovers = host.shutDown()
        #expect(leftovers.logs.map(\.message).contains(
            "libIsolationFaults.so (isolated) ended while its subscribers were destroyed: killed by SIGSEGV"), "\(leftovers.logs)")
        #expect(leftovers.reports.isEmpty)
        #expect(Isolated.isGone(pid))
    }

    @Test("a crash on a plugin thread between events: the next event finds the child dead, reports it, restarts it and is answered")
    func crashBetweenEvents() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("adh-crash-when-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        defer { unlink(file) }
        let host = try Isolated.host([.init(library: "IsolationFaults", options: ["crashWhen": .string(file)])])
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        #expect(host.dispatchAtOnce(.didEnterBackground).reports.isEmpty)
        #expect(host.dispatchAtOnce(.willEnterForeground).reports.isEmpty)  // its thread waits for the file
        let connection = try #require(host.isolationGroups.first?.connection)
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        await Isolated.wait("the child to crash on its own thread") { connection.hasEnded }
        let next = host.dispatchAtOnce(.didEnterBackground)
        #expect(next.reports == [
            .crashed(plugin: "libIsolationFaults.so", subscriber: nil, event: .didEnterBackground, found: "killed by SIGSEGV"),
            .restarted(plugin: "libIsolationFaults.so", event: .didEnterBackground, restart: 1, max: 3),
        ])
        #expect(next.reports.first?.description.contains("ended between events") == true)
        #expect(next.answers.map(\.subscriber) == ["IsolationFaults"])
    }
}

/// What the host reads of a child's completion reports: every index, event, kind and count checked.
@Suite("Isolation: completion reports on the wire")
struct IsolationReportWireTests {
    @Test("a report crosses by index and is named by the host's list")
    func roundTrip() throws {
        let sent = try #require(IsolationWire.report(.completionAfterDecline(subscriber: "B", event: .performFetch, count: 2),
                                                     names: ["A", "B"]))
        #expect(try IsolationWire.reports(.array([sent]), names: ["hostA", "hostB"], in: .reply)
                    == [.completionAfterDecline(subscriber: "hostB", event: .performFetch, count: 2)])
        // Reports the host makes itself are not sent.
        #expect(IsolationWire.report(.late(subscriber: "A", event: .performFetch), names: ["A"]) == nil)
    }

    @Test("a bad index, event, kind or count is a malformed message", arguments: [
        #"[{"s": 2, "e": "performFetch", "k": "duplicateCompletion", "n": 1}]"#,
        #"[{"s": 0, "e": "noSuchEvent", "k": "duplicateCompletion", "n": 1}]"#,
        #"[{"s": 0, "e": "performFetch", "k": "crashed", "n": 1}]"#,
        #"[{"s": 0, "e": "performFetch", "k": "duplicateCompletion", "n": 0}]"#,
        #"{"s": 0}"#,
    ])
    func refused(text: String) throws {
        let value = try JSONValue(parsing: text)
        #expect(throws: IsolationWireError.self) { try IsolationWire.reports(value, names: ["A", "B"], in: .completion) }
    }
}
