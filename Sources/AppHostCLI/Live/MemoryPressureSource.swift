#if canImport(Glibc)
import Glibc
#endif

/// Memory pressure → `didReceiveMemoryWarning`, from the kernel's pressure stall information (PSI):
/// the file systemd hands over (`$MEMORY_PRESSURE_WATCH`, with `$MEMORY_PRESSURE_WRITE` the trigger to
/// write, base64), else the cgroup's `memory.pressure`, else `/proc/pressure/memory`.
///
/// A PSI trigger where the kernel allows it (`some 200000 2000000`: 200 ms of stall in a 2 s window,
/// systemd's default; the kernel wakes poll(2) with POLLPRI); where the trigger write is refused
/// (EINVAL on some kernels, EACCES/EPERM for an unprivileged process) the file's `some avg10=` is
/// polled every ``pollInterval`` instead, a warning when it reaches ``avg10Threshold`` percent.
/// Either way at most one warning per ``minimumInterval``.
@MainActor
final class MemoryPressureSource: LiveSource {
    let name = "memory pressure"
    /// How the source watches, for the line said at start.
    enum Mechanism: Equatable {
        case trigger(path: String, trigger: String)
        case polling(path: String, why: String)
    }
    let mechanism: Mechanism
    /// Warnings closer together than this are dropped (nanoseconds).
    let minimumInterval: UInt64
    static let pollInterval: UInt64 = 5_000_000_000
    static let avg10Threshold = 10.0
    static let defaultTrigger = "some 200000 2000000"

    private let fd: Int32
    private let clock: LiveClock
    private var lastWarning: UInt64?
    private(set) var nextDue: UInt64?

    /// Whether `environment` asks for no watching: `$MEMORY_PRESSURE_WATCH` set to `/dev/null`, which is
    /// how systemd says `MemoryPressureWatch=off`.
    static func isTurnedOff(in environment: [String: String]) -> Bool {
        environment["MEMORY_PRESSURE_WATCH"] == "/dev/null"
    }

