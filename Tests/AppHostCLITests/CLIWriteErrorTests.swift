import Foundation
import Testing
@testable import AppHostCLI

/// A write that fails (a full disk) is an error: exit 2 and one line, never silence.
@Suite("CLI: write errors", .serialized)
struct CLIWriteErrorTests {
    let manifest = AppHostProcess.manifest("news.json")

    @Test("--json, human output, list and --help to a full device: exit 2, one line naming standard output")
    func fullStandardOutput() throws {
        for arguments in [["--manifest", manifest, "--json"], ["--manifest", manifest], ["list", "--manifest", manifest],
                          ["list", "--manifest", manifest, "--json"], ["--help"], ["--version"]] {
            let run = try AppHostProcess.run(arguments, standardOutput: .file("/dev/full"))
            #expect(run.status == 2, "\(arguments)")
            let errors = run.stderrLines.filter { $0.hasPrefix("apphost:") }
            #expect(errors == ["apphost: standard output: write failed: No space left on device"], "\(arguments)")
        }
    }

    @Test("check's table, JSON, help and check list to a full device: exit 2, one line naming standard output")
    func fullStandardOutputFromCheck() throws {
        let plugin = AppHostProcess.plugin("GreeterC")
        for arguments in [["check", plugin, "--only", "load"], ["check", plugin, "--only", "load", "--json"],
                          ["check", "--help"], ["check", "--list-checks"]] {
            let run = try AppHostProcess.run(arguments, standardOutput: .file("/dev/full"))
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderrLines == ["apphost: standard output: write failed: No space left on device"], "\(arguments)")
        }
    }

    @Test("--log-file on a full device: exit 2, one line naming the log file; the run stops there")
    func fullLogFile() throws {
        let run = try AppHostProcess.run(["--manifest", manifest, "--log-file", "/dev/full"])
        #expect(run.status == 2)
        #expect(run.stderrLines == ["apphost: --log-file /dev/full: write failed: No space left on device"])
        // The first log line is written before the first event: no event was played into a lost log.
        #expect(!run.stdout.contains("▸ "))
        #expect(run.stdoutLines.last == "0 events played, no reports")
    }
}
