#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import SubscriberKit
import SubscriberEventModel

/// What `apphost list` learnt by inspecting plugin files in a child process, kept between runs, like
/// GStreamer's registry: per file (keyed by its absolute path, size, modification time and SHA-256),
/// the plugin's descriptor, or that inspecting it crashed or hung, with the reason and the date.
///
/// One JSON file, `scan-cache.json`, in ``directory``: `$XDG_CACHE_HOME/apphost/`, else
/// `$HOME/.cache/apphost/` (``standard(environment:)``). It is written whole (a temporary file in the
/// same folder, `fsync`, `rename`), so a reader sees the old cache or the new one, never a part; a
/// temporary file left behind by a process that died is never read. At most ``entryLimit`` files
/// and ``byteLimit`` bytes are kept (the oldest entries go first). A cache that cannot be read, is
/// not what this type writes, or is too large is discarded with one warning, never an error; so is
/// a folder it cannot write.
///
/// A ``PluginHost`` given a cache (``HostOptions/scanCache``; `apphost` passes the standard one)
/// refuses a plugin file whose inspection crashed or hung, until the file changes
/// (``PluginLoadError/blacklisted(path:reason:date:cache:)``). Without one (the default) it never
/// reads a cache.
public final class ScanCache: Sendable {
    /// The folder of the cache.
    public let directory: String
    /// The cache file, `scan-cache.json` in ``directory``.
    public var file: String { directory + "/" + Self.fileName }

    /// The cache file's name.
    package static let fileName = "scan-cache.json"
    /// The most files it remembers.
    package static let entryLimit = 1_024
    /// The largest cache file it reads or writes.
    package static let byteLimit = 8 << 20
    /// The most option sets per file it remembers to have made the subscribers with.
    package static let createdLimit = 16
    /// The format's version.
    static let formatVersion = 1

    /// The failures it read last, by path, and what the cache file was then (to read it again only
    /// when it changed).
    private let blacklist = Mutex(Blacklist())

    /// What ``blacklist`` holds. A struct, not a tuple: the lock over a tuple holding a dictionary is
    /// destroyed through its type built by name, which after the plugins' dlopen checked
    /// `String: Hashable` against every image (425,000 instructions when the host ends).
    private struct Blacklist {
        var stamp: FileStamp?
        var failures: [String: ScanRecord] = [:]
    }

    /// A cache in `directory` (made absolute against the current directory).
    public init(directory: String) {
        self.directory = FilePaths.absolute(directory)
    }

    /// The standard place: `$XDG_CACHE_HOME/apphost`, else `$HOME/.cache/apphost` (each only when
    /// absolute, as the XDG base directory specification asks); nil when neither is set.
    /// `environment` defaults to the process's.
    public static func standard(environment: [String: String]? = nil) -> ScanCache? {
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let cache = variable("XDG_CACHE_HOME"), cache.hasPrefix("/") { return ScanCache(directory: cache + "/apphost") }
        if let home = variable("HOME"), home.hasPrefix("/") { return ScanCache(directory: home + "/.cache/apphost") }
        return nil
    }

    // MARK: - Reading

    /// Every record, oldest first, and the warning to show when the cache was discarded (nil when it
    /// was read, or when there is none yet).
    package func read() -> (records: [ScanRecord], warning: String?) {
        switch readBytes() {
        case .none: return ([], nil)
        case .failed(let warning): return ([], warning)
        case .read(let bytes): return parse(bytes)
        }
    }

    /// The cache file's bytes, as ``readBytes()`` found them.
    private enum FileBytes {
        /// There is none yet (or no folder for it: writing it says so).
        case none
        /// It could not be read whole; the warning says why.
        case failed(String)
        case read([UInt8])
    }

