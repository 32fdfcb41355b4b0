#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// Faults of the environment are errors, never traps: a plugin holding every file descriptor, a
/// non-blocking standard output whose reader pauses, the file-size limit, an options file swapped
/// for a FIFO.
@Suite("apphost: faults of the environment are errors, not crashes", .serialized)
struct CLIEnvironmentFaultTests {
    @Test("a plugin holding every file descriptor: later deadline timers still fire, nothing traps")
    func outOfDescriptors() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // NotificationFetcher completes after 15 ms and NeverCompletes never does: both need the
        // deadline timer, made after HoldsDescriptors took every descriptor in the first event. The
        // deadline is generous (2 s) so that a busy machine cannot make NotificationFetcher late.
        let manifest = try directory.write("m.json", """
            {"app": {"name": "Descriptors", "bundleIdentifier": "dev.example.fds", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("NotificationFetcher"))", "options": {"fetchResult": "newData", "delayMs": 15}},
                         {"path": "\(AppHostProcess.plugin("NeverCompletes"))"},
                         {"path": "\(AppHostProcess.plugin("HoldsDescriptors"))"}]}
            """)
        let script = try directory.write("events.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "didBecomeActive"}
            {"event": "performFetch"}
            {"event": "performFetch"}

            """)
        // A low descriptor limit keeps the plugin's loop short.
        let run = try AppHostProcess.run(["-c", #"ulimit -n 512 && exec "$0" "$@""#, AppHostProcess.executable,
                                          "--manifest", manifest, "--events", script, "--json", "--deadline", "2000",
                                          "--allow-writable"],
                                         environment: ["SWIFT_BACKTRACE": "enable=no"], program: "/bin/sh")
        #expect(run.signal == nil, "killed by signal \(run.status): \(run.stderr)")
        #expect(run.status == 1, "NeverCompletes is late twice: exit 1")
        let lines = try run.stdoutLines.map { try $0.parsedJSON() }
        #expect(lines.map { $0["event"] } == ["didFinishLaunching", "didBecomeActive", "performFetch", "performFetch"])
        // NotificationFetcher's answer arrived through the run loop; NeverCompletes was counted as failed at the deadline.
        for line in lines.dropFirst(2) {
            #expect(line["answers"]?.arrayValue?.map { "\($0["subscriber"]?.stringValue ?? "?")=\($0["answer"]?.stringValue ?? "?")" }
                    == ["NotificationFetcher=newData", "NeverCompletes=failed"])
        }
        #expect(lines.dropFirst(2).allSatisfy { $0["reports"]?.arrayValue?.first?["kind"] == "late" })
        #expect(run.stderrLines.contains { $0.hasPrefix("[HoldsDescriptors] info: holding ") })
    }

    @Test("a non-blocking standard output whose reader pauses: apphost waits and goes on; all 20,000 lines, exit 0")
    func nonBlockingOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let eventCount = 20_000
        let script = try directory.write("events.jsonl", "{\"event\": \"didFinishLaunching\"}\n"
            + String(repeating: "{\"event\": \"didReceiveMemoryWarning\"}\n", count: eventCount - 1))
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        // As Node.js and some supervisors hand out: O_NONBLOCK on the pipe apphost writes to.
        #expect(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: AppHostProcess.executable)
        process.arguments = ["--manifest", AppHostProcess.manifest("news.json"), "--events", script, "--json"]
        process.currentDirectoryURL = URL(fileURLWithPath: AppHostProcess.packageRoot)
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        close(ends[1])
        // The reader pauses: the pipe fills while apphost keeps writing; then it reads in small
        // gulps with pauses between them.
        usleep(300_000)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            if bytes.count % (64 << 10) < count { usleep(2_000) }
        }
        close(ends[0])
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == eventCount)
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).hasPrefix(#"{"event":"didReceiveMemoryWarning""#) } == true)
    }

    @Test("the file-size limit: no death by SIGXFSZ; one line naming the output, exit 2", arguments: [false, true])
    func fileSizeLimit(logFile: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path + "/out", errors = directory.path + "/err"
        // ulimit -f counts blocks of 512 or 1024 bytes: 1 block is less than either output. Started
        // as from a shell, SIGXFSZ at its default action (killing the process) unless apphost says otherwise.
        let command = logFile
            ? #"ulimit -f 1 && exec "$0" "$@" > /dev/null 2> "$ERR""#
            : #"ulimit -f 1 && exec "$0" "$@" > "$OUT" 2> "$ERR""#
        let arguments = ["--manifest", AppHostProcess.manifest("news.json")] + (logFile ? ["--log-file", file] : [])
        let run = AppHostProcess.runInShell(command, [AppHostProcess.executable] + arguments, environment: ["OUT": file, "ERR": errors])
        #expect(run.signal == nil, "killed by signal \(run.status)")
        #expect(run.status == 2)
        let name = logFile ? "--log-file \(file)" : "standard output"
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "apphost: \(name): write failed: File too large\n")
    }

    @Test("--options @FILE: a FIFO is refused at once, never waited on")
    func optionsFIFO() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.path + "/options.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: UsageError("--options: expected a readable JSON file at '\(fifo)', found something that is not a regular file")) {
            _ = try CheckCommand.readOptionsFile(fifo, option: "--options")
        }
    }

    @Test("--options @FILE swapped between a file and a FIFO while it is read: never blocks; the file read is the file checked")
    func optionsSwappedForFIFO() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let regular = try directory.write("regular.json", #"{"token": "x"}"#)
        let fifo = directory.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = directory.path + "/options.json"
        let race = RaceState()
        // Swaps what the path names, atomically (a new symlink renamed over it), as fast as it can.
        let swapper = Thread {
            var flip = false
            while race.swapping.load(ordering: .relaxed) {
                let next = link + ".next"
                unlink(next)
                symlink(flip ? fifo : regular, next)
                rename(next, link)
                flip.toggle()
            }
        }
        swapper.start()
        let reader = Thread {
            for _ in 0..<20_000 {
                let outcome: String
                do throws(UsageError) { outcome = try CheckCommand.readOptionsFile(link, option: "--options") } catch { outcome = error.message }
                race.outcomes.withLock { $0[outcome, default: 0] += 1 }
            }
            race.finished.store(true, ordering: .releasing)
        }
        reader.start()
        var waited = 0
        while !race.finished.load(ordering: .acquiring) && waited < 30_000 {
            usleep(10_000)
            waited += 10
        }
        race.swapping.store(false, ordering: .relaxed)
        let done = race.finished.load(ordering: .acquiring)
        if !done {
            // A reader stuck opening the FIFO: give it a writer so that the thread can end.
            let unblock = open(fifo, O_WRONLY | O_NONBLOCK)
            if unblock >= 0 { close(unblock) }
        }
        #expect(done, "reading the options file blocked on the FIFO")
        let seen = race.outcomes.withLock { $0 }
        let allowed: Set<String> = [#"{"token": "x"}"#,
                                    "--options: expected a readable JSON file at '\(link)', found something that is not a regular file",
                                    "--options: expected a readable JSON file at '\(link)', found nothing there"]
        #expect(Set(seen.keys).isSubset(of: allowed), "\(seen)")
    }
}

/// What the threads of the swapped-options test share.
private final class RaceState: Sendable {
    let swapping = Atomic<Bool>(true)
    let finished = Atomic<Bool>(false)
    let outcomes = Mutex<[String: Int]>([:])
}
