import Glibc
import Testing
import BuiltProducts
import SubscriberKit
@testable import SubscriberHost

/// An isolated plugin differs from an in-process one only by its failures: a crash, a hang or
/// garbage on its channel costs its answer and is reported; the host and every other plugin go on;
/// the child is started again before its next event, within its restart budget, then disabled.
@MainActor
@Suite("Isolation: crashes, hangs, restarts, limits", .serialized)
struct IsolationFailureTests {
    @Test("a crash in a synchronous event: no opinion, one crashed report naming plugin, subscriber, event and how",
          arguments: [("segv", "killed by SIGSEGV"), ("raiseSegv", "killed by SIGSEGV"), ("trap", "killed by SIGTRAP"),
                      ("_exit0", "exited with status 0"), ("exit0", "exited with status 0"),
                      ("segvThread", "killed by SIGSEGV")])
    func crashInSynchronousEvent(how: String, found: String) throws {
        let host = try Isolated.host([.init(library: "DiesOnEvent", options: ["on": "didBecomeActive", "do": .string(how)])])
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        let outcome = host.dispatchAtOnce(.didBecomeActive)
        #expect(outcome.reports == [.crashed(plugin: "libDiesOnEvent.so", subscriber: "DiesOnEvent", event: .didBecomeActive,
                                             found: found)])
        #expect(outcome.reports.first?.description.contains("libDiesOnEvent.so") == true)
        #expect(outcome.reports.first?.description.contains("DiesOnEvent for didBecomeActive") == true)
        // The host goes on; the child is started again before its next event, which it answers.
        let next = host.dispatchAtOnce(.willResignActive)
        #expect(next.reports == [.restarted(plugin: "libDiesOnEvent.so", event: .willResignActive, restart: 1, max: 3)])
        #expect(next.answers.map(\.subscriber) == ["DiesOnEvent"])
    }

    @Test("after a crash the host still owns the child's channel: a later write cannot land in a descriptor that reused its number")
    func crashedChildsChannelStaysOpen() throws {
        let host = try Isolated.host([.init(library: "DiesOnEvent", options: ["on": "didBecomeActive", "do": "segv"])])
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        let connection = try #require(host.isolationGroups.first?.connection)
        let channel = connection.child.channel
        var before = stat()
        try #require(fstat(channel, &before) == 0)
        let outcome = host.dispatchAtOnce(.didBecomeActive)
        #expect(Isolated.kinds(outcome.reports) == ["crashed"])
        #expect(connection.hasEnded)
        // Reaped: its pid (its process group's number) may be another's now, so it is not signalled.
        #expect(connection.kill() == false)
        // The reader saw the channel end; the descriptor is still the same socket (closing it there let
        // the next frame go to whatever took the number: a live host's control socket got frames as lines).
        var after = stat()
        let status = fstat(channel, &after)
        #expect(status == 0 && after.st_ino == before.st_ino && after.st_dev == before.st_dev,
                "descriptor \(channel): \(status == 0 ? "now inode \(after.st_ino), was \(before.st_ino)" : "closed")")
    }

    @Test("a crash with a completion owed: the completion is settled once, as a missed one (failed), without waiting for the deadline")
    func crashWithCompletionOwed() async throws {
        let clock = ManualHostClock()
        let host = try Isolated.host([.init(library: "IsolationFaults")], clock: clock)
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        var delivered: [EventOutcome<BackgroundFetchResult>] = []
        host.dispatchAtOnce(.performFetch) { delivered.append($0) }
        #expect(delivered.isEmpty)  // owed: the manual clock never reaches the deadline
        let crash = host.dispatchAtOnce(.didBecomeActive)
        #expect(Isolated.kinds(crash.reports) == ["crashed"])
        await Isolated.wait("the owed completion to be settled") { delivered.count == 1 }
        #expect(delivered.first?.result == .failed)
        #expect(delivered.first?.answers.map(\.subscriber) == ["IsolationFaults"])
        // Exactly once: the deadline passing later changes nothing and reports nothing.
        clock.advance(by: .seconds(3_600))
        try await Task.sleep(for: .milliseconds(20))
        #expect(delivered.count == 1)
        #expect(host.shutDown().reports.isEmpty)
    }

    @Test("a crash in create: a required plugin fails the host with one line; an optional one is skipped")
    func crashInCreate() throws {
        #expect {
            try Isolated.host([.init(library: "IsolationFaults", options: ["create": "segv"])])
        } throws: { error in
            let line = "\(error)"
            return line.contains("plugins[0]") && line.contains("libIsolationFaults.so") && line.contains("killed by SIGSEGV")
        }
        let host = try Isolated.host([.init(library: "IsolationFaults", options: ["create": "segv"], optional: true),
                                      .init(library: "DiesOnEvent")])
        defer { host.shutDown() }
        #expect(host.skippedPlugins.count == 1)
        #expect(host.skippedPlugins.first?.contains("killed by SIGSEGV") == true)
        #expect(host.subscriberNames == ["DiesOnEvent"])
    }

    /// A load-time check that fails in the child fails the host's start with the very line the loader
    /// gives in process (the check's own words, not wrapped as a failed `create`, not cut).
    @Test("a load-time check failing in the child: the same line as in process, its check kept",
          arguments: ["BrokenStructSize", "BrokenABIMajor", "BrokenUTF8Name", "BrokenDuplicateNames"])
    func loadErrorAsInProcess(library: String) throws {
        func line(isolated: Bool) -> String {
            var manifest = Isolated.manifest([.init(library: library)])
            if !isolated { manifest.plugins[0].isolation = PluginIsolation() }
            do {
                _ = try PluginHost(manifest: manifest, options: HostOptions(extraSearchDirectories: [BuiltProducts.directory]))
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        let inProcess = line(isolated: false)
        #expect(inProcess.contains("plugins[0]") && inProcess.contains("lib\(library).so"), "\(inProcess)")
        #expect(line(isolated: true) == inProcess)
    }

    @Test("a hang in a synchronous event: past the call budget the child is killed and reported hung; the next event restarts it")
    func hang() throws {
        // The budget is every call's, the restarted child's first included: generous, so that a child
        // started on a busy machine still answers within it (the hang costs the test this long).
        let host = try Isolated.host([.init(library: "DiesOnEvent", options: ["on": "didBecomeActive", "do": "hang"])], budget: 4_000)
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        let pid = try #require(host.isolationGroups.first?.connection?.pid)
        let outcome = host.dispatchAtOnce(.didBecomeActive)
        #expect(outcome.reports == [.hung(plugin: "libDiesOnEvent.so", subscriber: "DiesOnEvent", event: .didBecomeActive,
                                          budgetMilliseconds: 4_000)])
        #expect(outcome.reports.first?.description.contains("within 4000 ms") == true)
        #expect(Isolated.isGone(pid))
        let next = host.dispatchAtOnce(.willResignActive)
        #expect(Isolated.kinds(next.reports) == ["restarted"])
        #expect(next.answers.map(\.subscriber) == ["DiesOnEvent"])
    }

    @Test("restarts within the budget, then disabled (reported once), then skipped; the window is on the host clock")
    func restartThenDisabled() throws {
        let clock = ManualHostClock()
        let host = try Isolated.host([.init(library: "DiesOnEvent", options: ["on": "didBecomeActive", "do": "segv"])],
                                     restart: .init(max: 2, withinSeconds: 60), clock: clock)
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        var kinds: [[String]] = []
        var rows: [Int] = []
        for _ in 0..<4 {
            let active = host.dispatchAtOnce(.didBecomeActive)
            let resigned = host.dispatchAtOnce(.willResignActive)
            kinds += [Isolated.kinds(active.reports), Isolated.kinds(resigned.reports)]
            rows += [active.answers.count, resigned.answers.count]
        }
        #expect(kinds == [["crashed"], ["restarted"], ["crashed"], ["restarted"], ["crashed"], ["disabled"], [], []])
        // Disabled at the sixth event (its row says it got no call); absent from the next on: no row,
        // as if it were not there, and nobody to ask.
        #expect(rows == [1, 1, 1, 1, 1, 1, 0, 0])
        #expect(host.dispatcher.responderNames(for: .didBecomeActive).isEmpty)
        #expect(host.isolationGroups.first?.connection == nil)
    }

    @Test("restarts are counted in a window: one an hour later is allowed again")
    func restartWindow() throws {
        let clock = ManualHostClock()
        let host = try Isolated.host([.init(library: "DiesOnEvent", options: ["on": "didBecomeActive", "do": "segv"])],
                                     restart: .init(max: 1, withinSeconds: 60), clock: clock)
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        _ = host.dispatchAtOnce(.didBecomeActive)
        #expect(Isolated.kinds(host.dispatchAtOnce(.willResignActive).reports) == ["restarted"])
        _ = host.dispatchAtOnce(.didBecomeActive)
        clock.advance(by: .seconds(3_600))
        #expect(Isolated.kinds(host.dispatchAtOnce(.willResignActive).reports) == ["restarted"])
    }

    @Test("a group of two plugins where one crashes: the report names the call, both plugins are restarted and reported")
    func groupOfTwo() throws {
        let host = try Isolated.host([.init(library: "SessionAnalytics", group: "pair"),
                                      .init(library: "DiesOnEvent", options: ["on": "didBecomeActive", "do": "segv"], group: "pair")])
        defer { host.shutDown() }
        #expect(host.isolationGroups.count == 1)
        host.dispatchAtOnce(.didFinishLaunching())
        let pid = try #require(host.isolationGroups.first?.connection?.pid)
        let crash = host.dispatchAtOnce(.didBecomeActive)
        #expect(crash.reports.count == 1)
        #expect(crash.reports.first?.kind == "crashed")
        #expect(crash.reports.first?.description.contains("SessionAnalytics or DiesOnEvent") == true)
        let next = host.dispatchAtOnce(.willResignActive)
        #expect(next.reports == [.restarted(plugin: "libSessionAnalytics.so", event: .willResignActive, restart: 1, max: 3),
                                 .restarted(plugin: "libDiesOnEvent.so", event: .willResignActive, restart: 1, max: 3)])
        #expect(Set(next.answers.map(\.subscriber)) == ["SessionAnalytics", "DiesOnEvent"])
        #expect(host.isolationGroups.first?.connection?.pid != pid)
    }

    @Test("the memory limit applies in the child: 8 GiB of address space is refused under 6 GiB (crash), given without")
    func memoryLimit() throws {
        let free = try Isolated.host([.init(library: "IsolationFaults")])
        defer { free.shutDown() }
        free.dispatchAtOnce(.didFinishLaunching())
        let given = free.dispatchAtOnce(.didReceiveMemoryWarning)
        #expect(given.reports.isEmpty)
        #expect(given.logs.map(\.message).contains("got 8 GiB of address space"))

        let limited = try Isolated.host([.init(library: "IsolationFaults")], limits: .init(memoryMiB: 6_144))
        defer { limited.shutDown() }
        limited.dispatchAtOnce(.didFinishLaunching())
        let refused = limited.dispatchAtOnce(.didReceiveMemoryWarning)
        #expect(refused.reports == [.crashed(plugin: "libIsolationFaults.so", subscriber: "IsolationFaults",
                                             event: .didReceiveMemoryWarning, found: "killed by SIGABRT")])
    }

    @Test("a plugin writing a frame of its own on the channel: malformed, the child is killed and reported crashed")
    func garbageOnTheChannel() throws {
        let host = try Isolated.host([.init(library: "IsolationFaults")])
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        host.dispatchAtOnce(.didBecomeActive)  // crashes: restarted below
        let outcome = host.dispatchAtOnce(.willResignActive)
        #expect(Isolated.kinds(outcome.reports) == ["restarted", "crashed"])
        #expect(outcome.reports.last?.description.contains("a malformed frame: a frame without the run's secret") == true)
    }

    @Test("standard output and error of the child are its plugin's log lines")
    func standardStreams() async throws {
        let host = try Isolated.host([.init(library: "IsolationFaults")])
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        let background = host.dispatchAtOnce(.didEnterBackground)
        #expect(background.reports.isEmpty)
        var lines = background.logs.filter { $0.subscriber == "IsolationFaults" }.map { "\($0.level) \($0.message)" }
        let expected = ["info IsolationFaults: a line on standard output", "error IsolationFaults: a line on standard error"]
        await Isolated.wait("both lines") {
            lines += host.takeLogs().filter { $0.subscriber == "IsolationFaults" }.map { "\($0.level) \($0.message)" }
            return expected.allSatisfy(lines.contains)
        }
        #expect(expected.allSatisfy(lines.contains), "\(lines)")
    }
}