    private func readBytes() -> FileBytes {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .none : .failed(warning("a readable file", FilePaths.errorText(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .failed(warning("a regular file", "something else"))
        }
        guard info.st_size <= Self.byteLimit else {
            return .failed(warning("at most \(Self.byteLimit) bytes", "\(info.st_size) bytes"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            offset += count
        }
        guard offset == bytes.count else { return .failed(warning("a readable file", "a short read")) }
        return .read(bytes)
    }

    private func parse(_ bytes: [UInt8]) -> (records: [ScanRecord], warning: String?) {
        do {
            return (try Self.records(JSONValue(parsing: bytes)), nil)
        } catch let error as JSONParseError {
            return ([], warning("JSON", error.description))
        } catch let error as ScanCacheFormatError {
            return ([], warning(error.expected, error.found))
        } catch {
            return ([], warning("a scan cache", "\(error)"))
        }
    }

    /// Whether a cache file's `bytes` may hold a failure record. A record's failure is its
    /// `"failure"` member, and JSON can spell that key otherwise only with a `\u` escape: bytes
    /// holding neither hold no failure, and need no parsing. Both hold a `u`, so only the `u`s are
    /// looked at (found by `memchr`); an escaped backslash before a `u` counts as an escape, which
    /// only costs a parse. Every `apphost` run reads the cache for the blacklist: parsing the cache
    /// of a thousand inspected files costs about 70 instructions a byte, this look a fraction of one.
    static func mayHoldFailures(_ bytes: [UInt8]) -> Bool {
        let key = Array("\"failure\"".utf8)
        let uInKey = 5  // where the key's `u` lies
        return bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            var from = 0
            while from < bytes.count, let found = memchr(base + from, Int32(UInt8(ascii: "u")), bytes.count - from) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if index > 0 && bytes[index - 1] == UInt8(ascii: "\\") { return true }
                if index >= uInKey && bytes.count - (index - uInKey) >= key.count
                    && key.indices.allSatisfy({ bytes[index - uInKey + $0] == key[$0] }) {
                    return true
                }
                from = index + 1
            }
            return false
        }
    }

    /// `scan cache FILE: expected …, found …; discarded (it is made anew)`.
    private func warning(_ expected: String, _ found: String) -> String {
        "scan cache \(file): expected \(expected), found \(found); discarded (it is made anew)"
    }

    private static func records(_ document: JSONValue) throws -> [ScanRecord] {
        guard document["version"]?.intValue == formatVersion else {
            throw ScanCacheFormatError(expected: "{\"version\": \(formatVersion), …}", found: "another document")
        }
        guard let entries = document["entries"]?.arrayValue else {
            throw ScanCacheFormatError(expected: "\"entries\": an array", found: "none")
        }
        guard entries.count <= entryLimit else {
            throw ScanCacheFormatError(expected: "at most \(entryLimit) entries", found: "\(entries.count)")
        }
        return try entries.enumerated().map { index, entry in
            guard let record = ScanRecord(json: entry) else {
                throw ScanCacheFormatError(expected: "entries[\(index)] a scan record", found: "a malformed one")
            }
            return record
        }
    }

    // MARK: - Writing

    /// Writes `records` (oldest first) as the whole cache: the newest ``entryLimit`` of them that fit
    /// in ``byteLimit`` bytes. Returns a warning when it could not (nothing was changed then).
    package func write(_ records: [ScanRecord]) -> String? {
        var entries = records.suffix(Self.entryLimit).map { JSONValue.object($0.json).serializedBytes() }
        var total = entries.reduce(0) { $0 + $1.count + 1 } + 32
        var first = 0
        while total > Self.byteLimit, first < entries.count {
            total -= entries[first].count + 1
            first += 1
        }
        entries.removeFirst(first)
        var bytes = Array("{\"version\":\(Self.formatVersion),\"entries\":[".utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += entry
            bytes.append(UInt8(ascii: "\n"))
        }
        bytes += Array("]}\n".utf8)
        if let problem = Self.makeDirectories(directory) {
            return "scan cache \(directory): expected a folder it can make and write, found \(problem); the cache was not saved"
        }
        if let problem = Self.replace(file, with: bytes, temporary: directory + "/.\(Self.fileName).\(getpid()).tmp") {
            return "scan cache \(file): expected a file it can write, found \(problem); the cache was not saved"
        }
        return nil
    }

    /// Makes `path` and the folders above it (mode 0700); nil when it exists, else what failed.
    private static func makeDirectories(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR ? nil : "\"\(path)\", not a folder" }
        let parent = FilePaths.directory(of: path)
        if parent != path, let problem = makeDirectories(parent) { return problem }
        if mkdir(path, 0o700) != 0 && errno != EEXIST { return "\"\(path)\": \(FilePaths.errorText(errno))" }
        return nil
    }

    /// Writes `bytes` to `temporary`, syncs it, renames it over `file` and syncs the folder; nil on
    /// success, else what failed (the temporary file is removed).
    private static func replace(_ file: String, with bytes: [UInt8], temporary: String) -> String? {
        unlink(temporary)  // one a process with this id left behind
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return FilePaths.errorText(errno) }
        var offset = 0
        var failure: String?
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                failure = FilePaths.errorText(errno)
                break
            }
            offset += count
        }
        if failure == nil && fsync(fd) != 0 { failure = FilePaths.errorText(errno) }
        if close(fd) != 0 && failure == nil { failure = FilePaths.errorText(errno) }
        if failure == nil && rename(temporary, file) != 0 { failure = FilePaths.errorText(errno) }
        if let failure {
            unlink(temporary)
            return failure
        }
        let folder = open(FilePaths.directory(of: file), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        return nil
    }

    // MARK: - The blacklist, for the loader

    /// Throws ``PluginLoadError/blacklisted(path:reason:date:cache:)`` when the file at `path` is one
    /// whose inspection crashed or hung, for a plugin loaded elsewhere (an isolated one, in its
    /// child). Opens the file only to compare it; a file it cannot open is left to the loader's checks.
    package func refuseIfBlacklisted(path: String) throws(PluginLoadError) {
        let path = FilePaths.absolute(path)
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return }
        if let failure = blacklisted(path: path, fd: fd, info: info)?.failure {
            throw .blacklisted(path: path, reason: failure.reason, date: failure.date, cache: file)
        }
    }

    /// The record of a crashed or hung inspection of exactly this file (`fd`, opened at `path`, with
    /// `info` its `fstat`), if the cache holds one: same path, size and modification time, then the
    /// same SHA-256 (hashed only then). The cache file is read again only when it changed.
    func blacklisted(path: String, fd: Int32, info: stat) -> ScanRecord? {
        var cacheInfo = stat()
        let stamp = stat(file, &cacheInfo) == 0 ? FileStamp(cacheInfo) : nil
        let record: ScanRecord? = blacklist.withLock { state in
            if stamp == nil {
                state = Blacklist()
            } else if state.stamp != stamp {
                var failures: [String: ScanRecord] = [:]
                if case .read(let bytes) = readBytes(), Self.mayHoldFailures(bytes) {
                    for record in parse(bytes).records where record.failure != nil { failures[record.key.path] = record }
                }
                state = Blacklist(stamp: stamp, failures: failures)
            }
            return state.failures[path]
        }
        guard let record, record.key.size == Int64(info.st_size), record.key.modified == ScanRecord.Key.modified(info)
        else { return nil }
        guard let digest = try? SHA256.hash(fileDescriptor: fd, path: path), digest.hex == record.key.sha256 else { return nil }
        return record
    }
}

