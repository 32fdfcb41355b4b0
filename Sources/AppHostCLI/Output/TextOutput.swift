#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the CLI writes text: standard output, standard error, or (in tests) a buffer.
///
/// Writes go straight to the file descriptor, unbuffered, so that stdout and stderr interleave in
/// the order they were written and nothing is lost when the process exits.
public struct TextOutput: Sendable {
    private let sink: @Sendable (String) -> Void
    /// Whether the output is a terminal (decides colour).
    public let isTerminal: Bool

    /// An output that hands every write to `sink`; `isTerminal` says what it pretends to be.
    public init(isTerminal: Bool = false, sink: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.sink = sink
    }

    /// The process's standard output (file descriptor 1).
    public static var standardOutput: TextOutput { TextOutput(fileDescriptor: 1) }
    /// The process's standard error (file descriptor 2).
    public static var standardError: TextOutput { TextOutput(fileDescriptor: 2) }

    /// An output writing to the open file descriptor `fd`.
    public init(fileDescriptor fd: Int32) {
        self.init(isTerminal: isatty(fd) == 1) { text in writeAll(Array(text.utf8), to: fd) }
    }

    /// Writes `text` as is.
    public func write(_ text: String) {
        guard !text.isEmpty else { return }
        sink(text)
    }

    /// Writes `text` and a newline.
    public func line(_ text: String = "") {
        sink(text + "\n")
    }
}

/// Writes every byte of `bytes` to `fd`, retrying after interruptions and short writes. A closed
/// pipe or a full disk ends the write: there is nothing better to do with the text.
private func writeAll(_ bytes: [UInt8], to fd: Int32) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in write(fd, buffer.baseAddress! + offset, buffer.count - offset) }
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            return
        }
    }
}
