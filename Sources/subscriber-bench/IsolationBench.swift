#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SubscriberHost
import SubscriberKit

/// The floor for process isolation: one small frame sent to another process over a socketpair and
/// sent back, with nothing else — no plugin, no JSON, no dispatcher. An isolated event costs at least
/// one such round trip per child (docs/isolation.md), so this is the limit its rows are measured against.
///
/// The other process is this executable started again in a child mode (`--ping-pong-child`), with its
/// end of the pair as descriptor 3: what an isolated plugin's child is too.
struct IsolationFloor: Sendable {
    /// Nanoseconds per round trip (write a frame, the child reads it and writes it back, read it).
    var pingPong: Stats
    /// Bytes of one frame, its length prefix included.
    var frameBytes: Int
}

/// The isolation section: the floor and, in the same run and measured in alternation with it, what
/// events to plugins isolated in a child (`PluginIsolation(mode: .process)`) cost through a
/// ``PluginHost``, what a crash costs until the restarted child answers again, and an idle child's memory.
struct IsolationFigures: Sendable {
    var floor: IsolationFloor
    /// didReceiveMemoryWarning to one isolated VoidCounter (libBenchSubscribers.so), ns per event.
    var voidEvent: Stats
    /// voidEvent / the ping-pong, repetition by repetition.
    var voidToFloor: Stats
    /// willResignActive + didBecomeActive to 1 and to 10 subscribers of libManySubscribers.so in one
    /// child (only didBecomeActive reaches the child), ns per pair.
    var activeOne: Stats
    var activeTen: Stats
    /// (activeTen − activeOne) / 9, repetition by repetition: one more subscriber in the same child.
    var perSubscriber: Stats
    /// openURL (with options) to one isolated URLMatcher, ns per event.
    var openURL: Stats
    /// performFetch to one isolated SyncFetcher (completes inside the call), ns per event.
    var fetch: Stats
    /// From the dispatch during which libDiesOnEvent.so's child dies of SIGSEGV to the end of the
    /// next dispatch, answered by its restarted child (the restart included), milliseconds.
    var crashToAnswer: Stats
    /// An idle child's memory (the VoidCounter's), nil when its processes were not found.
    var memory: ChildMemory?
    /// CPU nanoseconds per event (per pair for the pairs), this process and the child's worker together,
    /// in the order floor, void, 1 pair, 10 pair, openURL, performFetch; nil when a child was not found.
    var cpu: [Stats]?
}

/// Memory of an idle isolation child's two processes, from /proc/PID/statm, in KiB.
struct ChildMemory: Sendable {
    /// The worker (the plugin's process): resident, and resident minus shared (its own pages).
    var workerResident: Double
    var workerPrivate: Double
    /// The reaper that waits for it.
    var reaperResident: Double
    var reaperPrivate: Double
    var workerPid: Int32
    var reaperPid: Int32
}

enum IsolationBench {
    /// The argument that makes this executable the echoing child.
    static let childFlag = "--ping-pong-child"
    /// The child's end of the pair.
    static let childDescriptor: Int32 = 3
    /// A frame: a 4-byte little-endian length, a type byte and a 16-byte payload (an event's header
    /// in a compact protocol: a sequence number and a row index fit in it).
    static let payloadBytes = 17
    /// The largest frame either side accepts; a longer length ends the exchange (never trusted).
    static let maximumFrame = 4096

