#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SubscriberKit
import SubscriberEventModel

/// The latency of one series of round trips (one line out, its reply line back), in nanoseconds.
struct LatencyFigure: Sendable {
    var count: Int
    var median: Double
    var p99: Double
    var max: Double

    /// From every round trip's nanoseconds.
    init(_ samples: [UInt64]) {
        precondition(!samples.isEmpty, "LatencyFigure: no samples")
        let sorted = samples.sorted()
        count = sorted.count
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? Double(sorted[middle]) : (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
        // The nearest rank: the smallest sample at or above 99 % of them.
        p99 = Double(sorted[Swift.max(0, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)])
        max = Double(sorted[sorted.count - 1])
    }

    var json: JSONValue {
        ["count": .number(Double(count)), "medianNanoseconds": .number(median), "p99Nanoseconds": .number(p99),
         "maxNanoseconds": .number(max)]
    }
}

/// The live host's rows: `apphost run` on the demo manifest, event-script lines sent through its
/// control socket on one connection, each reply awaited (latency per event); beside the limit, a
/// bare Unix-socket echo of the same lines between two processes; and the soak, the apphost
/// process's resident memory over the run, first 10 % of the events against the last 10 %.
struct LiveFigure: Sendable {
    /// One RSS sample: after `event` measured events, `kilobytes` resident.
    struct Sample: Sendable {
        var event: Int
        var kilobytes: Int
    }

    /// Measured events (after the warm-up).
    var events: Int
    /// Events sent before the measured ones, untimed.
    var warmUp: Int
    /// The control socket, per event.
    var socket: LatencyFigure
    /// The bare echo of the same lines, per line.
    var echo: LatencyFigure
    /// Mean bytes of a line sent.
    var lineBytes: Int
    /// Mean bytes of a reply line.
    var replyBytes: Int
    /// The apphost process's RSS, sampled through the run.
    var samples: [Sample]

    /// The median RSS of the samples taken in the first 10 % of the events.
    var firstKilobytes: Double { medianKilobytes { $0.event <= events / 10 } }
    /// The median RSS of the samples taken in the last 10 % of the events.
    var lastKilobytes: Double { medianKilobytes { $0.event >= events - events / 10 } }
    /// What the last 10 % may add to the first and still be stable: 2 MiB or 5 %, whichever is more.
    var boundKilobytes: Double { Swift.max(2048, firstKilobytes * 0.05) }
    /// Whether RSS is stable: the last 10 % within the bound of the first.
    var stable: Bool { lastKilobytes - firstKilobytes <= boundKilobytes }
    /// The control socket's median over the echo's.
    var ratio: Double { socket.median / echo.median }

    private func medianKilobytes(_ window: (Sample) -> Bool) -> Double {
        let values = samples.filter(window).map { Double($0.kilobytes) }
        return values.isEmpty ? .nan : Stats(values).median
    }
}

enum LiveBench {
    /// The argument that makes this executable the echoing end of the limit row.
    static let childFlag = "--live-echo-child"
    /// RSS samples over the measured events.
    static let sampleCount = 200

    /// Line `index` of the events sent: the CLI section's cycle from its first event after
    /// `didBecomeActive`, since a live host is already active (so the state allows every line).
    static func line(_ index: Int) -> String { CLIScript.line(index + 2) + "\n" }

