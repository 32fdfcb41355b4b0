import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// Requests in `apphost`'s output: a request made during an event is on that event's JSON line as
/// `"requests":[{"subscriber":…,"request":…}]`; an orientation request makes the command ask
/// supportedInterfaceOrientations again, for the idiom last asked, before the next scripted event.
///
/// No shipped plugin makes requests: the plugin here is Tests/Fixtures/RequestAsker/request_asker.c
/// (in no target), compiled with the system C compiler for each run.
@Suite("CLI: subscriber requests", .serialized)
struct CLIRequestTests {
    /// A folder holding the compiled RequestAsker plugin and a manifest loading it.
    struct Setup {
        let directory: TemporaryDirectory
        let manifest: String

        init() throws {
            directory = try TemporaryDirectory()
            let root = AppHostProcess.packageRoot
            let library = directory.path + "/libRequestAsker.so"
            let compiler = Process()
            compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            compiler.arguments = ["cc", "-shared", "-fPIC", "-pthread", "-I", root + "/Sources/SubscriberABI/include",
                                  "-o", library, root + "/Tests/Fixtures/RequestAsker/request_asker.c"]
            try compiler.run()
            compiler.waitUntilExit()
            try #require(compiler.terminationStatus == 0, "cc failed")
            manifest = try directory.write("m.json", """
                {"app": {"name": "News", "bundleIdentifier": "com.example.news", "version": "1.0"},
                 "plugins": [{"path": "\(library)"}]}
                """)
        }

        /// `apphost --manifest m.json --json --events - --allow-writable` with `script` on standard input.
        func run(_ script: [String], json: Bool = true) throws -> AppHostProcess.Result {
            try AppHostProcess.run(["--manifest", manifest, "--events", "-", "--allow-writable"] + (json ? ["--json"] : []),
                                   stdin: script.joined(separator: "\n") + "\n")
        }
    }

    static let requestsOfActive = #""requests":[{"subscriber":"RequestAsker","request":"registerForRemoteNotifications"},"#
        + #"{"subscriber":"RequestAsker","request":"updateSupportedInterfaceOrientations"}]"#

    @Test("a request during an event is on its line; orientations are asked again, for the idiom last asked, before the next event")
    func requestsOnTheLine() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let run = try setup.run([#"{"event": "didFinishLaunching"}"#,
                                 #"{"event": "supportedInterfaceOrientations", "idiom": "pad"}"#,
                                 #"{"event": "didBecomeActive"}"#,
                                 #"{"event": "didReceiveMemoryWarning"}"#])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let objects = try run.stdoutLines.map { try $0.parsedJSON() }
        #expect(objects.map { $0["event"]?.stringValue ?? "?" } == [
            "didFinishLaunching", "supportedInterfaceOrientations", "didBecomeActive", "supportedInterfaceOrientations",
            "didReceiveMemoryWarning",
        ])
        let active = try #require(run.stdoutLines.first { $0.hasPrefix(#"{"event":"didBecomeActive""#) })
        #expect(active.contains(Self.requestsOfActive))
        #expect(objects[2]["requests"] == [["subscriber": "RequestAsker", "request": "registerForRemoteNotifications"],
                                           ["subscriber": "RequestAsker", "request": "updateSupportedInterfaceOrientations"]])
        // Only the line of the event during which the requests were made has them.
        #expect(objects.enumerated().allSatisfy { $0.offset == 2 || $0.element["requests"] == nil })
        // Asked again for the pad, as last asked: the plugin's pad answer.
        #expect(objects[3]["result"] == ["landscapeLeft"])
        #expect(run.stderrLines.contains("[RequestAsker] info: orientations asked 2 times"))
        #expect(!run.stderr.contains("orientations asked 3 times"))
    }

    @Test("without an idiom asked before, orientations are asked again for the phone")
    func phoneByDefault() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let run = try setup.run([#"{"event": "didFinishLaunching"}"#, #"{"event": "didBecomeActive"}"#])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let objects = try run.stdoutLines.map { try $0.parsedJSON() }
        #expect(objects.map { $0["event"]?.stringValue ?? "?" } == ["didFinishLaunching", "didBecomeActive", "supportedInterfaceOrientations"])
        #expect(objects.last?["result"] == ["portrait"])
    }

    @Test("the text output says who asked what, in the event's block")
    func textOutput() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        let run = try setup.run([#"{"event": "didFinishLaunching"}"#, #"{"event": "didBecomeActive"}"#], json: false)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdoutLines
        let active = try #require(lines.firstIndex { $0.hasPrefix("▸ didBecomeActive") })
        let block = lines[(active + 1)...].prefix { !$0.hasPrefix("▸ ") }
        #expect(block.contains { $0.contains("RequestAsker: registerForRemoteNotifications") })
        #expect(block.contains { $0.contains("RequestAsker: updateSupportedInterfaceOrientations") })
    }

    @Test("a request made after the last event (from the plugin's thread) is printed, not dropped")
    func requestAfterTheLastEvent() throws {
        let setup = try Setup()
        defer { setup.directory.remove() }
        // didEnterBackground starts a thread that asks once destroy wakes it, then joins it: the
        // request arrives after the last event, before the host is gone, however busy the machine.
        let run = try setup.run([#"{"event": "didFinishLaunching"}"#, #"{"event": "didBecomeActive"}"#,
                                 #"{"event": "willResignActive"}"#, #"{"event": "didEnterBackground"}"#])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderrLines.contains("[RequestAsker] info: asked from a thread"))
        let afterLast = run.stdoutLines.compactMap { try? $0.parsedJSON() }.filter { $0["event"] == .null }
        #expect(afterLast.contains { $0["requests"] == [["subscriber": "RequestAsker", "request": "registerForRemoteNotifications"]] })
    }
}
