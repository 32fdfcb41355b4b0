#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Path text handling without Foundation: joining, absolute paths, folders, and the few file
/// system questions the manifest and the loader ask. Paths are not normalised lexically (`..`
/// through a symlink means what the kernel says it means).
enum FilePaths {
    /// `path` if absolute, else the current directory joined with it.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : resolve(path, against: currentDirectory())
    }

    /// `path` if absolute, else `directory/path` (a leading `./` dropped).
    static func resolve(_ path: String, against directory: String) -> String {
        if path.hasPrefix("/") { return path }
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        if relative.isEmpty || relative == "." { return directory }
        // String + String only: `String + Substring` goes through the generic append.
        var joined = directory
        if !directory.hasSuffix("/") { joined += "/" }
        joined += String(relative)
        return joined
    }

    /// The folder part of `path` (`/a/b/c.json` → `/a/b`, `/c` → `/`, `c` → `.`).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path`.
    static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The process's current directory ("/" if it cannot be read).
    static func currentDirectory() -> String {
        guard let buffer = getcwd(nil, 0) else { return "/" }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// The canonical absolute path (symlinks resolved), or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let buffer = realpath(path, nil) else { return nil }
        defer { free(buffer) }
        return String(cString: buffer)
    }

    /// The folder holding the running executable (`/proc/self/exe`'s folder), when known.
    static func executableDirectory() -> String? {
        realPath("/proc/self/exe").map(directory(of:))
    }

    /// Whether `path` names a regular file (following symlinks).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Whether `path` names a directory (following symlinks).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `strerror` text for `code`.
    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
