import Foundation
import Glibc
import Testing
@testable import AppHostCLI

/// `apphost run` as a service manager and a shell drive it: a stopped host stopped for good, signals
/// a shell left ignored, SIGQUIT, bursts, a notification socket nobody reads. Every wait is on the
/// fake NOTIFY_SOCKET's messages, a reply, stderr or the exit, each bounded generously.
@Suite("apphost run under a service manager: signals and the notification socket")
struct CLILiveSignalTests {
    static let news = CLILiveHostTests.news

    /// Waits (at most `seconds`, a guard against a hang) until `host`'s stderr contains `text`.
    static func stderr(of host: LiveHostChild, contains text: String, seconds: Double = 60) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if host.stderr.contains(text) { return true }
            usleep(5_000)
        }
        return false
    }

    @Test("a stopped host that systemd stops (SIGTERM, then SIGCONT) goes from the background straight to willTerminate")
    func stopWhileSuspended() throws {
        let directory = try TemporaryDirectory()
        let log = directory.path + "/live.jsonl"
        let host = try LiveHostChild(["run", "--manifest", Self.news, "--url", "news://article/1", "--log-file", log], directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        host.signal(SIGTSTP)
        #expect(host.waitForState("T"), "the host did not stop")
        // As systemd stops a stopped service: the stop first, then SIGCONT so that it can act on it.
        host.signal(SIGTERM)
        host.signal(SIGCONT)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        let events = try CLILiveHostTests.loggedEvents(log)
        #expect(events == ["didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground", "willTerminate"],
                "\(events)")
    }

    @Test("a signal ignored when apphost run started (nohup's SIGHUP, a background job's SIGINT) stays ignored; SIGQUIT stops")
    func ignoredSignalsStayIgnored() throws {
        let host = try LiveHostChild(["run", "--manifest", Self.news], ignoring: ["HUP", "INT"])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        host.signal(SIGHUP)
        host.signal(SIGINT)
        // One loop, in order: a reply to a line sent after the signals means they were read, and ignored.
        let reply = try CLILiveHostTests.send(#"{"event": "didReceiveMemoryWarning"}"#, to: host)
        #expect(reply.status == 0, "\(reply.stderr) \(host.stderr)")
        host.signal(SIGQUIT)
        #expect(host.notify.messages(until: "STOPPING=1") != nil)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(host.stderr.contains("apphost: stopping: SIGQUIT"), "\(host.stderr)")
        #expect(!host.stderr.contains("stopping: SIGHUP") && !host.stderr.contains("stopping: SIGINT"), "\(host.stderr)")
    }

    @Test("a notification socket nobody reads never holds the loop: the first message lost is said once, the host answers and stops")
    func notifySocketNobodyReads() throws {
        // A watchdog every millisecond fills the fake socket's queue at once: the test never reads it.
        let host = try LiveHostChild(["run", "--manifest", Self.news], environment: ["WATCHDOG_USEC": "2000"])
        defer { host.cleanUp() }
        #expect(Self.stderr(of: host, contains: "not sent to NOTIFY_SOCKET"), "\(host.stderr)")
        let reply = try CLILiveHostTests.send(#"{"event": "didReceiveMemoryWarning"}"#, to: host)
        #expect(reply.status == 0, "\(reply.stderr) \(host.stderr)")
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(host.stderr.components(separatedBy: "not sent to NOTIFY_SOCKET").count == 2, "said once: \(host.stderr)")
    }

    @Test("NOTIFY_SOCKET: a relative path and an over-long name are refused, each saying which; an abstract name may fill the address")
    @MainActor func notifySocketAddresses() {
        let relative = ServiceNotifier(environment: ["NOTIFY_SOCKET": "run/notify"])
        #expect(!relative.isActive)
        #expect(relative.problem == "NOTIFY_SOCKET: expected an absolute path or an @abstract name, found the relative path run/notify",
                "\(relative.problem ?? "")")
        let long = ServiceNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "p", count: 107)])
        #expect(long.problem == "NOTIFY_SOCKET: expected at most 107 bytes in the path, found 108", "\(long.problem ?? "")")
        let longest = ServiceNotifier(environment: ["NOTIFY_SOCKET": "/" + String(repeating: "p", count: 106)])
        #expect(longest.problem == nil && longest.isActive)
        // Linux takes an abstract name of 107 bytes after its leading zero (the whole sun_path).
        let abstract = ServiceNotifier(environment: ["NOTIFY_SOCKET": "@" + String(repeating: "a", count: 107)])
        #expect(abstract.problem == nil && abstract.isActive, "\(abstract.problem ?? "")")
        // A watchdog interval past what nanoseconds hold is none (it trapped, multiplying).
        let endless = ServiceNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "18446744073709551615"])
        #expect(endless.watchdogInterval == nil)
        #expect(ServiceNotifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000"]).watchdogInterval == 15_000_000_000)
        let tooLong = ServiceNotifier(environment: ["NOTIFY_SOCKET": "@" + String(repeating: "a", count: 108)])
        #expect(tooLong.problem == "NOTIFY_SOCKET: expected at most 107 bytes after the @, found 108", "\(tooLong.problem ?? "")")
    }

    @Test("what one read of the signal pipe brings is coalesced: a stop alone, one memory warning, no repeated resume")
    @MainActor func coalesced() {
        func kinds(_ stimuli: [LiveStimulus]) -> [String] {
            stimuli.map { stimulus in
                switch stimulus {
                case .stop(let reason): "stop \(reason)"
                case .suspend: "suspend"
                case .resume: "resume"
                case .memoryWarning: "memory"
                default: "other"
                }
            }
        }
        let burst = Array(repeating: LiveStimulus.memoryWarning(because: "SIGUSR1"), count: 1_000)
        #expect(kinds(SignalSource.coalesced(burst)) == ["memory"])
        #expect(kinds(SignalSource.coalesced([.resume(because: "SIGCONT"), .stop(because: "SIGTERM"), .stop(because: "SIGINT")]))
                == ["stop SIGTERM"])
        #expect(kinds(SignalSource.coalesced([.suspend(because: "SIGTSTP"), .suspend(because: "SIGTSTP"), .memoryWarning(because: "SIGUSR1"),
                                              .resume(because: "SIGCONT"), .resume(because: "SIGCONT"), .memoryWarning(because: "SIGUSR1")]))
                == ["suspend", "memory", "resume"])
        #expect(kinds(SignalSource.coalesced(SignalSource.stimulus(for: SIGQUIT))) == ["stop SIGQUIT"])
    }
}

