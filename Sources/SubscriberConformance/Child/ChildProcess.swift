#if canImport(Glibc)
import Glibc
#endif
import ConformanceChildEntry
import SubscriberHost

/// What to start and how: the executable, its environment, the variable that names the private
/// channel's descriptor in the child, the first message to send it, and the time it may take.
struct ChildLaunch: Sendable {
    var executable: String
    var arguments: [String] = []
    var environment: [String: String]
    /// Set in the child to the channel's descriptor number.
    var channelVariable: String
    /// Sent (framed) on the channel as soon as the child starts.
    var firstMessage: [UInt8]
    /// How long the child may run before it is stopped.
    var timeout: Duration
    /// After the timeout stopped the receiver's worker: how long the launched process may take to
    /// clean up and report before its whole process group is killed.
    var cleanupGrace: Duration = .seconds(2)
}

/// Reads the messages a child sends on its private channel, as they arrive.
protocol ChildMessageReceiver {
    /// One message (a frame's payload).
    mutating func receive(_ message: [UInt8])
    /// The process to kill at the timeout, when not the launched one itself (which then gets
    /// ``ChildLaunch/cleanupGrace`` to clean up after it); nil kills the launched process's group.
    var workerToStop: pid_t? { get }
}

/// The last bytes a child wrote on one of its standard streams, and how many it wrote in all.
struct CapturedOutput: Sendable {
    /// How many bytes are kept: the end of the stream, where the last words are.
    static let limit = 64 << 10

    /// A ring of the last ``limit`` bytes; `end` is where the next byte goes.
    private var ring: [UInt8] = []
    private var end = 0
    /// Every byte written, kept or not.
    private(set) var total = 0

    /// Adds what was read, copying only what the ring keeps (a flood costs one copy of its end).
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
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
    var kept: [UInt8] {
        total < Self.limit ? Array(ring.prefix(total)) : Array(ring[end...] + ring[..<end])
    }
}

/// How a child process ended, with what it wrote on its standard streams.
struct ChildOutcome: Sendable {
    enum Ending: Sendable, Equatable {
        /// Exited by itself with this status.
        case exited(Int32)
        /// Killed by this signal.
        case signaled(Int32)
        /// Still running at the timeout; killed.
        case timedOut
    }

    var ending: Ending
    var standardOutput: CapturedOutput
    var standardError: CapturedOutput
    /// Why the channel stopped being readable (a frame over the limit), if it did.
    var channelFailure: String?
    var duration: Duration
}

/// Runs one child process: `posix_spawn` in a process group of its own, standard input from
/// /dev/null, standard output and error captured apart (drained together, bounded), and a private
/// channel (a socket at descriptor 3, named in an environment variable) that carries the child's
/// messages. At the timeout the worker (or the whole group) is killed; when the launched process
/// ends, its process group is killed too. Blocking: call it off the cooperative pool.
///
/// Nothing here knows about plugins or checks: the conformance kit and process isolation share it.
enum ChildProcess {
    /// The channel's descriptor number in the child.
    static let channelDescriptor: Int32 = 3

    static func run<Receiver: ChildMessageReceiver>(_ launch: ChildLaunch, receiver: inout Receiver)
        throws(ConformanceSetupError) -> ChildOutcome
    {
        let clock = ContinuousClock()
        let start = clock.now
        let (pid, output, errors, channel) = try spawn(launch)
        var streams = Streams(output: output, errors: errors, channel: channel)
        var pending = ChildChannel.frame(launch.firstMessage)
        _ = fcntl(channel, F_SETFL, fcntl(channel, F_GETFL) | O_NONBLOCK)

        let deadline = start + launch.timeout
        var stopped = false
        var forceAt: ContinuousClock.Instant?
        while adh_child_has_ended(pid) == 0 {
            let now = clock.now
            if !stopped && now >= deadline {
                stopped = true
                if let worker = receiver.workerToStop {
                    kill(worker, SIGKILL)
                    forceAt = now + launch.cleanupGrace
                } else {
                    forceAt = now
                }
            }
            if let forceAt, now >= forceAt {
                killpg(pid, SIGKILL)
                kill(pid, SIGKILL)
            }
            if !pending.isEmpty { pending = streams.send(pending) }
            let wait = stopped ? Duration.milliseconds(5) : min(.milliseconds(20), max(.milliseconds(1), deadline - now))
            streams.poll(milliseconds: Int32(clamping: wait.nanosecondsSaturating / 1_000_000), writing: !pending.isEmpty,
                         into: &receiver)
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

        let ending: ChildOutcome.Ending
        if stopped {
            ending = .timedOut
        } else if status & 0x7F == 0 {
            ending = .exited((status >> 8) & 0xFF)
        } else {
            ending = .signaled(status & 0x7F)
        }
        return ChildOutcome(ending: ending, standardOutput: streams.output, standardError: streams.errors,
                            channelFailure: streams.decoder.failure, duration: clock.now - start)
    }

    /// Makes the pipes and the channel (close-on-exec here), spawns, and closes the child's ends.
    private static func spawn(_ launch: ChildLaunch) throws(ConformanceSetupError)
        -> (pid: pid_t, output: Int32, errors: Int32, channel: Int32)
    {
        func failure(_ call: String) -> ConformanceSetupError {
            .spawnFailed(executable: launch.executable, reason: "\(call): \(String(cString: strerror(errno)))")
        }
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        var channel: [Int32] = [-1, -1]
        defer { (output + errors + [channel[1]]).filter { $0 >= 0 }.forEach { _ = close($0) } }
        guard adh_child_pipe(&output) == 0, adh_child_pipe(&errors) == 0 else { throw failure("pipe") }
        guard adh_child_socketpair(&channel) == 0 else { throw failure("socketpair") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        posix_spawn_file_actions_adddup2(&actions, channel[1], channelDescriptor)

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
        environment[launch.channelVariable] = String(channelDescriptor)
        let argv = ([launch.executable] + launch.arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, launch.executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(channel[0])
            throw .spawnFailed(executable: launch.executable, reason: String(cString: strerror(result)))
        }
        let kept = (output[0], errors[0], channel[0])
        output[0] = -1
        errors[0] = -1
        return (pid, kept.0, kept.1, kept.2)
    }

    /// The environment children get: ours, with Swift's backtracer off (a crashing plugin should die
    /// at once, not spend seconds symbolicating).
    static func childEnvironment() -> [String: String] {
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
    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
            SIGTRAP: "SIGTRAP", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGPIPE: "SIGPIPE", SIGSYS: "SIGSYS",
            SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGHUP: "SIGHUP",
            SIGALRM: "SIGALRM", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}

/// The parent's ends of a child's standard output, standard error and channel, read with poll(2)
/// until each reaches end of file.
private struct Streams {
    var output = CapturedOutput()
    var errors = CapturedOutput()
    var decoder = ChildFrameDecoder()
    /// Standard output, standard error, channel; -1 once closed.
    private var fds: [Int32]
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    init(output: Int32, errors: Int32, channel: Int32) {
        fds = [output, errors, channel]
    }

    var isOpen: Bool { fds.contains { $0 >= 0 } }

    /// Sends what it can of `pending` on the channel without blocking; returns the rest.
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
                default: for message in decoder.feed(chunk[0..<count]) { receiver.receive(message) }
                }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                close(fds[index])
                fds[index] = -1
            }
        }
    }

    mutating func closeAll() {
        for index in fds.indices where fds[index] >= 0 {
            close(fds[index])
            fds[index] = -1
        }
    }
}
