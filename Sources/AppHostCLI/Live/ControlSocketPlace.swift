#if canImport(Glibc)
import Glibc
#endif

/// Where a live host's control socket and lock file live: `$XDG_RUNTIME_DIR/apphost/`, or without
/// `XDG_RUNTIME_DIR`, `/tmp/apphost-<uid>/` — a folder of mode 0700 owned by the user, made when
/// missing and refused when it is anything else. In it, `<bundleIdentifier>.sock` (mode 0600) and
/// `<bundleIdentifier>.pid` (the running host's pid, locked with flock while it runs).
struct ControlSocketPlace {
    /// The folder.
    let folder: String
    /// The socket's path.
    let socket: String
    /// The lock file's path.
    let lock: String

    /// The place for `bundleIdentifier` (read from the manifest `manifestFile`, which its error
    /// names), from `environment`'s `XDG_RUNTIME_DIR`.
    init(bundleIdentifier: String, manifestFile: String, environment: [String: String]) throws(LiveError) {
        let allowed = bundleIdentifier.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        guard !bundleIdentifier.isEmpty, allowed, !bundleIdentifier.hasPrefix("."), bundleIdentifier.utf8.count <= 64 else {
            throw LiveError("\(ErrorLine.path(manifestFile)): app.bundleIdentifier: expected at most 64 letters, digits, '.', '-' or '_' "
                            + "(not first '.') to name the control socket, found \"\(TerminalText.escaped(bundleIdentifier, limit: 80))\"")
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            folder = runtime + "/apphost"
        } else {
            folder = "/tmp/apphost-\(getuid())"
        }
        socket = folder + "/" + bundleIdentifier + ".sock"
        lock = folder + "/" + bundleIdentifier + ".pid"
        guard socket.utf8.count < 108 else {
            throw LiveError("control socket \(TerminalText.escaped(socket, limit: 200)): expected a path shorter than 108 bytes (AF_UNIX), found \(socket.utf8.count)")
        }
    }

    /// Makes the folder (0700) when missing; refuses one that is not a directory of ours with no
    /// access for others.
    func prepareFolder() throws(LiveError) {
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw LiveError("\(folder): cannot make the control socket's folder: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            throw LiveError("\(folder): cannot read the control socket's folder: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw LiveError("\(folder): expected a folder of mode 0700 owned by uid \(getuid()) for the control socket, found mode \(String(info.st_mode & 0o7777, radix: 8)) owned by uid \(info.st_uid)")
        }
    }
}

/// The lock that makes a live host the only one for its bundle identifier: an flock on the pid file
/// beside the socket, held while the host runs (the kernel drops it when the process ends, however
/// it ends), the file holding the pid.
final class InstanceLock {
    private let fd: Int32

    /// Takes the lock at `path`, or throws the one line naming the running host's pid.
    init(path: String, bundleIdentifier: String, socket: String) throws(LiveError) {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw LiveError("\(path): cannot open the instance lock: \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &bytes, bytes.count, 0)
            _ = Glibc.close(fd)
            guard code == EWOULDBLOCK else { throw LiveError("\(path): cannot lock: \(String(cString: strerror(code)))") }
            let pid = count > 0 ? String(decoding: bytes[0..<count], as: UTF8.self).filter(\.isNumber) : "unknown"
            throw LiveError("\(bundleIdentifier) is already running (pid \(pid.isEmpty ? "unknown" : pid)), its control socket \(socket): use apphost send or apphost open")
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    deinit { _ = Glibc.close(fd) }
}

/// `sockaddr_un` for `path`, and its length; nil when it does not fit.
func unixAddress(_ path: String) -> (sockaddr_un, socklen_t)? {
    var address = sockaddr_un()
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    return (address, socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1))
}

/// Connects a stream socket to `path`; the descriptor, or the errno that refused it.
func connectUnix(_ path: String) -> Result<Int32, LiveError> {
    guard let (bound, length) = unixAddress(path) else { return .failure(LiveError("path too long")) }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return .failure(LiveError(String(cString: strerror(errno)))) }
    let status = withUnsafePointer(to: bound) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
    }
    guard status == 0 else {
        let code = errno
        _ = close(fd)
        return .failure(LiveError(String(cString: strerror(code))))
    }
    return .success(fd)
}
