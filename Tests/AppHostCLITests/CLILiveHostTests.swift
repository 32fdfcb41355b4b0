import Foundation
import Glibc
import Testing
import SubscriberKit
import SubscriberEventModel

/// `apphost run`, `send` and `open`: the live host in child processes, driven by signals and its
/// control socket; every wait is on the fake NOTIFY_SOCKET's messages, a reply, or the exit.
@Suite("apphost run, send, open: the live host")
struct CLILiveHostTests {
    static let news = AppHostProcess.manifest("news.json")

    /// The events the log file's lines were written during, each once in a row (null left out).
    static func loggedEvents(_ path: String) throws -> [String] {
        var events: [String] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            guard case .object(let object) = try String(line).parsedJSON(), case .string(let event)? = object["event"] else { continue }
            if events.last != event { events.append(event) }
        }
        return events
    }

    /// `apphost send LINE` to `host`.
    static func send(_ line: String, to host: LiveHostChild) throws -> AppHostProcess.Result {
        try AppHostProcess.run(["send", "--manifest", news, line], environment: host.environment)
    }

    @Test("run, openURL through send, then SIGTERM: the log holds exactly launch, active, openURL, resign, background, terminate; exit 0")
    func runSendTerminate() throws {
        let directory = try TemporaryDirectory()
        let log = directory.path + "/live.jsonl"
        let host = try LiveHostChild(["run", "--manifest", Self.news, "--url", "news://article/1", "--log-file", log], directory: directory)
        defer { host.cleanUp() }
        let launch = try #require(host.notify.messages(until: "READY=1"), "no READY=1: \(host.stderr)")
        #expect(launch.last?.contains("STATUS=") == true)

        let reply = try Self.send(#"{"event": "openURL", "url": "news://article/7"}"#, to: host)
        #expect(reply.status == 0, "\(reply.stderr)")
        let object = try #require(try reply.stdoutLines.first?.parsedJSON())
        #expect(object["event"] == "openURL" && object["result"] == true)

        host.signal(SIGTERM)
        #expect(host.notify.messages(until: "STOPPING=1") != nil)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(try Self.loggedEvents(log) == ["didFinishLaunching", "didBecomeActive", "openURL", "willResignActive",
                                                "didEnterBackground", "willTerminate"])
        #expect(host.stderr.contains("apphost: stopping: SIGTERM"))
    }

    @Test("the fake NOTIFY_SOCKET receives READY=1, WATCHDOG=1 and STOPPING=1 in order")
    func serviceManagerNotifications() throws {
        let host = try LiveHostChild(["run", "--manifest", Self.news], environment: ["WATCHDOG_USEC": "100000"])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        let watchdog = try #require(host.notify.messages(until: "WATCHDOG=1"))
        #expect(!watchdog.contains { $0.contains("STOPPING=1") })
        host.signal(SIGINT)
        #expect(host.notify.messages(until: "STOPPING=1") != nil)
        #expect(host.waitForExit() == 0)
        #expect(host.stderr.contains("watchdog: WATCHDOG=1 every 50 ms"))
    }

    @Test("MEMORY_PRESSURE_WATCH=/dev/null (systemd's MemoryPressureWatch=off) turns memory pressure off; another file is watched")
    func memoryPressureOff() throws {
        let off = try LiveHostChild(["run", "--manifest", Self.news], environment: ["MEMORY_PRESSURE_WATCH": "/dev/null"])
        defer { off.cleanUp() }
        #expect(off.notify.messages(until: "READY=1") != nil, "\(off.stderr)")
        off.signal(SIGTERM)
        #expect(off.waitForExit() == 0)
        #expect(off.stderr.contains("apphost: memory pressure: off ($MEMORY_PRESSURE_WATCH is /dev/null"), "\(off.stderr)")

        // A PSI file of its own (a plain file here): watched, not turned off.
        let directory = try TemporaryDirectory()
        let file = try directory.write("memory.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
                                                          + "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
        let watched = try LiveHostChild(["run", "--manifest", Self.news], directory: directory,
                                        environment: ["MEMORY_PRESSURE_WATCH": file])
        defer { watched.cleanUp() }
        #expect(watched.notify.messages(until: "READY=1") != nil, "\(watched.stderr)")
        watched.signal(SIGTERM)
        #expect(watched.waitForExit() == 0)
        #expect(watched.stderr.contains("apphost: memory pressure: ") && !watched.stderr.contains("memory pressure: off"),
                "\(watched.stderr)")
    }

    @Test("signals through the state machine: SIGCONT while active is ignored, SIGUSR1 warns, SIGTSTP stops, SIGCONT resumes")
    func signalsGuardedByState() throws {
        let directory = try TemporaryDirectory()
        let log = directory.path + "/live.jsonl"
        let host = try LiveHostChild(["run", "--manifest", Self.news, "--url", "news://article/1", "--log-file", log], directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        host.signal(SIGCONT)
        host.signal(SIGUSR1)
        // A socket reply comes after the signals before it were handled (one loop, in order).
        _ = try Self.send(#"{"event": "performFetch"}"#, to: host)
        host.signal(SIGTSTP)
        #expect(host.notify.messages(until: "STATUS=News is stopped (SIGTSTP); SIGCONT continues it") != nil)
        // Really stopped (the kernel's state T), then continued.
        #expect(host.waitForState("T"), "the host did not stop")
        host.signal(SIGCONT)
        #expect(host.notify.messages(until: "STATUS=News is active (SIGCONT)") != nil)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0)
        #expect(host.stderr.contains("apphost: SIGCONT ignored: the app is active, not in the background"))
        let events = try Self.loggedEvents(log)
        #expect(events == ["didFinishLaunching", "didBecomeActive", "didReceiveMemoryWarning",
                           "willResignActive", "didEnterBackground", "willEnterForeground",
                           "didBecomeActive", "willResignActive", "didEnterBackground", "willTerminate"], "\(host.stderr)")
    }

    @Test("a second run for the same bundle identifier refuses, naming the running pid; a stale socket is replaced")
    func oneInstance() throws {
        let directory = try TemporaryDirectory()
        // A socket a killed host left: bound, never listened, nobody answers.
        try FileManager.default.createDirectory(atPath: directory.path + "/run/apphost", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let stale = try NotifySocket(path: directory.path + "/run/apphost/com.example.news.sock")
        stale.close()
        let host = try LiveHostChild(["run", "--manifest", Self.news], directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        #expect(host.stderr.contains("replaced a stale control socket"))
        let second = try AppHostProcess.run(["run", "--manifest", Self.news], environment: host.environment)
        #expect(second.status == 2)
        #expect(second.stderrLines == ["apphost: com.example.news is already running (pid \(host.pid)), its control socket \(host.socketPath): use apphost send or apphost open"])
        var info = stat()
        #expect(stat(host.socketPath, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(directory.path + "/run/apphost", &info) == 0 && info.st_mode & 0o777 == 0o700)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0)
        let none = try Self.send(#"{"event": "performFetch"}"#, to: host)
        #expect(none.status == 2 && none.stderr.contains("expected a running live host (apphost run), found none"))
    }

    @Test("apphost open twice: a cold launch with invocation urlScheme, then openURL to the running instance")
    func openTwice() throws {
        let host = try LiveHostChild(["open", "--manifest", Self.news, "--json", "news://article/5"])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        let second = try AppHostProcess.run(["open", "--manifest", Self.news, "news://article/6"], environment: host.environment)
        #expect(second.status == 0, "\(second.stderr)")
        let reply = try #require(try second.stdoutLines.first?.parsedJSON())
        #expect(reply["event"] == "openURL" && reply["result"] == true)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0)
        let events = try host.stdout.split(separator: "\n").map { try String($0).parsedJSON() }.filter { $0["event"] != nil }
        let launch = try #require(events.first { $0["event"] == "didFinishLaunching" })
        #expect(launch["invocation"]?["kind"] == "urlScheme")
        #expect(launch["invocation"]?["url"] == "news://article/5")
        #expect(events.compactMap { $0["event"] }.contains("openURL"))
        // Each source said once at start, in the JSON stream too.
        let notes = try host.stdout.split(separator: "\n").map { try String($0).parsedJSON() }.compactMap { $0["host"] }
        #expect(notes.filter { if case .string(let text) = $0 { text.hasPrefix("signals: ") } else { false } }.count == 1)
        #expect(notes.filter { if case .string(let text) = $0 { text.hasPrefix("memory pressure: ") } else { false } }.count == 1)
    }

    @Test("a bundle identifier that cannot name the control socket (a path's '..'): one line naming the manifest, the key and the value, for run, send and open; nothing made")
    func bundleIdentifierRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("trav.json", """
            {"app": {"name": "Trav", "bundleIdentifier": "../../escaped", "version": "1"}, "plugins": []}
            """)
        let runtime = directory.path + "/run"
        for arguments in [["run", "--manifest", manifest], ["send", "--manifest", manifest, #"{"event": "didBecomeActive"}"#],
                          ["open", "--manifest", manifest, "news://a"]] {
            let run = try AppHostProcess.run(arguments, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(run.status != 0, "\(arguments[0])")
            #expect(run.stderrLines.count == 1, "\(arguments[0]): \(run.stderr)")
            let line = run.stderrLines.first ?? ""
            #expect(line.contains("\(manifest): app.bundleIdentifier: expected at most 64 letters"), "\(arguments[0]): \(line)")
            #expect(line.hasSuffix(#"found "../../escaped""#), "\(arguments[0]): \(line)")
        }
        #expect(!FileManager.default.fileExists(atPath: runtime + "/escaped.sock"))
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/escaped.sock"))
    }

    @Test("a last line without a newline, then the client's side shut down: answered as a line (an event, an error), as a script file's last line is")
    func lastLineWithoutNewline() throws {
        let host = try LiveHostChild(["run", "--manifest", Self.news])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        for (text, reply) in [(#"{"event": "didReceiveMemoryWarning"}"#, #"{"event":"didReceiveMemoryWarning""#),
                              ("{\"event\": \"performFetch\"}\n{\"event\": \"nope\"}", #"{"error":"<socket>:2: "#)] {
            let client = try SocketClient(host.socketPath)
            defer { client.close() }
            try client.write(Array(text.utf8))
            #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
            if text.contains("\n") { #expect(client.readLine()?.hasPrefix(#"{"event":"performFetch""#) == true) }
            let line = client.readLine()
            #expect(line?.hasPrefix(reply) == true, "\(text): \(line ?? "no reply")")
            // Then the host closes its side: nothing more.
            #expect(client.readsEnd())
        }
    }

    @Test("the socket refuses a 10 MiB line, bounds connections, drops a client that never reads, and answers afterwards")
    func socketBounds() throws {
        let host = try LiveHostChild(["run", "--manifest", Self.news])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")

        // 10 MiB on one line, then a good line on the same connection.
        let client = try SocketClient(host.socketPath)
        try client.write([UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20) + Array("\n{\"event\": \"performFetch\"}\n".utf8))
        let refused = try #require(client.readLine())
        #expect(refused.contains(#""error":"<socket>:1: expected a line of at most 1 MiB, found more""#))
        let answered = try #require(client.readLine())
        #expect(answered.hasPrefix(#"{"event":"performFetch""#))
        client.close()

        // 1,000 connections at once: the bound is served, the others get one error line.
        var clients: [SocketClient] = []
        for _ in 0..<1_000 { clients.append(try SocketClient(host.socketPath)) }
        // The last one is beyond the bound: once its error came, every earlier one was accepted.
        let last = try #require(clients.last?.readLine())
        #expect(last.contains("expected at most 128 connections at once, found one more"))
        var turnedAway = 0
        for client in clients where client.readLine(waitingAtMost: 0)?.contains("expected at most 128 connections") == true {
            turnedAway += 1
        }
        // All but the bound (one slot may still have been held by the connection closed just before).
        #expect(turnedAway + 1 >= 1_000 - 128 && turnedAway + 1 <= 1_000 - 128 + 1, "\(turnedAway + 1) turned away")
        clients.forEach { $0.close() }
        clients.removeAll()
        // The host frees a slot as it reads each closed connection's end: a connection is served
        // again once it has (each turned-away try is itself answered at once, so this ends).
        var servedAgain = false
        for _ in 0..<10_000 where !servedAgain {
            let probe = try SocketClient(host.socketPath)
            _ = try? probe.write(Array("{\"event\": \"performFetch\"}\n".utf8))  // a turned-away try may be closed first
            servedAgain = probe.readLine()?.hasPrefix(#"{"event":"performFetch""#) == true
            probe.close()
        }
        #expect(servedAgain)

        // A client that sends and never reads: dropped once its replies pass the bound, never waited for.
        let stuck = try SocketClient(host.socketPath)
        let line = Array(#"{"event": "didReceiveMemoryWarning"}"#.utf8) + [10]
        var batch: [UInt8] = []
        for _ in 0..<2_000 { batch += line }
        for _ in 0..<10 { guard (try? stuck.write(batch)) != nil else { break } }

        let after = try Self.send(#"{"event": "performFetch"}"#, to: host)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.hasPrefix(#"{"event":"performFetch""#))
        // It was closed: its replies end before the 20,000 it asked for.
        var replies = 0
        while stuck.readLine() != nil { replies += 1 }
        #expect(replies < 20_000)
        stuck.close()
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0)
    }

    @Test("a bad line gets one error line and the connection goes on; a refused event's reply says so; send exits 1")
    func badLinesAndRefusals() throws {
        let host = try LiveHostChild(["run", "--manifest", Self.news])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        let bad = try Self.send(#"{"event": "openURL", "url": 42}"#, to: host)
        #expect(bad.status == 1)
        #expect(bad.stdoutLines == [#"{"error":"<socket>:1: url: expected a string, found the number 42"}"#])
        let refused = try Self.send(#"{"event": "didFinishLaunching"}"#, to: host)
        #expect(refused.status == 1)
        #expect(refused.stdout.contains(#""refused":"#))
        let stream = try AppHostProcess.run(["send", "--manifest", Self.news, "-"], stdin: """
            {"event": "performFetch"}
            nonsense
            {"event": "didReceiveMemoryWarning"}

            """, environment: host.environment)
        #expect(stream.status == 1)
        #expect(stream.stdoutLines.count == 3)
        #expect(stream.stdoutLines.last?.hasPrefix(#"{"event":"didReceiveMemoryWarning""#) == true)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0)
    }

    @Test("the termination deadline runs from the signal: a host held by an event that never completes exits 1 at the deadline, with one line")
    func terminationDeadline() throws {
        let directory = try TemporaryDirectory()
        let manifest = try directory.write("hang.json", """
            {"app": {"name": "Hang", "bundleIdentifier": "com.example.hang", "version": "1"},
             "deadlines": {"performFetch": 600000},
             "plugins": [{"library": "NeverCompletes"}]}
            """)
        _ = AppHostProcess.plugin("NeverCompletes")
        let host = try LiveHostChild(["run", "--manifest", manifest, "--plugin-dir", AppHostProcess.buildDirectory,
                                      "--termination-deadline", "300"], directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        // Two lines in one write: once the first is answered, the host is in the second, a fetch
        // whose completion never comes (for 10 minutes).
        let client = try SocketClient(directory.path + "/run/apphost/com.example.hang.sock")
        defer { client.close() }
        try client.write(Array("{\"event\": \"didReceiveMemoryWarning\"}\n{\"event\": \"performFetch\"}\n".utf8))
        #expect(client.readLine()?.hasPrefix(#"{"event":"didReceiveMemoryWarning""#) == true)
        host.signal(SIGTERM)
        #expect(host.waitForExit(seconds: 120) == 1)
        #expect(host.stderr.contains("apphost: the termination deadline (300 ms) passed on the way out; exiting with status 1"))
    }

    @Test("the manifest's terminationDeadline sets the deadline; --termination-deadline wins over it",
          arguments: [(manifest: 300, flag: nil as Int?, expected: 300), (manifest: 600_000, flag: 250, expected: 250)])
    func terminationDeadlineFromManifest(_ manifest: Int, _ flag: Int?, _ expected: Int) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("hang.json", """
            {"app": {"name": "Hang", "bundleIdentifier": "com.example.hang", "version": "1"},
             "deadlines": {"performFetch": 600000}, "terminationDeadline": \(manifest),
             "plugins": [{"library": "NeverCompletes"}]}
            """)
        _ = AppHostProcess.plugin("NeverCompletes")
        let host = try LiveHostChild(["run", "--manifest", path, "--plugin-dir", AppHostProcess.buildDirectory]
                                     + (flag.map { ["--termination-deadline", "\($0)"] } ?? []), directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        let client = try SocketClient(directory.path + "/run/apphost/com.example.hang.sock")
        defer { client.close() }
        try client.write(Array("{\"event\": \"didReceiveMemoryWarning\"}\n{\"event\": \"performFetch\"}\n".utf8))
        #expect(client.readLine()?.hasPrefix(#"{"event":"didReceiveMemoryWarning""#) == true)
        host.signal(SIGTERM)
        #expect(host.waitForExit(seconds: 120) == 1)
        #expect(host.stderr.contains("apphost: the termination deadline (\(expected) ms) passed on the way out; exiting with status 1"))
    }

    @Test("--termination-deadline past ten minutes is a usage error (it once overflowed as nanoseconds and trapped): one line, exit 2, nothing started")
    func terminationDeadlineBounded() throws {
        for value in ["600001", "18446744073710", "\(Int.max)", "0"] {
            let run = try AppHostProcess.run(["run", "--manifest", Self.news, "--termination-deadline", value])
            #expect(run.status == 2, "\(value): \(run.stderr)")
            #expect(run.stderrLines == ["apphost: --termination-deadline expects a whole number of milliseconds from 1 to 600000, found '\(value)'"],
                    "\(value)")
            #expect(run.stdout.isEmpty)
        }
    }

    @Test("the socket refuses a peer of another uid (as root: apphost send run as uid 65534, able to reach the socket)")
    func otherUidRefused() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to connect as another uid")
            return
        }
        let host = try LiveHostChild(["run", "--manifest", Self.news])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        // Another uid that keeps the right to pass the 0700 folder and the 0600 socket, so that
        // only the peer check stands between it and the host.
        let other = try AppHostProcess.run(["--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=+dac_override",
                                            "--ambient-caps=+dac_override", AppHostProcess.executable, "send", "--manifest",
                                            Self.news, #"{"event": "performFetch"}"#],
                                           environment: host.environment, program: "/usr/bin/setpriv")
        #expect(other.status == 1, "\(other.stderr)")
        #expect(other.stdoutLines == [#"{"error":"the control socket: expected a peer of uid 0, found uid 65534"}"#])
        let same = try Self.send(#"{"event": "performFetch"}"#, to: host)
        #expect(same.status == 0)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0)
    }

    @Test("run, send and open each have --help", arguments: ["run", "send", "open"])
    func help(_ command: String) throws {
        let result = try AppHostProcess.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--manifest"))
        #expect(result.stdout.contains("Exit status"))
    }

    @Test("bad launch options are one usage line each")
    func badLaunchOptions() throws {
        let both = try AppHostProcess.run(["run", "--manifest", Self.news, "--url", "news://a", "--shortcut", "x"])
        #expect(both.status == 2)
        #expect(both.stderrLines == ["apphost: --url and --shortcut: expected at most one launch option, found 2"])
        let json = try AppHostProcess.run(["run", "--manifest", Self.news, "--user-activity", "{"])
        #expect(json.status == 2 && json.stderrLines.count == 1 && json.stderr.hasPrefix("apphost: --user-activity: expected a JSON value"))
    }
}

/// A blocking Unix-socket client for the tests.
final class SocketClient {
    let fd: Int32
    private var pending: [UInt8] = []

    init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (index, byte) in bytes.enumerated() { raw[index] = byte } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let status = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        guard fd >= 0, status == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func write(_ bytes: [UInt8]) throws {
        var start = 0
        while start < bytes.count {
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + start, bytes.count - start, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw POSIXError(.EPIPE) }
            start += sent
        }
    }

    /// The next line, nil if none came within `milliseconds` or the host closed.
    func readLine(waitingAtMost milliseconds: Int32 = 60_000) -> String? {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                defer { pending.removeSubrange(...newline) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            guard pollReadable(fd, waitingAtMost: milliseconds) else { return nil }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            pending += chunk[0..<count]
        }
    }

    /// Whether the host closed its side with nothing more to read (within `milliseconds`): the
    /// end, told apart from a wait that found nothing.
    func readsEnd(waitingAtMost milliseconds: Int32 = 60_000) -> Bool {
        guard pending.isEmpty else { return false }
        guard pollReadable(fd, waitingAtMost: milliseconds) else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    func close() { _ = Glibc.close(fd) }
}
