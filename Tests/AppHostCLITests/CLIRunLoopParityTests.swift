import Foundation
import Glibc
import Testing

/// Foundation's main run loop turns between events wherever a plugin runs: a `Timer` a plugin puts on
/// `RunLoop.main` during one event fires before a later one, under `apphost run` in process (its main
/// thread runs the run loop) and in an isolation child (its main thread makes a pass between frames).
/// The same test both ways; the wait is bounded by a count of round trips, not by a clock.
@Suite("RunLoop.main in a plugin: a Timer fires between events, in process and isolated")
struct CLIRunLoopParityTests {
    @Test("a 1 ms Timer on RunLoop.main scheduled in one openURL has fired by a later one", arguments: ["inProcess", "process"])
    func timerFiresBetweenEvents(isolation: String) throws {
        let directory = try TemporaryDirectory()
        _ = AppHostProcess.plugin("RunLoopTimer")
        let budget = isolation == "process" ? #", "callBudget": 600000"# : ""
        let manifest = try directory.write("timer.json", """
            {"app": {"name": "Timer", "bundleIdentifier": "com.example.timer", "version": "1"},
             "plugins": [{"library": "RunLoopTimer", "isolation": "\(isolation)"\(budget)}]}
            """)
        let host = try LiveHostChild(["run", "--manifest", manifest, "--plugin-dir", AppHostProcess.buildDirectory],
                                     directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        let client = try SocketClient(directory.path + "/run/apphost/com.example.timer.sock")
        defer { client.close() }

        try client.write(Array("{\"event\": \"openURL\", \"url\": \"timer://schedule\"}\n".utf8))
        let scheduled = try #require(client.readLine(), "no answer: \(host.stderr)")
        #expect(scheduled.contains(#""result":true"#), "\(scheduled)")
        // Each round trip lets the host's (or the child's) run loop turn: the timer, due 1 ms after
        // the first event, fires before one of these answers. 2,000 round trips bound the wait.
        var fired = false
        for _ in 0..<2_000 where !fired {
            try client.write(Array("{\"event\": \"openURL\", \"url\": \"timer://fired\"}\n".utf8))
            let line = try #require(client.readLine(), "no answer: \(host.stderr)")
            fired = line.contains(#""result":true"#)
        }
        #expect(fired, "the Timer on RunLoop.main never fired (isolation \(isolation))")
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
    }
}
