import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// `--log-file` is opened only after the run's inputs were read and its plugins loaded, never
/// clobbers an input or the run's other output, never blocks on a FIFO, and gets only log lines.
@Suite("CLI: --log-file safety", .serialized)
struct CLILogFileTests {
    let manifest = AppHostProcess.manifest("news.json")

    @Test("--log-file naming the manifest is refused and the manifest is left intact")
    func logFileIsTheManifest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let copy = try directory.write("v.json", try String(contentsOfFile: manifest, encoding: .utf8))
        let before = try String(contentsOfFile: copy, encoding: .utf8)
        let run = try AppHostProcess.run(["--manifest", copy, "--log-file", copy, "--plugin-dir", AppHostProcess.buildDirectory])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["apphost: --log-file \(copy): expected a file that is not an input or output of the run, found the manifest"])
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == before)
    }

    @Test("the event script, a plugin file or standard output as --log-file are refused too")
    func otherInputsAndOutputs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("events.jsonl", #"{"event": "didBecomeActive"}"# + "\n")
        let asScript = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--log-file", script])
        #expect(asScript.status == 2)
        #expect(asScript.stderrLines == ["apphost: --log-file \(script): expected a file that is not an input or output of the run, found the event script"])
        #expect(try String(contentsOfFile: script, encoding: .utf8) == #"{"event": "didBecomeActive"}"# + "\n")

        let plugin = AppHostProcess.plugin("DeepLinkRouter")
        let size = try FileManager.default.attributesOfItem(atPath: plugin)[.size] as? Int
        let asPlugin = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--log-file", plugin])
        #expect(asPlugin.status == 2)
        #expect(asPlugin.stderr.contains("expected a file that is not an input or output of the run, found the plugin file "))
        #expect(try FileManager.default.attributesOfItem(atPath: plugin)[.size] as? Int == size)

        let out = directory.path + "/out.txt"
        #expect(FileManager.default.createFile(atPath: out, contents: nil))
        let asOutput = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--log-file", out], standardOutput: .file(out))
        #expect(asOutput.status == 2)
        #expect(asOutput.stderrLines == ["apphost: --log-file \(out): expected a file that is not an input or output of the run, found standard output"])
    }

    @Test("a run that fails before its first event leaves an existing log file as it was")
    func earlyFailureKeepsLog() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = try directory.write("log.jsonl", "yesterday's log\n")
        let badScript = try directory.write("bad.jsonl", #"{"event": "nope"}"# + "\n")
        let badManifest = try directory.write("broken.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [{"library": "NoSuchPlugin"}]}
            """)
        for arguments in [["--manifest", manifest, "--events", badScript], ["--manifest", badManifest]] {
            let run = try AppHostProcess.run(arguments + ["--log-file", log])
            #expect(run.status == 2)
            #expect(run.stderrLines.count == 1)
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "yesterday's log\n")
        }
    }

    @Test("a FIFO is refused, without waiting for a reader or writing into it")
    func fifoRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.path + "/log.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader is present, so even an unchecked open would not block: it would write into it.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let run = try AppHostProcess.run(["--manifest", manifest, "--log-file", fifo])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["apphost: --log-file \(fifo): expected a regular file or a device such as /dev/null, found a FIFO"])
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) <= 0)  // nothing was written into it
    }

    @Test("with standard output closed, the log file gets log lines only and the lost output is an error")
    func closedStandardOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path + "/log.jsonl"
        let run = try AppHostProcess.run(["--manifest", manifest, "--log-file", log], standardOutput: .closed)
        #expect(run.status == 2)
        #expect(run.stderrLines == ["apphost: standard output: write failed: Bad file descriptor"])
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines { #expect(try String(line).parsedJSON()["subscriber"]?.stringValue != nil, "\(line)") }
    }

    @Test("/dev/null is a log file like any other: accepted, the run succeeds")
    func devNullAccepted() throws {
        let run = try AppHostProcess.run(["--manifest", manifest, "--log-file", "/dev/null"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdoutLines.last == "\(DefaultScenario.calls.count) events played, no reports")
    }
}
