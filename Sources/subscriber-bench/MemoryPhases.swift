#if canImport(Glibc)
import Glibc
#endif
import SubscriberABI
import SubscriberHost
import SubscriberKit

/// `--load-child phases DIR N`: where a Swift plugin's resident memory goes, phase by phase. Loads
/// N copies of libBenchSubscribers.so (bare `dlopen`, then each entry, then each `create` of its
/// load probe, then one call of the probe's event), and after each phase prints, per plugin, the
/// resident KB of the copies' mappings by kind (`/proc/self/smaps`: code `r-x`, read-only data `r--`,
/// written data `rw-`) and the rest of the process's growth (heap, mostly). Not for people: how
/// docs/architecture.md's "What a plugin image holds" is measured.
@MainActor
enum MemoryPhases {
    static func run(folder: String, count: Int) throws -> [String] {
        let paths = (0..<count).map { folder + "/" + LoadFolder.fileName($0) }
        let names = try (0..<count).map { try LoadFolder.probeName(folder: folder, index: $0) }
        let log = HostLogRecorder()
        let application = Application(name: "Bench", bundleIdentifier: "dev.appdelegatehost.bench", version: "1.0")
        var lines: [String] = []
        let start = Usage.read(folder: folder)
        var previous = start
        func phase(_ label: String) {
            let now = Usage.read(folder: folder)
            func kb(_ bytes: Int) -> String { String(bytes / 1024 / count) }
            var line = "\(label): code \(kb(now.code - previous.code)) rodata \(kb(now.readOnly - previous.readOnly)) "
            line += "data \(kb(now.data - previous.data)) other \(kb(now.other - previous.other)) "
            line += "total \(kb(now.total - previous.total)) (since the start \(kb(now.total - start.total)))"
            lines.append(line)
            previous = now
            for index in Set([0, 1, count - 1]).sorted() where index < count {
                lines.append("  resident pages of \(LoadFolder.fileName(index)) by 64 KB window: " + windows(of: paths[index]))
            }
        }
        var symbols: [UnsafeMutableRawPointer] = []
        for path in paths { symbols.append(try PluginOpen.entry(of: path).entry) }
        phase("bare dlopen")
        let descriptors = try symbols.map { symbol in
            guard let descriptor = unsafeBitCast(symbol, to: adh_plugin_entry_fn.self)() else {
                throw BenchError("an entry returned NULL")
            }
            return descriptor
        }
        phase("entry")
        var made: [CSubscriber] = []
        for (descriptor, name) in zip(descriptors, names) {
            guard let subscriber = CSubscriber(descriptor: descriptor, name: name,
                                               context: log.context(for: name, application: application)) else {
                throw BenchError("create(\"\(name)\") returned NULL")
            }
            made.append(subscriber)
        }
        phase("create")
        for subscriber in made { subscriber.me.pointee.will_terminate?(subscriber.me) }
        phase("first event")
        for subscriber in made { subscriber.me.pointee.will_terminate?(subscriber.me) }
        phase("second event")
        withExtendedLifetime(made) {}
        return lines
    }

    /// Which pages of `path`'s mappings are present (`/proc/self/pagemap`), per 64 KB window of
    /// the file: "offset:pages" for each window with any.
    static func windows(of path: String) -> String {
        guard let maps = fopen("/proc/self/maps", "r") else { return "?" }
        defer { fclose(maps) }
        let pagemap = open("/proc/self/pagemap", O_RDONLY)
        guard pagemap >= 0 else { return "?" }
        defer { close(pagemap) }
        var line: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(line) }
        var out: [String] = []
        while getline(&line, &capacity, maps) > 0, let line {
            let text = String(cString: line).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.hasSuffix(path) else { continue }
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            let range = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard range.count == 2, let offset = UInt(fields[2], radix: 16) else { continue }
            var counts: [UInt: Int] = [:]
            var page = range[0]
            while page < range[1] {
                var entry: UInt64 = 0
                if pread(pagemap, &entry, 8, off_t(page / 4096 * 8)) == 8, entry & (1 << 63) != 0 {
                    counts[(offset + page - range[0]) / 65536, default: 0] += 1
                }
                page += 4096
            }
            out.append(String(fields[1]) + " " + counts.keys.sorted().map { "\(String($0 * 65536, radix: 16)):\(counts[$0]!)" }
                .joined(separator: " "))
        }
        return out.joined(separator: " | ")
    }

    /// Resident bytes: of the mappings of files in the folder, by kind, and of the whole process.
    struct Usage {
        var code = 0, readOnly = 0, data = 0, total = 0
        var other: Int { total - code - readOnly - data }

        static func read(folder: String) -> Usage {
            var usage = Usage()
            usage.total = ResidentMemory.bytes()
            guard let file = fopen("/proc/self/smaps", "r") else { return usage }
            defer { fclose(file) }
            var kind: WritableKeyPath<Usage, Int>? = nil
            var line: UnsafeMutablePointer<CChar>? = nil
            var capacity = 0
            defer { free(line) }
            while getline(&line, &capacity, file) > 0, let line {
                let text = String(cString: line)
                if let first = text.first, first.isHexDigit, text.contains("-"), text.contains(" ") {
                    let fields = text.split(separator: " ", omittingEmptySubsequences: true)
                    let permissions = fields.count > 1 ? fields[1] : ""
                    let inFolder = fields.count >= 6 && fields[5].hasPrefix(folder)
                    kind = !inFolder ? nil
                        : permissions.hasPrefix("r-x") ? \.code : permissions.hasPrefix("rw") ? \.data : \.readOnly
                } else if text.hasPrefix("Rss:"), let kind {
                    let number = text.dropFirst(4).split(separator: " ").first.flatMap { Int($0) } ?? 0
                    usage[keyPath: kind] += number * 1024
                }
            }
            return usage
        }
    }
}
