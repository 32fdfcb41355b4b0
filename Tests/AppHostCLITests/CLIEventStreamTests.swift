import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// Event scripts are read line by line: a line has a size limit, and standard input is played as
/// it streams instead of being read to its end first.
@Suite("CLI: event scripts read line by line", .serialized)
struct CLIEventStreamTests {
    let manifest = AppHostProcess.manifest("news.json")

    @Test("--events /dev/zero fails at the line limit with one line, nothing played")
    func endlessLine() throws {
        let run = try AppHostProcess.run(["--manifest", manifest, "--events", "/dev/zero"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["apphost: /dev/zero:1: expected a line of at most 1 MiB, found more"])
    }

    @Test("a script file with a line past 1 MiB names that line; a line of exactly 1 MiB is read")
    func longLineInFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let event = #"{"event": "performFetch"}"#
        let padded = event + String(repeating: " ", count: EventScript.lineLimit - event.utf8.count)
        let script = try directory.write("events.jsonl", padded + "\n" + padded + " \n" + event + "\n")
        let run = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--json"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)  // a file is checked whole: nothing played
        #expect(run.stderrLines == ["apphost: \(script):2: expected a line of at most 1 MiB, found more"])
        #expect(try EventScript.parse(padded, file: "s") == [EventCall.performFetch.erased])
    }

    @Test("standard input plays as it streams: 20,000 events, then a bad line stops the run with its number")
    func boundedStream() throws {
        let count = 20_000
        let apphost = try StreamingAppHost(["--manifest", manifest, "--events", "-", "--json"], outputToFile: true)
        // Written while apphost reads: far more than a pipe holds, so it must read as it goes.
        try apphost.send(#"{"event": "didFinishLaunching"}"# + "\n")
        let block = String(repeating: #"{"event": "didReceiveMemoryWarning"}"# + "\n", count: 1_000)
        for _ in 0..<(count / 1_000) { try apphost.send(block) }
        try apphost.send(#"{"event": "fetch"}"# + "\n" + #"{"event": "willTerminate"}"# + "\n")
        try apphost.closeInput()
        let run = try apphost.finish()
        #expect(run.status == 2)
        let events = run.stdout.split(separator: "\n").dropFirst()
        #expect(events.count == count)
        #expect(try events.allSatisfy {
            let line = try String($0).parsedJSON()
            return line["event"] == "didReceiveMemoryWarning" && line["reports"] == []
        })
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("apphost:") }
        #expect(errors == [#"apphost: <stdin>:20002: event: expected an event wire name such as performFetch, found the string "fetch""#])
    }

    @Test("an endless producer: each event's output appears before the next line is written")
    func outputBeforeEndOfInput() throws {
        let apphost = try StreamingAppHost(["--manifest", manifest, "--events", "-", "--json"])
        var seen: [JSONValue?] = []
        for event in ["didFinishLaunching", "performFetch", "didBecomeActive"] {
            try apphost.send(#"{"event": "\#(event)"}"# + "\n")
            // The pipe stays open: only a streaming reader can answer now.
            guard let line = apphost.nextLine() else { break }
            seen.append(try line.parsedJSON()["event"])
        }
        let run = try apphost.finish(kill: seen.count < 3)
        #expect(seen == ["didFinishLaunching", "performFetch", "didBecomeActive"])
        #expect(run.status == 0)
    }
}
