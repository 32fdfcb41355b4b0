#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--log-file FILE`: every log record of the run as a JSON line, the file created or truncated.
///
/// Opened only once the run's inputs were read and its plugins loaded, so a run that fails early
/// leaves an existing log as it was. Never truncates an input of the run (the manifest, the event
/// script, a plugin file) nor a file the run's other output goes to; never blocks (a FIFO is
/// refused); and never takes descriptors 0, 1 or 2, so no other output can land in it.
enum LogFile {
    /// A file the log must not be: an input of the run or its other output.
    struct Guarded {
        /// What the file is to the run, for the error: `the manifest`, `standard output`.
        var role: String
        var device: UInt64
        var inode: UInt64

        /// The file at `path`, when it is a regular file (nil otherwise: devices such as
        /// /dev/null can be shared, and a missing file cannot be clobbered).
        init?(role: String, path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            self.init(role: role, status)
        }

        /// The file open at `fd`, when it is a regular file.
        init?(role: String, fileDescriptor fd: Int32) {
            var status = stat()
            guard fstat(fd, &status) == 0 else { return nil }
            self.init(role: role, status)
        }

        private init?(role: String, _ status: stat) {
            guard status.st_mode & S_IFMT == S_IFREG else { return nil }
            self.role = role
            self.device = UInt64(status.st_dev)
            self.inode = UInt64(status.st_ino)
        }
    }

    /// Opens `path` for writing, truncated, unless it is one of `guarded` or a file that is
    /// neither regular nor a character device (such as /dev/null). Throws one line naming the
    /// file, what was expected and what was found.
    static func openForWriting(_ path: String, guarded: [Guarded], flag: String = "--log-file") throws(CommandError) -> TextOutput {
        func refuse(_ found: String, expected: String = "a regular file or a device such as /dev/null") -> CommandError {
            CommandError("\(flag) \(ErrorLine.path(path)): expected \(expected), found \(found)")
        }
        // Look first, so that a FIFO is refused without even trying to open it.
        var status = stat()
        if stat(path, &status) == 0, let kind = refusedKind(status.st_mode) { throw refuse(kind) }

        // O_NONBLOCK: a FIFO that appeared since the look cannot make open wait for a reader.
        // No O_TRUNC: nothing is truncated before the checks on what was actually opened.
        let opened = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw refuse(String(cString: strerror(errno)), expected: "a file it can write") }
        // Never 0, 1 or 2: with standard output closed, the log would otherwise become it.
        let fd = opened > 2 ? opened : fcntl(opened, F_DUPFD_CLOEXEC, 3)
        if fd != opened { _ = close(opened) }
        guard fd >= 0 else { throw refuse(String(cString: strerror(errno)), expected: "a file it can write") }

        do throws(CommandError) {
            guard fstat(fd, &status) == 0 else { throw refuse(String(cString: strerror(errno))) }
            if let kind = refusedKind(status.st_mode) { throw refuse(kind) }
            if let input = guarded.first(where: { $0.device == UInt64(status.st_dev) && $0.inode == UInt64(status.st_ino) }) {
                throw refuse(input.role, expected: "a file that is not an input or output of the run")
            }
            if status.st_mode & S_IFMT == S_IFREG && ftruncate(fd, 0) != 0 {
                throw refuse(String(cString: strerror(errno)), expected: "a file it can truncate")
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        } catch {
            _ = close(fd)
            throw error
        }
        // Left open until the process exits, which closes it.
        return TextOutput(fileDescriptor: fd, name: "\(flag) \(ErrorLine.path(path))")
    }

    /// `a FIFO`, `a directory`, … for a file type a log cannot be; nil for a regular file or a
    /// character device.
    private static func refusedKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG, S_IFCHR: return nil
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a directory"
        case S_IFSOCK: return "a socket"
        case S_IFBLK: return "a block device"
        default: return "a special file"
        }
    }
}
