#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// A stop signal while standard output is a pipe whose reader stopped or reads slowly: the process
/// ends within a bound with the signal's status, and every event's line is written exactly once.
///
/// Each run plays a long script (far more output than a pipe and apphost's buffer hold) with
/// `--json` into a pipe this test reads. The reader stops once the run has written some; the
/// signal is sent once one of apphost's threads is blocked writing to the full pipe (its `wchan`),
/// with a write in flight.
@Suite("apphost: a stop signal with a stopped or slow reader", .serialized)
struct CLISignalReaderTests {
    /// A run of `events` alternating events with stdout on a pipe, started as a shell would start it
    /// (no signal blocked).
    final class PipedRun {
        let directory: TemporaryDirectory
        let pid: pid_t
        let reader: Int32
        let errorPath: String
        private(set) var received: [UInt8] = []
        private var status: Int32?

        init(events: Int = 20_000) throws {
            directory = try TemporaryDirectory()
            let manifest = try directory.write("m.json", """
                {"app": {"name": "Readers", "bundleIdentifier": "dev.example.readers", "version": "1"},
                 "plugins": [{"path": "\(AppHostProcess.plugin("AppLifecycleDelegate"))"}]}
                """)
            let script = try directory.write("events.jsonl", ([#"{"event": "didFinishLaunching"}"#]
                + (1..<events).map { $0 % 2 == 1 ? #"{"event": "didBecomeActive"}"# : #"{"event": "willResignActive"}"# })
                .joined(separator: "\n") + "\n")
            errorPath = try directory.write("stderr", "")
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            reader = ends[0]

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_TRUNC, 0)
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var variables = ProcessInfo.processInfo.environment
            variables["SWIFT_BACKTRACE"] = "enable=no"
            let arguments = [AppHostProcess.executable, "--manifest", manifest, "--events", script, "--json", "--allow-writable"]
            let argv = arguments.map { strdup($0) } + [nil]
            let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var child = pid_t()
            let spawned = posix_spawn(&child, AppHostProcess.executable, &actions, &attributes, argv, envp)
            close(ends[1])
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
            pid = child
        }

        deinit {
            if status == nil {
                kill(pid, SIGKILL)
                var ignored: Int32 = 0
                waitpid(pid, &ignored, 0)
            }
            close(reader)
            directory.remove()
        }

        /// Reads until `count` bytes were received (or the pipe ends); `pause` microseconds after
        /// each read of at most `chunk` bytes.
        func read(atLeast count: Int, chunk: Int = 65_536, pause: useconds_t = 0) {
            var buffer = [UInt8](repeating: 0, count: chunk)
            while received.count < count {
                let got = buffer.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, chunk) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return }
                received += buffer[0..<got]
                if pause > 0 { usleep(pause) }
            }
        }

        /// Whether one of the process's threads is blocked writing to a pipe.
        var isBlockedOnPipe: Bool {
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return false }
            return threads.contains { thread in
                (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/wchan", encoding: .utf8))?.contains("pipe_write") == true
            }
        }

        /// Waits (at most a minute) until a thread blocks writing to the full pipe.
        func waitUntilBlocked() {
            for _ in 0..<6_000 where !isBlockedOnPipe && !hasExited { usleep(10_000) }
        }

        var hasExited: Bool {
            guard status == nil else { return true }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
            return status != nil
        }

        /// Waits at most `seconds` for the process to end; the signal that ended it, or nil (then
        /// it is still running, or exited).
        func waitForEnd(seconds: Int) -> (ended: Bool, signal: Int32?) {
            for _ in 0..<(seconds * 100) where !hasExited { usleep(10_000) }
            guard let status else { return (false, nil) }
            return (true, status & 0x7F == 0 ? nil : status & 0x7F)
        }

        var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

        /// The complete lines received, and whether bytes follow the last one.
        var lines: (complete: [String], cut: Bool) {
            let text = String(decoding: received, as: UTF8.self)
            var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let last = parts.removeLast()
            return (parts, !last.isEmpty)
        }

        /// How many event lines the closing line says were written: `during E (event N)` leaves
        /// N − 1, `after E (event N)` N.
        var eventsWritten: Int? {
            guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix("apphost: stopped by ") }),
                  let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")"),
                  let number = Int(line[line.index(open, offsetBy: 7)..<close]) else { return nil }
            return line.contains(" during ") ? number - 1 : number
        }
    }

    @Test("SIGTERM with a stopped reader (a full pipe nobody reads): the process ends within a bound, status 128 + 15")
    func stoppedReader() throws {
        let run = try PipedRun()
        run.read(atLeast: 300_000)
        run.waitUntilBlocked()
        #expect(!run.hasExited, "the run must still be writing when the signal comes")
        kill(run.pid, SIGTERM)
        // The promise is 2 s per output without progress; 30 s is far beyond it, and far short of never.
        let end = run.waitForEnd(seconds: 30)
        #expect(end.ended, "apphost still runs 30 s after SIGTERM with a stopped reader")
        #expect(end.signal == SIGTERM)
        #expect(run.stderr.contains("apphost: stopped by SIGTERM "))
    }

    @Test("SIGTERM during a write to a slow reader: every event's line written exactly once, none twice",
          arguments: [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")])
    func slowReader(_ signal: Int32, _ name: String) throws {
        let run = try PipedRun()
        // The reader pauses with a write in flight (part of apphost's buffer taken by the pipe, the
        // rest waiting), the signal comes, then the reader goes on slowly to the end.
        run.read(atLeast: 300_000, chunk: 4_096, pause: 500)
        run.waitUntilBlocked()
        #expect(!run.hasExited, "the run must still be writing when the signal comes")
        kill(run.pid, signal)
        run.read(atLeast: Int.max, chunk: 4_096, pause: 200)
        let end = run.waitForEnd(seconds: 30)
        #expect(end.ended && end.signal == signal, "\(name)")
        let (lines, cut) = run.lines
        #expect(!cut, "\(name): the output ends with a whole line")
        let written = try #require(run.eventsWritten, "\(name): the closing line names the event: \(run.stderr.suffix(300))")
        #expect(lines.count == written, "\(name): \(lines.count) lines for \(written) events written")
        // Each line whole, and the events in the order played: no block repeated.
        for (index, line) in lines.enumerated() {
            let event = try line.parsedJSON()["event"]?.stringValue
            let expected = index == 0 ? "didFinishLaunching" : index % 2 == 1 ? "didBecomeActive" : "willResignActive"
            if event != expected {
                Issue.record("\(name): line \(index + 1) is \(event ?? "?"), expected \(expected)")
                break
            }
        }
    }
}
