import Foundation
import Testing
import BuiltProducts
import SubscriberKit
import SubscriberEventModel

/// Runs the built `apphost` executable as a subprocess and captures what it did.
enum AppHostProcess {
    /// What one run printed and how it ended.
    struct Result {
        /// The exit status, or the signal that ended the process (see ``signal``).
        var status: Int32
        var stdout: String
        var stderr: String
        /// The signal that ended the process, nil when it exited.
        var signal: Int32? = nil

        /// stdout's lines, without the final empty one.
        var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        /// stderr's lines, without the final empty one.
        var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// The package's root folder.
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The build folder holding `apphost` and the plugins: beside the test binary (``BuiltProducts``).
    static var buildDirectory: String { BuiltProducts.directory }

    /// The `apphost` executable; a missing one fails the test.
    static var executable: String { BuiltProducts.file("apphost") }

    /// The plugin library `lib<name>.so`; a missing one fails the test.
    static func plugin(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        BuiltProducts.library(name, sourceLocation: sourceLocation)
    }

    /// A manifest shipped in `manifests/`.
    static func manifest(_ name: String) -> String { packageRoot + "/manifests/" + name }

    /// Where a run's standard output goes.
    enum StandardOutput {
        /// A temporary file, read back into ``Result/stdout``.
        case captured
        /// The file at this path (`/dev/full`, a file the test looks at); ``Result/stdout`` is empty.
        case file(String)
        /// Closed, as by the shell's `>&-`; ``Result/stdout`` is empty.
        case closed
    }

    /// Runs `apphost arguments` in the package root with `stdin` as standard input and the current
    /// environment minus `NO_COLOR`, with a scan cache of its own (`XDG_CACHE_HOME`), plus
    /// `environment`; standard output as `standardOutput` says.
    /// `program` runs instead of apphost when given (a shell that redirects for it).
    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:],
                    standardOutput: StandardOutput = .captured, program: String? = nil) throws -> Result {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let errPath = try directory.write("stderr", "")
        let outPath: String
        switch standardOutput {
        case .captured, .closed: outPath = try directory.write("stdout", "")
        case .file(let path): outPath = path
        }

        let process = Process()
        if case .closed = standardOutput {
            // Foundation cannot start a child with a closed descriptor: let the shell close it.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"exec "$0" "$@" >&-"#, executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: program ?? executable)
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = nil
        // A scan cache of the run's own (`list` writes one), unless the test keeps one across runs.
        variables["XDG_CACHE_HOME"] = directory.path + "/cache"
        variables.merge(environment) { $1 }
        process.environment = variables
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        // Standard input from a file, not a pipe: a child that exits without reading cannot
        // make the test process write into a closed pipe.
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: try directory.write("stdin", stdin ?? "")))
        process.standardInput = input
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        try input.close()
        let stdout: String
        if case .captured = standardOutput { stdout = try String(contentsOfFile: outPath, encoding: .utf8) } else { stdout = "" }
        return Result(status: process.terminationStatus,
                      stdout: stdout,
                      stderr: try String(contentsOfFile: errPath, encoding: .utf8),
                      signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
    }
}

extension AppHostProcess {
    /// Runs `/bin/sh -c command` with the arguments that follow, as a shell would start it: every
    /// signal at its default action and none blocked (a child of this test process would inherit
    /// the mask of the test's thread, which blocks nearly every signal). `environment` adds to the
    /// current one. The command redirects what it needs; returns the exit status, or the signal.
    static func runInShell(_ command: String, _ arguments: [String], environment: [String: String] = [:]) -> (status: Int32, signal: Int32?) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = (["/bin/sh", "-c", command] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, envp) == 0 else { return (-1, nil) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? ((status >> 8) & 0xFF, nil) : (signal, signal)
    }
}

/// A fresh folder under the system's temporary folder, for manifests, scripts and log files.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "apphost-cli-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

extension String {
    /// Parses the text as one JSON value with the project's parser.
    func parsedJSON() throws -> JSONValue { try JSONValue(parsing: self) }
}
