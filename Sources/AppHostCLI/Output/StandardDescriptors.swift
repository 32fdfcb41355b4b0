#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error as the process starts.
enum StandardDescriptors {
    /// Gives each of descriptors 0, 1 and 2 that was closed at start (`apphost … >&-`) a
    /// placeholder: /dev/null opened the wrong way round, so every read or write on it fails
    /// (EBADF) and is reported, and no file the command opens later (a log file, a manifest) can
    /// become its standard output or input by taking the lowest free number. Then makes apphost's
    /// own copies of standard output and error (``output``, ``error``).
    static func reserve() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY)
            if placeholder >= 0 && placeholder != fd {
                _ = dup2(placeholder, fd)
                _ = close(placeholder)
            }
        }
        _ = (output, error)
    }

    /// Where apphost writes its standard output: a copy of descriptor 1 made at start, so that a
    /// plugin that points descriptor 1 elsewhere (`dup2` onto it, `freopen`, closing it) changes
    /// where its own writes go, never where the report goes.
    static let output = ownCopy(of: 1)
    /// Where apphost writes its standard error: a copy of descriptor 2, as ``output``.
    static let error = ownCopy(of: 2)

    /// A close-on-exec copy of `fd` (no child inherits it), numbered high, above those a program
    /// picks by hand; `fd` itself when no copy can be made.
    private static func ownCopy(of fd: Int32) -> Int32 {
        for floor: Int32 in [900, 3] {
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, floor)
            if copy >= 0 { return copy }
        }
        return fd
    }
}