    /// Runs the echo limit, then the live host, each over `warmUp` + `events` lines.
    @MainActor
    static func run(apphost: String, manifest: String, executable: String, events: Int,
                    progress: (String) -> Void) throws -> LiveFigure {
        let folder = try PrivateFolder.make(prefix: "subscriber-bench-live")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let warmUp = Swift.max(200, events / 50)
        let lines = (0..<(warmUp + events)).map { Array(line($0).utf8) }

        progress("live: bare Unix-socket echo, \(events) lines")
        let echo = try echoLimit(folder: folder, executable: executable, lines: lines, warmUp: warmUp)

        progress("live: apphost run, \(events) events through its control socket (RSS sampled)")
        let host = try LiveHostProcess(apphost: apphost, manifest: manifest, folder: folder)
        defer { host.stop() }
        let connection = try host.connect()
        defer { connection.close() }
        var latencies: [UInt64] = []
        latencies.reserveCapacity(events)
        var samples: [LiveFigure.Sample] = []
        let every = Swift.max(1, events / sampleCount)
        var replyBytes = 0
        // A refused event's outcome (the state forbids it): the mix must be delivered, every line.
        let refused = Array(#""result":null,"refused":"#.utf8)
        let outcome = Array(#"{"event""#.utf8)
        for (index, line) in lines.enumerated() {
            let start = BenchClock.now()
            let reply = try connection.roundTrip(line)
            let elapsed = BenchClock.now() &- start
            if !reply.starts(with: outcome) || reply.firstRange(of: refused) != nil {
                throw BenchError("apphost run \(manifest): the reply to \(String(decoding: line.dropLast(), as: UTF8.self)) "
                                 + "is \(String(decoding: reply.prefix(300), as: UTF8.self)); expected the event delivered")
            }
            let measured = index - warmUp
            guard measured >= 0 else { continue }
            latencies.append(elapsed)
            replyBytes += reply.count + 1
            if measured % every == 0 || measured == events - 1 {
                samples.append(LiveFigure.Sample(event: measured + 1, kilobytes: try host.residentKilobytes()))
            }
        }
        let sent = lines[warmUp...].reduce(0) { $0 + $1.count }
        return LiveFigure(events: events, warmUp: warmUp, socket: LatencyFigure(latencies), echo: echo,
                          lineBytes: sent / events, replyBytes: replyBytes / events, samples: samples)
    }

    /// The limit: this executable started again as the echoing child, connected to a listening
    /// socket of ours in `folder`; each line sent, its echo awaited.
    private static func echoLimit(folder: String, executable: String, lines: [[UInt8]], warmUp: Int) throws -> LatencyFigure {
        let path = folder + "/echo.sock"
        guard let (address, length) = socketAddress(path) else { throw BenchError("\(path): too long for a socket") }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { close(listener) }
        let bound = withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        guard bound == 0, listen(listener, 1) == 0 else { throw BenchError("\(path): cannot listen: \(String(cString: strerror(errno)))") }
        let pid = try spawn(executable, [childFlag, path], environment: nil, standardError: "/dev/null")
        var connection: LineConnection?
        defer {
            connection?.close()  // the child reads end of file and exits
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, 60_000) == 1 else {
            kill(pid, SIGKILL)
            throw BenchError("\(executable) \(childFlag): no connection within 60 s; expected the echoing child")
        }
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { throw BenchError("accept: \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        connection = LineConnection(fd: fd, peer: "the echoing child")
        var latencies: [UInt64] = []
        latencies.reserveCapacity(lines.count - warmUp)
        for (index, line) in lines.enumerated() {
            let start = BenchClock.now()
            let reply = try connection!.roundTrip(line)
            let elapsed = BenchClock.now() &- start
            guard reply.count + 1 == line.count else {
                throw BenchError("echo: \(reply.count + 1) bytes came back for a line of \(line.count)")
            }
            if index >= warmUp { latencies.append(elapsed) }
        }
        return LatencyFigure(latencies)
    }

    /// The echoing child: connects to the socket at `arguments[0]` and writes back every complete
    /// line it reads, until end of file. Exit status 0 at end of file, 1 on an error.
    static func child(_ arguments: [String]) -> Int32 {
        func fail(_ problem: String) -> Int32 {
            let line = Array("subscriber-bench \(childFlag): \(problem)\n".utf8)
            _ = line.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            return 1
        }
        guard arguments.count == 1, let (address, length) = socketAddress(arguments[0]) else {
            return fail("expected the path of a listening socket, found \(arguments)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let connected = withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        guard fd >= 0, connected == 0 else { return fail("connect \(arguments[0]): \(String(cString: strerror(errno)))") }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var filled = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count == 0 { return 0 }
            if count < 0 {
                if errno == EINTR { continue }
                return fail("read: \(String(cString: strerror(errno)))")
            }
            filled += count
            // Every complete line back in one write; the rest kept.
            guard let last = buffer[0..<filled].lastIndex(of: UInt8(ascii: "\n")) else {
                if filled == buffer.count { return fail("a line longer than \(buffer.count) bytes") }
                continue
            }
            var start = 0
            while start <= last {
                let written = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + start, last + 1 - start) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return fail("write: \(String(cString: strerror(errno)))")
                }
                start += written
            }
            buffer.withUnsafeMutableBytes { bytes in
                _ = memmove(bytes.baseAddress!, bytes.baseAddress! + last + 1, filled - last - 1)
            }
            filled -= last + 1
        }
    }

    /// `sockaddr_un` for `path` and its length; nil when it does not fit.
    static func socketAddress(_ path: String) -> (sockaddr_un, socklen_t)? {
        var address = sockaddr_un()
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return (address, socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1))
    }

    /// posix_spawn of `path` with `arguments`, standard input and output on /dev/null, every signal at
    /// its default and none blocked (as a shell starts it); `environment` nil: this process's.
    static func spawn(_ path: String, _ arguments: [String], environment: [String]?, standardError: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { (argv + (envp ?? [])).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw BenchError("posix_spawn \(path): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// The text report's section.
    static func textLines(_ live: LiveFigure?) -> [String] {
        guard let live else { return [] }
        func micro(_ nanoseconds: Double) -> String { Format.number(nanoseconds / 1000) }
        var out: [String] = []
        out.append("LIVE: the live host's control socket per event, one connection, each reply awaited; the limit beside it")
        var table = TextTable(header: ["row", "events", "median µs", "p99 µs", "max µs", "bytes out / back"])
        table.rows.append(["apphost run (demo manifest): event-script line → JSON outcome line", Format.number(Double(live.events)),
                           micro(live.socket.median), micro(live.socket.p99), micro(live.socket.max),
                           "\(live.lineBytes) / \(live.replyBytes)"])
        table.rows.append(["limit: bare Unix-socket echo of one line, 2 processes", Format.number(Double(live.echo.count)),
                           micro(live.echo.median), micro(live.echo.p99), micro(live.echo.max), "\(live.lineBytes) / \(live.lineBytes)"])
        out.append(table.rendered())
        out.append("  socket / limit (medians): \(Format.number(live.ratio))×. After \(Format.number(Double(live.warmUp))) untimed "
                   + "warm-up events; the lines cycle through the CLI section's mix (from openURL: the host is active).")
        out.append("SOAK: RSS of the apphost process (/proc/PID/statm), \(live.samples.count) samples over "
                   + "\(Format.number(Double(live.events))) events")
        let growth = live.lastKilobytes - live.firstKilobytes
        out.append("  first 10 %: \(Format.number(live.firstKilobytes)) KiB, last 10 %: \(Format.number(live.lastKilobytes)) KiB "
                   + "(medians of their samples): \(growth >= 0 ? "+" : "")\(Format.number(growth)) KiB "
                   + "(\(String(format: "%+.1f", growth / live.firstKilobytes * 100)) %); bound +2 MiB or +5 %, "
                   + "whichever is more: \(live.stable ? "stable" : "NOT STABLE")")
        out.append("")
        return out
    }

    /// The JSON report's `live` member (null when the section did not run).
    static func json(_ live: LiveFigure?) -> JSONValue {
        guard let live else { return .null }
        return ["events": .number(Double(live.events)), "warmUp": .number(Double(live.warmUp)),
                "lineBytes": .number(Double(live.lineBytes)), "replyBytes": .number(Double(live.replyBytes)),
                "controlSocket": live.socket.json, "limitUnixSocketEcho": live.echo.json, "ratioMedianToLimit": .number(live.ratio),
                "soak": ["firstTenthKilobytes": .number(live.firstKilobytes), "lastTenthKilobytes": .number(live.lastKilobytes),
                         "boundKilobytes": .number(live.boundKilobytes), "stable": .bool(live.stable),
                         "samples": .array(live.samples.map { ["event": .number(Double($0.event)), "kilobytes": .number(Double($0.kilobytes))] })]]
    }

    /// The TARGETS rows.
    static func targets(_ live: LiveFigure?) -> [Target] {
        guard let live else { return [] }
        let growth = live.lastKilobytes - live.firstKilobytes
        return [Target(name: "live host soak: RSS of the last 10 % of \(Format.number(Double(live.events))) socket events vs the first",
                       limit: "≤ +\(Format.number(live.boundKilobytes)) KiB", measured: "\(growth >= 0 ? "+" : "")\(Format.number(growth)) KiB",
                       met: live.stable)]
    }
}

/// `apphost run` on a manifest in a private XDG_RUNTIME_DIR, with a NOTIFY_SOCKET of ours to know
/// when it is ready; stopped with SIGTERM.
final class LiveHostProcess {
    let pid: pid_t
    let apphost: String
    let runtime: String
    let stderrPath: String
    private let notify: Int32
    private var ended = false

    init(apphost: String, manifest: String, folder: String) throws {
        self.apphost = apphost
        runtime = folder + "/run"
        stderrPath = folder + "/apphost-stderr"
        guard mkdir(runtime, 0o700) == 0 else { throw BenchError("mkdir \(runtime): \(String(cString: strerror(errno)))") }
        let notifyPath = folder + "/notify"
        guard let (address, length) = LiveBench.socketAddress(notifyPath) else { throw BenchError("\(notifyPath): too long for a socket") }
        let notify = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(notify, $0, length) } }
        guard notify >= 0, bound == 0 else {
            let problem = String(cString: strerror(errno))
            if notify >= 0 { close(notify) }
            throw BenchError("\(notifyPath): cannot bind: \(problem)")
        }
        self.notify = notify
        // This process's environment without a service manager's variables, with ours.
        let dropped = ["NOTIFY_SOCKET", "XDG_RUNTIME_DIR", "WATCHDOG_USEC", "WATCHDOG_PID", "MEMORY_PRESSURE_WATCH", "MEMORY_PRESSURE_WRITE"]
        let environment = ProcessInfo.processInfo.environment.filter { !dropped.contains($0.key) }.map { "\($0.key)=\($0.value)" }
            + ["NOTIFY_SOCKET=\(notifyPath)", "XDG_RUNTIME_DIR=\(runtime)"]
        do {
            pid = try LiveBench.spawn(apphost, ["run", "--manifest", manifest], environment: environment, standardError: stderrPath)
        } catch {
            close(notify)
            throw error
        }
        guard waitForReady() else {
            stop()
            throw BenchError("\(apphost) run --manifest \(manifest): no READY=1 within 60 s; expected a running live host. "
                             + "Its stderr: \(stderrText)")
        }
    }

    private var stderrText: String {
        ((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "").split(separator: "\n").prefix(5).joined(separator: " / ")
    }

    /// Reads the notification socket until READY=1, at most 60 s, or until the host has ended.
    private func waitForReady() -> Bool {
        let end = BenchClock.now() &+ 60_000_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while BenchClock.now() < end {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { ended = true; return false }
            var waiting = pollfd(fd: notify, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) == 1 else { continue }
            let count = recv(notify, &buffer, buffer.count, 0)
            if count > 0, String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") { return true }
        }
        return false
    }

    /// A connection to the host's control socket (the only socket in its folder).
    func connect() throws -> LineConnection {
        let folder = runtime + "/apphost"
        let sockets = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".sock") }
        guard sockets.count == 1, let (address, length) = LiveBench.socketAddress(folder + "/" + sockets[0]) else {
            throw BenchError("\(folder): expected one control socket, found \(sockets)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let connected = withUnsafePointer(to: address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) } }
        guard fd >= 0, connected == 0 else { throw BenchError("connect \(folder)/\(sockets[0]): \(String(cString: strerror(errno)))") }
        return LineConnection(fd: fd, peer: "apphost run")
    }

    /// The host's resident set in KiB: /proc/PID/statm's second field, in pages.
    func residentKilobytes() throws -> Int {
        let path = "/proc/\(pid)/statm"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BenchError("\(path): cannot read") }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else {
            throw BenchError("\(path): expected the size and resident pages, found \(text.prefix(80))")
        }
        return pages * sysconf(Int32(_SC_PAGESIZE)) / 1024
    }

    /// SIGTERM, then its exit awaited (at most 30 s, then SIGKILL).
    func stop() {
        defer { close(notify) }
        guard !ended else { return }
        ended = true
        kill(pid, SIGTERM)
        var status: Int32 = 0
        let end = BenchClock.now() &+ 30_000_000_000
        while BenchClock.now() < end {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(1000)
        }
        kill(pid, SIGKILL)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}

/// One blocking stream connection that exchanges lines: a line written whole, its reply line read.
final class LineConnection {
    let fd: Int32
    let peer: String
    private var buffer = [UInt8](repeating: 0, count: 256 << 10)
    private var filled = 0
    private var closed = false

    init(fd: Int32, peer: String) {
        self.fd = fd
        self.peer = peer
    }

    /// Writes `line` (newline included) and reads the next reply line, without its newline; a
    /// reply waits at most 60 s.
    func roundTrip(_ line: [UInt8]) throws -> ArraySlice<UInt8> {
        var start = 0
        while start < line.count {
            let sent = line.withUnsafeBytes { send(fd, $0.baseAddress! + start, line.count - start, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw BenchError("\(peer): send: \(String(cString: strerror(errno)))")
            }
            start += sent
        }
        // What follows the previous reply was kept at the buffer's start.
        var scanned = 0
        while true {
            if let newline = buffer[scanned..<filled].firstIndex(of: UInt8(ascii: "\n")) {
                let reply = Array(buffer[0..<newline])
                buffer.withUnsafeMutableBytes { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + newline + 1, filled - newline - 1)
                }
                filled -= newline + 1
                return reply[...]
            }
            scanned = filled
            guard filled < buffer.count else { throw BenchError("\(peer): a reply longer than \(buffer.count) bytes") }
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, 60_000)
            if ready < 0 && errno == EINTR { continue }
            guard ready == 1 else { throw BenchError("\(peer): no reply within 60 s") }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + filled, $0.count - filled, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw BenchError("\(peer): the connection ended before a reply" + (count < 0 ? ": \(String(cString: strerror(errno)))" : ""))
            }
            filled += count
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        _ = Glibc.close(fd)
    }
}