    /// Runs the whole section: the ping-pong child and the isolated hosts, the event rows measured in
    /// alternation with the floor (`repetitions` batches each, after a warm-up that sizes them), then
    /// the crash-to-answer cycles and an idle child's memory. `executable`: this program's path;
    /// `pluginDirectory`: where libBenchSubscribers.so, libManySubscribers.so and libDiesOnEvent.so are.
    @MainActor
    static func run(executable: String, pluginDirectory: String, sampler: Sampler,
                    progress: (String) -> Void) async throws -> IsolationFigures {
        progress("isolation: socketpair ping-pong with a child process")
        let echo = try EchoChild(executable: executable)
        defer { echo.stop() }
        var exchange = Exchange(descriptor: echo.descriptor)
        var failure: String?
        let floorBatch: (Int) async -> Void = { count in
            guard failure == nil else { return }
            for _ in 0..<count where failure == nil {
                failure = exchange.roundTrip()
            }
        }

        progress("isolation: hosts with isolated plugins (a child each)")
        // Each host's child (its reaper: this process's one new child), for its CPU time and memory.
        var reapers: [pid_t?] = []
        func hosted(_ entries: [(library: String, subscribers: [String], options: JSONValue)]) throws -> PluginHost {
            let before = Self.children(of: getpid())
            let made = try host(pluginDirectory, entries)
            let started = Self.children(of: getpid()).subtracting(before)
            reapers.append(started.count == 1 ? started.first : nil)
            return made
        }
        let void = try hosted([("BenchSubscribers", ["VoidCounter"], [:])])
        defer { void.shutDown() }
        let one = try hosted([("ManySubscribers", ["Many0000"], [:])])
        defer { one.shutDown() }
        let ten = try hosted([("ManySubscribers", (0..<10).map { "Many000\($0)" }, [:])])
        defer { ten.shutDown() }
        let matcher = try hosted([("BenchSubscribers", ["URLMatcher"], [:])])
        defer { matcher.shutDown() }
        let fetcher = try hosted([("BenchSubscribers", ["SyncFetcher"], [:])])
        defer { fetcher.shutDown() }
        for host in [void, one, ten, matcher, fetcher] {
            host.dispatchAtOnce(.didFinishLaunching())
            host.dispatchAtOnce(.didBecomeActive)
        }
        let urls: [URL] = (0..<64).map {
            URL(string: $0 % 2 == 0 ? "https://bench.example.com/article/\($0)" : "https://other.example.org/item/\($0)")!
        }
        let urlOptions = OpenURLOptions(sourceApplication: "com.example.mail",
                                        annotation: ["campaign": "spring", "position": 3], openInPlace: false)
        try check(void, one, ten, matcher, fetcher, urls: urls, options: urlOptions)

        var nextURL = 0
        let batches: [(Int) async -> Void] = [
            floorBatch,
            { count in for _ in 0..<count { void.dispatchAtOnce(.didReceiveMemoryWarning) } },
            { count in for _ in 0..<count { one.dispatchAtOnce(.willResignActive); one.dispatchAtOnce(.didBecomeActive) } },
            { count in for _ in 0..<count { ten.dispatchAtOnce(.willResignActive); ten.dispatchAtOnce(.didBecomeActive) } },
            { count in
                for _ in 0..<count {
                    matcher.dispatchAtOnce(.openURL(url: urls[nextURL], options: urlOptions))
                    nextURL = (nextURL + 1) % urls.count
                }
            },
            { count in for _ in 0..<count { _ = await fetcher.dispatch(.performFetch) } },
        ]
        progress("isolation: the floor and isolated events (void, didBecomeActive ×1 and ×10, openURL, performFetch), alternating")
        let (stats, counts) = await interleaved(batches, sampler: sampler)
        // CPU time per event, both processes (this one's threads, the child's worker's): what the
        // wall clock cannot separate from waiting for a core on a busy machine.
        let workers = [echo.pid] + reapers.map { $0.flatMap { children(of: $0).first } }
        var cpuSamples = [[Double]](repeating: [], count: batches.count)
        for _ in 0..<sampler.repetitions {
            for index in batches.indices {
                guard let worker = workers[index], let childBefore = cpuNanoseconds(of: worker) else { continue }
                let hostBefore = CPUTime.process()
                await batches[index](counts[index])
                guard let childAfter = cpuNanoseconds(of: worker) else { continue }
                cpuSamples[index].append(Double(CPUTime.process() &- hostBefore &+ childAfter &- childBefore) / Double(counts[index]))
            }
        }
        let cpu = cpuSamples.allSatisfy { !$0.isEmpty } ? cpuSamples.map { Stats($0) } : nil
        if let failure { throw BenchError("ping-pong: \(failure)") }
        try check(void, one, ten, matcher, fetcher, urls: urls, options: urlOptions)

        progress("isolation: a C plugin's crash to its restarted child's answer")
        let crash = try await crashToAnswer(pluginDirectory, cycles: sampler.repetitions)
        let memory = reapers[0].flatMap { childMemory(reaper: $0) }

        return IsolationFigures(
            floor: IsolationFloor(pingPong: stats[0], frameBytes: 4 + payloadBytes),
            voidEvent: stats[1], voidToFloor: ratio(stats[1], stats[0]), activeOne: stats[2], activeTen: stats[3],
            perSubscriber: Stats(zip(stats[3].samples, stats[2].samples).map { ($0 - $1) / 9 }),
            openURL: stats[4], fetch: stats[5], crashToAnswer: crash, memory: memory, cpu: cpu)
    }

