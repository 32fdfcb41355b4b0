import Synchronization
import Testing
@testable import AppHostCLI

/// Collects what a command writes.
final class CapturedOutput: Sendable {
    private let text = Mutex("")
    var output: TextOutput { TextOutput { [self] chunk in text.withLock { $0 += chunk } } }
    var contents: String { text.withLock { $0 } }
}

/// Records which routed command ran, with which arguments.
final class RouteLog: Sendable {
    private let calls = Mutex<[String]>([])
    func record(_ call: String) { calls.withLock { $0.append(call) } }
    var recorded: [String] { calls.withLock { $0 } }
}

/// The root command's dispatch, in process, with the conformance kit's commands replaced.
@MainActor
@Suite("Command routing")
struct RoutingTests {
    func run(_ arguments: [String]) async -> (status: Int32, stdout: String, stderr: String, routed: [String]) {
        let out = CapturedOutput(), err = CapturedOutput(), log = RouteLog()
        let routes = AppHostCommand.Routes(
            check: { arguments, _, _ in log.record("check " + arguments.joined(separator: " ")); return 7 })
        let status = await AppHostCommand.run(arguments, output: out.output, errors: err.output, routes: routes)
        return (status, out.contents, err.contents, log.recorded)
    }

    @Test("check goes to the conformance kit, with its arguments")
    func checkRoutes() async {
        let check = await run(["check", "--help"])
        #expect(check.status == 7 && check.routed == ["check --help"])
        let options = await run(["--json", "check", "a.so", "--only", "x"])
        #expect(options.status == 7 && options.routed == ["check --json a.so --only x"])
        // A manifest called "check" is a value, not the command.
        let value = await run(["--manifest", "check", "--version"])
        #expect(value.routed.isEmpty && value.status == 0)
    }

    @Test("help, version and usage errors without loading anything")
    func rootCommands() async {
        let help = await run(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage: apphost --manifest FILE [options]") && help.stderr.isEmpty)
        let version = await run(["--version"])
        #expect(version.status == 0 && version.stdout == AppHostCommand.version + "\n")
        let listHelp = await run(["list", "-h"])
        #expect(listHelp.status == 0 && listHelp.stdout.hasPrefix("Usage: apphost list --manifest FILE [options]"))
        let missing = await run([])
        #expect(missing.status == 2 && missing.stdout.isEmpty && missing.stderr == "apphost: missing required option '--manifest'\n")
        let unknown = await run(["lst", "--manifest", "m.json"])
        #expect(unknown.status == 2 && unknown.stderr == "apphost: unknown command 'lst' for 'apphost' (did you mean 'list'?)\n")
        let deadline = await run(["--manifest", "m.json", "--deadline", "soon"])
        #expect(deadline.status == 2
                && deadline.stderr == "apphost: --deadline expects a whole number of milliseconds, at least 1, found 'soon'\n")
    }
}
