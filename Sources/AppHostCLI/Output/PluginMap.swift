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

    /// The address ranges in `maps` (the text of `/proc/self/maps`) that map one of `plugins`' files
    /// (the same path, and the inode `inode` gives for it now), each with the index of the first
    /// plugin of that file: several manifest entries may load one file, and an address can only name
    /// the file. Linear in bytes and plugins: the lines are read as bytes (as `String`s split into
    /// `Character`s, the maps of a process with Foundation loaded cost 14 million instructions at
    /// every start), one hash lookup per line that names a file, one `inode` call per file.
    static func ranges(of plugins: [(name: String, path: String)], in maps: [UInt8],
                       inode: (String) -> UInt64?) -> [(start: UInt, end: UInt, plugin: Int)] {
        // A file's path → the first plugin loaded from it. Sized by `init(minimumCapacity:)`, compiled
        // here for these types: `reserveCapacity` is called generic and needs the dictionary's type,
        // built by name once the plugins are loaded, checking `String: Hashable` against every image
        // (425,000 instructions at every start).
        var firstPlugin = [String: Int](minimumCapacity: plugins.count)
        for (index, plugin) in plugins.enumerated() where firstPlugin[plugin.path] == nil {
            firstPlugin[plugin.path] = index
        }
        // By plugin index, each file examined once: its inode, 0 for none (a mapping of inode 0 names
        // no file). Arrays, not a dictionary of optionals, whose type metadata alone cost 450,000
        // instructions at every start (its requirements checked against every loaded image).
        var examined = [Bool](repeating: false, count: plugins.count)
        var inodes = [UInt64](repeating: 0, count: plugins.count)
        var found: [(start: UInt, end: UInt, plugin: Int)] = []
        maps.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var lineStart = 0
            while lineStart < bytes.count {
                let lineEnd = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), bytes.count - lineStart)
                    .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? bytes.count
                defer { lineStart = lineEnd + 1 }
                guard let line = MapsLine(bytes[lineStart..<lineEnd]), line.inode != 0,
                      let plugin = firstPlugin[String(decoding: bytes[line.path], as: UTF8.self)] else { continue }
                if !examined[plugin] {
                    examined[plugin] = true
                    inodes[plugin] = inode(plugins[plugin].path) ?? 0
                }
                if inodes[plugin] == line.inode { found.append((line.start, line.end, plugin)) }
            }
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

    /// The text of `/proc/self/maps` (empty when it cannot be read).
    private static func mappings() -> [UInt8] {
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
        return bytes
    }

    private static func inode(of path: String) -> UInt64? {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
    }
}

/// One line of `/proc/self/maps`, read from its bytes: `start-end perms offset dev inode   path`.
private struct MapsLine {
    var start: UInt
    var end: UInt
    var inode: UInt64
    /// Where the path lies in the bytes the line was read from (after the padding; may hold spaces).
    var path: Range<Int>

    /// nil for a line that is not of that form, or names no file (an anonymous mapping).
    init?(_ line: Slice<UnsafeBufferPointer<UInt8>>) {
        var at = line.startIndex
        func hex(until stop: UInt8) -> UInt? {
            var value: UInt = 0, digits = 0
            while at < line.endIndex, line[at] != stop {
                let byte = line[at]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                guard digits < 16 else { return nil }
                value = value << 4 | UInt(digit)
                digits += 1
                at += 1
            }
            guard digits > 0, at < line.endIndex else { return nil }
            at += 1  // the stop byte
            return value
        }
        func skipField() -> Bool {  // a field and the spaces after it
            let fieldStart = at
            while at < line.endIndex, line[at] != UInt8(ascii: " ") { at += 1 }
            guard at > fieldStart else { return false }
            while at < line.endIndex, line[at] == UInt8(ascii: " ") { at += 1 }
            return at < line.endIndex
        }
        guard let start = hex(until: UInt8(ascii: "-")), let end = hex(until: UInt8(ascii: " ")),
              skipField(), skipField(), skipField() else { return nil }  // perms, offset, dev
        var inode: UInt64 = 0, digits = 0
        while at < line.endIndex, line[at] != UInt8(ascii: " ") {
            let digit = line[at] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, over) = inode.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
            guard !over, !carry else { return nil }  // past UInt64: not an inode
            inode = sum
            digits += 1
            at += 1
        }
        guard digits > 0 else { return nil }
        while at < line.endIndex, line[at] == UInt8(ascii: " ") { at += 1 }
        guard at < line.endIndex else { return nil }  // no path: an anonymous mapping
        self.start = start
        self.end = end
        self.inode = inode
        self.path = at..<line.endIndex
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
