import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import SubscriberKit
import SubscriberEventModel
import SubscriberConformance

/// Plugins that print, flood, forge or fork (Plugins/Broken/README.md, "Conformance-kit fixtures"):
/// the kit's verdicts travel on a private channel, plugin output is captured apart and bounded, and
/// every process a plugin starts is killed and reported.
@Suite("Hostile plugins cannot fool or break the kit")
struct HostilePluginTests {
    @Test("a verdict printed on stdout, then _exit(0), is an exit without a verdict, shown as evidence")
    func forgedVerdict() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("ForgedVerdict")], options: kitOptions())
        #expect(report.problem == nil, "\(report.problem ?? "")")
        let plugin = try #require(report.plugins.first)
        #expect(plugin.failures.map(\.id) == ["events.canonical"], "\(ConformanceKit.table(report))")
        let found = try #require(plugin.result("events.canonical")?.verdict.evidence.found)
        #expect(found.hasPrefix("exited with status 0 before a verdict during ForgedVerdict: didBecomeActive #1"), "\(found)")
        #expect(found.contains(#"its last output on stdout: '@@adh-conformance verdict {"status":"pass""#), "\(found)")
    }

    @Test("output without a line break and a 9 MiB flood pass, an 8 MiB descriptor id fails load.descriptor, and the next plugin is checked")
    func outputAndHugeIdentity() async throws {
        let plugins = ["StdoutNoNewline", "StdoutFlood", "HugeDescriptorId", "ExtensionGuard"].map { Built.plugin($0) }
        let report = await ConformanceKit.run(plugins: plugins, options: kitOptions())
        #expect(report.problem == nil, "\(report.problem ?? "")")
        #expect(report.plugins.map(\.path) == plugins)
        for (index, plugin) in report.plugins.enumerated() where index != 2 {
            #expect(plugin.results.count == ConformanceKit.checks.count)
            #expect(plugin.failures.isEmpty, "\(ConformanceKit.table(report))")
            #expect(plugin.results.filter { $0.status == .skip }.map(\.id) == cPluginSkips, "\(ConformanceKit.table(report))")
        }
        // The host reads descriptor strings only up to 64 KiB: the 8 MiB id is refused, not read whole.
        let huge = report.plugins[2]
        #expect(huge.failures.map(\.id) == ["load.descriptor"], "\(ConformanceKit.table(report))")
        let found = try #require(huge.result("load.descriptor")?.verdict.evidence.found)
        #expect(found.contains("no NUL within the first 65536 bytes") && found.utf8.count < 2_000, "\(found.prefix(300))")
    }

    @Test("processes a plugin starts (children, a setsid grandchild, a CPU spinner) are killed and fail the check")
    func leftoverProcesses() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("pids").path
        let plugin = Built.plugin("ForkingPlugin")
        let report = await ConformanceKit.run(plugins: [plugin, Built.plugin("ExtensionGuard")], options: kitOptions {
            $0.subscriberOptionsByPlugin = [plugin: ["pidFile": .string(pidFile)]]
        })
        let forking = try #require(report.plugins.first)
        #expect(forking.failures.map(\.id) == ["events.canonical"], "\(ConformanceKit.table(report))")
        let found = try #require(forking.result("events.canonical")?.verdict.evidence.found)

        // Every process the fixture started wrote its pid; none is still running, and the verdict names them.
        let pids = try String(contentsOfFile: pidFile, encoding: .utf8).split(separator: "\n").compactMap { Int($0) }
        #expect(pids.count == 3, "\(pids)")
        #expect(found.hasPrefix("left 3 processes behind (pids "), "\(found)")
        for pid in pids {
            #expect(found.contains(String(pid)), "\(pid) not in \(found)")
            let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
            #expect(comm?.hasPrefix("adh-forked") != true, "process \(pid) still running")
        }
        #expect(report.plugins[1].failures.isEmpty, "\(ConformanceKit.table(report))")
    }
}

