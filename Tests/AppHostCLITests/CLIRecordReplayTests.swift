import Foundation
import Glibc
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// `apphost run --record FILE` writes every event it dispatched, from every source, as an event script
/// with `"source"` and `"at"`; `apphost --events FILE` replays it with the same outcomes, line for line.
@Suite("apphost run --record, replayed by apphost --events")
struct CLIRecordReplayTests {
    /// Event lines of a `--json` output (the host's own `{"host": …}` lines left out), each without
    /// its durations (`"ms"`): what the subscribers answered, and nothing measured.
    static func outcomes(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(#"{"event":"#) }
            .map { $0.replacing(#/,"ms":[-0-9.eE+]+/#, with: "") }
    }

    /// A log file's lines as subscriber, kind, level, message and event (times and attributes, which
    /// hold wall-clock timestamps, left out).
    static func logLines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
            let object = try String(line).parsedJSON()
            return ["subscriber", "kind", "level", "message", "event"].map { object[$0].map { "\($0)" } ?? "-" }.joined(separator: " | ")
        }
    }

    @Test("launch, two socket events, SIGUSR1, SIGTERM: recorded with their sources, replayed with the same outcomes and logs")
    func recordAndReplay() throws {
        let directory = try TemporaryDirectory()
        let record = directory.path + "/session.jsonl"
        let liveLog = directory.path + "/live-log.jsonl"
        let host = try LiveHostChild(["run", "--manifest", CLILiveHostTests.news, "--url", "news://article/1", "--json",
                                      "--log-file", liveLog, "--record", record], directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        #expect(try CLILiveHostTests.send(#"{"event": "openURL", "url": "news://article/7"}"#, to: host).status == 0)
        host.signal(SIGUSR1)
        // Its reply comes once the signal before it was handled (one loop, in order).
        #expect(try CLILiveHostTests.send(#"{"event": "performFetch"}"#, to: host).status == 0)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")

        // Every event, each line a script line with its source and the clock's time, in order.
        let lines = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map { try String($0).parsedJSON() }
        #expect(lines.map { $0["event"] } == ["willFinishLaunching", "didFinishLaunching", "didBecomeActive", "openURL",
                                              "didReceiveMemoryWarning", "performFetch", "willResignActive",
                                              "didEnterBackground", "willTerminate"])
        #expect(lines.map { $0["source"] } == ["launch", "launch", "launch", "control socket", "signal SIGUSR1",
                                               "control socket", "signal SIGTERM", "signal SIGTERM", "signal SIGTERM"])
        let times = lines.compactMap { if case .number(let at)? = $0["at"] { at } else { nil } }
        #expect(times.count == lines.count && times == times.sorted() && times.allSatisfy { $0 >= 0 })

        let replayLog = directory.path + "/replay-log.jsonl"
        let replay = try AppHostProcess.run(["--manifest", CLILiveHostTests.news, "--json", "--log-file", replayLog, "--events", record])
        #expect(replay.status == 0, "\(replay.stderr)")
        let live = Self.outcomes(host.stdout)
        #expect(live.count == 9)
        #expect(Self.outcomes(replay.stdout) == live)
        #expect(try Self.logLines(replayLog) == Self.logLines(liveLog))
    }

    @Test("a script line may carry source and at; a bad at is one line naming it")
    func scriptKeys() throws {
        let calls = try EventScript.parse("""
            {"event": "didFinishLaunching", "source": "launch", "at": 0}
            {"event": "openURL", "url": "news://a", "source": "control socket", "at": 12.5}
            """, file: "s.jsonl")
        #expect(calls.map(\.event.name) == ["didFinishLaunching", "openURL"])
        for (bad, found) in [(#""at": -1"#, "the number -1"), (#""at": "soon""#, #"the string "soon""#)] {
            #expect(throws: EventScriptError.self) { try EventScript.parse(#"{"event": "didBecomeActive", \#(bad)}"#, file: "s.jsonl") }
            do {
                _ = try EventScript.parse(#"{"event": "didBecomeActive", \#(bad)}"#, file: "s.jsonl")
            } catch {
                #expect("\(error)" == "s.jsonl:1: at: expected milliseconds since the host started, a number ≥ 0, found \(found)")
            }
        }
        #expect(throws: EventScriptError.self) { try EventScript.parse(#"{"event": "didBecomeActive", "source": 3}"#, file: "s.jsonl") }
    }

    @Test("recording is bounded: past its limit, one warning and nothing more is written")
    @MainActor
    func bounded() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/bounded.jsonl"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        let recorder = SessionRecorder(fd: fd, name: "--record bounded.jsonl", clock: MonotonicClock(), limit: 100)
        #expect(recorder.record(NotificationCall.didBecomeActive.erased, source: "launch") == nil)
        let warning = recorder.record(NotificationCall.didReceiveMemoryWarning.erased, source: "signal SIGUSR1")
        #expect(warning == "--record bounded.jsonl: expected at most 100 bytes of recording, found more at didReceiveMemoryWarning; recording stopped")
        #expect(recorder.record(NotificationCall.willResignActive.erased, source: "signal SIGTERM") == nil)  // said once
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 1 && text.utf8.count <= 100)
        #expect(SessionRecorder.limit == EventScript.fileLimit)
    }
}
