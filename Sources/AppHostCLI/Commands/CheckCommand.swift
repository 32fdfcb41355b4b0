#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SubscriberConformance
import SubscriberKit
import SubscriberEventModel

/// `apphost check PLUGIN.so…`: the conformance kit (docs/conformance-kit.md) on the command line.
/// Prints a table (or `--json`), optionally writes JUnit XML, and exits 0 when nothing failed, 1 when a check
/// failed, 2 when the kit could not run (bad arguments, a check's child process that could not be
/// started or did not answer) or the report could not be written. Every argument is checked before
/// the first check runs. The checks' children are this executable itself.
package enum CheckCommand {
    /// The command's options and arguments.
    package static let spec = CommandSpec(
        name: "check",
        summary: "Run the conformance kit against plugin libraries: each check in a child process, with a timeout.",
        options: [
            .flag("json", help: "Print the report as JSON instead of a table."),
            .value("junit", "FILE", help: "Also write a JUnit XML report to FILE."),
            .value("only", "ID,...", help: "Run only these checks (ids or groups: load, subscriber, events).", repeatable: true),
            .value("skip", "ID,...", help: "Leave out these checks (ids or groups).", repeatable: true),
            .value("seed", "N", help: "Seed of the fuzzed inputs (default: random, shown in the report)."),
            .value("timeout", "MS",
                   help: "How long a check may go without progress, in milliseconds, 3000 to 600000, and at least the "
                       + "completion timeout + 1000 (default 10000, or the completion timeout + 1000 when that is more); "
                       + "a check may run 12 times as long in all."),
            .value("completion-timeout", "MS",
                   help: "How long a completion may take before it counts as late, in milliseconds, 1 to 599000 "
                       + "(default 2000; the host allows 30000, Expo about 3000)."),
            .value("options", "JSON|@FILE",
                   help: "Options for every plugin's subscribers, as a manifest entry's \"options\": a JSON object, or @FILE holding one."),
            .value("plugin-options", "PLUGIN.so=JSON|@FILE",
                   help: "Options for one plugin's subscribers (PLUGIN.so exactly as given), instead of --options.",
                   repeatable: true),
            .flag("allow-writable", help: "Turn the plugin path check off (unsafe): accept files or folders writable by others or owned by another user."),
            .flag("list-checks", help: "List the checks and exit.", standalone: true),
        ],
        positionals: PositionalSpec("PLUGIN.so", help: "Plugin libraries to check.", minCount: 1)
    )

    /// Runs `apphost check` with the arguments after "check", the report on `output` and errors on
    /// `errors`; returns the exit code. The caller turns a failed write on `output` into status 2.
    package static func run(_ arguments: [String], output: TextOutput = .standardOutput,
                           errors: TextOutput = .standardError) async -> Int32 {
        let parsed: ParsedArguments
        let options: ConformanceOptions
        do throws(UsageError) {
            parsed = try parse(arguments, spec: spec)
            if parsed.wantsHelp {
                output.write(helpText(for: spec))
                return 0
            }
            if parsed.flag("list-checks") {
                output.write(checkList())
                return 0
            }
            options = try conformanceOptions(parsed)
            // A path that names nothing is a typo, not a plugin that fails a check.
            if let missing = parsed.positionals.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
                throw UsageError("PLUGIN.so '\(ErrorLine.path(missing))': expected a plugin file, found nothing there")
            }
            if let file = parsed.value("junit") { try checkReportPath(file, inputs: inputs(of: parsed)) }
        } catch {
            // One line, as every command's usage errors (--help says the rest).
            errors.singleLine("apphost check: \(error.message)")
            return 2
        }

        let report = await ConformanceKit.run(plugins: parsed.positionals, options: options)
        if let problem = report.problem {
            errors.singleLine("apphost check: \(problem)")
            return 2
        }
        output.write(parsed.flag("json") ? ConformanceKit.json(report) : ConformanceKit.table(report))
        if let file = parsed.value("junit") {
            if let failure = writeReport(ConformanceKit.junit(report), to: file) {
                errors.singleLine("apphost check: --junit '\(ErrorLine.path(file))': expected a writable file, found \(failure)")
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
                throw UsageError("--seed expects a whole number from 0 to \(UInt64.max), found '\(ErrorLine.value(text))'")
            }
            options.seed = seed
        }
        if let text = parsed.value("completion-timeout") {
            let maximum = Int(ConformanceOptions.maximumCompletionDeadline.milliseconds)
            guard let milliseconds = Int(text), (1...maximum).contains(milliseconds) else {
                throw UsageError("--completion-timeout expects a whole number of milliseconds from 1 to \(maximum), "
                                 + "found '\(ErrorLine.value(text))'")
            }
            options.completionDeadline = .milliseconds(milliseconds)
            // Without --timeout, a check gets long enough to wait for a completion.
            options.checkTimeout = max(options.checkTimeout, options.minimumCheckTimeout)
        }
        if let text = parsed.value("timeout") {
            let minimum = Int(options.minimumCheckTimeout.milliseconds)
            let maximum = Int(ConformanceOptions.maximumCheckTimeout.milliseconds)
            guard let timeout = Int(text), (minimum...maximum).contains(timeout) else {
                throw UsageError("--timeout expects a whole number of milliseconds from \(minimum) to \(maximum) "
                                 + "(a check may wait \(Int(options.completionDeadline.milliseconds)) ms for a completion), found '\(ErrorLine.value(text))'")
            }
            options.checkTimeout = .milliseconds(timeout)
        }
        options.allowWritable = parsed.flag("allow-writable")
        if let text = parsed.value("options") {
            options.subscriberOptions = try subscriberOptions(text, option: "--options")
        }
        for value in parsed.values("plugin-options") {
            guard let (plugin, text) = pluginOptions(value, plugins: parsed.positionals) else {
                throw UsageError("--plugin-options expects PLUGIN.so=JSON|@FILE naming one of the PLUGIN.so arguments, "
                                 + "found '\(ErrorLine.value(value))'")
            }
            let option = "--plugin-options \(ErrorLine.path(plugin))"
            guard options.subscriberOptionsByPlugin[plugin] == nil else {
                throw UsageError("\(option): expected once, found twice")
            }
            options.subscriberOptionsByPlugin[plugin] = try subscriberOptions(text, option: option)
        }
        return options
    }

    /// A `--plugin-options` value split into its plugin, one of `plugins` exactly (the longest that
    /// fits: a path may hold "=", JSON too), and its JSON or @FILE; nil when it names none.
    static func pluginOptions(_ value: String, plugins: [String]) -> (plugin: String, text: String)? {
        guard let plugin = plugins.filter({ value.hasPrefix($0 + "=") }).max(by: { $0.count < $1.count }) else { return nil }
        return (plugin, String(value.dropFirst(plugin.count + 1)))
    }

    /// The files the run reads that the report must never replace: every plugin, and every
    /// `--options`/`--plugin-options` @FILE (only regular files: see ``LogFile/Guarded``).
    static func inputs(of parsed: ParsedArguments) -> [LogFile.Guarded] {
        var optionFiles = [parsed.value("options")].compactMap { $0 }.map { ("--options", $0) }
        for value in parsed.values("plugin-options") {
            if let (plugin, text) = pluginOptions(value, plugins: parsed.positionals) {
                optionFiles.append(("--plugin-options \(ErrorLine.path(plugin))", text))
            }
        }
        let plugins = parsed.positionals.compactMap { LogFile.Guarded(role: "the plugin '\(ErrorLine.path($0))'", path: $0) }
        let files = optionFiles.filter { $0.1.hasPrefix("@") }.compactMap { option, text in
            LogFile.Guarded(role: "the \(option) file '\(ErrorLine.path(String(text.dropFirst())))'", path: String(text.dropFirst()))
        }
        return plugins + files
    }

    /// The most bytes of subscriber options, given inline or in a file.
    static let optionsSizeLimit = 1 << 20

    /// A JSON object given as text, or as `@FILE` (read, at most ``optionsSizeLimit`` bytes).
    static func subscriberOptions(_ text: String, option: String) throws(UsageError) -> JSONObject {
        var json = text
        var source = ""
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            source = " in '\(ErrorLine.path(path))'"
            json = try readOptionsFile(path, option: option)
        } else if text.utf8.count > optionsSizeLimit {
            throw UsageError("\(option): expected at most \(optionsSizeLimit) bytes of JSON, found \(text.utf8.count)")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw UsageError("\(option): expected a JSON object\(source), found invalid JSON: \(error)")
        }
        guard let object = value.objectValue else {
            throw UsageError("\(option): expected a JSON object\(source), found \(kind(of: value))")
        }
        return object
    }

    /// The text of the options file at `path`: opened once, without waiting (`O_NONBLOCK`: a FIFO
    /// put at the path cannot make open block), and checked on that descriptor — a regular file of
    /// at most ``optionsSizeLimit`` bytes — so that the file checked is the file read.
    static func readOptionsFile(_ path: String, option: String) throws(UsageError) -> String {
        func failure(_ found: String) -> UsageError {
            UsageError("\(option): expected a readable JSON file at '\(ErrorLine.path(path))', found \(found)")
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(errno == ENOENT ? "nothing there" : String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw failure("something that is not a regular file") }
        guard info.st_size <= optionsSizeLimit else { throw failure("a file of \(info.st_size) bytes (at most \(optionsSizeLimit))") }
        // One byte more than the limit: a file that grew since fstat is caught too.
        var bytes = [UInt8](repeating: 0, count: optionsSizeLimit + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else { throw failure(String(cString: strerror(errno))) }
            if read == 0 { break }
            count += read
        }
        guard count <= optionsSizeLimit else { throw failure("a file larger than \(optionsSizeLimit) bytes") }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }

    /// Writes `text` to `path` whole or not at all: a new temporary file in the same folder, made by
    /// `mkstemp` (O_EXCL: never an existing file, nor a planted symlink), then renamed over `path`
    /// (which replaces a symlink there rather than writing through it). Nil when written, else what
    /// went wrong.
    static func writeReport(_ text: String, to path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        var template = Array((url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        let creationError = errno
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard fd >= 0 else {
            return "an error creating a temporary file '\(temporary)' (\(String(cString: strerror(creationError))))"
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        // mkstemp makes it 0600; a report is as readable as any file the user creates.
        let mask = umask(0)
        umask(mask)
        _ = fchmod(fd, 0o644 & ~mask)
        let bytes = Array(text.utf8)
        var offset = 0
        var failure: String?
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 {
                failure = "a write error (\(String(cString: strerror(errno))))"
                break
            }
            offset += written
        }
        if close(fd) != 0 && failure == nil { failure = "a write error (\(String(cString: strerror(errno))))" }
        if failure == nil && rename(temporary, path) != 0 { failure = "a rename error (\(String(cString: strerror(errno))))" }
        if failure != nil { unlink(temporary) }
        return failure
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Checks that the report file can be written, before any check runs: its folder exists and
    /// is writable, the path is not a folder (nor anything but a writable regular file), and it is
    /// none of `inputs` (the report would replace a plugin or an options file).
    static func checkReportPath(_ path: String, inputs: [LogFile.Guarded]) throws(UsageError) {
        func failure(_ expected: String, _ found: String) -> UsageError {
            UsageError("--junit '\(ErrorLine.path(path))': expected \(expected), found \(found)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw failure("a file path", "a directory") }
            if info.st_mode & S_IFMT != S_IFREG { throw failure("a regular file to replace", "something else") }
            if let input = inputs.first(where: { $0.device == UInt64(info.st_dev) && $0.inode == UInt64(info.st_ino) }) {
                throw failure("a file that is not an input of the run", input.role)
            }
            if access(path, W_OK) != 0 { throw failure("a writable file", "a file it may not write") }
        }
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw failure("a file in an existing folder", "no folder '\(ErrorLine.path(folder))'")
        }
        // The report is written atomically: a temporary file in the folder, then renamed.
        if access(folder, W_OK) != 0 { throw failure("a file in a writable folder", "folder '\(ErrorLine.path(folder))' not writable") }
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
}
