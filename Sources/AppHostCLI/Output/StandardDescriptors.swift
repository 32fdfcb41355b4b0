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
    /// become its standard output or input by taking the lowest free number.
    static func reserve() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY)
            if placeholder >= 0 && placeholder != fd {
                _ = dup2(placeholder, fd)
                _ = close(placeholder)
            }
        }
    }
}
