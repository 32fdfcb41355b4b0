#if canImport(Glibc)
import Glibc
#endif
import ChildProcessEntry

/// What to start and how: the executable (one that links this module, so that its child entry turns
/// it into a reaper and a worker), its environment, the role its worker plays, the messages to send
/// the worker first, and the time it may take.
package struct ChildLaunch: Sendable {
    /// The executable to start: `/proc/self/exe` to start the running one again.
    package var executable: String
    /// Its arguments after argv[0].
    package var arguments: [String] = []
    /// Its environment; the layer adds its own three variables (ChildProcessEntry.h).
    package var environment: [String: String]
    /// Which main the worker runs (ChildProcessEntry.c lists the roles).
    package var role: String
    /// Sent as frames on the worker channel, after the run's secret, as soon as the child starts.
    package var firstMessages: [[UInt8]]
    /// How long the child may run before it is stopped.
    package var timeout: Duration
    /// When set, the child is also stopped (as at the timeout) once its worker has sent no signed
    /// message for this long: a budget of silence, as a hung worker goes quiet while a working one
    /// on a busy machine keeps reporting progress.
    package var silence: Duration?
    /// After the timeout asked the reaper to stop its worker: how long the reaper may take to clean
    /// up and report before the whole process group the layer created is killed.
    package var cleanupGrace: Duration = .seconds(2)

    /// A launch of `executable` as a child playing `role`.
    package init(executable: String, arguments: [String] = [], environment: [String: String], role: String,
                 firstMessages: [[UInt8]], timeout: Duration, cleanupGrace: Duration = .seconds(2)) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.role = role
        self.firstMessages = firstMessages
        self.timeout = timeout
        self.cleanupGrace = cleanupGrace
    }
}

/// Reads the messages a child's worker sends, as they arrive: only frames signed with the run's
/// secret reach it (without the secret), in order. Anything else on the channel is counted in the
/// outcome's ``ChildOutcome/channel`` and never delivered.
package protocol ChildMessageReceiver {
    /// One message (a signed frame's payload).
    mutating func receive(_ message: [UInt8])
}

/// The last bytes a child wrote on one of its standard streams, and how many it wrote in all.
package struct CapturedOutput: Sendable {
    /// How many bytes are kept: the end of the stream, where the last words are.
    package static let limit = 64 << 10

    /// Nothing captured yet.
    package init() {}

    /// A ring of the last ``limit`` bytes; `end` is where the next byte goes.
    private var ring: [UInt8] = []
    private var end = 0
    /// Every byte written, kept or not.
    package private(set) var total = 0

    /// Adds what was read, copying only what the ring keeps (a flood costs one copy of its end).
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        total += bytes.count
        if ring.isEmpty { ring = [UInt8](repeating: 0, count: Self.limit) }
        let kept = min(bytes.count, Self.limit)
        var source = base + (bytes.count - kept)
        var remaining = kept
        ring.withUnsafeMutableBytes { ring in
            while remaining > 0 {
                let count = min(remaining, Self.limit - end)
                (ring.baseAddress! + end).copyMemory(from: source, byteCount: count)
                end = (end + count) % Self.limit
                source += count
                remaining -= count
            }
        }
    }

    /// The last ``limit`` bytes (or fewer), oldest first.
    package var kept: [UInt8] {
        total < Self.limit ? Array(ring.prefix(total)) : Array(ring[end...] + ring[..<end])
    }
}

/// How a child ended, as far as the parent can tell, with everything it wrote.
package struct ChildOutcome: Sendable {
    /// How a process ended.
    package enum Ending: Sendable, Equatable {
        /// Exited by itself with this status.
        case exited(Int32)
        /// Killed by this signal.
        case signaled(Int32)
        /// Still running at the timeout; stopped.
        case timedOut
    }

    /// How the worker ended: ``Ending/timedOut`` when the timeout stopped it, else as its reaper
    /// reported, else (no report: not a child of this layer, or a reaper that was killed) how the
    /// started process itself ended.
    package var ending: Ending
    /// How the started process (the reaper) ended.
    package var processEnding: Ending
    /// The reaper's report; nil when none arrived.
    package var reaper: ReaperReport?
    /// What the worker channel carried besides the signed messages the receiver got.
    package var channel: ChannelReport
    /// The end of what the child wrote on standard output.
    package var standardOutput: CapturedOutput
    /// The end of what the child wrote on standard error.
    package var standardError: CapturedOutput
    /// From the start to the end of the child (reaped, streams drained).
    package var duration: Duration
}

