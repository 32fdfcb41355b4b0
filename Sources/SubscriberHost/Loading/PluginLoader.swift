#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import SubscriberABI
internal import HostDynamicLinker

/// Loads plugin files, running the ten load-time checks in order, cheapest first:
/// 1 a regular file, 2 not writable by group/others nor owned by another user than you or root
/// (nor any folder on the way, nor any link's),
/// 3 the SHA-256 pin, 4 `dlopen(RTLD_NOW | RTLD_LOCAL)`, 5 the `adh_plugin_entry` symbol, a function,
/// 6 struct size and ABI major, 7 the Swift compiler version, 8 well-formed descriptor fields — and,
/// for a manifest (see ``load(_:extraSearchDirectories:)``), 9 the requested subscribers exist and
/// 10 no name is taken twice.
///
/// The file is opened once (check 1); every later check reads that descriptor, and `dlopen` loads
/// it as `/proc/self/fd/N`, so what was checked and hashed is what is loaded, whatever happens to
/// the path meanwhile. Its ELF header is read before it is hashed (part of check 4, run early
/// because it costs 64 bytes), so a large file that is not a shared object is refused at once.
///
/// [main-thread] Loading calls the plugin's entry symbol, which the header annotates `[main-thread]`
/// (a Swift plugin's entry checks it and traps anywhere else): every loading method is `@MainActor`.
///
/// Images are never unloaded (a Swift image cannot be, safely), including after a failed check:
/// a refused plugin stays mapped but unused. Loading a file twice (the same file: device and inode)
/// returns the image loaded the first time, after re-running checks 1–3 and 7 against this request
/// (`dlopen`, the entry call and checks 6 and 8, on a descriptor that never changes, happen once): a
/// manifest whose entries each name one subscriber of the same plugin loads in time linear in them.
package struct PluginLoader: Sendable {
    /// Turn check 2 off: accept an unsafe path to the plugin — the file, or a folder on the way,
    /// writable by group or others, or owned by another user than the current one or root. Whoever
    /// can write there can then swap or rewrite the plugin, even between its hash and `dlopen`, so
    /// the pin no longer protects it. Only on explicit request.
    package var allowWritable: Bool
    /// The host's Swift "major.minor" that Swift plugins must match; the compiler's unless a test or
    /// tool says otherwise.
    package var hostSwiftVersion: String

    /// When set, a file whose inspection by `apphost list` crashed or hung, as this cache remembers,
    /// is refused before `dlopen` (``PluginLoadError/blacklisted(path:reason:date:cache:)``).
    package var scanCache: ScanCache?

    /// A loader with the given checks.
    package init(allowWritable: Bool = false, hostSwiftVersion: String = HostSwiftVersion.current,
                 scanCache: ScanCache? = nil) {
        self.allowWritable = allowWritable
        self.hostSwiftVersion = hostSwiftVersion
        self.scanCache = scanCache
    }

    /// Every image loaded in this process, by file identity. Process-wide because `dlopen` is.
    private static let images = Mutex(FileIdentityTable<LoadedPluginImage>())

    /// Runs checks 1–8 on the file at `path` (relative to the current directory unless absolute) and
    /// returns its image; `sha256` is the manifest's pin, if any.
    /// [main-thread] The first load of a file calls its `[main-thread]` entry symbol.
    @MainActor
    package func loadImage(at path: String, sha256: SHA256Digest? = nil) throws(PluginLoadError) -> LoadedPluginImage {
        try loadImage(at: path, sha256: sha256, verified: VerifiedFolders())
    }

    /// ``loadImage(at:sha256:)`` within a load of several plugins: check 2 skips the folders
    /// `verified` already holds and adds those it examines. [main-thread]
    @MainActor
    func loadImage(at path: String, sha256: SHA256Digest?,
                   verified: VerifiedFolders) throws(PluginLoadError) -> LoadedPluginImage {
        let clock = ContinuousClock()
        let start = clock.now
        let path = FilePaths.absolute(path)
        let file = try PluginFile(opening: path)                                    // check 1
        let realPath = try checkSafePath(file, path: path, verified: verified)      // check 2
        try file.checkELFHeader(path: path)                                         // check 4, its header
        if let sha256 { try file.checkPin(sha256, path: path) }                     // check 3
        if let scanCache, let record = scanCache.blacklisted(path: path, fd: file.fd, info: file.info),
           let failure = record.failure {                                           // before check 4
            throw .blacklisted(path: path, reason: failure.reason, date: failure.date, cache: scanCache.file)
        }

        // Held across dlopen and the entry call: `loadedImage(realPath:)` may read from any thread.
        return try Self.images.withLock { (images) throws(PluginLoadError) -> LoadedPluginImage in
            if let loaded = images[file.identity] {
                // Checks 6 and 8 passed on this very descriptor, which never changes: only check 7
                // depends on this loader (its Swift version). Reading the descriptor again would cost
                // its subscriber count per entry: quadratic for entries naming one plugin's subscribers.
                try DescriptorReader.checkSwiftVersion(loaded.swiftVersion, host: hostSwiftVersion, path: path)
                return loaded
            }
            let identity = file.identity
            let handle = try file.load(path: path, realPath: realPath)              // check 4
            file.keepOpenForever()  // loaded as /proc/self/fd/N: that name must keep meaning this file
            let descriptor = try entryDescriptor(handle: handle, path: path)        // check 5
            let fields = try DescriptorReader(raw: UnsafeRawPointer(descriptor), path: path,
                                              hostSwiftVersion: hostSwiftVersion).read()  // checks 6-8
            let image = LoadedPluginImage(path: path, realPath: realPath, handle: handle, descriptor: descriptor,
                                          fields: fields, loadDuration: clock.now - start)
            images.insert(image, for: identity)
            return image
        }
    }

    /// Checks 1–3 of the file at `path` (relative to the current directory unless absolute) without
    /// loading it, so no code of it runs, and the key the scan cache knows it by (its SHA-256 hashed
    /// once, for the pin too). What `apphost list` runs in the host before a child inspects the file.
    package func examine(at path: String, sha256: SHA256Digest? = nil) throws(PluginLoadError) -> ScanRecord.Key {
        let path = FilePaths.absolute(path)
        let file = try PluginFile(opening: path)                                    // check 1
        _ = try checkSafePath(file, path: path, verified: VerifiedFolders())        // check 2
        try file.checkELFHeader(path: path)                                         // check 4, its header
        let digest = try file.digest(path: path)
        if let sha256, digest != sha256 {                                           // check 3
            throw .checksumMismatch(path: path, expected: sha256.hex, found: digest.hex)
        }
        return ScanRecord.Key(path: path, size: Int64(file.info.st_size), modified: ScanRecord.Key.modified(file.info),
                              sha256: digest.hex)
    }

    /// The image already loaded from `realPath`, if any.
    package static func loadedImage(realPath: String) -> LoadedPluginImage? {
        images.withLock { images in images.values.first { $0.realPath == realPath } }
    }

    // MARK: - Checks 2 and 5

    /// Check 2: neither the opened file, nor any folder from `/` to it, nor the folder of any link on
    /// the way is writable by group or others, and each is owned by the current effective user or
    /// root (see ``SafePath``), unless ``allowWritable``. The file the walk reaches must be the one
    /// opened: else the path changed under the check. Returns the real path.
    private func checkSafePath(_ file: PluginFile, path: String,
                               verified: VerifiedFolders) throws(PluginLoadError) -> String {
        guard !allowWritable else {
            return file.currentPath() ?? FilePaths.realPath(path) ?? path
        }
        try file.checkSafe(path: path, user: verified.user)
        let (realPath, info) = try SafePath(path: path).resolve(verified: verified)
        guard FileIdentity(info) == file.identity else {
            throw .fileReplaced(path: path, found: "another file at \"\(realPath)\" than the one opened")
        }
        return realPath
    }

    /// Check 5: the entry symbol, a function, called once for the descriptor.
    private func entryDescriptor(handle: UnsafeMutableRawPointer, path: String) throws(PluginLoadError)
        -> UnsafePointer<adh_plugin_descriptor>
    {
        guard let symbol = dlsym(handle, ADH_ENTRY_SYMBOL) else { throw .noEntrySymbol(path: path) }
        // Calling anything but a function (the descriptor itself exported under the entry's name,
        // say) would jump into data and crash the host: the symbol table says what it is.
        let type = adh_host_symbol_type(symbol)
        guard type == STT_FUNC || type == STT_GNU_IFUNC else {
            throw .entryNotAFunction(path: path, found: Self.symbolTypeName(type))
        }
        let entry = unsafeBitCast(symbol, to: adh_plugin_entry_fn.self)
        guard let descriptor = entry() else { throw .nullDescriptor(path: path) }
        return descriptor
    }

    /// What an ELF symbol type is, for "found …".
    private static func symbolTypeName(_ type: Int32) -> String {
        switch type {
        case STT_OBJECT, STT_COMMON: "a data object"
        case STT_TLS: "a thread-local variable"
        case STT_NOTYPE: "a symbol without a type"
        case STT_SECTION: "a section"
        case STT_FILE: "a file name"
        case -1: "a symbol the dynamic linker cannot describe"
        default: "a symbol of ELF type \(type)"
        }
    }
}