/// Plugins that attack the kit's channel from inside the process that loads them: what they write
/// lacks the run's secret, so it fails their own checks and nothing else, and the kit signals only
/// the processes it started.
@Suite("Plugins that forge the kit's protocol fail their own checks")
struct ForgingPluginTests {
    /// Whether process `pid` exists and is not a zombie.
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }

    @Test("a verdict forged on every descriptor from the plugin's constructor, a crash hidden behind exit 0: no check passes, the next plugin does")
    func forgedVerdictOnEveryDescriptor() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("ForgesChannelVerdict"), Built.plugin("ExtensionGuard")],
                                              options: kitOptions())
        #expect(report.problem == nil, "\(report.problem ?? "")")
        let forger = try #require(report.plugins.first)
        #expect(forger.count(.pass) == 0, "\(ConformanceKit.table(report))")
        #expect(!forger.failures.isEmpty)
        for failure in forger.failures {
            #expect(failure.verdict.evidence.found.contains("frames without the run's secret, written to the kit's channel by "
                                                            + "other code in the check's process"), "\(failure.id): \(failure.verdict.evidence.found)")
        }
        let first = try #require(forger.result("load.rtld-now"))
        #expect(first.verdict.evidence.found.contains(#"the first: '{"kind":"hello","version":2,"pid":1}'"#),
                "\(first.verdict.evidence.found)")
        #expect(report.plugins[1].failures.isEmpty, "\(ConformanceKit.table(report))")
        #expect(report.exitCode == 1)
    }

    @Test("a handshake naming an unrelated process as the worker: that process is never signalled; the hang fails the check")
    func forgedWorkerPid() async throws {
        // posix_spawn, not Foundation's Process: Foundation's process monitor, woken early for a child,
        // waits for it with a blocking waitpid, and for this sleeper that stalled every other Process
        // of the test run until the sleep ended (after which this test failed). Outlives any run of
        // the kit here, however loaded the machine; ended by SIGKILL and reaped here.
        var victim: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("600"), nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in [Int32(0), 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        try #require(posix_spawn(&victim, "/bin/sleep", &actions, nil, argv, environ) == 0)
        defer {
            kill(victim, SIGKILL)
            var status: Int32 = 0
            while waitpid(victim, &status, 0) < 0 && errno == EINTR {}
        }
        let plugin = Built.plugin("ForgesWorkerPid")
        let report = await ConformanceKit.run(plugins: [plugin, Built.plugin("ExtensionGuard")], options: kitOptions {
            $0.checkTimeout = .seconds(3)
            $0.subscriberOptionsByPlugin = [plugin: ["victimPid": .number(Double(victim))]]
        })
        #expect(Self.isRunning(victim), "the kit signalled the process a plugin named")
        #expect(report.problem == nil, "\(report.problem ?? "")")
        let forger = try #require(report.plugins.first)
        #expect(forger.failures.map(\.id) == ["events.canonical"], "\(ConformanceKit.table(report))")
        let found = try #require(forger.result("events.canonical")?.verdict.evidence.found)
        #expect(found.hasPrefix("made no progress for 3.00 s (killed) during ForgesWorkerPid: didBecomeActive #1"), "\(found)")
        #expect(found.contains("\nthe kit's private channel carried 1 frame without the run's secret"), "\(found)")
        #expect(found.contains(#"{"kind":"hello","version":2,"pid":\#(victim)}"#), "\(found)")
        #expect(report.plugins[1].failures.isEmpty, "\(ConformanceKit.table(report))")
    }

    @Test("a handshake of another protocol version fails that plugin's check only; the run goes on and the JUnit report has every plugin")
    func forgedProtocolVersion() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("report.xml").path
        let plugins = [Built.plugin("ForgesProtocolVersion"), Built.plugin("ExtensionGuard")]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Built.apphost)
        process.arguments = ["check"] + plugins + ["--junit", junit, "--seed", "7"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text)")
        #expect(text.contains("FAIL  events.canonical"), "\(text)")
        #expect(text.contains(#"without the run's secret, written to the kit's channel by other code in the check's process "#
                              + #"(the plugin, or a library it loaded), which was never given that descriptor; the first: "#), "\(text)")
        #expect(text.contains(#"{"kind":"hello","version":99,"#), "\(text)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        for plugin in plugins { #expect(xml.contains("<testsuite name=\"\(plugin)\""), "\(plugin) missing from the JUnit report") }
        #expect(xml.contains("failures=\"1\""), "\(xml.prefix(400))")

        let report = await ConformanceKit.run(plugins: plugins, options: kitOptions())
        #expect(report.problem == nil)
        #expect(report.plugins[0].failures.map(\.id) == ["events.canonical"], "\(ConformanceKit.table(report))")
        #expect(report.plugins[1].failures.isEmpty)
    }
}

