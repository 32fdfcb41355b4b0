import Foundation

/// `apphost` started with a pipe on standard input, for tests that feed it while it runs: standard
/// output to a pipe the test reads line by line, or to a file; standard error to a file.
final class StreamingAppHost {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let directory: TemporaryDirectory
    private let errorPath: String
    private let outputPath: String?
    private var pending: [UInt8] = []

    /// Starts `apphost arguments` in the package root; `outputToFile` sends standard output to a
    /// file (read back by ``finish()``) instead of the pipe ``nextLine(waitingAtMost:)`` reads.
    init(_ arguments: [String], outputToFile: Bool = false) throws {
        // The test writes into a pipe a failing child may have closed: a failed write, not a signal.
        signal(SIGPIPE, SIG_IGN)
        directory = try TemporaryDirectory()
        errorPath = try directory.write("stderr", "")
        outputPath = outputToFile ? try directory.write("stdout", "") : nil
        process.executableURL = URL(fileURLWithPath: AppHostProcess.executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: AppHostProcess.packageRoot)
        process.standardInput = input
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        if let outputPath {
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        } else {
            process.standardOutput = output
        }
        try process.run()
    }

    /// Writes `text` to apphost's standard input (blocks while the pipe is full).
    func send(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Closes apphost's standard input: the end of the script.
    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// The next line apphost writes to the pipe, without its newline; nil if none came within
    /// `milliseconds` (a guard against a hang, generous on a loaded machine) or the pipe closed.
    func nextLine(waitingAtMost milliseconds: Int32 = 60_000) -> String? {
        let fd = output.fileHandleForReading.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            guard pollReadable(fd, waitingAtMost: milliseconds) else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending += chunk[0..<count]
        }
    }

    /// Waits for apphost to exit (killing it first if it is still running, which the test then
    /// reports); returns its status, standard output (when it went to a file) and standard error.
    func finish(kill: Bool = false) throws -> (status: Int32, stdout: String, stderr: String) {
        defer { directory.remove() }
        if kill && process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        let stdout = try outputPath.map { try String(contentsOfFile: $0, encoding: .utf8) } ?? ""
        return (process.terminationStatus, stdout, try String(contentsOfFile: errorPath, encoding: .utf8))
    }
}