    /// The argument that only sends events to one isolated VoidCounter, untimed: the loop to run under
    /// `strace -c -f` (syscalls per event: the difference of two runs over the difference of their events).
    static let profileFlag = "--profile-isolation"

    /// `--profile-isolation EVENTS`: a host with VoidCounter isolated, launched, then EVENTS
    /// didReceiveMemoryWarning events; exit status 0, or 1 with one line on standard error.
    @MainActor
    static func profile(_ arguments: [String], pluginDirectory: String) -> Int32 {
        guard arguments.count == 1, let events = Int(arguments[0]), events > 0 else {
            let line = Array("subscriber-bench \(profileFlag): expected a positive number of events, found \(arguments)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            return 2
        }
        do {
            let void = try host(pluginDirectory, [("BenchSubscribers", ["VoidCounter"], [:])])
            defer { void.shutDown() }
            void.dispatchAtOnce(.didFinishLaunching())
            void.dispatchAtOnce(.didBecomeActive)
            for _ in 0..<events { void.dispatchAtOnce(.didReceiveMemoryWarning) }
            return 0
        } catch {
            let line = Array("subscriber-bench \(profileFlag): \(error)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            return 1
        }
    }

    /// Each of `batches` sized by its own warm-up, then `repetitions` rounds in which each runs once,
    /// in turn, so that drift of the machine hits all alike. ns per event of each.
    @MainActor
    static func interleaved(_ batches: [(Int) async -> Void], sampler: Sampler) async -> (stats: [Stats], counts: [Int]) {
        var counts: [Int] = []
        for batch in batches { counts.append(await sampler.calibrate(batch)) }
        var samples = [[Double]](repeating: [], count: batches.count)
        for _ in 0..<sampler.repetitions {
            for index in batches.indices { samples[index].append(await sampler.time(counts[index], batches[index])) }
        }
        return (samples.map { Stats($0) }, counts)
    }

    /// A host of `entries` (library, subscribers, options), every one isolated in a child of its own,
    /// restarts allowed at any rate (the crash row restarts once per cycle).
    @MainActor
    static func host(_ directory: String, _ entries: [(library: String, subscribers: [String], options: JSONValue)])
        throws -> PluginHost
    {
        let plugins = entries.enumerated().map { index, entry in
            var plugin = ManifestPlugin(index: index, source: .library(entry.library), subscribers: entry.subscribers,
                                        options: entry.options)
            plugin.isolation = PluginIsolation(mode: .process, restart: .init(max: 1_000, withinSeconds: 1))
            return plugin
        }
        let manifest = Manifest(file: "(subscriber-bench isolation)", directory: directory,
                                app: Application(name: "Bench", bundleIdentifier: "dev.appdelegatehost.bench", version: "1.0"),
                                plugins: plugins)
        do {
            return try PluginHost(manifest: manifest, options: HostOptions(extraSearchDirectories: [directory], allowWritable: true))
        } catch {
            throw BenchError("isolated \(entries.map(\.library).joined(separator: ", ")) in \(directory): \(error)")
        }
    }

    /// Every isolated row answers as it must, with no report: the benchmark measures working paths.
    @MainActor
    private static func check(_ void: PluginHost, _ one: PluginHost, _ ten: PluginHost, _ matcher: PluginHost,
                              _ fetcher: PluginHost, urls: [URL], options: OpenURLOptions) throws {
        func expect(_ what: String, _ reports: [DispatchReport], answers: Int, expected: Int, _ fine: Bool = true) throws {
            guard reports.isEmpty, answers == expected, fine else {
                throw BenchError("isolated \(what): \(answers) answers and reports \(reports.map(\.description)); "
                                 + "expected \(expected) answers and no report")
            }
        }
        var outcome = void.dispatchAtOnce(.didReceiveMemoryWarning)
        try expect("didReceiveMemoryWarning to VoidCounter", outcome.reports, answers: outcome.answers.count, expected: 1)
        for (host, count) in [(one, 1), (ten, 10)] {
            host.dispatchAtOnce(.willResignActive)
            outcome = host.dispatchAtOnce(.didBecomeActive)
            try expect("didBecomeActive to \(count) ManySubscribers", outcome.reports, answers: outcome.answers.count, expected: count)
        }
        let opened = matcher.dispatchAtOnce(.openURL(url: urls[0], options: options))
        try expect("openURL \(urls[0]) to URLMatcher (true)", opened.reports, answers: opened.answers.count, expected: 1,
                   opened.result == true)
        let declined = matcher.dispatchAtOnce(.openURL(url: urls[1], options: options))
        try expect("openURL \(urls[1]) to URLMatcher (false)", declined.reports, answers: declined.answers.count, expected: 1,
                   declined.result == false)
        let fetched = fetcher.dispatchAtOnce(.performFetch)
        try expect("performFetch to SyncFetcher", fetched.reports, answers: fetched.answers.count, expected: 1)
    }

    /// `cycles` times (after one unrecorded): didBecomeActive, during which libDiesOnEvent.so's child
    /// dies of SIGSEGV (reported `crashed`), then willResignActive, which restarts the child
    /// (`restarted`) and is answered by it. Milliseconds from the first dispatch's start to the
    /// second's end, each cycle.
    @MainActor
    static func crashToAnswer(_ directory: String, cycles: Int) async throws -> Stats {
        let dying = try host(directory, [("DiesOnEvent", [], ["on": "didBecomeActive", "do": "segv"])])
        defer { dying.shutDown() }
        dying.dispatchAtOnce(.didFinishLaunching())
        var samples: [Double] = []
        for cycle in 0...cycles {
            let start = BenchClock.now()
            let crash = dying.dispatchAtOnce(.didBecomeActive)
            let next = dying.dispatchAtOnce(.willResignActive)
            let elapsed = Double(BenchClock.now() &- start) / 1e6
            let found = (crash.reports + next.reports).map(\.kind)
            guard found == ["crashed", "restarted"], next.answers.map(\.subscriber) == ["DiesOnEvent"] else {
                throw BenchError("crash cycle \(cycle): reports \(found), answers \(next.answers.map(\.subscriber)); "
                                 + "expected crashed, restarted and DiesOnEvent's answer")
            }
            if cycle > 0 { samples.append(elapsed) }
        }
        return Stats(samples)
    }

    /// The children of process `pid` (of every one of its threads): /proc/PID/task/TID/children.
    static func children(of pid: pid_t) -> Set<pid_t> {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var result: Set<pid_t> = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let task = Int32(name) else { continue }
            for word in (procText("/proc/\(pid)/task/\(task)/children") ?? "").split(separator: " ") {
                if let child = pid_t(word.trimmingCharacters(in: .whitespacesAndNewlines)) { result.insert(child) }
            }
        }
        return result
    }

    /// CPU time of `pid`, every thread, in nanoseconds (/proc/PID/task/TID/schedstat's first field).
    static func cpuNanoseconds(of pid: pid_t) -> UInt64? {
        guard let directory = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(directory) }
        var total: UInt64 = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let task = Int32(name) else { continue }
            let first = (procText("/proc/\(pid)/task/\(task)/schedstat") ?? "").split(separator: " ").first
            total &+= first.flatMap { UInt64($0) } ?? 0
        }
        return total
    }

    /// An isolation child's memory: `reaper` (the process the host started) and its one child, the worker.
    static func childMemory(reaper: pid_t) -> ChildMemory? {
        guard let worker = children(of: reaper).first, let reaperPages = statm(reaper), let workerPages = statm(worker) else {
            return nil
        }
        let kib = Double(sysconf(Int32(_SC_PAGESIZE))) / 1024
        return ChildMemory(workerResident: workerPages.resident * kib, workerPrivate: (workerPages.resident - workerPages.shared) * kib,
                           reaperResident: reaperPages.resident * kib, reaperPrivate: (reaperPages.resident - reaperPages.shared) * kib,
                           workerPid: worker, reaperPid: reaper)
    }

    /// Resident and shared pages of `pid` (/proc/PID/statm's second and third fields).
    private static func statm(_ pid: pid_t) -> (resident: Double, shared: Double)? {
        let fields = (procText("/proc/\(pid)/statm") ?? "").split(separator: " ").compactMap { Double($0) }
        return fields.count >= 3 ? (fields[1], fields[2]) : nil
    }

    /// A small /proc file's text (at most 64 KiB), nil when it cannot be read.
    private static func procText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 65_536)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            filled += count
        }
        return String(decoding: bytes.prefix(filled), as: UTF8.self)
    }

    /// The echoing child of the floor: this executable in `--ping-pong-child` mode, its end of a
    /// socketpair as descriptor 3.
    struct EchoChild {
        let descriptor: Int32
        let pid: pid_t

        init(executable: String) throws {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
                throw BenchError("socketpair: \(String(cString: strerror(errno)))")
            }
            let ours = pair[0]
            // The child's end above 3, so that dup2 onto 3 makes a new descriptor (without close-on-exec).
            let theirs = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
            close(pair[1])
            guard theirs >= 0 else {
                close(ours)
                throw BenchError("fcntl(F_DUPFD_CLOEXEC): \(String(cString: strerror(errno)))")
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, theirs, IsolationBench.childDescriptor)
            let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup(IsolationBench.childFlag), nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            close(theirs)
            guard spawned == 0 else {
                close(ours)
                throw BenchError("posix_spawn \(executable): \(String(cString: strerror(spawned)))")
            }
            descriptor = ours
            self.pid = pid
        }

        /// Closes our end (the child reads end of file and exits) and reaps the child.
        func stop() {
            close(descriptor)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// The child: echoes every frame on descriptor 3 until end of file. Exit status 0 at end of file,
    /// 1 on a bad frame or an error.
    static func child() -> Int32 {
        var exchange = Exchange(descriptor: childDescriptor)
        while true {
            let problem: String
            switch exchange.receive() {
            case .frame(let length):
                guard let failed = exchange.echo(length: length) else { continue }
                problem = failed
            case .end:
                return 0
            case .failure(let failed):
                problem = failed
            }
            let line = Array("subscriber-bench \(childFlag): \(problem)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            return 1
        }
    }

    /// One end of the pair, with its buffers: a frame written whole in one `write`, read with as few
    /// `read`s as the kernel allows (usually one).
    struct Exchange {
        enum Received {
            case frame(length: Int)
            case end
            case failure(String)
        }

        let descriptor: Int32
        /// The parent's frame.
        private let outgoing: [UInt8]
        /// What was read and not yet consumed; a frame received is at its start.
        private var incoming = [UInt8](repeating: 0, count: IsolationBench.maximumFrame)
        private var filled = 0

        init(descriptor: Int32) {
            self.descriptor = descriptor
            let length = UInt32(IsolationBench.payloadBytes)
            outgoing = [UInt8(length & 0xff), UInt8(length >> 8 & 0xff), UInt8(length >> 16 & 0xff), UInt8(length >> 24)]
                + [1] + [UInt8](repeating: 0x5a, count: IsolationBench.payloadBytes - 1)
        }

        /// The parent's side: sends its frame, waits for it to come back; nil, or what went wrong.
        mutating func roundTrip() -> String? {
            let written = outgoing.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written == outgoing.count else { return "write: \(written) of \(outgoing.count) bytes" }
            switch receive() {
            case .frame(let length):
                consume(length)
                return length == IsolationBench.payloadBytes ? nil : "a frame of \(length) bytes came back"
            case .end: return "the child closed its end"
            case .failure(let problem): return problem
            }
        }

        /// The child's side: writes back the frame just received (`length` payload bytes) and consumes it.
        mutating func echo(length: Int) -> String? {
            let total = 4 + length
            let written = incoming.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, total) }
            consume(length)
            return written == total ? nil : "write: \(written) of \(total) bytes"
        }

        /// Drops the frame of `length` payload bytes at the start of the buffer, keeping what followed.
        private mutating func consume(_ length: Int) {
            let total = 4 + length
            if filled > total {
                incoming.withUnsafeMutableBytes { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + total, filled - total)
                }
            }
            filled -= total
        }

        /// Reads until one whole frame is buffered; its payload length. The length is checked before
        /// it is used: never trusted from the other side.
        mutating func receive() -> Received {
            while true {
                if filled >= 4 {
                    let length = Int(incoming[0]) | Int(incoming[1]) << 8 | Int(incoming[2]) << 16 | Int(incoming[3]) << 24
                    guard length >= 1, 4 + length <= IsolationBench.maximumFrame else {
                        return .failure("a frame length of \(length) bytes (expected 1 to \(IsolationBench.maximumFrame - 4))")
                    }
                    if filled >= 4 + length { return .frame(length: length) }
                }
                let count = incoming.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
                if count == 0 { return .end }
                if count < 0 {
                    if errno == EINTR { continue }
                    return .failure("read: \(String(cString: strerror(errno)))")
                }
                filled += count
            }
        }
    }

    /// The text report's limit rows: `[limit (the floor of what), ns median (min–max)]`.
    static func limitRows(_ figures: IsolationFigures?) -> [[String]] {
        guard let floor = figures?.floor else { return [] }
        return [["socketpair ping-pong, 2 processes, one \(floor.frameBytes)-byte frame each way (floor: isolated event)",
                 Format.stats(floor.pingPong)]]
    }

    /// The JSON report's limit rows.
    static func limitJSON(_ figures: IsolationFigures?) -> [JSONValue] {
        guard let floor = figures?.floor else { return [] }
        return [["limit": "socketpair ping-pong", "frameBytes": .number(Double(floor.frameBytes)),
                 "nanosecondsPerRoundTrip": floor.pingPong.json, "floorOf": "isolated event"]]
    }

    /// The ISOLATION table's rows: `[row, figure median (min–max), unit, CPU ns of both processes]`.
    static func rows(_ figures: IsolationFigures) -> [[String]] {
        func cpu(_ index: Int) -> String { figures.cpu.map { Format.stats($0[index]) } ?? "" }
        var rows: [[String]] = [
            ["socketpair ping-pong (the floor, above)", Format.stats(figures.floor.pingPong), "ns/round trip", cpu(0)],
            ["void event (didReceiveMemoryWarning), 1 subscriber", Format.stats(figures.voidEvent), "ns/event", cpu(1)],
            ["  the same / the ping-pong floor (paired)", Format.stats(figures.voidToFloor), "×", ""],
            ["willResignActive + didBecomeActive, 1 subscriber (ManySubscribers)", Format.stats(figures.activeOne), "ns/pair", cpu(2)],
            ["willResignActive + didBecomeActive, 10 subscribers in one child", Format.stats(figures.activeTen), "ns/pair", cpu(3)],
            ["  each further subscriber in the same child ((10 − 1) / 9)", Format.stats(figures.perSubscriber), "ns", ""],
            ["openURL (with options), 1 subscriber", Format.stats(figures.openURL), "ns/event", cpu(4)],
            ["performFetch, sync completion, 1 subscriber", Format.stats(figures.fetch), "ns/event", cpu(5)],
            ["C plugin's crash (SIGSEGV) to its restarted child's answer", Format.stats(figures.crashToAnswer), "ms", ""],
        ]
        if let memory = figures.memory {
            rows.append(["idle child, worker: resident (own: resident − shared)",
                         "\(Format.number(memory.workerResident)) (\(Format.number(memory.workerPrivate)))", "KiB", ""])
            rows.append(["idle child, reaper: resident (own: resident − shared)",
                         "\(Format.number(memory.reaperResident)) (\(Format.number(memory.reaperPrivate)))", "KiB", ""])
        } else {
            rows.append(["idle child's memory", "not found (its processes were not this one's only new children)", "", ""])
        }
        return rows
    }

    /// The JSON report's `isolation` object.
    static func json(_ figures: IsolationFigures?) -> JSONValue {
        guard let figures else { return .null }
        var object: JSONObject = [
            "pingPongNanosecondsPerRoundTrip": figures.floor.pingPong.json,
            "voidEventNanoseconds": figures.voidEvent.json, "voidEventToPingPong": figures.voidToFloor.json,
            "becomeActivePairOneSubscriberNanoseconds": figures.activeOne.json,
            "becomeActivePairTenSubscribersNanoseconds": figures.activeTen.json,
            "furtherSubscriberNanoseconds": figures.perSubscriber.json,
            "openURLNanoseconds": figures.openURL.json, "performFetchNanoseconds": figures.fetch.json,
            "crashToAnswerMilliseconds": figures.crashToAnswer.json,
        ]
        if let cpu = figures.cpu {
            var perEvent = JSONObject()
            for (key, stats) in zip(["pingPong", "voidEvent", "becomeActivePairOneSubscriber", "becomeActivePairTenSubscribers",
                                     "openURL", "performFetch"], cpu) {
                perEvent[key] = stats.json
            }
            object["cpuNanosecondsPerEvent"] = .object(perEvent)
        }
        if let memory = figures.memory {
            object["idleChildKiB"] = ["workerResident": .number(memory.workerResident), "workerPrivate": .number(memory.workerPrivate),
                                      "reaperResident": .number(memory.reaperResident), "reaperPrivate": .number(memory.reaperPrivate)]
        }
        return .object(object)
    }

    /// The isolation targets, each with its verdict on the medians.
    static func targets(_ figures: IsolationFigures?) -> [Target] {
        guard let figures else { return [] }
        func microseconds(_ stats: Stats) -> String { String(format: "%.1f µs", stats.median / 1000) }
        return [
            Target(name: "isolated void event, 1 subscriber / ping-pong floor", limit: "≤ 2×",
                   measured: String(format: "%.2f×", figures.voidToFloor.median), met: figures.voidToFloor.median <= 2),
            Target(name: "isolated void event, 1 subscriber", limit: "≤ 15 µs", measured: microseconds(figures.voidEvent),
                   met: figures.voidEvent.median <= 15_000),
            Target(name: "isolated: each further subscriber in the same child", limit: "≤ 1 µs",
                   measured: microseconds(figures.perSubscriber), met: figures.perSubscriber.median <= 1_000),
            Target(name: "isolated openURL, 1 subscriber", limit: "≤ 25 µs", measured: microseconds(figures.openURL),
                   met: figures.openURL.median <= 25_000),
            Target(name: "isolated performFetch with completion, 1 subscriber", limit: "≤ 30 µs",
                   measured: microseconds(figures.fetch), met: figures.fetch.median <= 30_000),
            Target(name: "C plugin's crash to its restarted child answering", limit: "≤ 20 ms",
                   measured: String(format: "%.1f ms", figures.crashToAnswer.median), met: figures.crashToAnswer.median <= 20),
        ]
    }
}
