import ChildProcess
import Foundation
import Glibc
import Testing
import SubscriberKit
@testable import SubscriberHost

/// The child dies with its host: a host killed with SIGKILL (no code of its own runs) leaves no
/// isolation child behind, by the parent-death signals alone (the host's own reaper is killed first,
/// so that no subreaper cleans up on its behalf).
@Suite("Isolation: in a test host of its own (the child dies with the host; no leaks)", .serialized)
struct IsolationDeathTests {
    /// Starts a test host in `mode`, hands its first (signed) message to `body`, then ends it.
    static func withTestHost(_ mode: String, _ body: (StartedChild, String) throws -> Void) throws {
        let started = try ChildProcess.start(ChildLaunch(executable: "/proc/self/exe", environment: ChildProcess.childEnvironment(),
                                                         role: "isolation-host-test", firstMessages: [Array(mode.utf8)],
                                                         timeout: .seconds(0)))
        defer {
            killpg(started.pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(started.pid, &status, 0)
            [started.output, started.errors, started.channel, started.reaper].forEach { _ = close($0) }
        }
        var polled = [pollfd(fd: started.channel, events: Int16(POLLIN), revents: 0)]
        try #require(poll(&polled, 1, 120_000) == 1, "the test host said nothing within 120 s")
        let frame = try #require(ChildChannel.readFrame(from: started.channel))
        try body(started, String(decoding: frame.dropFirst(ChildSecret.size), as: UTF8.self))
    }

    @Test("1,000 events through one isolated plugin leak no descriptor and no thread (counted in a host of its own)")
    func noLeaks() throws {
        try Self.withTestHost("leaks") { _, text in
            let counts = text.split(separator: " ").compactMap { Int($0) }
            try #require(counts.count == 5, "expected five counts from the test host, found \(text)")
            #expect(counts[0] == counts[1], "descriptors before and after 1,000 events")
            #expect(counts[3] <= counts[2], "threads before and after 1,000 events")
            #expect(counts[4] == 0, "reports during 1,000 events")
        }
    }

    @Test("SIGKILL to the host: its isolation child (reaper and worker) is gone, checked by pid")
    func childDiesWithHost() throws {
        // The host's first message: its own pid, its isolation child's reaper and worker.
        try Self.withTestHost("pids") { started, text in
        let pids = text.split(separator: " ").compactMap { pid_t($0) }
        try #require(pids.count == 3, "expected three pids from the test host, found \(text)")
        #expect(pids.allSatisfy { !Isolated.isGone($0) })
        kill(started.pid, SIGKILL)  // the host's reaper: the host dies by its parent-death signal
        let end = Date().addingTimeInterval(20)
        while !pids.allSatisfy(Isolated.isGone), Date() < end { usleep(5_000) }
        #expect(pids.allSatisfy(Isolated.isGone), "still running: \(pids.filter { !Isolated.isGone($0) })")
        }
    }
}

/// The test host's main (role "isolation-host-test"): hosts DiesOnEvent isolated and, by the host's
/// first message, either says the pids and waits ("pids"), or plays 1,000 events and says its own
/// descriptor and thread counts before and after ("leaks": alone in its process, nothing else moves them).
@_cdecl("adh_isolation_host_test_main")
public func _isolationHostTestMain(_ channel: Int32, _ secret: UnsafePointer<UInt8>?, _ secretLength: Int) -> Int32 {
    let endpoint = ChildEndpoint(channel: channel, secret: secret, length: secretLength)
    let mode = endpoint.receive().map { String(decoding: $0, as: UTF8.self) } ?? ""
    Task { @MainActor in
        do {
            let host = try Isolated.host([.init(library: "DiesOnEvent")])
            guard let reaper = host.isolationGroups.first?.connection?.pid else { _exit(3) }
            if mode == "leaks" {
                func count(_ folder: String) -> Int {
                    (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1
                }
                host.dispatchAtOnce(.didFinishLaunching())
                for _ in 0..<10 { host.dispatchAtOnce(.didReceiveMemoryWarning) }
                let before = (count("/proc/self/fd"), count("/proc/self/task"))
                var reports = 0
                for _ in 0..<1_000 { reports += host.dispatchAtOnce(.didReceiveMemoryWarning).reports.count }
                let after = (count("/proc/self/fd"), count("/proc/self/task"))
                endpoint.send(Array("\(before.0) \(after.0) \(before.1) \(after.1) \(reports)".utf8))
                host.shutDown()
                _exit(0)
            }
            let children = (try? String(contentsOfFile: "/proc/\(reaper)/task/\(reaper)/children", encoding: .utf8)) ?? ""
            endpoint.send(Array("\(getpid()) \(reaper) \(children.split(separator: " ").first ?? "0")".utf8))
            while true { sleep(1_000) }
        } catch {
            endpoint.send(Array("error \(error)".utf8))
            _exit(1)
        }
    }
    while true { RunLoop.main.run() }
}
