import SubscriberKit
import SubscriberEventModel

/// The `apphost` command line: parses the arguments and hands them to the command they name.
///
/// `Sources/apphost/main.swift` calls ``prepareProcess()``, then runs
/// `exit(await AppHostCommand.main(CommandLine.arguments))` on the main thread's run loop.
package enum AppHostCommand {
    /// The program's name in help and errors.
    package static let program = "apphost"
    /// apphost's own version.
    package static let versionNumber = "0.1.0"

    /// `apphost 0.1.0 (ABI 1.0, Swift 6.3)`: the ABI this host speaks and the compiler Swift
    /// plugins must match.
    package static var version: String {
        "\(program) \(versionNumber) (ABI \(ABI.major).\(ABI.minor), Swift \(SubscriberPlugin.swiftCompilerVersion))"
    }

    /// The root command: a run, with `list` and `check` as subcommands.
    static let spec = CommandSpec(
        name: "",
        summary: "Load the subscriber plugins a manifest names and play app-lifecycle events through them.",
        options: RunCommand.options,
        subcommands: [ListCommand.spec, checkSummary, LiveRunCommand.spec, SendCommand.spec, OpenCommand.spec]
    )

    /// `check` as the root's help lists it; its own options are the conformance kit's to parse.
    static let checkSummary = CommandSpec(name: "check", summary: "Run the plugin conformance kit on PLUGIN.so files.")

    /// What the root's `--help` adds after the options.
    /// The default scenario's events, as it plays them, wrapped as the help text is.
    private static var scenarioEvents: String {
        var lines: [String] = [], line = ""
        for name in DefaultScenario.calls.map(\.event.name) {
            if !line.isEmpty, line.count + name.count + 2 > 96 { lines.append(line + ","); line = "" }
            line += line.isEmpty ? name : ", " + name
        }
        return (lines + [line + "."]).joined(separator: "\n")
    }

    static let helpEpilogue = """

        Without --events, plays the default scenario, the News demo's inputs whatever the manifest:
        \(scenarioEvents)

        Event scripts (--events): JSON Lines, one event per line, arguments named as in UIKit:
          {"event": "didFinishLaunching", "launchOptions": {"url": "news://article/7"}}
          {"event": "openURL", "url": "news://article/7", "options": {"sourceApplication": "x"}}
          {"event": "performFetch"}
        Blank lines and lines starting with # or // are skipped; a line may have at most 1 MiB,
        a script file at most 64 MiB. A script file is checked whole before anything is played:
        a bad line is reported (file:line: field: expected, found) and no event is played.
        Standard input (--events -) is played as it arrives: each line is checked just before
        it is played, so a bad line stops the run there, after the events before it.

        --log-file is opened once the manifest and script were read and the plugins loaded; it
        may not be the manifest, the script, a plugin file or where standard output goes, and
        must be a regular file or a device such as /dev/null (a FIFO is refused).

        Without --events, the scenario's inputs are the News demo's whatever the manifest (the
        universal link https://news.example.com/article/42, news://article/7, {"articles": [101, 102]}).

        Exit status:
          0  every event played without a report
          1  an event failed: it got a report (a subscriber was late, completed twice, after
             delivery or after declining, declined too late, or answers conflicted), or a plugin
             called exit() during the run. A fetch result "failed" is an answer, not a failure.
          2  usage error, bad manifest or event script, a plugin that failed to load, or a
             write that failed (standard output or the log file; a closed pipe ends quietly)
          128+N  a signal ended the run (SIGTERM, SIGINT, SIGHUP, or a plugin's crash): what
             was played is written out first, with one line saying what ended it and when

        """

    /// Readies the process, before anything opens a file descriptor (the run loop does): closed
    /// standard descriptors get placeholders (``StandardDescriptors``), and the output is made to
    /// survive signals, crashes and a plugin's `exit()` (``Survival``). Once; later calls do nothing.
    package static func prepareProcess() {
        StandardDescriptors.reserve()
        Survival.installProcessHooks()
    }

    /// Runs `apphost` with `commandLine` (the program's path first, as in `CommandLine.arguments`);
    /// returns the exit status. Output goes to stdout, errors to stderr.
    @MainActor
    package static func main(_ commandLine: [String]) async -> Int32 {
        prepareProcess()
        let status = await run(Array(commandLine.dropFirst()), output: .standardOutput, errors: .standardError)
        TextOutput.flushPending()
        return status
    }

    /// The commands `run` hands arguments to, whose implementation lives elsewhere.
    struct Routes: Sendable {
        /// `apphost check …`, with the arguments after `check`, writing to the given output and errors.
        var check: @Sendable (_ arguments: [String], _ output: TextOutput, _ errors: TextOutput) async -> Int32

        /// The conformance kit's command.
        static let standard = Routes(check: { await CheckCommand.run($0, output: $1, errors: $2) })
    }

    /// Runs `apphost` with `arguments` (without the program's path).
    @MainActor
    static func run(_ arguments: [String], output: TextOutput, errors: TextOutput,
                    routes: Routes = .standard) async -> Int32 {
        let (command, rest) = splitSubcommand(arguments, known: spec.subcommands.map(\.name), root: spec)
        if command == checkSummary.name {
            return finished(await routes.check(rest, output, errors), output: output, errors: errors)
        }

        let parsed: ParsedArguments
        do {
            parsed = try parseCommandLine(arguments, root: spec, program: program)
        } catch {
            errors.singleLine("\(program): \(error.message)")
            return ExitStatus.usage
        }
        switch parsed.command {
        case ListCommand.spec.name:
            if parsed.wantsHelp {
                output.write(helpText(for: ListCommand.spec, program: program) + ListCommand.helpEpilogue)
                return finished(ExitStatus.success, output: output, errors: errors)
            }
            return finished(ListCommand.run(parsed, output: output, errors: errors), output: output, errors: errors)
        case LiveRunCommand.spec.name, SendCommand.spec.name, OpenCommand.spec.name:
            return finished(await runLive(parsed, output: output, errors: errors), output: output, errors: errors)
        default:
            if parsed.wantsHelp {
                output.write(helpText(for: spec, program: program) + helpEpilogue)
                return finished(ExitStatus.success, output: output, errors: errors)
            }
            if parsed.flag("version") {
                output.line(version)
                return finished(ExitStatus.success, output: output, errors: errors)
            }
            return finished(await RunCommand.run(parsed, output: output, errors: errors), output: output, errors: errors)
        }
    }

    /// The live host's commands: `run`, `send`, `open` (docs/live-host.md).
    @MainActor
    private static func runLive(_ parsed: ParsedArguments, output: TextOutput, errors: TextOutput) async -> Int32 {
        let (spec, epilogue): (CommandSpec, String) = switch parsed.command {
        case SendCommand.spec.name: (SendCommand.spec, SendCommand.helpEpilogue)
        case OpenCommand.spec.name: (OpenCommand.spec, OpenCommand.helpEpilogue)
        default: (LiveRunCommand.spec, LiveRunCommand.helpEpilogue)
        }
        if parsed.wantsHelp {
            output.write(helpText(for: spec, program: program) + epilogue)
            return ExitStatus.success
        }
        switch parsed.command {
        case SendCommand.spec.name: return SendCommand.run(parsed, output: output, errors: errors)
        case OpenCommand.spec.name: return OpenCommand.run(parsed, output: output, errors: errors)
        default: return await LiveRunCommand.run(parsed, output: output, errors: errors)
        }
    }

    /// `status`, unless a write to `output` failed: then that failure's one line on `errors` and
    /// status 2. A closed pipe is not reported (the reader stopped reading on purpose).
    static func finished(_ status: Int32, output: TextOutput, errors: TextOutput) -> Int32 {
        TextOutput.flushPending()
        guard let failure = output.failure, !failure.isClosedPipe else { return status }
        errors.singleLine("\(program): \(failure)")
        return ExitStatus.usage
    }
}
