#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// Output that survives: whatever ends a run — a signal, a plugin's crash on any thread, a plugin's
/// `exit()` — every event played before it is written out, with the lines logged during the event
/// under way and one line naming what happened, and the process ends the conventional way.
///
/// Each run plays five harmless events, then `didEnterBackground`, during which DiesOnEvent ends the
/// process as told, then one more event that is never played.
@Suite("apphost: output survives signals, crashes and exit()", .serialized)
struct CLISurvivalTests {
    /// The five events played before the one during which the process ends.
    static let playedBefore = 5

    /// A run of the script with DiesOnEvent told to `how` during didEnterBackground.
    struct Fixture {
        let directory: TemporaryDirectory
        let manifest: String
        let script: String
        let readyFile: String

        init(_ how: String) throws {
            directory = try TemporaryDirectory()
            readyFile = directory.path + "/ready"
            manifest = try directory.write("m.json", """
                {"app": {"name": "Survival", "bundleIdentifier": "dev.example.survival", "version": "1"},
                 "plugins": [{"path": "\(AppHostProcess.plugin("AppLifecycleDelegate"))"},
                             {"path": "\(AppHostProcess.plugin("DiesOnEvent"))",
                              "options": {"on": "didEnterBackground", "do": "\(how)", "readyFile": "\(readyFile)"}}]}
                """)
            script = try directory.write("events.jsonl", (CLISurvivalTests.expectedEvents + ["didEnterBackground", "willEnterForeground"])
                .map { #"{"event": "\#($0)"}"# }.joined(separator: "\n") + "\n")
        }

        /// `apphost --manifest … --events … --allow-writable` plus `extra`, without the Swift
        /// runtime's backtrace (it takes seconds) unless `backtrace`.
        func run(_ extra: [String] = ["--json"], backtrace: Bool = false) throws -> AppHostProcess.Result {
            try AppHostProcess.run(["--manifest", manifest, "--events", script, "--allow-writable"] + extra,
                                   environment: backtrace ? [:] : ["SWIFT_BACKTRACE": "enable=no"])
        }

        /// The same run, sent `signal` once DiesOnEvent hangs in didEnterBackground (plus `delay` ms).
        func run(sending signal: Int32, after delay: Int = 0, _ extra: [String] = ["--json"]) throws -> AppHostProcess.Result {
            let out = try directory.write("stdout", ""), err = try directory.write("stderr", "")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: AppHostProcess.executable)
            process.arguments = ["--manifest", manifest, "--events", script, "--allow-writable"] + extra
            process.currentDirectoryURL = URL(fileURLWithPath: AppHostProcess.packageRoot)
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_BACKTRACE"] = "enable=no"
            process.environment = environment
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
            try process.run()
            var waited = 0
            while access(readyFile, F_OK) != 0 && process.isRunning && waited < 60_000 {
                usleep(10_000)
                waited += 10
            }
            usleep(useconds_t(delay * 1_000))
            if process.isRunning { kill(process.processIdentifier, signal) }
            // A process the signal does not end is a failure, not a hung test.
            waited = 0
            while process.isRunning && waited < 30_000 {
                usleep(10_000)
                waited += 10
            }
            if process.isRunning {
                Issue.record("apphost still runs 30 s after signal \(signal)")
                kill(process.processIdentifier, SIGKILL)
            }
            process.waitUntilExit()
            return AppHostProcess.Result(status: process.terminationStatus,
                                         stdout: try String(contentsOfFile: out, encoding: .utf8),
                                         stderr: try String(contentsOfFile: err, encoding: .utf8),
                                         signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
        }
    }

    /// The events the JSON lines on stdout name, in order.
    static func events(_ run: AppHostProcess.Result) throws -> [String] {
        try run.stdoutLines.map { try $0.parsedJSON()["event"]?.stringValue ?? "?" }
    }

    /// What the five events before didEnterBackground are, as JSON lines name them.
    /// A launch, then active and inactive in turn: the app is inactive when didEnterBackground comes.
    static let expectedEvents = ["didFinishLaunching"]
        + (1..<playedBefore).map { $0 % 2 == 1 ? "didBecomeActive" : "willResignActive" }

    /// The `apphost:` lines on stderr.
    static func errorLines(_ run: AppHostProcess.Result) -> [String] {
        run.stderrLines.filter { $0.hasPrefix("apphost:") }
    }

    @Test("SIGTERM, SIGINT and SIGHUP while a plugin hangs: every event written, the event's lines, status 128 + signal",
          arguments: [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")])
    func stopSignals(_ signal: Int32, _ name: String) throws {
        let fixture = try Fixture("hang")
        defer { fixture.directory.remove() }
        let run = try fixture.run(sending: signal)
        #expect(run.signal == signal, "ended by \(name), as a shell reports 128 + \(signal)")
        #expect(try Self.events(run) == Self.expectedEvents)
        #expect(run.stderrLines.contains("[DiesOnEvent] info: ending the process: hang during didEnterBackground"))
        #expect(Self.errorLines(run) == ["apphost: stopped by \(name) during didEnterBackground (event 6)"])
    }

    @Test("a plugin's exit(0) during an event: every event written, the plugin and the event named, status 1")
    func pluginExit() throws {
        let fixture = try Fixture("exit0")
        defer { fixture.directory.remove() }
        let run = try fixture.run()
        #expect(run.signal == nil && run.status == 1)
        #expect(try Self.events(run) == Self.expectedEvents)
        #expect(run.stderrLines.contains("[DiesOnEvent] info: ending the process: exit0 during didEnterBackground"))
        #expect(Self.errorLines(run) == ["apphost: plugins[1] DiesOnEvent called exit(0) during didEnterBackground (event 6); exit status 1"])
    }

    @Test("a crash on the main thread, on a plugin's thread, by a stack overflow on the main thread, by a trap or raise(): every event written, the signal kept",
          arguments: [("segv", SIGSEGV, "crashed: SIGSEGV in plugins[1] DiesOnEvent"),
                      ("segvThread", SIGSEGV, "crashed: SIGSEGV in plugins[1] DiesOnEvent"),
                      ("overflow", SIGSEGV, "crashed: SIGSEGV in plugins[1] DiesOnEvent"),
                      ("trap", SIGTRAP, "crashed: SIGTRAP in plugins[1] DiesOnEvent"),
                      ("raiseSegv", SIGSEGV, "crashed: SIGSEGV (raised by the process itself)")])
    func crashes(_ how: String, _ signal: Int32, _ cause: String) throws {
        let fixture = try Fixture(how)
        defer { fixture.directory.remove() }
        let run = try fixture.run()
        // A trap or raise() returns into the plugin: it must still end the process, with its signal.
        #expect(run.signal == signal, "\(how): \(run.status)")
        #expect(try Self.events(run) == Self.expectedEvents, "\(how)")
        #expect(run.stderrLines.contains("[DiesOnEvent] info: ending the process: \(how) during didEnterBackground"), "\(how)")
        #expect(Self.errorLines(run) == ["apphost: \(cause) during didEnterBackground (event 6)"], "\(how)")
    }

    @Test("a crash after many lines (several times what the staging scratch holds before it is cleared): every line written once and whole, the crash event's too")
    func crashAfterManyLines() throws {
        let fixture = try Fixture("segv")
        defer { fixture.directory.remove() }
        // Active and inactive in turn, ending inactive, as the fixture's five events do.
        let before = ["didFinishLaunching"] + (1...300).map { $0 % 2 == 1 ? "didBecomeActive" : "willResignActive" }
        let script = try fixture.directory.write("many.jsonl", (before + ["didEnterBackground"]).map { #"{"event": "\#($0)"}"# }
            .joined(separator: "\n") + "\n")
        let run = try AppHostProcess.run(["--manifest", fixture.manifest, "--events", script, "--allow-writable", "--json"],
                                         environment: ["SWIFT_BACKTRACE": "enable=no"])
        #expect(run.signal == SIGSEGV, "\(run.status) \(run.stderrLines.suffix(3))")
        #expect(try Self.events(run) == before)
        let expected = (1...300).map {
            $0 % 2 == 1 ? "[AppLifecycleDelegate] info: The app has become active." : "[AppLifecycleDelegate] info: The app is about to become inactive."
        } + ["[AppLifecycleDelegate] info: The app is now in the background.",  // the crash event's lines, from staging
             "[DiesOnEvent] info: ending the process: segv during didEnterBackground"]
        #expect(run.stderrLines.filter { $0.hasPrefix("[") } == expected)
        #expect(Self.errorLines(run) == ["apphost: crashed: SIGSEGV in plugins[1] DiesOnEvent during didEnterBackground (event \(before.count + 1))"])
    }

    @Test("kill -SEGV from outside while a plugin hangs: written out, and the process ends with SIGSEGV instead of going on")
    func segvSentFromOutside() throws {
        let fixture = try Fixture("hang")
        defer { fixture.directory.remove() }
        let run = try fixture.run(sending: SIGSEGV)
        #expect(run.signal == SIGSEGV)
        #expect(try Self.events(run) == Self.expectedEvents)
        #expect(Self.errorLines(run).count == 1)
        #expect(Self.errorLines(run).first?.hasPrefix("apphost: crashed: SIGSEGV (sent by process ") == true)
    }

    @Test("with the Swift runtime's backtracer on, a crash is still written out first and still ends with its signal")
    func crashWithBacktracer() throws {
        let fixture = try Fixture("segv")
        defer { fixture.directory.remove() }
        let run = try fixture.run(backtrace: true)
        #expect(run.signal == SIGSEGV)
        #expect(try Self.events(run) == Self.expectedEvents)
        #expect(Self.errorLines(run) == ["apphost: crashed: SIGSEGV in plugins[1] DiesOnEvent during didEnterBackground (event 6)"])
    }

    @Test("human output and --log-file: the event under way shows its heading, its lines and what ended it; the log file keeps them too")
    func humanAndLogFile() throws {
        let fixture = try Fixture("segvThread")
        defer { fixture.directory.remove() }
        let log = fixture.directory.path + "/run.jsonl"
        let run = try fixture.run(["--log-file", log])
        #expect(run.signal == SIGSEGV)
        // Each heading's event name (the launch's heading goes on with its result and invocation).
        let headings = run.stdoutLines.filter { $0.hasPrefix("▸ ") }.map { $0.split(separator: " ")[1] }
        #expect(headings == Self.expectedEvents.map { Substring($0) } + ["didEnterBackground"])
        let tail = Array(run.stdoutLines.drop { $0 != "▸ didEnterBackground" })
        #expect(tail == ["▸ didEnterBackground",
                         "    log   AppLifecycleDelegate: The app is now in the background.",
                         "    log   DiesOnEvent: ending the process: segvThread during didEnterBackground",
                         "    ⚠ crashed: SIGSEGV in plugins[1] DiesOnEvent during didEnterBackground (event 6)",
                         ""])
        let records = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { try String($0).parsedJSON() }
        #expect(records.last?["message"] == "ending the process: segvThread during didEnterBackground")
        #expect(records.last?["event"] == "didEnterBackground")
        #expect(records.filter { $0["event"] == "didEnterBackground" }.count == 2)
    }

    @Test("no hook (_exit, SIGKILL): what was played more than a moment before the end is written all the same")
    func noHook() throws {
        // SIGKILL a moment after the plugin started hanging: the write-out thread had time to run.
        let fixture = try Fixture("hang")
        defer { fixture.directory.remove() }
        let killed = try fixture.run(sending: SIGKILL, after: 200)
        #expect(killed.signal == SIGKILL)
        #expect(try Self.events(killed) == Self.expectedEvents)

        // _exit(0) in the event after one that took 300 ms (SlowHandler sleeps in didEnterBackground).
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "Survival", "bundleIdentifier": "dev.example.survival", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("SlowHandler"))"},
                         {"path": "\(AppHostProcess.plugin("DiesOnEvent"))", "options": {"on": "willEnterForeground", "do": "_exit0"}}]}
            """)
        let script = try directory.write("events.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "didBecomeActive"}
            {"event": "willResignActive"}
            {"event": "didEnterBackground"}
            {"event": "willEnterForeground"}

            """)
        let exited = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--allow-writable", "--json"])
        #expect(exited.signal == nil && exited.status == 0, "_exit(0) leaves no hook: its status is what the plugin said")
        #expect(try Self.events(exited).prefix(3) == ["didFinishLaunching", "didBecomeActive", "willResignActive"])
    }

    @Test("a plugin's own thread in usleep(500 ms) and poll during a run with heavy output: never interrupted (the host signals no thread it did not start)")
    func pluginThreadNotInterrupted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "Sleeper", "bundleIdentifier": "dev.example.sleeper", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("AppLifecycleDelegate"))"},
                         {"path": "\(AppHostProcess.plugin("SleepsOnThread"))"}]}
            """)
        // Enough events to write output for a while, each logging two lines.
        let script = try directory.write("events.jsonl", ([#"{"event": "didFinishLaunching"}"#]
            + (1..<20_000).map { $0 % 2 == 1 ? #"{"event": "didBecomeActive"}"# : #"{"event": "willResignActive"}"# })
            .joined(separator: "\n") + "\n")
        for extra in [["--json"], []] {
            let run = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--allow-writable"] + extra,
                                             environment: ["SWIFT_BACKTRACE": "enable=no"])
            #expect(run.status == 0, "\(extra): \(run.stderr.suffix(300))")
            let report = (run.stderrLines + run.stdoutLines).first { $0.contains("sleeper: ") }
            let numbers = (report ?? "").split(separator: "sleeper: ").last.map { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } } ?? []
            #expect(numbers.count == 2, "\(extra): the sleeper reports: \(report ?? "nothing")")
            #expect((numbers.first ?? 0) >= 1, "\(extra): the thread slept at least once during the run")
            #expect(numbers.last == 0, "\(extra): \(report ?? "")")
        }
    }

    @Test("a plugin that points descriptors 1 and 2 at /dev/null in create: the report and the logs still arrive (apphost writes through its own copies)")
    func pluginRedirectsStandardOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "Redirected", "bundleIdentifier": "dev.example.redirected", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("AppLifecycleDelegate"))"},
                         {"path": "\(AppHostProcess.plugin("RedirectsStdout"))"}]}
            """)
        let script = try directory.write("events.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "didBecomeActive"}

            """)
        let json = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--allow-writable", "--json"])
        #expect(json.status == 0)
        #expect(try Self.events(json) == ["didFinishLaunching", "didBecomeActive"])
        #expect(json.stderrLines.contains("[RedirectsStdout] info: still heard after redirecting descriptors 1 and 2"))
        #expect(!json.stdout.contains("written to descriptor 1"), "the plugin's own write went where it pointed it")

        let human = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--allow-writable"])
        #expect(human.status == 0)
        #expect(human.stdoutLines.contains("▸ didBecomeActive"))
        #expect(human.stdoutLines.contains("    log   RedirectsStdout: still heard after redirecting descriptors 1 and 2"))
        #expect(human.stdoutLines.contains { $0.contains("2 events played") }, "the closing summary: \(human.stdout.suffix(200))")

        // `apphost list` (which makes each subscriber) too.
        let list = try AppHostProcess.run(["list", "--manifest", manifest])
        #expect(list.stdout.contains("RedirectsStdout"), "\(list.stdout)")
    }

    @Test("a plugin that closes apphost's copies of standard output and error while it loads: the report and its lines still arrive, made again from 1 and 2")
    func pluginClosesOwnCopies() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "Closed", "bundleIdentifier": "dev.example.closed", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("ClosesStdioCopies"))"}]}
            """)
        let script = try directory.write("events.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "didBecomeActive"}

            """)
        let json = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--allow-writable", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try Self.events(json) == ["didFinishLaunching", "didBecomeActive"])
        #expect(json.stderr.isEmpty, "\(json.stderr)")

        let human = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--allow-writable"])
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.stdoutLines.first?.hasPrefix("Closed 1 (dev.example.closed)") == true, "the header: \(human.stdout.prefix(200))")
        #expect(human.stdoutLines.contains("▸ didBecomeActive"))
        #expect(human.stdoutLines.last == "2 events played, no reports")
        // With at most 512 descriptors, apphost's copies cannot sit at 900: the plugin closes them
        // there too, and the log file opened after loading must not take their numbers (the report
        // went into it when they sat at 3 and 4).
        // Nor what apphost opens while it loads the plugins after it (a plugin file, an isolated
        // plugin's pipe and epoll): the copies sit at the top of the descriptor numbers there.
        let followed = try directory.write("followed.json", """
            {"app": {"name": "Closed", "bundleIdentifier": "dev.example.closed", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("ClosesStdioCopies"))"}, {"path": "\(AppHostProcess.plugin("Greeter"))"}]}
            """)
        let isolated = try directory.write("isolated.json", """
            {"app": {"name": "Closed", "bundleIdentifier": "dev.example.closed", "version": "1"},
             "plugins": [{"path": "\(AppHostProcess.plugin("ClosesStdioCopies"))"},
                         {"path": "\(AppHostProcess.plugin("Greeter"))", "isolation": "process"}]}
            """)
        for (index, file) in [manifest, followed, isolated].enumerated() {
            let log = directory.path + "/log\(index).jsonl"
            let limited = try AppHostProcess.run(["-c", #"ulimit -n 512 && exec "$0" "$@""#, AppHostProcess.executable,
                                                  "--manifest", file, "--events", script, "--allow-writable", "--log-file", log],
                                                 program: "/bin/sh")
            #expect(limited.status == 0, "\(file): \(limited.stderr)")
            #expect(limited.stdoutLines.contains("▸ didBecomeActive"), "\(file): \(limited.stdout.prefix(300))")
            #expect(limited.stdoutLines.last == "2 events played, no reports", "\(file)")
            let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(!logged.contains("events played"), "the report went into the log file: \(logged.prefix(300))")
        }
        // An error line too: a wrong script line, one line on standard error.
        let bad = try directory.write("bad.jsonl", #"{"event": "nope"}"# + "\n")
        let refused = try AppHostProcess.run(["--manifest", manifest, "--events", bad, "--allow-writable"])
        #expect(refused.status == 2)
        #expect(refused.stderrLines.count == 1 && refused.stderrLines.first?.contains("expected an event wire name") == true, "\(refused.stderr)")
    }

    /// The `swift-backtrace` processes in process group `group`.
    static func backtracers(inGroup group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // "pid (comm) state ppid pgrp …": the name between the brackets, the group fourth after them.
            guard stat[stat.startIndex..<close].hasSuffix("(swift-backtrace") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[2]) == group ? pid : nil
        }
    }

    @Test("a crash with the Swift runtime's backtracer on leaves no process behind: no swift-backtrace started for the crashed apphost outlives it",
          arguments: ["raiseSegv", "segv", "segvThread", "trap"])
    func noBacktracerLeftBehind(_ how: String) throws {
        let fixture = try Fixture(how)
        defer { fixture.directory.remove() }
        // Started as a shell would (no signal blocked), in a process group of its own: whatever it
        // or the runtime starts for it stays in that group, named by apphost's pid.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = nil  // the runtime's default: on
        let arguments = [AppHostProcess.executable, "--manifest", fixture.manifest, "--events", fixture.script, "--allow-writable", "--json"]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        try #require(posix_spawn(&pid, AppHostProcess.executable, &actions, &attributes, argv, envp) == 0)
        var status: Int32 = 0
        var waited = 0
        while waitpid(pid, &status, WNOHANG) == 0 && waited < 60_000 {
            usleep(10_000)
            waited += 10
        }
        #expect(waited < 60_000, "\(how): apphost still runs a minute after its crash")
        #expect(status & 0x7F != 0, "\(how): ended by its signal")
        // A backtracer the runtime waited for is gone already; one left behind sleeps for hours.
        var left = Self.backtracers(inGroup: pid)
        for _ in 0..<100 where !left.isEmpty {
            usleep(100_000)
            left = Self.backtracers(inGroup: pid)
        }
        #expect(left.isEmpty, "\(how): swift-backtrace processes \(left) outlived apphost \(pid)")
        kill(-pid, SIGKILL)
    }

    @Test("a stack overflow on a thread the plugin started: the kernel ends the process with SIGSEGV (the host gives no alternate stack to a thread it did not start)")
    func overflowOnPluginThread() throws {
        for how in ["overflowWorker", "overflowThread"] {
            let fixture = try Fixture(how)
            defer { fixture.directory.remove() }
            let run = try fixture.run()
            #expect(run.signal == SIGSEGV, "\(how): \(run.status)")
        }
    }
}