/// A cache file that is not what ``ScanCache`` writes.
private struct ScanCacheFormatError: Error {
    var expected: String
    var found: String
}

/// What tells a file apart from its next version: inode, size and modification time.
private struct FileStamp: Equatable, Sendable {
    var inode: UInt64
    var size: Int64
    var modified: String

    init(_ info: stat) {
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = ScanRecord.Key.modified(info)
    }
}

/// What the scan cache knows of one plugin file.
package struct ScanRecord: Sendable, Equatable {
    /// Which file, exactly: a record holds only while all four are unchanged.
    package struct Key: Sendable, Hashable {
        /// Absolute (symlinks kept), as the manifest entry led to it.
        package var path: String
        /// In bytes.
        package var size: Int64
        /// The modification time, `seconds.nanoseconds` since the epoch.
        package var modified: String
        /// The SHA-256 of its bytes, hex.
        package var sha256: String

        /// A key.
        package init(path: String, size: Int64, modified: String, sha256: String) {
            self.path = path
            self.size = size
            self.modified = modified
            self.sha256 = sha256
        }

        /// `info`'s modification time as a key holds it.
        static func modified(_ info: stat) -> String {
            let nanoseconds = String(info.st_mtim.tv_nsec)
            return "\(info.st_mtim.tv_sec)." + String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
        }
    }

    /// A plugin descriptor as `apphost list` shows it.
    package struct Descriptor: Sendable, Equatable {
        package var name: String
        package var id: String
        package var version: String
        package var vendor: String
        /// "major.minor".
        package var abi: String
        /// Empty for a C plugin.
        package var swiftVersion: String
        /// Every subscriber it declares, in order.
        package var subscribers: [String]

        /// A descriptor.
        package init(name: String, id: String, version: String, vendor: String, abi: String, swiftVersion: String,
                     subscribers: [String]) {
            self.name = name
            self.id = id
            self.version = version
            self.vendor = vendor
            self.abi = abi
            self.swiftVersion = swiftVersion
            self.subscribers = subscribers
        }

        /// `{"name", "id", "version", "vendor", "abi", "swiftVersion", "subscribers"}`.
        package var json: JSONObject {
            ["name": .string(name), "id": .string(id), "version": .string(version), "vendor": .string(vendor),
             "abi": .string(abi), "swiftVersion": .string(swiftVersion), "subscribers": .array(subscribers.map { .string($0) })]
        }

        /// Reads ``json``; nil when a field is missing or of the wrong type.
        package init?(json: JSONValue) {
            guard let name = json["name"]?.stringValue, let id = json["id"]?.stringValue,
                  let version = json["version"]?.stringValue, let vendor = json["vendor"]?.stringValue,
                  let abi = json["abi"]?.stringValue, let swiftVersion = json["swiftVersion"]?.stringValue,
                  let list = json["subscribers"]?.arrayValue
            else { return nil }
            let subscribers = list.compactMap(\.stringValue)
            guard subscribers.count == list.count else { return nil }
            self.init(name: name, id: id, version: version, vendor: vendor, abi: abi, swiftVersion: swiftVersion,
                      subscribers: subscribers)
        }
    }

    /// An inspection that did not end: the child crashed (a signal, an exit) or hung.
    package struct Failure: Sendable, Equatable {
        /// "crashed with SIGSEGV while loading it (dlopen, adh_plugin_entry)", "hung …".
        package var reason: String
        /// When, "2026-11-27 14:03:12 UTC".
        package var date: String

        /// A failure.
        package init(reason: String, date: String) {
            self.reason = reason
            self.date = date
        }

        /// Now, as a failure's date.
        package static func now() -> String {
            var seconds = time(nil)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
        }
    }

    /// The file.
    package var key: Key
    /// Its descriptor, when an inspection read it.
    package var descriptor: Descriptor?
    /// Digests of the option sets its subscribers were made with and destroyed cleanly (newest last,
    /// at most ``ScanCache/createdLimit``).
    package var created: [String]
    /// Why its inspection did not end, when it did not: the file is blacklisted.
    package var failure: Failure?

    /// A record.
    package init(key: Key, descriptor: Descriptor? = nil, created: [String] = [], failure: Failure? = nil) {
        self.key = key
        self.descriptor = descriptor
        self.created = created
        self.failure = failure
    }

    /// The record as the cache file holds it.
    var json: JSONObject {
        var object: JSONObject = ["path": .string(key.path), "size": .number(Double(key.size)),
                                  "modified": .string(key.modified), "sha256": .string(key.sha256)]
        if let descriptor { object["descriptor"] = .object(descriptor.json) }
        if !created.isEmpty { object["created"] = .array(created.map { .string($0) }) }
        if let failure { object["failure"] = ["reason": .string(failure.reason), "date": .string(failure.date)] }
        return object
    }

    /// Reads ``json``; nil when it is not a record.
    init?(json: JSONValue) {
        guard let path = json["path"]?.stringValue, path.hasPrefix("/"), let size = json["size"]?.intValue, size >= 0,
              let modified = json["modified"]?.stringValue, let sha256 = json["sha256"]?.stringValue, sha256.count == 64
        else { return nil }
        key = Key(path: path, size: Int64(size), modified: modified, sha256: sha256)
        if let value = json["descriptor"] {
            guard let descriptor = Descriptor(json: value) else { return nil }
            self.descriptor = descriptor
        }
        created = []
        if let list = json["created"] {
            guard let list = list.arrayValue, list.count <= ScanCache.createdLimit else { return nil }
            created = list.compactMap(\.stringValue)
            guard created.count == list.count else { return nil }
        }
        if let value = json["failure"] {
            guard let reason = value["reason"]?.stringValue, let date = value["date"]?.stringValue else { return nil }
            failure = Failure(reason: reason, date: date)
        }
        guard descriptor != nil || failure != nil else { return nil }
    }
}