/// Subscriber options reach the context as a manifest entry's `options` would.
@Suite("Subscriber options")
struct SubscriberOptionsTests {
    @Test("options change the verdict: RequiresOption creates only with a token; per-plugin options replace shared ones")
    func optionsReachTheSubscriber() async throws {
        let plugin = Built.plugin("RequiresOption")
        func status(_ change: (inout ConformanceOptions) -> Void) async -> VerdictStatus? {
            let report = await ConformanceKit.run(plugins: [plugin], options: kitOptions {
                $0.only = ["subscriber"]
                change(&$0)
            })
            return report.plugins.first?.result("subscriber.create-destroy")?.status
        }
        #expect(await status { _ in } == .fail)
        #expect(await status { $0.subscriberOptions = ["token": "shared"] } == .pass)
        #expect(await status { $0.subscriberOptionsByPlugin = [plugin: ["token": 1]] } == .pass)
        #expect(await status {
            $0.subscriberOptions = ["token": "shared"]
            $0.subscriberOptionsByPlugin = [plugin: [:]]
        } == .fail)
    }

    @Test("settings the kit cannot run with are a problem before any check: timeout range, options for no plugin")
    func badSettings() async {
        let short = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")],
                                             options: kitOptions { $0.checkTimeout = .milliseconds(10) })
        #expect(short.exitCode == 2 && short.plugins.isEmpty)
        #expect(short.problem == "checkTimeout: expected from 3.00 s to 600.00 s, found 10.0 ms", "\(short.problem ?? "")")
        let stray = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")],
                                             options: kitOptions { $0.subscriberOptionsByPlugin = ["libNone.so": [:]] })
        #expect(stray.problem == "subscriberOptionsByPlugin: expected keys among the plugins checked, found 'libNone.so'")
    }

    @Test("HostileLengths: events.canonical fails naming each unreadable string, each answer the header does not allow and the forged token; run alone, events.completion fails for the forged token and the replies")
    func hostileLengths() async throws {
        let problem = "expected a string of at most 64 MiB with data, found length 18446744073709551615"
        let report = await ConformanceKit.run(plugins: [Built.plugin("HostileLengths")], options: kitOptions())
        #expect(report.problem == nil, "\(report.problem ?? "")")
        let plugin = try #require(report.plugins.first)
        // The checks that need events.canonical are skipped; every other check passes.
        #expect(plugin.failures.map(\.id) == ["events.canonical"], "\(ConformanceKit.table(report))")
        #expect(plugin.results.filter { $0.status == .skip }.map(\.id)
                == ["events.budget", "events.completion", "events.deterministic", "events.fuzz"] + cPluginSkips)
        let found = try #require(plugin.result("events.canonical")?.verdict.evidence.found)
        // handleWatchKitExtensionRequest runs once per canonical userInfo (two), so its reply is counted twice.
        // One finding per line: the count and each string of a host call, each answer the header does
        // not allow (read as the host reads it), the forged call, what the subscriber's calls did.
        let lines = found.split(separator: "\n").map(String.init)
        #expect(lines.count == 10, "\(found)")
        #expect(lines.first == "4 strings the host cannot read:", "\(found)")
        #expect(lines.dropFirst().first == "HostileLengths: log: \(problem)", "\(found)")
        for call in ["log_event name", "logEvent(opened) attributes", "log_error"] {
            #expect(lines.contains("HostileLengths: \(call): \(problem)"), "\(call): \(found)")
        }
        #expect(lines.contains("HostileLengths: configurationForConnecting #1: \(problem); read as no opinion"), "\(found)")
        for call in 1...2 {
            #expect(lines.contains("HostileLengths: handleWatchKitExtensionRequest #\(call): reply: \(problem); read as {}"), "\(found)")
        }
        #expect(lines.contains("HostileLengths: performFetch #1: called a completion with a token the host never gave it (forged), 1 time"),
                "\(found)")
        #expect(lines.last?.hasPrefix("HostileLengths: ") == true && lines.last?.hasSuffix(" returned") == true, "\(found)")
        #expect(report.exitCode == 1)

        let alone = await ConformanceKit.run(plugins: [Built.plugin("HostileLengths")],
                                             options: kitOptions { $0.only = ["events.completion"] })
        let completion = try #require(alone.plugins.first?.result("events.completion"))
        #expect(completion.status == .fail, "\(ConformanceKit.table(alone))")
        #expect(completion.verdict.evidence.found.split(separator: "\n").map(String.init) == [
            "HostileLengths: performFetch #1: called a completion with a token the host never gave it (forged), 1 time",
            "HostileLengths: handleWatchKitExtensionRequest #1: reply: \(problem); read as {}",
            "HostileLengths: handleWatchKitExtensionRequest #2: reply: \(problem); read as {}",
        ], "\(completion.verdict.evidence.found)")
    }
}
