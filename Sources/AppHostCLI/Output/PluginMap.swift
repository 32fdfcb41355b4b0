#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where each loaded plugin's code lies in memory, to name the plugin a crash happened in (from the
/// faulting address) or that called `exit()` (from the return addresses on the stack).
///
/// Read from `/proc/self/maps` once the plugins are loaded (and again after a reload): every mapping
/// of a plugin's file (same path and inode). A signal handler asks it lock-free: each load publishes
/// one ``Snapshot`` (ranges and names in plain memory allocated beforehand) by one atomic pointer,
/// and a plugin found is named from the snapshot it was found in. A reload that publishes a new one
/// while a handler reads the old one cannot send it past the old one's ends: no snapshot is freed.
final class PluginMap: @unchecked Sendable {  // its one stored property is an atomic
    fileprivate struct Range {
        var start: UInt
        var end: UInt
        var plugin: Int
    }

    /// One load's ranges and names, never changed after it is published, never freed (a handler may
    /// still be reading it; a reload is rare and its snapshot small).
    fileprivate struct Snapshot {
        let ranges: UnsafeMutablePointer<Range>
        let rangeCount: Int
        let names: UnsafeMutablePointer<SignalSafeBuffer>
        let nameCount: Int
    }

    /// A plugin found at an address: its index in the load that found it, and that load's names.
    struct Found: @unchecked Sendable {  // points into a snapshot that is never changed or freed
        fileprivate let snapshot: UnsafeMutablePointer<Snapshot>
        /// The plugin's index in the names given to the ``load(_:)`` that published the snapshot.
        let index: Int
    }

    private let current = Atomic<UnsafeMutablePointer<Snapshot>?>(nil)

    /// How many address ranges are known.
    var count: Int { current.load(ordering: .acquiring)?.pointee.rangeCount ?? 0 }

    /// Learns where `plugins` (a name to show, and the canonical path of the file loaded) lie.
    func load(_ plugins: [(name: String, path: String)]) {
        publish(names: plugins.map(\.name), ranges: Self.ranges(of: plugins, in: Self.mappings(), inode: Self.inode(of:)))
    }

    /// Publishes `names` and the address `ranges` of their files (each with an index into `names`) as
    /// one snapshot; the one published before stays readable.
    func publish(names plugins: [String], ranges found: [(start: UInt, end: UInt, plugin: Int)]) {
        let names = UnsafeMutablePointer<SignalSafeBuffer>.allocate(capacity: max(1, plugins.count))
        for (index, plugin) in plugins.enumerated() {
            let buffer = SignalSafeBuffer(capacity: 512)
            var text = plugin
            text.withUTF8 { bytes in _ = buffer.append(UnsafeBufferPointer(rebasing: bytes.prefix(512))) }
            (names + index).initialize(to: buffer)
        }
        let valid = found.filter { $0.plugin >= 0 && $0.plugin < plugins.count }
        let ranges = UnsafeMutablePointer<Range>.allocate(capacity: max(1, valid.count))
        ranges.initialize(from: valid.map { Range(start: $0.start, end: $0.end, plugin: $0.plugin) }, count: valid.count)
        let snapshot = UnsafeMutablePointer<Snapshot>.allocate(capacity: 1)
        snapshot.initialize(to: Snapshot(ranges: ranges, rangeCount: valid.count, names: names, nameCount: plugins.count))
        current.store(snapshot, ordering: .releasing)
    }

    /// The address ranges of `mappings` (lines of `/proc/self/maps`) that map one of `plugins`' files
    /// (the same path, and the inode `inode` gives for it now), each with the index of the first
    /// plugin of that file: several manifest entries may load one file, and an address can only name
    /// the file. Linear in lines and plugins: one hash lookup per line, one `inode` call per file.
    static func ranges(of plugins: [(name: String, path: String)], in mappings: [Substring],
                       inode: (String) -> UInt64?) -> [(start: UInt, end: UInt, plugin: Int)] {
        var firstPlugin: [Substring: Int] = [:]  // a file's path → the first plugin loaded from it
        firstPlugin.reserveCapacity(plugins.count)
        for (index, plugin) in plugins.enumerated() where firstPlugin[Substring(plugin.path)] == nil {
            firstPlugin[Substring(plugin.path)] = index
        }
        var inodes: [Int: UInt64?] = [:]  // by plugin index: each file examined once
        var found: [(start: UInt, end: UInt, plugin: Int)] = []
        for line in mappings {
            // start-end perms offset dev inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, let dash = fields[0].firstIndex(of: "-"),
                  let start = UInt(fields[0][..<dash], radix: 16),
                  let end = UInt(fields[0][fields[0].index(after: dash)...], radix: 16),
                  let lineInode = UInt64(fields[4]), lineInode != 0 else { continue }
            let path = fields[5].trimmingPrefix(while: { $0 == " " })
            guard let plugin = firstPlugin[Substring(path)] else { continue }
            let fileInode: UInt64?
            if let known = inodes[plugin] {
                fileInode = known
            } else {
                fileInode = inode(plugins[plugin].path)
                inodes[plugin] = fileInode
            }
            if fileInode == lineInode { found.append((start, end, plugin)) }
        }
        return found
    }

    /// The plugin `address` lies in; nil for none. Async-signal-safe.
    func plugin(at address: UInt) -> Found? {
        guard let snapshot = current.load(ordering: .acquiring) else { return nil }
        let ranges = snapshot.pointee.ranges
        for index in 0..<snapshot.pointee.rangeCount where ranges[index].start <= address && address < ranges[index].end {
            return Found(snapshot: snapshot, index: ranges[index].plugin)
        }
        return nil
    }

    /// The plugin the first of `addresses` that lies in one belongs to; nil for none.
    func plugin(atAny addresses: [UInt]) -> Found? {
        addresses.lazy.compactMap { self.plugin(at: $0) }.first
    }

    /// Appends `plugin`'s name, as the load that found it knew it, to `line`. Async-signal-safe.
    func appendName(_ plugin: Found, to line: PublishedText.Scratch) {
        let snapshot = plugin.snapshot.pointee
        guard plugin.index >= 0 && plugin.index < snapshot.nameCount else { return }  // published ranges name a plugin
        snapshot.names[plugin.index].withBytes { line.append($0) }
    }

    /// The lines of `/proc/self/maps` (empty when it cannot be read).
    private static func mappings() -> [Substring] {
        let fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }

    private static func inode(of path: String) -> UInt64? {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
    }
}

/// The return addresses on the calling thread's stack (glibc's `backtrace`, found at run time: the
/// Glibc module does not export it).
enum Backtrace {
    private typealias Function = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32
    private static let function: Function? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "backtrace")
        .map { unsafeBitCast($0, to: Function.self) }

    /// Calls `backtrace` once, so that its first call (which loads the unwinder) is not made in an exit hook.
    static func prepare() { _ = callers() }

    /// The calling thread's return addresses, innermost first (at most 128).
    static func callers() -> [UInt] {
        guard let function else { return [] }
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 128)
        let count = Int(function(&frames, Int32(frames.count)))
        return frames.prefix(max(0, count)).map { UInt(bitPattern: $0) }
    }
}
