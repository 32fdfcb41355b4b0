#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// Standard output is buffered when it is not a terminal; these pin what buffering must not change.
@Suite("Buffered output")
struct CLIBufferedOutputTests {
    let manifest = AppHostProcess.manifest("news.json")

    @Test("outputs sharing a pipe keep the order of their writes; flushPending writes everything out")
    func orderAcrossOutputs() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let second = dup(ends[1])
        let first = TextOutput(fileDescriptor: ends[1], name: "first")
        let other = TextOutput(fileDescriptor: second, name: "second")
        var expected = ""
        for index in 0..<200 {
            first.write("first \(index)\n")
            other.line("second \(index)")
            expected += "first \(index)\nsecond \(index)\n"
        }
        TextOutput.flushPending()
        close(ends[1])
        close(second)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        close(ends[0])
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(first.failure == nil && other.failure == nil)
    }

    @Test("--json with stdout and stderr on one file: each log line sits before the event it was written during")
    func logLinesInterleaved() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("events.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "didBecomeActive"}
            {"event": "willResignActive"}
            {"event": "didBecomeActive"}

            """)
        let run = try AppHostProcess.run(["-c", #"exec "$0" "$@" 2>&1"#, AppHostProcess.executable,
                                          "--manifest", manifest, "--events", script, "--json"],
                                         program: "/bin/sh")
        #expect(run.status == 0)
        let lines = run.stdoutLines
        let eventLines = Array(lines.indices.filter { lines[$0].hasPrefix("{") }.dropFirst())
        #expect(try eventLines.map { try lines[$0].parsedJSON()["event"] } == ["didBecomeActive", "willResignActive", "didBecomeActive"])
        // AppLifecycleDelegate logs during each didBecomeActive: its line comes before that event's line,
        // after the event before it.
        let active = lines.indices.filter { lines[$0] == "[AppLifecycleDelegate] info: The app has become active." }
        #expect(active.count == 2)
        guard eventLines.count == 3, active.count == 2 else { return }
        #expect(active[0] < eventLines[0])
        #expect(eventLines[1] < active[1] && active[1] < eventLines[2])
    }

    @Test("human output on a pipe: each event's block appears before the next line is written")
    func humanBlocksBeforeEndOfInput() throws {
        let apphost = try StreamingAppHost(["--manifest", manifest, "--events", "-"])
        var headings: [String] = []
        for event in ["didFinishLaunching", "didBecomeActive"] {
            try apphost.send(#"{"event": "\#(event)"}"# + "\n")
            // The pipe stays open: the block must come out before apphost waits for more.
            while let line = apphost.nextLine() {
                if line.hasPrefix("▸ ") {
                    headings.append(line)
                    break
                }
            }
        }
        let run = try apphost.finish(kill: headings.count < 2)
        #expect(headings.map { $0.split(separator: " ")[1] } == ["didFinishLaunching", "didBecomeActive"])
        #expect(run.status == 0)
    }

    @Test("a plugin that crashes the process does not take the buffered output of the events before it along")
    func crashKeepsEarlierEvents() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("manifest.json", """
            {"app": {"name": "Crash", "bundleIdentifier": "dev.example.crash", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("ExtensionGuard"))"},
                         {"path": "\(AppHostProcess.plugin("CrashOnEvent"))"}]}
            """)
        let script = try directory.write("events.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "shouldAllowExtensionPointIdentifier", "identifier": "a"}
            {"event": "shouldAllowExtensionPointIdentifier", "identifier": "b"}
            {"event": "didBecomeActive"}

            """)
        let run = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--json", "--allow-writable"])
        // CrashOnEvent writes through NULL in didBecomeActive: the process dies of SIGSEGV ...
        #expect(run.status == SIGSEGV)
        // ... but the two events played before it were written out on the way down, whole.
        #expect(run.stdoutLines.count == 3)
        #expect(try run.stdoutLines.map { try $0.parsedJSON()["event"] } == ["didFinishLaunching", "shouldAllowExtensionPointIdentifier",
                                                                             "shouldAllowExtensionPointIdentifier"])
    }

    /// 200,000 lines logged in one event: written once each, in order, to stdout and to --json's
    /// stderr. While staging walked every staged line for each new line once its block was full,
    /// 20,000 lines took 9 s; 200,000 would take about 15 minutes, past the suite's time limit.
    @Test("a plugin logging 200,000 lines in one event: every line written once, in order, in linear time",
          .timeLimit(.minutes(10)))
    func manyLinesInOneEvent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let count = 200_000
        let manifest = try directory.write("m.json", """
            {"app": {"name": "Storm", "bundleIdentifier": "dev.example.storm", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("LogsManyLines"))", "options": {"lines": \(count)}}]}
            """)
        let script = try directory.write("events.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "didBecomeActive"}

            """)
        for extra in [["--json"], []] {
            let run = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--allow-writable"] + extra)
            #expect(run.status == 0, "\(extra): \(run.stderr.suffix(300))")
            let numbers = (run.stdoutLines + run.stderrLines).compactMap { line -> Int? in
                guard let range = line.range(of: "line "), let of = line.range(of: " of \(count)") else { return nil }
                return Int(line[range.upperBound..<of.lowerBound])
            }
            #expect(numbers.count == count, "\(extra): \(numbers.count) lines of \(count)")
            #expect(numbers == Array(1...count), "\(extra): every line once, in order")
        }
    }
}
