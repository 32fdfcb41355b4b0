import Foundation
import SubscriberConformance

/// `apphost check PLUGIN.so…`: the conformance kit (SPEC §7) on the command line. Prints a table
/// (or `--json`), optionally writes JUnit XML, and exits 0 when nothing failed, 1 when a check
/// failed, 2 when the kit could not run (bad arguments, no child executable).
public enum CheckCommand {
    /// The command's options and arguments.
    public static let spec = CommandSpec(
        name: "check",
        summary: "Run the conformance kit against plugin libraries: each check in a child process, with a timeout.",
        options: [
            .flag("json", help: "Print the report as JSON instead of a table."),
            .value("junit", "FILE", help: "Also write a JUnit XML report to FILE."),
            .value("only", "ID,...", help: "Run only these checks (ids or groups: load, subscriber, events).", repeatable: true),
            .value("skip", "ID,...", help: "Leave out these checks (ids or groups).", repeatable: true),
            .value("seed", "N", help: "Seed of the fuzzed inputs (default: random, shown in the report)."),
            .value("timeout", "MS", help: "Per-check timeout in milliseconds (default 10000)."),
            .flag("allow-writable", help: "Accept plugin files or folders writable by group or others."),
            .flag("list-checks", help: "List the checks and exit.", standalone: true),
        ],
        positionals: PositionalSpec("PLUGIN.so", help: "Plugin libraries to check.", minCount: 1)
    )

    /// Runs `apphost check` with the arguments after "check"; returns the exit code.
    public static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        let options: ConformanceOptions
        do throws(UsageError) {
            parsed = try parse(arguments, spec: spec)
            if parsed.wantsHelp {
                print(helpText(for: spec), terminator: "")
                return 0
            }
            if parsed.flag("list-checks") {
                print(checkList(), terminator: "")
                return 0
            }
            options = try conformanceOptions(parsed)
            // A path that names nothing is a typo, not a plugin that fails a check.
            if let missing = parsed.positionals.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
                throw UsageError("PLUGIN.so '\(missing)': expected a plugin file, found nothing there")
            }
        } catch {
            printError("apphost check: \(error.message)\nRun 'apphost check --help' for usage.")
            return 2
        }

        let report = await ConformanceKit.run(plugins: parsed.positionals, options: options)
        if let problem = report.problem {
            printError("apphost check: \(problem)")
            return 2
        }
        print(parsed.flag("json") ? ConformanceKit.json(report) : ConformanceKit.table(report), terminator: "")
        if let file = parsed.value("junit") {
            do {
                try ConformanceKit.junit(report).write(toFile: file, atomically: true, encoding: .utf8)
            } catch {
                printError("apphost check: --junit \(file): expected a writable file, found: \(error.localizedDescription)")
                return 2
            }
        }
        return report.exitCode
    }

    /// The kit's options from the parsed command line.
    static func conformanceOptions(_ parsed: ParsedArguments) throws(UsageError) -> ConformanceOptions {
        var options = ConformanceOptions()
        options.only = parsed.list("only")
        options.skip = parsed.list("skip")
        do {
            _ = try ConformanceKit.selectChecks(only: options.only, skip: options.skip)
        } catch {
            throw UsageError(error.description)
        }
        if let text = parsed.value("seed") {
            guard let seed = UInt64(text) else {
                throw UsageError("--seed expects a whole number from 0 to \(UInt64.max), found '\(text)'")
            }
            options.seed = seed
        }
        if let timeout = try parsed.int("timeout", of: "milliseconds", atLeast: 1) {
            options.checkTimeout = .milliseconds(timeout)
        }
        options.allowWritable = parsed.flag("allow-writable")
        return options
    }

    /// Every check: id, what it verifies, what it needs.
    static func checkList() -> String {
        let checks = ConformanceKit.checks
        let width = (checks.map(\.id.count).max() ?? 0) + 2
        return checks.map { check in
            let needs = check.requires.isEmpty ? "" : " (needs \(check.requires.joined(separator: ", ")))"
            return check.id + String(repeating: " ", count: width - check.id.count) + check.summary + needs
        }.joined(separator: "\n") + "\n"
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
