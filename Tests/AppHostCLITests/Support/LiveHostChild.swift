import Foundation
import Glibc
import Testing

/// A live host (`apphost run`, `apphost open`) started as a child process with a clean signal
/// mask, its own XDG_RUNTIME_DIR and a fake NOTIFY_SOCKET the test reads: waits are on the
/// notification socket's messages or the child's exit, each bounded generously (never a sleep
/// before an assertion).
final class LiveHostChild {
    let directory: TemporaryDirectory
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    let notify: NotifySocket
    private var exitStatus: Int32?

    /// The environment a test's apphost commands need to find this host.
    var environment: [String: String] { ["XDG_RUNTIME_DIR": directory.path + "/run", "NOTIFY_SOCKET": notify.path] }
    /// The control socket of the news demo's host.
    var socketPath: String { directory.path + "/run/apphost/com.example.news.sock" }

    /// Starts `apphost arguments` (paths absolute: the test's folder is kept); `environment` adds to the current one.
    /// The memory pressure source is off (`MEMORY_PRESSURE_WATCH=/dev/null`) unless `environment` sets it.
    /// `ignoring`: signals (`HUP`, `INT`) ignored when apphost starts, as `nohup` or a shell's background job
    /// leaves them (a shell's `trap ''`, then `exec`).
    init(_ arguments: [String], directory: TemporaryDirectory? = nil, environment extra: [String: String] = [:],
         ignoring: [String] = []) throws {
        self.directory = try directory ?? TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: self.directory.path + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        notify = try NotifySocket(path: self.directory.path + "/notify")
        stdoutPath = self.directory.path + "/child-stdout"
        stderrPath = self.directory.path + "/child-stderr"
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = nil
        variables["XDG_RUNTIME_DIR"] = self.directory.path + "/run"
        variables["NOTIFY_SOCKET"] = notify.path
        // The machine's own memory pressure (a build beside the suite) would add didReceiveMemoryWarning
        // to the events a test expects: off, as systemd's MemoryPressureWatch=off says it, unless asked.
        variables["MEMORY_PRESSURE_WATCH"] = "/dev/null"
        variables.merge(extra) { $1 }
        if ignoring.isEmpty {
            pid = try Self.spawn(AppHostProcess.executable, arguments, environment: variables, stdout: stdoutPath, stderr: stderrPath)
        } else {
            let script = "trap '' \(ignoring.joined(separator: " ")); exec \"$0\" \"$@\""
            pid = try Self.spawn("/bin/sh", ["-c", script, AppHostProcess.executable] + arguments, environment: variables,
                                 stdout: stdoutPath, stderr: stderrPath)
        }
    }

    /// posix_spawn with every signal at its default action and none blocked, as a shell starts it.
    static func spawn(_ program: String, _ arguments: [String], environment: [String: String], stdout: String, stderr: String) throws -> pid_t {
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
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, program, &actions, &attributes, argv, envp) == 0 else {
            throw POSIXError(.ECHILD)
        }
        return pid
    }

    /// Sends `signal` to the host.
    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits for the host to exit, at most `seconds` (a guard against a hang): its exit status, or
    /// 128 + signal, nil if it did not end.
    func waitForExit(seconds: Double = 60) -> Int32? {
        if let exitStatus { return exitStatus }
        let end = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while Date() < end {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                let signal = status & 0x7F
                exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
                return exitStatus
            }
            usleep(2_000)
        }
        return nil
    }

    /// Waits for the kernel to show the host in `state` (`T`: stopped), at most `seconds`.
    func waitForState(_ state: Character, seconds: Double = 60) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            // /proc/PID/stat: "pid (comm) S …", the state after the last ')'.
            if let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
               let close = text.lastIndex(of: ")"), text[text.index(after: close)...].dropFirst().first == state {
                return true
            }
            usleep(2_000)
        }
        return false
    }

    /// Ends the host if a failed test left it running, and removes its folder.
    func cleanUp() {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = waitForExit(seconds: 10)
        }
        notify.close()
        directory.remove()
    }

    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}

/// A fake service manager's notification socket: a datagram socket the host's sd_notify messages arrive on.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in bytes.enumerated() { raw[index] = byte } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard fd >= 0, bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    /// The next message, nil if none came within `milliseconds`.
    func next(waitingAtMost milliseconds: Int32 = 60_000) -> String? {
        guard pollReadable(fd, waitingAtMost: milliseconds) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count >= 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }

    /// Messages until one contains `needle` (that one included), nil if it never came.
    func messages(until needle: String) -> [String]? {
        var seen: [String] = []
        while let message = next() {
            seen.append(message)
            if message.split(separator: "\n").contains(where: { $0 == needle }) { return seen }
        }
        return nil
    }

    func close() { _ = Glibc.close(fd) }
}
