#if canImport(Glibc)
import Glibc
#endif
import BenchSubscribers
import SubscriberABI
import SubscriberHost
import SubscriberKit

/// How the load benchmark loads N plugin files.
enum LoadVariant: String, CaseIterable, Sendable {
    /// `dlopen(RTLD_NOW | RTLD_LOCAL)` + `dlsym("adh_plugin_entry")` of each file, nothing else (and
    /// the shared Swift plugin SDK once, as the host loads it, for copies that link it: ``PluginOpen``).
    case bare
    /// The same, then the entry is called (the plugin's Swift code runs for the first time).
    case entry
    /// The same, then one subscriber is made through the C ABI (``CSubscriber``), as a host does.
    case create
    /// ``PluginHost`` over a manifest listing the files: all ten checks, subscribers made, no pins.
    case pinsOff
    /// The same with every file's SHA-256 pinned in the manifest (check 3 hashes each file).
    case pinsOn

    var label: String {
        switch self {
        case .bare: "bare dlopen+dlsym"
        case .entry: "dlopen+dlsym+entry"
        case .create: "dlopen+dlsym+entry+create"
        case .pinsOff: "manifest, pins off"
        case .pinsOn: "manifest, pins on"
        }
    }
}

/// The file names and manifests of the load benchmark's folder, shared by parent and child.
enum LoadFolder {
    /// The name of copy `index`.
    static func fileName(_ index: Int) -> String {
        let digits = String(index)
        return "libBench-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".so"
    }

    /// The subscriber name copy `index` in `folder` declares: it is named after its file's inode
    /// (``BenchSubscriberTypes/loadProbeName(inode:)``), which costs the plugin one `fstat`.
    static func probeName(folder: String, index: Int) throws -> String {
        let path = folder + "/" + fileName(index)
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw BenchError("stat \(path): \(String(cString: strerror(errno))); expected a copy of the plugin")
        }
        return BenchSubscriberTypes.loadProbeName(inode: UInt64(info.st_ino))
    }

    /// The manifest that loads the first `count` copies the way `variant` says.
    static func manifestName(count: Int, variant: LoadVariant) -> String {
        "manifest-\(count)-\(variant.rawValue).json"
    }
}

/// What one child process measured: how long loading took and its resident memory around it.
struct LoadSample: Sendable {
    var nanoseconds: UInt64
    var residentBefore: Int
    var residentAfter: Int

    /// The line the child prints and the parent parses.
    var line: String { "\(nanoseconds) \(residentBefore) \(residentAfter)" }

    init(nanoseconds: UInt64, residentBefore: Int, residentAfter: Int) {
        self.nanoseconds = nanoseconds
        self.residentBefore = residentBefore
        self.residentAfter = residentAfter
    }

    init?(line: String) {
        let fields = line.split(separator: " ").compactMap { Int($0) }
        guard fields.count == 3, fields[0] >= 0 else { return nil }
        self.init(nanoseconds: UInt64(fields[0]), residentBefore: fields[1], residentAfter: fields[2])
    }
}

/// The child side of the load benchmark: a fresh process per measurement, because a loaded image
/// can never be unloaded (and `dlopen` of a file already loaded costs nothing).
@MainActor
enum LoadChild {
    /// `--load-child <variant> <folder> <count> [c]`: loads, prints one ``LoadSample`` line, exits 0;
    /// prints the error and exits 1 when loading fails. `c`: the copies are libBenchSubscribersC.so's,
    /// whose subscriber is `VoidCounter` (bare, entry and create only).
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.count == 3, arguments[0] == "phases", let count = Int(arguments[2]), count > 0 {
            do {
                for line in try MemoryPhases.run(folder: arguments[1], count: count) { print(line) }
                return 0
            } catch {
                print("error: \(error)")
                return 1
            }
        }
        let cCopies = arguments.count == 4 && arguments[3] == "c"
        guard arguments.count == 3 || cCopies, let variant = LoadVariant(rawValue: arguments[0]),
              let count = Int(arguments[2]), count > 0, !cCopies || [.bare, .entry, .create].contains(variant) else {
            print("--load-child: expected <bare|entry|create|pinsOff|pinsOn> <folder> <count> [c] or phases <folder> <count>, found \(arguments)")
            return 2
        }
        let folder = arguments[1]
        do {
            let sample = switch variant {
            case .bare, .entry, .create: try direct(variant, folder: folder, count: count, cCopies: cCopies)
            case .pinsOff, .pinsOn: try manifest(folder + "/" + LoadFolder.manifestName(count: count, variant: variant),
                                                  count: count)
            }
            print(sample.line)
            return 0
        } catch {
            print("error: \(error)")
            return 1
        }
    }

    /// Loads without a manifest: `dlopen` + `dlsym`, then (by `variant`) the entry call and one
    /// subscriber made the way ``PluginHost`` makes it.
    private static func direct(_ variant: LoadVariant, folder: String, count: Int, cCopies: Bool) throws -> LoadSample {
        let paths = (0..<count).map { folder + "/" + LoadFolder.fileName($0) }
        let names = cCopies ? Array(repeating: "VoidCounter", count: count)
            : try (0..<count).map { try LoadFolder.probeName(folder: folder, index: $0) }
        let log = HostLogRecorder()
        let application = Application(name: "Bench", bundleIdentifier: "dev.appdelegatehost.bench", version: "1.0")
        var handles: [UnsafeMutableRawPointer] = []
        var made: [CSubscriber] = []
        handles.reserveCapacity(count)
        made.reserveCapacity(count)
        let before = ResidentMemory.bytes()
        let start = BenchClock.now()
        for (name, path) in zip(names, paths) {
            let (handle, symbol) = try PluginOpen.entry(of: path)
            handles.append(handle)
            guard variant != .bare else { continue }
            guard let descriptor = unsafeBitCast(symbol, to: adh_plugin_entry_fn.self)() else {
                throw BenchError("\(path): the entry returned NULL")
            }
            guard variant == .create else { continue }
            guard let subscriber = CSubscriber(descriptor: descriptor, name: name,
                                               context: log.context(for: name, application: application)) else {
                throw BenchError("\(path): create(\"\(name)\") returned NULL")
            }
            made.append(subscriber)
        }
        let elapsed = BenchClock.now() &- start
        let after = ResidentMemory.bytes()
        withExtendedLifetime(made) {}
        return LoadSample(nanoseconds: elapsed, residentBefore: before, residentAfter: after)
    }

    private static func manifest(_ path: String, count: Int) throws -> LoadSample {
        let before = ResidentMemory.bytes()
        let start = BenchClock.now()
        let host = try PluginHost(manifestAt: path)
        let elapsed = BenchClock.now() &- start
        let after = ResidentMemory.bytes()
        guard host.subscribers.count == count else {
            throw BenchError("\(path): made \(host.subscribers.count) subscribers; expected \(count)")
        }
        return LoadSample(nanoseconds: elapsed, residentBefore: before, residentAfter: after)
    }
}

/// This process's resident set size.
enum ResidentMemory {
    /// Resident bytes, from /proc/self/statm (its second field counts pages); 0 when unreadable.
    static func bytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let read = fread(&buffer, 1, buffer.count - 1, file)
        let fields = String(decoding: buffer.prefix(read), as: UTF8.self).split(separator: " ").compactMap { Int($0) }
        guard fields.count >= 2 else { return 0 }
        return fields[1] * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
