import Foundation
import SubscriberKit

/// Runs the built `apphost` executable as a subprocess and captures what it did.
enum AppHostProcess {
    /// What one run printed and how it ended.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stdout's lines, without the final empty one.
        var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
        /// stderr's lines, without the final empty one.
        var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    }

    /// The package's root folder.
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// The build folder holding `apphost` and the plugins: the test binary's own folder when
    /// `apphost` is there (`swift test` builds it beside the tests), else `.build/debug`.
    static let buildDirectory: String = {
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
        if FileManager.default.isExecutableFile(atPath: running + "/apphost") { return running }
        return packageRoot + "/.build/debug"
    }()

    /// The `apphost` executable.
    static var executable: String { buildDirectory + "/apphost" }

    /// A manifest shipped in `manifests/`.
    static func manifest(_ name: String) -> String { packageRoot + "/manifests/" + name }

    /// Runs `apphost arguments` in the package root with `stdin` as standard input and the current
    /// environment minus `NO_COLOR`, plus `environment`.
    static func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outPath = try directory.write("stdout", ""), errPath = try directory.write("stderr", "")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = nil
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
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOfFile: outPath, encoding: .utf8),
                      stderr: try String(contentsOfFile: errPath, encoding: .utf8))
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
