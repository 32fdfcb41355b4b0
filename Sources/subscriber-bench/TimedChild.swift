#if canImport(Glibc)
import Glibc
#endif

/// A child process run to its end, timed exactly: `posix_spawn`, then a blocking `wait4` for its
/// status and resource usage. (Foundation's `Process.waitUntilExit` polls its run loop every 50 ms,
/// which would add up to 50 ms to each run.) Standard input and error are /dev/null.
enum TimedChild {
    /// What one run did: its exit status (nil when a signal ended it) and its times.
    struct Outcome {
        var exitStatus: Int32?
        var time: RunTime
    }

    /// Runs `path` with `arguments` (without the program name) to its end, its standard output
    /// written to `standardOutput` (created or truncated).
    static func run(_ path: String, _ arguments: [String], standardOutput: String = "/dev/null") throws -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        var pid: pid_t = 0
        let start = BenchClock.now()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchError("posix_spawn \(path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4 for \(path): \(String(cString: strerror(errno)))") }
        }
        let wall = BenchClock.now() &- start
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7f == 0
        return Outcome(exitStatus: exited ? (status >> 8) & 0xff : nil,
                       time: RunTime(wall: wall, cpu: CPUTime.nanoseconds(usage.ru_utime) &+ CPUTime.nanoseconds(usage.ru_stime)))
    }
}