    /// Watches the first PSI file `environment` and the system offer; throws the one line saying why
    /// none is available.
    convenience init(environment: [String: String], clock: LiveClock) throws(LiveError) {
        var candidates: [String] = []
        if let watch = environment["MEMORY_PRESSURE_WATCH"], !watch.isEmpty, watch != "/dev/null" { candidates.append(watch) }
        candidates += Self.cgroupPressureFiles()
        candidates.append("/proc/pressure/memory")
        var trigger = Self.defaultTrigger
        if let encoded = environment["MEMORY_PRESSURE_WRITE"], let decoded = Self.base64Decoded(encoded) {
            trigger = String(decoding: decoded.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        for path in candidates where access(path, R_OK) == 0 {
            try self.init(path: path, trigger: trigger, clock: clock)
            return
        }
        throw LiveError("no readable PSI file (\(candidates.joined(separator: ", ")))")
    }

    /// Watches `path` with `trigger`, falling back to polling when the kernel refuses the trigger;
    /// `forcePolling` skips the trigger (tests drive the polling through a plain file).
    init(path: String, trigger: String = MemoryPressureSource.defaultTrigger, clock: LiveClock,
         minimumInterval: UInt64 = 10_000_000_000, forcePolling: Bool = false) throws(LiveError) {
        self.clock = clock
        self.minimumInterval = minimumInterval
        // Read first, written only where the kernel keeps pressure files: a path to an ordinary file
        // (a mistake, or a test's) is polled, never overwritten with a trigger.
        guard Self.readAvg10(path) != nil else {
            throw LiveError("\(path): expected a PSI file with a line 'some avg10=…', found none")
        }
        let kernelFile = Self.isKernelPressureFile(path)
        if !forcePolling, !kernelFile {
            fd = -1
            mechanism = .polling(path: path, why: "not a kernel pressure file under /proc/pressure or /sys/fs/cgroup, so nothing is written to it")
        } else if !forcePolling {
            let writable = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
            if writable >= 0 {
                let bytes = Array(trigger.utf8) + [0]
                let written = bytes.withUnsafeBytes { write(writable, $0.baseAddress, $0.count) }
                if written >= 0 {
                    fd = writable
                    mechanism = .trigger(path: path, trigger: trigger)
                    return
                }
                let code = errno
                _ = Glibc.close(writable)
                fd = -1
                mechanism = .polling(path: path, why: "the kernel refused the trigger: \(String(cString: strerror(code)))")
            } else {
                fd = -1
                mechanism = .polling(path: path, why: "cannot open it for a trigger: \(String(cString: strerror(errno)))")
            }
        } else {
            fd = -1
            mechanism = .polling(path: path, why: "polling asked for")
        }
        nextDue = clock.now() + Self.pollInterval
    }

    /// Whether `path`, links resolved, is where the kernel keeps pressure files (`/proc/pressure/`,
    /// a cgroup's under `/sys/fs/cgroup/`): the only files a trigger is written to.
    static func isKernelPressureFile(_ path: String) -> Bool {
        guard let resolved = realpath(path, nil) else { return false }
        defer { free(resolved) }
        let real = String(cString: resolved)
        return real.hasPrefix("/proc/pressure/") || real.hasPrefix("/sys/fs/cgroup/")
    }

    /// The line said at start.
    var description: String {
        switch mechanism {
        case .trigger(let path, let trigger): "PSI trigger '\(trigger)' on \(path)"
        case .polling(let path, let why): "polling avg10 of \(path) every \(Self.pollInterval / 1_000_000_000) s (\(why)), a warning at \(Int(Self.avg10Threshold)) %"
        }
    }

    func interests() -> [pollfd] { fd >= 0 && !closed ? [pollfd(fd: fd, events: Int16(POLLPRI), revents: 0)] : [] }

    func ready(_ fd: Int32, events: Int16) -> [LiveStimulus] {
        guard events & Int16(POLLPRI) != 0, case .trigger(let path, _) = mechanism else { return [] }
        return warn(because: "memory pressure (PSI trigger on \(path))")
    }

    func due(now: UInt64) -> [LiveStimulus] {
        guard case .polling(let path, _) = mechanism else { return [] }
        nextDue = now + Self.pollInterval
        guard let average = Self.readAvg10(path), average >= Self.avg10Threshold else { return [] }
        return warn(because: "memory pressure (avg10 \(average) % in \(path))")
    }

    func close() {
        if fd >= 0, !closed { _ = Glibc.close(fd) }
        closed = true
    }
    /// Whether ``close()`` ran (a descriptor is never closed twice).
    private var closed = false

    /// A warning, unless one came less than ``minimumInterval`` ago.
    private func warn(because reason: String) -> [LiveStimulus] {
        let now = clock.now()
        if let lastWarning, now - lastWarning < minimumInterval { return [] }
        lastWarning = now
        return [.memoryWarning(because: reason)]
    }

    /// The `some avg10=` percentage of the PSI file at `path`.
    static func readAvg10(_ path: String) -> Double? {
        // Never waits: a FIFO or a terminal named here would block the open or the read. Pressure
        // files (procfs, cgroupfs) are regular files.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return nil }
        for line in String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n") where line.hasPrefix("some ") {
            for field in line.split(separator: " ") where field.hasPrefix("avg10=") { return Double(field.dropFirst(6)) }
        }
        return nil
    }

    /// This process's cgroup v2 `memory.pressure` (from /proc/self/cgroup's `0::PATH`).
    static func cgroupPressureFiles() -> [String] {
        let fd = open("/proc/self/cgroup", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { _ = Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return [] }
        for line in String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n") where line.hasPrefix("0::") {
            let path = String(line.dropFirst(3))
            let suffix = (path == "/" ? "" : path) + "/memory.pressure"
            return ["/sys/fs/cgroup" + suffix, "/sys/fs/cgroup/unified" + suffix]
        }
        return []
    }

    /// Standard base64, nil when malformed.
    static func base64Decoded(_ text: String) -> [UInt8]? {
        var bits = 0, value = 0
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            let digit: Int
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit = Int(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = Int(byte - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): digit = 62
            case UInt8(ascii: "/"): digit = 63
            case UInt8(ascii: "="), UInt8(ascii: "\n"): continue
            default: return nil
            }
            value = (value << 6) | digit
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((value >> bits) & 0xFF))
            }
        }
        return bytes
    }
}