/// The reaper's one report: how the worker ended and what it left running.
package struct ReaperReport: Sendable, Equatable {
    /// How the worker ended (never ``ChildOutcome/Ending/timedOut``: the reaper only sees signals).
    package var ending: ChildOutcome.Ending
    /// How many processes the worker left running (all killed by the reaper).
    package var leftovers: Int
    /// The first of their process ids (ADH_CHILD_LISTED_LEFTOVERS at most).
    package var leftoverPIDs: [Int32]

    /// A report.
    package init(ending: ChildOutcome.Ending, leftovers: Int, leftoverPIDs: [Int32]) {
        self.ending = ending
        self.leftovers = leftovers
        self.leftoverPIDs = leftoverPIDs
    }

    /// Reads the reaper's JSON frame (ChildProcessEntry.h); nil for anything else. The reaper is
    /// plain C writing a fixed shape on a channel nothing else holds, so a small reader does.
    init?(json frame: [UInt8]) {
        /// Where `key`'s value starts (just past `"key":`), if the key occurs.
        func valueStart(_ key: String) -> Int? {
            let needle = Array("\"\(key)\":".utf8)
            guard frame.count >= needle.count else { return nil }
            return (0...(frame.count - needle.count)).first { frame[$0..<($0 + needle.count)].elementsEqual(needle) }
                .map { $0 + needle.count }
        }
        /// The integer at `start` (an optional minus, then digits).
        func integer(at start: Int) -> (value: Int, end: Int)? {
            var index = start
            let negative = index < frame.count && frame[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var value = 0
            let digitsStart = index
            while index < frame.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(frame[index]), value < Int(Int32.max) {
                value = value * 10 + Int(frame[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index == digitsStart ? nil : (negative ? -value : value, index)
        }
        if let start = valueStart("signal"), let signal = integer(at: start) {
            ending = .signaled(Int32(clamping: signal.value))
        } else if let start = valueStart("exit"), let status = integer(at: start) {
            ending = .exited(Int32(clamping: status.value))
        } else {
            return nil
        }
        leftovers = valueStart("leftovers").flatMap { integer(at: $0) }?.value ?? 0
        var pids: [Int32] = []
        if var index = valueStart("pids"), index < frame.count, frame[index] == UInt8(ascii: "[") {
            index += 1
            while let pid = integer(at: index) {
                pids.append(Int32(clamping: pid.value))
                index = pid.end
                guard index < frame.count, frame[index] == UInt8(ascii: ",") else { break }
                index += 1
            }
        }
        leftoverPIDs = pids
    }
}

/// What the worker channel carried besides the signed messages: frames without the run's secret
/// (written by something other than the worker's own code), a broken stream, and how many signed
/// frames there were.
package struct ChannelReport: Sendable, Equatable {
    /// Frames signed with the run's secret (delivered to the receiver).
    package var signedFrames = 0
    /// Frames without the run's secret (never delivered).
    package var foreignFrames = 0
    /// The start of the first of them (at most ``shownBytes``).
    package var firstForeignFrame: [UInt8] = []
    /// Why the stream stopped being readable (a frame over the limit, an unfinished frame at its
    /// end), if it did.
    package var failure: String?
    /// Reaper reports received; more than one, or one that does not read, is a fault of the layer.
    package var reaperReports = 0

    /// How many bytes of a foreign frame are kept as evidence.
    package static let shownBytes = 256

    /// Nothing received yet.
    package init() {}

    /// Whether anything but the worker's signed frames (and one report) arrived or the stream broke.
    package var isTampered: Bool { foreignFrames > 0 || failure != nil }
}

/// Why a child could not be started at all.
package struct ChildProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The executable.
    package var executable: String
    /// What failed, e.g. "socketpair: Too many open files".
    package var reason: String

    /// An error starting `executable`.
    package init(executable: String, reason: String) {
        self.executable = executable
        self.reason = reason
    }

    /// "could not start <executable>: <reason>".
    package var description: String { "could not start \(executable): \(reason)" }
}

/// Runs one child: `posix_spawn` in a process group of its own, standard input from /dev/null,
/// standard output and error captured apart (drained together, bounded), a worker channel (frames
/// both ways, the worker's signed with the run's secret) and a reaper channel (the reaper's one
/// report). At the timeout the started process (the reaper) is asked to stop its worker (SIGTERM);
/// after the grace period, or when it ends, the process group the layer created is killed. The
/// layer signals nothing else: never a process id a child names. Blocking: call it off the
/// cooperative pool.
///
/// Nothing here knows about plugins or checks: the conformance kit uses it, process isolation will.
package enum ChildProcess {
    /// The worker channel's descriptor number in a freshly started child (the child entry moves it).
    static let channelDescriptor: Int32 = 3
    /// The reaper channel's descriptor number in a freshly started child.
    static let reaperDescriptor: Int32 = 4

    /// Starts `launch` and waits until it ends (or its timeout stops it), handing each signed message
    /// of its worker to `receiver` as it arrives.
    package static func run<Receiver: ChildMessageReceiver>(_ launch: ChildLaunch, receiver: inout Receiver)
        throws(ChildProcessError) -> ChildOutcome
    {
        let clock = ContinuousClock()
        let start = clock.now
        let secret = ChildSecret.random()
        let (pid, output, errors, channel, reaper) = try spawn(launch)
        var streams = Streams(output: output, errors: errors, channel: channel, reaper: reaper, secret: secret)
        var pending = ChildChannel.frame(secret.bytes) + launch.firstMessages.flatMap(ChildChannel.frame)
        _ = fcntl(channel, F_SETFL, fcntl(channel, F_GETFL) | O_NONBLOCK)

        let deadline = start + launch.timeout
        var heard = start
        var stopped = false
        var forceAt: ContinuousClock.Instant?
        while adh_child_has_ended(pid) == 0 {
            let now = clock.now
            if !stopped && (now >= deadline || launch.silence.map({ now >= heard + $0 }) ?? false) {
                // The reaper knows its worker (it forked it) and kills it, then the leftovers, then reports.
                stopped = true
                kill(pid, SIGTERM)
                forceAt = now + launch.cleanupGrace
            }
            if let forceAt, now >= forceAt {
                killpg(pid, SIGKILL)
                kill(pid, SIGKILL)
            }
            if !pending.isEmpty { pending = streams.send(pending) }
            let wait = stopped ? Duration.milliseconds(5) : min(.milliseconds(20), max(.milliseconds(1), deadline - now))
            let frames = streams.channelReport.signedFrames
            streams.poll(milliseconds: wholeMilliseconds(wait), writing: !pending.isEmpty,
                         into: &receiver)
            if streams.channelReport.signedFrames != frames { heard = clock.now }
        }
        // Ended but not reaped: its group id is still reserved, so this kills only what it left.
        killpg(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Whatever was written before the end is in the pipes; read it, briefly (a process outside
        // the group may still hold a copy of a pipe).
        let drainEnd = clock.now + .milliseconds(100)
        while streams.isOpen, clock.now < drainEnd { streams.poll(milliseconds: 10, writing: false, into: &receiver) }
        streams.closeAll()

        let processEnding: ChildOutcome.Ending = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        return ChildOutcome(ending: stopped ? .timedOut : streams.report?.ending ?? processEnding,
                            processEnding: processEnding, reaper: streams.report, channel: streams.channelReport,
                            standardOutput: streams.output, standardError: streams.errors, duration: clock.now - start)
    }

    /// `duration` in whole milliseconds, for poll(2) (the waits here are a few milliseconds).
    private static func wholeMilliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
    }

    /// Makes the pipes and the channels (close-on-exec here), spawns, and closes the child's ends.
    static func spawn(_ launch: ChildLaunch) throws(ChildProcessError)
        -> (pid: pid_t, output: Int32, errors: Int32, channel: Int32, reaper: Int32)
    {
        func failure(_ call: String) -> ChildProcessError {
            ChildProcessError(executable: launch.executable, reason: "\(call): \(String(cString: strerror(errno)))")
        }
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        var channel: [Int32] = [-1, -1]
        var reaper: [Int32] = [-1, -1]
        // Every descriptor not handed back is closed on the way out, whatever fails.
        defer { (output + errors + channel + reaper).filter { $0 >= 0 }.forEach { _ = close($0) } }
        guard adh_child_pipe(&output) == 0, adh_child_pipe(&errors) == 0 else { throw failure("pipe") }
        guard adh_child_socketpair(&channel) == 0, adh_child_socketpair(&reaper) == 0 else { throw failure("socketpair") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        posix_spawn_file_actions_adddup2(&actions, channel[1], channelDescriptor)
        posix_spawn_file_actions_adddup2(&actions, reaper[1], reaperDescriptor)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (so that everything it starts can be killed at once), no blocked
        // signals, default handlers: a crash must end it the ordinary way, whatever the parent ignores.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var environment = launch.environment
        environment[ADH_CHILD_CHANNEL_VARIABLE] = String(channelDescriptor)
        environment[ADH_CHILD_REAPER_VARIABLE] = String(reaperDescriptor)
        environment[ADH_CHILD_ROLE_VARIABLE] = launch.role
        environment[ADH_CHILD_PARENT_VARIABLE] = String(getpid())
        let argv = ([launch.executable] + launch.arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, launch.executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw ChildProcessError(executable: launch.executable, reason: String(cString: strerror(result)))
        }
        let kept = (output[0], errors[0], channel[0], reaper[0])
        output[0] = -1
        errors[0] = -1
        channel[0] = -1
        reaper[0] = -1
        return (pid, kept.0, kept.1, kept.2, kept.3)
    }

    /// The environment children get: ours, with Swift's backtracer off (a crashing plugin should die
    /// at once, not spend seconds symbolicating).
    package static func childEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        environment["SWIFT_BACKTRACE"] = "enable=no"
        return environment
    }

    /// "SIGSEGV" for 11, "signal 42" for an unnamed one.
    package static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
            SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGPIPE: "SIGPIPE", SIGSYS: "SIGSYS",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGHUP: "SIGHUP",
            SIGALRM: "SIGALRM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}

/// The parent's ends of a child's standard output, standard error, worker channel and reaper
/// channel, read with poll(2) until each reaches end of file.
private struct Streams {
    var output = CapturedOutput()
    var errors = CapturedOutput()
    var channelReport = ChannelReport()
    /// The reaper's report, once it arrived.
    var report: ReaperReport?
    private var decoder = ChildFrameDecoder()
    private var reaperDecoder = ChildFrameDecoder(limit: 4_096)
    private let secret: ChildSecret
    /// Standard output, standard error, worker channel, reaper channel; -1 once closed.
    private var fds: [Int32]
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    init(output: Int32, errors: Int32, channel: Int32, reaper: Int32, secret: ChildSecret) {
        fds = [output, errors, channel, reaper]
        self.secret = secret
    }

    var isOpen: Bool { fds.contains { $0 >= 0 } }

    /// Sends what it can of `pending` on the worker channel without blocking; returns the rest.
    mutating func send(_ pending: [UInt8]) -> [UInt8] {
        guard fds[2] >= 0 else { return [] }
        let written = pending.withUnsafeBytes { Glibc.send(fds[2], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written < 0 { return errno == EAGAIN || errno == EINTR ? pending : [] }
        return Array(pending.dropFirst(written))
    }

    /// Waits up to `milliseconds` for data (or room to write), then reads what is there.
    mutating func poll<Receiver: ChildMessageReceiver>(milliseconds: Int32, writing: Bool, into receiver: inout Receiver) {
        guard isOpen else {
            // A process closes its descriptors a moment before it can be waited for: look again soon.
            usleep(UInt32(min(1, max(0, milliseconds))) * 1_000)
            return
        }
        var polled = fds.enumerated().map { index, fd in
            pollfd(fd: fd, events: Int16(POLLIN) | (index == 2 && writing ? Int16(POLLOUT) : 0), revents: 0)
        }
        guard Glibc.poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { return }
        for index in polled.indices where polled[index].fd >= 0 && polled[index].revents & ~Int16(POLLOUT) != 0 {
            let count = chunk.withUnsafeMutableBytes { read(polled[index].fd, $0.baseAddress, $0.count) }
            if count > 0 {
                switch index {
                case 0: chunk.withUnsafeBytes { output.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                case 1: chunk.withUnsafeBytes { errors.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                case 2: for frame in decoder.feed(chunk[0..<count]) { deliver(frame, to: &receiver) }
                default: for frame in reaperDecoder.feed(chunk[0..<count]) { record(frame) }
                }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                if index == 2 { noteEnd() }
                close(fds[index])
                fds[index] = -1
            }
        }
    }

    /// A worker-channel frame: its payload to the receiver when signed, else counted as foreign.
    private mutating func deliver<Receiver: ChildMessageReceiver>(_ frame: [UInt8], to receiver: inout Receiver) {
        if secret.signs(frame) {
            channelReport.signedFrames += 1
            receiver.receive(Array(frame.dropFirst(ChildSecret.size)))
        } else {
            if channelReport.foreignFrames == 0 { channelReport.firstForeignFrame = Array(frame.prefix(ChannelReport.shownBytes)) }
            channelReport.foreignFrames += 1
        }
    }

    private mutating func record(_ frame: [UInt8]) {
        channelReport.reaperReports += 1
        if report == nil { report = ReaperReport(json: frame) }
    }

    /// The worker channel reached its end: a frame over the limit, or bytes of an unfinished frame,
    /// mean the stream was broken.
    private mutating func noteEnd() {
        if let failure = decoder.failure {
            channelReport.failure = failure
        } else if decoder.pendingBytes > 0 {
            channelReport.failure = "\(decoder.pendingBytes) bytes of an unfinished frame at its end"
        }
    }

    mutating func closeAll() {
        if fds[2] >= 0 { noteEnd() }
        for index in fds.indices where fds[index] >= 0 {
            close(fds[index])
            fds[index] = -1
        }
    }
}
