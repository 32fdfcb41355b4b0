#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where the CLI writes text: standard output, standard error, the log file, or (in tests) a buffer.
///
/// Writes go straight to the file descriptor, unbuffered, so that stdout and stderr interleave in
/// the order they were written and nothing is lost when the process exits. The first write that
/// fails is kept (``failure``) and every later write is skipped: the command checks it and turns
/// it into one line and exit status 2, never silence (a closed pipe excepted, see ``WriteFailure``).
public struct TextOutput: Sendable {
    /// How errors name this output: `standard output`, `--log-file run.jsonl`.
    public let name: String
    /// Whether the output is a terminal (decides colour).
    public let isTerminal: Bool
    /// The file descriptor written to; nil for a buffer.
    public let fileDescriptor: Int32?
    private let sink: @Sendable (String) -> Int32?
    private let firstFailure = FirstFailure()

    /// An output that hands every write to `sink`, which never fails; `isTerminal` says what it
    /// pretends to be.
    public init(isTerminal: Bool = false, sink: @escaping @Sendable (String) -> Void) {
        self.init(name: "output", isTerminal: isTerminal, fileDescriptor: nil) { text in sink(text); return nil }
    }

    private init(name: String, isTerminal: Bool, fileDescriptor: Int32?, sink: @escaping @Sendable (String) -> Int32?) {
        self.name = name
        self.isTerminal = isTerminal
        self.fileDescriptor = fileDescriptor
        self.sink = sink
    }

    /// The process's standard output (file descriptor 1).
    public static let standardOutput = TextOutput(fileDescriptor: 1, name: "standard output")
    /// The process's standard error (file descriptor 2).
    public static let standardError = TextOutput(fileDescriptor: 2, name: "standard error")

    /// An output writing to the open file descriptor `fd`, named `name` in errors.
    public init(fileDescriptor fd: Int32, name: String) {
        self.init(name: name, isTerminal: isatty(fd) == 1, fileDescriptor: fd) { text in writeAll(text, to: fd) }
    }

    /// The first write that failed, or nil while every write succeeded.
    public var failure: WriteFailure? {
        firstFailure.code.withLock { code in code.map { WriteFailure(output: name, code: $0) } }
    }

    /// Writes `text` as is (nothing once a write has failed).
    public func write(_ text: String) {
        guard !text.isEmpty, !firstFailure.code.withLock({ $0 != nil }) else { return }
        if let code = sink(text) { firstFailure.code.withLock { $0 = $0 ?? code } }
    }

    /// Writes `text` and a newline.
    public func line(_ text: String = "") {
        write(text + "\n")
    }

    /// Writes `text` as exactly one line, made safe for a terminal: control characters (newlines
    /// included) escaped, cut after ``TerminalText/lineLimit`` characters. For errors and log lines.
    public func singleLine(_ text: String) {
        write(TerminalText.line(text) + "\n")
    }
}

/// A write to an output that failed: `standard output: write failed: No space left on device`.
///
/// A closed pipe (`apphost … | head -1`, `EPIPE`; SIGPIPE is ignored) is a failure too, but the
/// reader chose to stop reading: commands stop writing and end quietly with the status they
/// would have had (``isClosedPipe``).
public struct WriteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// How the output is named: `standard output`, `--log-file run.jsonl`.
    public var output: String
    /// The `errno` of the failed write.
    public var code: Int32

    /// Whether the reader went away (`EPIPE`): not reported, the command just stops writing.
    public var isClosedPipe: Bool { code == EPIPE }

    /// `standard output: write failed: No space left on device`.
    public var description: String { "\(output): write failed: \(String(cString: strerror(code)))" }
}

/// The `errno` of an output's first failed write, shared by every copy of the output.
private final class FirstFailure: Sendable {
    let code = Mutex<Int32?>(nil)
}

/// Writes every byte of `text` to `fd`, retrying after interruptions and short writes; returns the
/// `errno` of a write that failed, nil when everything was written.
private func writeAll(_ text: String, to fd: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                // A write of 0 bytes to a non-empty request makes no progress: treat it as full.
                return written < 0 ? errno : ENOSPC
            }
        }
        return nil
    }
}
