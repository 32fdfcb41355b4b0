#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Identifies a file whatever its name: device and inode. What the image cache is keyed by, and how
/// check 2 makes sure the file it walked to is the one that was opened.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

/// A plugin file opened once, by its path: every later check reads this descriptor, and `dlopen`
/// loads it through `/proc/self/fd/N`, so swapping the file at the path between the checks and the
/// load cannot change what is loaded (the bytes hashed are the bytes loaded).
///
/// Closed when released, unless ``keepOpenForever()``: once `dlopen` has loaded `/proc/self/fd/N`,
/// the dynamic linker answers a later `dlopen` of that same name with the library it already has,
/// so the number must never name another file in this process.
final class PluginFile {
    /// The open descriptor (read-only, close-on-exec).
    let fd: Int32
    /// `fstat` of the descriptor, taken right after opening.
    let info: stat
    /// Set once `dlopen` loaded the file: the descriptor then stays open.
    private var keptOpen = false

    /// Check 1: opens `path` (absolute) and requires a regular file behind it (a symlink to one is
    /// fine). Non-blocking, so that a FIFO swapped in cannot make the host wait; no controlling
    /// terminal from a device.
    init(opening path: String) throws(PluginLoadError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            var link = stat()
            if code == ENOENT, lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
                throw .notAFile(path: path, found: "a symbolic link to nothing (\(FilePaths.errorText(code)))")
            }
            let found = code == ENOENT ? "nothing" : "nothing it can reach"
            throw .notAFile(path: path, found: "\(found) (\(FilePaths.errorText(code)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .notAFile(path: path, found: "a file it cannot examine (\(FilePaths.errorText(code)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            close(fd)
            throw .notAFile(path: path, found: "a directory")
        default:
            close(fd)
            throw .notAFile(path: path, found: "a special file (not a regular file)")
        }
        self.fd = fd
        self.info = info
    }

    deinit { if !keptOpen { close(fd) } }

    /// Device and inode of the opened file.
    var identity: FileIdentity { FileIdentity(info) }

    /// The name `dlopen` is given: the kernel resolves it to this descriptor's file, not to a path.
    var procPath: String { "/proc/self/fd/\(fd)" }

    /// Where the kernel says the opened file is (absolute, symlinks resolved), nil if unknown.
    func currentPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(procPath, &buffer, buffer.count - 1)
        guard count > 0, buffer[0] == CChar(UInt8(ascii: "/")) else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Check 2 for the file itself (the opened one): not writable by group or others, and owned by
    /// the current effective user or root — its owner could rewrite it in place between the hash and
    /// `dlopen`, and `dlopen` maps this very inode.
    func checkSafe(path: String, user: uid_t) throws(PluginLoadError) {
        if info.st_mode & mode_t(S_IWGRP | S_IWOTH) != 0 {
            throw .writable(path: path, place: .file, mode: UInt32(info.st_mode))
        }
        // The real path (a readlink of /proc/self/fd/N, not cheap) only for the error.
        guard SafePath.trusts(owner: info.st_uid, user: user) else {
            throw .foreignOwner(path: path, place: .file(currentPath() ?? path), owner: UInt32(info.st_uid),
                                user: UInt32(user))
        }
    }

    /// Before hashing: the header says it is a shared object the host can load (64 bytes read).
    func checkELFHeader(path: String) throws(PluginLoadError) {
        if let problem = ELFHeader.problem(fd: fd, size: Int64(info.st_size)) {
            throw .notELF(path: path, found: problem)
        }
    }

    /// Check 3: the SHA-256 of this descriptor's bytes equals the pin.
    func checkPin(_ pin: SHA256Digest, path: String) throws(PluginLoadError) {
        let digest = try digest(path: path)
        if digest != pin { throw .checksumMismatch(path: path, expected: pin.hex, found: digest.hex) }
    }

    /// The SHA-256 of this descriptor's bytes.
    func digest(path: String) throws(PluginLoadError) -> SHA256Digest {
        do {
            return try SHA256.hash(fileDescriptor: fd, path: path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
    }

    /// Check 4: `dlopen(RTLD_NOW | RTLD_LOCAL)` of this descriptor's file. `dlerror` text names
    /// `/proc/self/fd/N`; it is rewritten to `realPath`, the file the user knows.
    ///
    /// Loaded under that name, the plugin's `$ORIGIN` is `/proc/self/fd`: a library it needs that
    /// lies beside it is not found there. When that is why `dlopen` failed, the error says so.
    ///
    /// A plugin that links the shared Swift plugin SDK gets the host's copy (``SharedSDK``): when
    /// `dlopen` fails naming that library, the host loads it and tries once more.
    func load(path: String, realPath: String) throws(PluginLoadError) -> UnsafeMutableRawPointer {
        switch SharedSDK.open(procPath, flags: RTLD_NOW | RTLD_LOCAL) {
        case .success(let handle):
            return handle
        case .failure(let failure):
            var reason = Self.replacing(procPath, with: realPath, in: failure.reason)
            if let explained = SharedSDK.explain(reason) { throw .dlopenFailed(path: path, reason: explained) }
            let missingMarker = ": cannot open shared object file"
            if let marker = reason.firstRange(of: missingMarker) {
                let missing = String(reason[..<marker.lowerBound])
                let beside = FilePaths.resolve(missing, against: FilePaths.directory(of: realPath))
                if !missing.contains("/") && FilePaths.isRegularFile(beside) {
                    reason += " (\(missing) is beside the plugin, but a plugin is loaded from its open file, "
                        + "where $ORIGIN does not reach: link that library statically, or install it where the system finds libraries)"
                }
            }
            throw .dlopenFailed(path: path, reason: reason)
        }
    }

    /// Leaves the descriptor open for the life of the process (see the type's notes).
    func keepOpenForever() { keptOpen = true }

    /// `text` with every `name` that is not followed by another digit (`/proc/self/fd/5`, not
    /// `/proc/self/fd/57`) replaced by `replacement`.
    static func replacing(_ name: String, with replacement: String, in text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: name) {
            let next = rest[range.upperBound...].first
            result += rest[..<range.lowerBound]
            result += next.map { $0.isASCII && $0.isNumber } == true ? name : replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
