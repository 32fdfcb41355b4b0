import Foundation
import Testing
@testable import AppHostCLI

/// `--help` and `--version`, run as a subprocess.
@Suite("CLI: help and version", .serialized)
struct CLIHelpTests {
    @Test("root --help: usage, commands with check's summary, options, event scripts, exit statuses")
    func rootHelp() throws {
        for flag in ["--help", "-h"] {
            let run = try AppHostProcess.run([flag])
            #expect(run.status == 0)
            #expect(run.stderr.isEmpty)
            #expect(run.stdout.hasPrefix("Usage: apphost --manifest FILE [options]\n       apphost COMMAND [options]\n"))
            #expect(run.stdout.contains("  list "))
            #expect(run.stdout.contains("  check                 Run the plugin conformance kit on PLUGIN.so files."))
            for option in ["--events FILE|-", "--json", "--log-file FILE", "--deadline MS", "--plugin-dir DIR",
                           "--allow-writable", "--version"] {
                #expect(run.stdout.contains(option), "missing \(option)")
            }
            #expect(run.stdout.contains("lines starting with # or // are skipped"))
            #expect(run.stdout.contains("Exit status:\n  0 "))
        }
    }

    @Test("list --help")
    func listHelp() throws {
        let run = try AppHostProcess.run(["list", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Usage: apphost list --manifest FILE [options]\n"))
        #expect(run.stdout.contains("--json") && run.stdout.contains("Exit status:"))
    }

    @Test("check --help reaches the conformance kit's own help")
    func checkHelp() throws {
        let run = try AppHostProcess.run(["check", "--help"])
        #expect(!run.stderr.contains("unknown"))
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Usage: apphost check [options] PLUGIN.so..."))
        #expect(run.stdout.contains("--junit FILE") && run.stdout.contains("--seed N"))
    }

    @Test("--version: apphost, its version, the ABI it speaks and the Swift compiler plugins must match")
    func version() throws {
        let run = try AppHostProcess.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == AppHostCommand.version + "\n")
        #expect(run.stdout.wholeMatch(of: /apphost 0\.1\.0 \(ABI 1\.\d+, Swift \d+\.\d+\)\n/) != nil)
    }
}
