#if canImport(Glibc)
import Glibc
#endif
import SubscriberHost
import Synchronization

/// How a child process ended, with everything it wrote.
struct ChildOutcome: Sendable {
    enum Ending: Sendable, Equatable {
        /// Exited by itself with this status.
        case exited(Int32)
        /// Killed by this signal (a crash: SIGSEGV, SIGABRT, SIGILL, …).
        case signaled(Int32)
        /// Still running at the timeout; killed (SIGKILL, its whole process group).
        case timedOut
    }

    var ending: Ending
    var standardOutput: [UInt8]
    var standardError: [UInt8]
    var duration: Duration
}

/// Runs one child process with `posix_spawn`, reads its output through pipes, and kills it (with its
/// process group) at the timeout. Blocking: call it off the cooperative pool.
enum ChildProcess {
    /// Output beyond this is dropped from the front (the end holds the verdict and the last progress).
    static let outputLimit = 8 << 20

    static func run(executable: String, arguments: [String], environment: [String: String],
                    timeout: Duration) throws(ConformanceSetupError) -> ChildOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let (pid, output, errors) = try spawnLock.withLock { _ throws(ConformanceSetupError) in
            try spawnWithPipes(executable, arguments, environment)
        }

        var reader = PipeReader(fds: [output, errors], limit: outputLimit)
        let deadline = start + timeout
        var timedOut = false
        var status: Int32 = 0
        while true {
            if waitpid(pid, &status, WNOHANG) == pid {
                // Gone: read what is left, briefly (a grandchild may hold the pipes open).
                let drainEnd = clock.now + .milliseconds(200)
                while reader.isOpen, clock.now < drainEnd { reader.poll(milliseconds: 20) }
                break
            }
            let remaining = deadline - clock.now
            if remaining <= .zero {
                timedOut = true
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let drainEnd = clock.now + .milliseconds(200)
                while reader.isOpen, clock.now < drainEnd { reader.poll(milliseconds: 20) }
                break
            }
            if reader.isOpen {
                reader.poll(milliseconds: Int32(clamping: min(20, max(1, remaining.nanosecondsSaturating / 1_000_000))))
            } else {
                usleep(1_000)
            }
        }
        reader.closeAll()
        let ending: ChildOutcome.Ending
        if timedOut {
            ending = .timedOut
        } else if status & 0x7F == 0 {
            ending = .exited((status >> 8) & 0xFF)
        } else {
            ending = .signaled(status & 0x7F)
        }
        return ChildOutcome(ending: ending, standardOutput: reader.buffers[0], standardError: reader.buffers[1],
                            duration: clock.now - start)
    }

    /// Held from making the pipes until the child has its copies: without pipe2(O_CLOEXEC) (not in
    /// Swift's Glibc), a child spawned by another thread in between would inherit our write ends and
    /// keep them open, and our reader would wait for that other child.
    private static let spawnLock = Mutex(())

    /// Makes the output pipes (close-on-exec in this process), spawns, and closes the write ends here.
    private static func spawnWithPipes(_ executable: String, _ arguments: [String], _ environment: [String: String])
        throws(ConformanceSetupError) -> (pid: pid_t, output: Int32, errors: Int32)
    {
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw .spawnFailed(executable: executable, reason: "pipe: \(String(cString: strerror(errno)))") }
        guard pipe(&errors) == 0 else {
            output.forEach { close($0) }
            throw .spawnFailed(executable: executable, reason: "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try spawn(executable, arguments, environment, stdout: output[1], stderr: errors[1])
        } catch {
            close(output[0])
            close(errors[0])
            throw error
        }
        close(output[1])
        close(errors[1])
        return (pid, output[0], errors[0])
    }

    private static func spawn(_ executable: String, _ arguments: [String], _ environment: [String: String],
                              stdout: Int32, stderr: Int32) throws(ConformanceSetupError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (so a timeout kills everything it started), no blocked signals, and
        // default handlers: a crash must end it the ordinary way, whatever the parent ignores.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(stdout)
            close(stderr)
            throw .spawnFailed(executable: executable, reason: String(cString: strerror(result)))
        }
        return pid
    }

    /// The environment children get: ours, with Swift's backtracer off (a crashing plugin should die
    /// at once, not spend seconds symbolicating into our pipes).
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

/// Reads several pipes with poll(2) until each reaches end of file.
private struct PipeReader {
    var fds: [Int32]
    var buffers: [[UInt8]]
    let limit: Int

    init(fds: [Int32], limit: Int) {
        self.fds = fds
        self.buffers = Array(repeating: [], count: fds.count)
        self.limit = limit
    }

    var isOpen: Bool { fds.contains { $0 >= 0 } }

    /// Waits up to `milliseconds` for data, then reads what is there.
    mutating func poll(milliseconds: Int32) {
        var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = Glibc.poll(&polled, nfds_t(polled.count), milliseconds)
        guard ready > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        for index in polled.indices where polled[index].fd >= 0 && polled[index].revents != 0 {
            let count = chunk.withUnsafeMutableBytes { read(polled[index].fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffers[index] += chunk[0..<count]
                if buffers[index].count > limit { buffers[index].removeFirst(buffers[index].count - limit / 2) }
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
