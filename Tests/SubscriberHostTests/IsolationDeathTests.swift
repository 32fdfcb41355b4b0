import ChildProcess
import Foundation
import Glibc
import Testing
import SubscriberKit
@testable import SubscriberHost

/// The child dies with its host: a host killed with SIGKILL (no code of its own runs) leaves no
/// isolation child behind, by the parent-death signals alone (the host's own reaper is killed first,
/// so that no subreaper cleans up on its behalf).
@Suite("Isolation: the child dies with the host", .serialized)
struct IsolationDeathTests {
    @Test("SIGKILL to the host: its isolation child (reaper and worker) is gone, checked by pid")
    func childDiesWithHost() throws {
        let started = try ChildProcess.start(ChildLaunch(executable: "/proc/self/exe", environment: ChildProcess.childEnvironment(),
                                                         role: "isolation-host-test", firstMessages: [], timeout: .seconds(0)))
        defer {
            killpg(started.pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(started.pid, &status, 0)
            [started.output, started.errors, started.channel, started.reaper].forEach { _ = close($0) }
        }
        // The host's first (signed) frame: its own pid, its isolation child's reaper and worker.
        var polled = [pollfd(fd: started.channel, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&polled, 1, 60_000) == 1, "the test host said nothing within 60 s")
        let frame = try #require(ChildChannel.readFrame(from: started.channel))
        let text = String(decoding: frame.dropFirst(ChildSecret.size), as: UTF8.self)
        let pids = text.split(separator: " ").compactMap { pid_t($0) }
        try #require(pids.count == 3, "expected three pids from the test host, found \(text)")
        #expect(pids.allSatisfy { !Isolated.isGone($0) })
        kill(started.pid, SIGKILL)  // the host's reaper: the host dies by its parent-death signal
        let end = Date().addingTimeInterval(20)
        while !pids.allSatisfy(Isolated.isGone), Date() < end { usleep(5_000) }
        #expect(pids.allSatisfy(Isolated.isGone), "still running: \(pids.filter { !Isolated.isGone($0) })")
    }
}

/// The test host's main (role "isolation-host-test"): hosts DiesOnEvent isolated, says the pids, waits.
@_cdecl("adh_isolation_host_test_main")
public func _isolationHostTestMain(_ channel: Int32, _ secret: UnsafePointer<UInt8>?, _ secretLength: Int) -> Int32 {
    let endpoint = ChildEndpoint(channel: channel, secret: secret, length: secretLength)
    Task { @MainActor in
        do {
            let host = try Isolated.host([.init(library: "DiesOnEvent")])
            guard let reaper = host.isolationGroups.first?.connection?.pid else { _exit(3) }
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
