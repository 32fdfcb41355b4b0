#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import SubscriberABI

/// Loads plugin files, running the load-time checks of SPEC §2 in order, cheapest first:
/// 1 a regular file, 2 not writable by group/others (nor its folder, nor a symlink's), 3 the SHA-256 pin,
/// 4 `dlopen(RTLD_NOW | RTLD_LOCAL)`, 5 the `adh_plugin_entry` symbol, 6 struct size and ABI major,
/// 7 the Swift compiler version, 8 well-formed descriptor fields — and, for a manifest (see
/// ``load(_:extraSearchDirectories:)``), 9 the requested subscribers exist and 10 no name is taken twice.
///
/// [main-thread] Loading calls the plugin's entry symbol, which the header annotates `[main-thread]`
/// (a Swift plugin's entry checks it and traps anywhere else): every loading method is `@MainActor`.
///
/// Images are never unloaded (a Swift image cannot be, safely), including after a failed check:
/// a refused plugin stays mapped but unused. Loading a file twice (same real path) returns the
/// image loaded the first time, after re-running checks 1–3 and 6–8 against this request (only
/// `dlopen` and the entry call happen once).
public struct PluginLoader: Sendable {
    /// Accept files and folders writable by group or others (check 2 off). Only on explicit request.
    public var allowWritable: Bool
    /// The host's Swift "major.minor" that Swift plugins must match; the compiler's unless a test or
    /// tool says otherwise.
    public var hostSwiftVersion: String

    /// A loader with the given checks.
    public init(allowWritable: Bool = false, hostSwiftVersion: String = HostSwiftVersion.current) {
        self.allowWritable = allowWritable
        self.hostSwiftVersion = hostSwiftVersion
    }

    /// Every image loaded in this process, by real path. Process-wide because `dlopen` is.
    private static let images = Mutex<[String: LoadedPluginImage]>([:])

    /// Runs checks 1–8 on the file at `path` (relative to the current directory unless absolute) and
    /// returns its image; `sha256` is the manifest's pin, if any.
    /// [main-thread] The first load of a file calls its `[main-thread]` entry symbol.
    @MainActor
    public func loadImage(at path: String, sha256: SHA256Digest? = nil) throws(PluginLoadError) -> LoadedPluginImage {
        let clock = ContinuousClock()
        let start = clock.now
        let path = FilePaths.absolute(path)
        let realPath = try checkIsFile(path)
        if !allowWritable { try checkNotWritable(path: path, realPath: realPath) }
        if let sha256 { try checkPin(sha256, path: path, realPath: realPath) }

        // Held across dlopen and the entry call: `loadedImage(realPath:)` may read from any thread.
        return try Self.images.withLock { (images) throws(PluginLoadError) -> LoadedPluginImage in
            if let loaded = images[realPath] {
                // Checks 6-8 are cheap and depend on this loader's settings (the Swift version): rerun.
                _ = try DescriptorReader(raw: UnsafeRawPointer(loaded.descriptor), path: path,
                                         hostSwiftVersion: hostSwiftVersion).read()
                return loaded
            }
            let handle = try open(path: path, realPath: realPath)
            let descriptor = try entryDescriptor(handle: handle, path: path)
            let fields = try DescriptorReader(raw: UnsafeRawPointer(descriptor), path: path,
                                              hostSwiftVersion: hostSwiftVersion).read()
            let image = LoadedPluginImage(path: path, realPath: realPath, handle: handle, descriptor: descriptor,
                                          fields: fields, loadDuration: clock.now - start)
            images[realPath] = image
            return image
        }
    }

    /// The image already loaded from `realPath`, if any.
    public static func loadedImage(realPath: String) -> LoadedPluginImage? {
        images.withLock { $0[realPath] }
    }

    // MARK: - Checks 1–5

    /// Check 1: a regular file, or a symlink to one. Returns the real path.
    private func checkIsFile(_ path: String) throws(PluginLoadError) -> String {
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            var link = stat()
            if lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK {
                throw .notAFile(path: path, found: "a symbolic link to nothing (\(FilePaths.errorText(code)))")
            }
            let found = code == ENOENT ? "nothing" : "nothing it can reach"
            throw .notAFile(path: path, found: "\(found) (\(FilePaths.errorText(code)))")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .notAFile(path: path, found: "a directory")
        default: throw .notAFile(path: path, found: "a special file (not a regular file)")
        }
        guard let realPath = FilePaths.realPath(path) else {
            throw .notAFile(path: path, found: "a path it cannot resolve (\(FilePaths.errorText(errno)))")
        }
        return realPath
    }

    /// Check 2: neither the file, nor the folder holding it, nor (when `path` is a symlink) the folder
    /// holding the link is writable by group or others: whoever can write there can make the host
    /// run their code (by replacing the file, or by re-pointing the link).
    private func checkNotWritable(path: String, realPath: String) throws(PluginLoadError) {
        let writableBits = mode_t(S_IWGRP | S_IWOTH)
        var info = stat()
        if stat(realPath, &info) == 0, info.st_mode & writableBits != 0 {
            throw .writable(path: path, directory: nil, mode: UInt32(info.st_mode))
        }
        var directories = [FilePaths.directory(of: realPath)]
        if path != realPath { directories.append(FilePaths.directory(of: path)) }
        for directory in directories where stat(directory, &info) == 0 && info.st_mode & writableBits != 0 {
            throw .writable(path: path, directory: directory, mode: UInt32(info.st_mode))
        }
    }

    /// Check 3: the file's SHA-256 equals the pin.
    private func checkPin(_ pin: SHA256Digest, path: String, realPath: String) throws(PluginLoadError) {
        let digest: SHA256Digest
        do {
            digest = try SHA256.hash(fileAtPath: realPath)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        if digest != pin { throw .checksumMismatch(path: path, expected: pin.hex, found: digest.hex) }
    }

    /// Check 4: `dlopen` by absolute path (a slash in it keeps the system search path out).
    private func open(path: String, realPath: String) throws(PluginLoadError) -> UnsafeMutableRawPointer {
        _ = dlerror()
        guard let handle = dlopen(realPath, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            throw .dlopenFailed(path: path, reason: reason)
        }
        return handle
    }

    /// Check 5: the entry symbol, called once for the descriptor.
    private func entryDescriptor(handle: UnsafeMutableRawPointer, path: String) throws(PluginLoadError)
        -> UnsafePointer<adh_plugin_descriptor>
    {
        guard let symbol = dlsym(handle, ADH_ENTRY_SYMBOL) else { throw .noEntrySymbol(path: path) }
        let entry = unsafeBitCast(symbol, to: adh_plugin_entry_fn.self)
        guard let descriptor = entry() else { throw .nullDescriptor(path: path) }
        return descriptor
    }
}