/// `apphost run` whose standard output's reader goes away: the app goes on.
@Suite("apphost run without its standard output's reader")
struct CLILiveOutputTests {
    @Test("stdout's reader gone (EPIPE): said once on stderr, the socket still answers, SIGTERM stops it in order, exit 0")
    func closedStandardOutput() throws {
        let directory = try TemporaryDirectory()
        let log = directory.path + "/live.jsonl"
        // Standard output a FIFO whose only reader the test holds, then closes.
        let fifo = directory.path + "/child-stdout"
        try #require(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)  // not inherited: the host must see no reader left
        try #require(reader >= 0)
        let host = try LiveHostChild(["run", "--manifest", CLILiveHostTests.news, "--url", "news://article/1", "--json",
                                      "--log-file", log], directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        close(reader)
        for _ in 0..<2 {
            let reply = try CLILiveHostTests.send(#"{"event": "openURL", "url": "news://article/7"}"#, to: host)
            #expect(reply.status == 0, "\(reply.stderr) \(host.stderr)")
        }
        host.signal(SIGTERM)
        #expect(host.notify.messages(until: "STOPPING=1") != nil, "\(host.stderr)")
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(host.stderr.components(separatedBy: "event lines are no longer written there, the app goes on").count == 2,
                "said once: \(host.stderr)")
        #expect(try CLILiveHostTests.loggedEvents(log).suffix(3) == ["willResignActive", "didEnterBackground", "willTerminate"])
    }
}

/// `apphost open` while the live host is still starting.
@Suite("apphost open during the live host's start")
struct CLILiveStartTests {
    @Test("open while the plugins load (SlowScan sleeps 1.2 s in its constructor): the socket is there, the URL waits and is delivered")
    func openDuringStart() throws {
        let directory = try TemporaryDirectory()
        let manifest = try directory.write("slow.json", """
            {"app": {"name": "Slow", "bundleIdentifier": "com.example.news", "version": "1"},
             "plugins": [{"library": "SlowScan"}, {"library": "DeepLinkRouter", "options": {"hosts": ["news.example.com"], "scheme": "news"}}]}
            """)
        let host = try LiveHostChild(["run", "--manifest", manifest], directory: directory)
        defer { host.cleanUp() }
        // The control socket is there from before the plugins load on (SlowScan's constructor then
        // sleeps 1.2 s): whenever open comes from now on, the host is still starting or has started.
        let end = Date().addingTimeInterval(60)
        var info = stat()
        while Date() < end, !(lstat(host.socketPath, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK) { usleep(2_000) }
        let opened = try AppHostProcess.run(["open", "--manifest", manifest, "news://article/3"], environment: host.environment)
        #expect(opened.status == 0, "\(opened.stderr) \(host.stderr)")
        #expect(opened.stdout.hasPrefix(#"{"event":"openURL""#), "\(opened.stdout)")
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect((host.stdout + host.stderr).contains("routing to article/3"), "\(host.stdout)")
    }
}
