#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--log-file FILE`: every log record of the run as a JSON line, the file created or truncated.
enum LogFile {
    /// Opens `path` for writing; throws a one-line error naming the file when it cannot.
    static func openForWriting(_ path: String) throws(CommandError) -> TextOutput {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CommandError("--log-file \(path): expected a file it can write, found \(reason)")
        }
        // Left open until the process exits, which closes it.
        return TextOutput(fileDescriptor: fd)
    }
}
