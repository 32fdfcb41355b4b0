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
        // Once: a second call (apphost's main, then AppHostCommand.main) finds the writing
        // threads started, which read ``copies``.
        guard copies == nil else { return }
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY)
            if placeholder >= 0 && placeholder != fd {
                _ = dup2(placeholder, fd)
                _ = close(placeholder)
            }
        }
        copies = Copies(output: output, outputFile: FileIdentity(of: 1), error: error, errorFile: FileIdentity(of: 2))
    }

    /// Makes apphost's copy `fd` of standard output or error again when it is gone (a plugin's
    /// constructor that closes every descriptor from 3 up closes it too): from descriptor 1 or 2,
    /// and only while that is still the file it copied at start. Whether it did; false for any
    /// other descriptor, or one that is not closed. Async-signal-safe (the copies were noted by
    /// ``reserve()``, before any plugin was loaded). Made at exactly that number, close-on-exec,
    /// in one call: a number taken meanwhile (by a plugin's `open`) is left alone.
    static func remake(_ fd: Int32) -> Bool {
        guard let copies else { return false }
        let source: Int32
        let file: FileIdentity?
        switch fd {
        case copies.output where copies.output != 1: (source, file) = (1, copies.outputFile)
        case copies.error where copies.error != 2: (source, file) = (2, copies.errorFile)
        default: return false
        }
        guard let file, fcntl(fd, F_GETFD) == -1, errno == EBADF, FileIdentity(of: source) == file else { return false }
        let made = fcntl(source, F_DUPFD_CLOEXEC, fd)
        if made == fd { return true }
        guard made >= 0 else { return false }
        _ = close(made)
        // Above it: the number was taken meanwhile, by another thread remaking the same copy
        // (then it is made) or by anything else (then it is not).
        return FileIdentity(of: fd) == file
    }

    /// Makes again each copy a plugin closed while it loaded (``remake(_:)``), before the command
    /// opens anything of its own: a file it opened next (a log file) could otherwise take a copy's
    /// number, and the report would go there. Called once the plugins are loaded.
    static func remakeClosedCopies() {
        guard let copies else { return }
        _ = remake(copies.output)
        _ = remake(copies.error)
    }

    /// A file as `fstat` tells it apart: device and inode.
    private struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64

        /// The file open on `fd`; nil when none is.
        init?(of fd: Int32) {
            var info = stat()
            guard fstat(fd, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// apphost's copies and the files they copied, as ``reserve()`` made them.
    private struct Copies {
        var output: Int32
        var outputFile: FileIdentity?
        var error: Int32
        var errorFile: FileIdentity?
    }

    /// Set once by ``reserve()``, at start, before any other thread; read by ``remake(_:)``.
    nonisolated(unsafe) private static var copies: Copies?

    /// Where apphost writes its standard output: a copy of descriptor 1 made at start, so that a
    /// plugin that points descriptor 1 elsewhere (`dup2` onto it, `freopen`, closing it) changes
    /// where its own writes go, never where the report goes.
    static let output = ownCopy(of: 1)
    /// Where apphost writes its standard error: a copy of descriptor 2, as ``output``.
    static let error = ownCopy(of: 2)

    /// A close-on-exec copy of `fd` (no child inherits it), numbered high, above those a program
    /// picks by hand; under a descriptor limit of 900 or less, at its top (numbers are handed out
    /// lowest first: what the loader and the plugins open does not reach them, even after a plugin
    /// closed them); `fd` itself when no copy can be made.
    private static func ownCopy(of fd: Int32) -> Int32 {
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 900)
        if copy >= 0 { return copy }
        // The limit is looked up only when it is below 901: the usual start costs no system call more.
        var limit = rlimit()
        let top = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int32(clamping: limit.rlim_cur) - 2 : 3
        for floor: Int32 in [max(3, top), 3] {
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, floor)
            if copy >= 0 { return copy }
        }
        return fd
    }
}
