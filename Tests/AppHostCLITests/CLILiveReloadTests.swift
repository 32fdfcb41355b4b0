import Foundation
import Glibc
import Testing
import SubscriberKit
import SubscriberEventModel

/// `apphost send --reload NAME` and a crash while `apphost run` is up: an isolated plugin restarted
/// while the host stays up (the same pid). Every wait is on READY=1, a reply, or the exit.
@Suite("apphost run: reload and crash of an isolated plugin while up")
struct CLILiveReloadTests {
    /// A temporary folder with `libReloadAnswer.so` (a copy of ReloadAnswerA) and a manifest whose
    /// one entry is that path, isolated (`pin`: its sha256), plus the in-process Greeter.
    struct Setup {
        let directory: TemporaryDirectory
        let plugin: String
        let manifest: String

        init(pin: Bool = false, group: Bool = false) throws {
            directory = try TemporaryDirectory()
            plugin = directory.path + "/libReloadAnswer.so"
            try FileManager.default.copyItem(atPath: AppHostProcess.plugin("ReloadAnswerA"), toPath: plugin)
            var entry = #"{"path": "\#(plugin)", "isolation": "process", "callBudget": 600000"#
            if pin { entry += #", "sha256": "\#(try Self.sha256(plugin))""# }
            if group { entry += #", "isolationGroup": "pair""# }
            entry += "}"
            let greeter = group ? #"{"library": "Greeter", "isolation": "process", "isolationGroup": "pair", "callBudget": 600000}"#
                                : #"{"library": "Greeter"}"#
            manifest = try directory.write("reload.json", """
                {"app": {"name": "Reload", "bundleIdentifier": "com.example.news", "version": "1.0"},
                 "plugins": [\(entry), \(greeter)]}
                """)
        }

        /// Installs ReloadAnswerB at the plugin's path as a build would: a new file renamed over it.
        func installB() throws {
            let staged = plugin + ".new"
            try FileManager.default.copyItem(atPath: AppHostProcess.plugin("ReloadAnswerB"), toPath: staged)
            #expect(rename(staged, plugin) == 0)
        }

        static func sha256(_ path: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sha256sum", path]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(String(decoding: data, as: UTF8.self).prefix(64))
        }
    }

    static func send(_ arguments: [String], _ setup: Setup, _ host: LiveHostChild) throws -> AppHostProcess.Result {
        try AppHostProcess.run(["send", "--manifest", setup.manifest] + arguments, environment: host.environment)
    }

    static let openURL = #"{"event": "openURL", "url": "news://article/7"}"#

    /// ReloadAnswer's answer in an openURL reply line.
    static func answer(_ reply: AppHostProcess.Result) throws -> JSONValue? {
        let object = try #require(try reply.stdoutLines.first?.parsedJSON(), "no reply: \(reply.stderr)")
        guard case .array(let answers)? = object["answers"] else { return nil }
        return answers.first { $0["subscriber"] == "ReloadAnswer" }?["answer"]
    }

    /// The kinds of the reports in a reply line.
    static func reportKinds(_ reply: AppHostProcess.Result) throws -> [String] {
        let object = try #require(try reply.stdoutLines.first?.parsedJSON())
        guard case .array(let reports)? = object["reports"] else { return [] }
        return reports.compactMap { if case .string(let kind)? = $0["kind"] { kind } else { nil } }
    }

    /// The pid the running host wrote beside its socket.
    static func runningPid(_ host: LiveHostChild) -> String? {
        (try? String(contentsOfFile: host.directory.path + "/run/apphost/com.example.news.pid", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("--reload of an isolated plugin rebuilt with another answer: the next event gives the new answer, same pid, SIGTERM exits 0")
    func reloadGivesTheNewAnswer() throws {
        let setup = try Setup()
        let host = try LiveHostChild(["run", "--manifest", setup.manifest], directory: setup.directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "no READY=1: \(host.stderr)")

        #expect(try Self.answer(try Self.send([Self.openURL], setup, host)) == true)
        try setup.installB()
        let reload = try Self.send(["--reload", "ReloadAnswer"], setup, host)
        #expect(reload.status == 0, "\(reload.stdout)\(reload.stderr)")
        #expect(reload.stdoutLines.count == 1)
        let reloaded = try #require(try reload.stdoutLines.first?.parsedJSON())
        #expect(reloaded["reloaded"] == ["libReloadAnswer.so"] && reloaded["subscribers"] == ["ReloadAnswer"])

        let after = try Self.send([Self.openURL], setup, host)
        #expect(after.status == 0)
        #expect(try Self.answer(after) == false, "\(after.stdout)")
        #expect(Self.runningPid(host) == "\(host.pid)")
        // By its file's name as well; the host said it on stderr.
        #expect(try Self.send(["--reload", "libReloadAnswer.so"], setup, host).status == 0)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(host.stderr.contains("apphost: reloaded libReloadAnswer.so: ReloadAnswer made anew"))
    }

    @Test("--reload of a pinned plugin whose file changed refuses in one line; the running child goes on")
    func reloadRefusesAChangedPin() throws {
        let setup = try Setup(pin: true)
        let host = try LiveHostChild(["run", "--manifest", setup.manifest], directory: setup.directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "no READY=1: \(host.stderr)")
        try setup.installB()
        let reload = try Self.send(["--reload", "ReloadAnswer"], setup, host)
        #expect(reload.status == 1)
        #expect(reload.stdoutLines.count == 1)
        let line = try #require(reload.stdoutLines.first)
        #expect(line.contains(#""error""#) && line.contains("SHA-256 does not match") && line.contains("the running child goes on"), "\(line)")
        let reply = try Self.send([Self.openURL], setup, host)
        #expect(try Self.answer(reply) == true, "reply: \(reply.stdout) \(reply.stderr); host: \(host.stderr)")
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
    }

    @Test("--reload of an in-process plugin, or of an unknown name: one error line, exit 1 of send, the host goes on")
    func reloadRefusals() throws {
        let setup = try Setup()
        let host = try LiveHostChild(["run", "--manifest", setup.manifest], directory: setup.directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "no READY=1: \(host.stderr)")

        let inProcess = try Self.send(["--reload", "Greeter"], setup, host)
        #expect(inProcess.status == 1)
        #expect(inProcess.stdoutLines.count == 1)
        #expect(inProcess.stdout.contains(#"needs \"isolation\": \"process\""#) || inProcess.stdout.contains(#"\"isolation\": \"process\""#),
                "\(inProcess.stdout)")
        #expect(inProcess.stdout.contains("never unloaded"))

        let unknown = try Self.send(["--reload", "Nobody"], setup, host)
        #expect(unknown.status == 1)
        #expect(unknown.stdoutLines.count == 1)
        #expect(unknown.stdout.contains("Nobody") && unknown.stdout.contains("ReloadAnswer") && unknown.stdout.contains("libReloadAnswer.so"),
                "\(unknown.stdout)")

        let both = try Self.send(["--reload", "ReloadAnswer", Self.openURL], setup, host)
        #expect(both.status == 2 && both.stderr.contains("--reload"))

        #expect(try Self.answer(try Self.send([Self.openURL], setup, host)) == true)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
    }

    @Test("--reload of a plugin in an isolation group restarts the whole group's child and says so")
    func reloadRestartsTheGroup() throws {
        let setup = try Setup(group: true)
        let host = try LiveHostChild(["run", "--manifest", setup.manifest], directory: setup.directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "no READY=1: \(host.stderr)")
        try setup.installB()
        let reload = try Self.send(["--reload", "Greeter"], setup, host)
        #expect(reload.status == 0, "\(reload.stdout)\(reload.stderr)")
        let reloaded = try #require(try reload.stdoutLines.first?.parsedJSON())
        #expect(reloaded["reloaded"] == ["libReloadAnswer.so", "libGreeter.so"], "\(reload.stdout)")
        #expect(reloaded["subscribers"] == ["ReloadAnswer", "Greeter"] && reloaded["group"] == "pair")
        // ReloadAnswer shares Greeter's child: it restarted too, from B.
        #expect(try Self.answer(try Self.send([Self.openURL], setup, host)) == false)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        #expect(host.stderr.contains("(isolation group pair: its whole child restarted)"))
    }

    @Test("a crash while up: crashed in the reply to the event it crashed in, restarted in the next, same pid")
    func crashWhileUp() throws {
        let setup = try Setup()
        let host = try LiveHostChild(["run", "--manifest", setup.manifest], directory: setup.directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "no READY=1: \(host.stderr)")

        let crash = try Self.send([#"{"event": "didReceiveMemoryWarning"}"#], setup, host)
        #expect(try Self.reportKinds(crash) == ["crashed"], "\(crash.stdout)")
        #expect(crash.stdout.contains("SIGSEGV"))
        let next = try Self.send([Self.openURL], setup, host)
        #expect(try Self.reportKinds(next) == ["restarted"], "\(next.stdout)")
        #expect(try Self.answer(next) == true)
        let third = try Self.send([Self.openURL], setup, host)
        #expect(try Self.reportKinds(third) == [])
        #expect(Self.runningPid(host) == "\(host.pid)")
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
    }
}
