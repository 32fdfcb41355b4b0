import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// `apphost --manifest …` run as a subprocess, the way people and CI run it.
@Suite("CLI: run", .serialized)
struct CLIRunTests {
    @Test("the demo manifest plays the default scenario: every event, the invocation, log lines, exit 0")
    func demo() throws {
        let run = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json")])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.contains("▸ didFinishLaunching  → true   invocation: deepLink(https://news.example.com/article/42)"))
        // Every scenario event has its block, in order.
        let headings = run.stdoutLines.filter { $0.hasPrefix("▸ ") }
            .map { String($0.dropFirst(2).prefix(while: { $0 != " " })) }
        #expect(headings == DefaultScenario.calls.map(\.event.name))
        // Header: app and plugins; a subscriber's answer row; its log line inside its event's block.
        #expect(run.stdoutLines.first == "News 1.0 (com.example.news) · \(AppHostProcess.manifest("news.json"))")
        #expect(run.stdout.contains("Deep Link Router 1.0.0"))
        let launchBlock = try #require(block(of: "didFinishLaunching", in: run.stdout))
        #expect(launchBlock.contains { $0.hasPrefix("    DeepLinkRouter") && $0.contains(" true ") && $0.hasSuffix(" ms") })
        #expect(launchBlock.contains("    log   DeepLinkRouter: routing to article/42"))
        let notification = try #require(block(of: "didReceiveRemoteNotification", in: run.stdout))
        #expect(notification.first?.contains("→ newData") == true)
        // The fetcher logs from another thread before completing: still inside this event's block.
        #expect(notification.contains("    log   NotificationFetcher: notification fetch finished: newData"))
        #expect(run.stdoutLines.last == "\(DefaultScenario.calls.count) events played, no reports")
    }

    @Test("the tour script with --json: one parseable object per event, with the right results")
    func tourJSON() throws {
        let script = AppHostProcess.manifest("events/tour.jsonl")
        let run = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json"), "--events", script, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let expectedEvents = try String(contentsOfFile: script, encoding: .utf8).split(separator: "\n")
            .map { try String($0).parsedJSON()["event"]?.stringValue ?? "" }
        let objects = try run.stdoutLines.map { try $0.parsedJSON() }
        #expect(objects.map { $0["event"]?.stringValue ?? "?" } == expectedEvents)
        for object in objects {
            #expect(object["answers"]?.arrayValue != nil && object["reports"] == [])
            for answer in object["answers"]?.arrayValue ?? [] {
                #expect(answer["subscriber"]?.stringValue != nil && answer["ms"]?.doubleValue != nil && answer["answer"] != nil)
            }
        }
        func results(_ event: String) -> [JSONValue] { objects.filter { $0["event"] == .string(event) }.compactMap { $0["result"] } }
        #expect(results("didFinishLaunching") == [true])
        #expect(objects[1]["invocation"] == ["kind": "deepLink", "url": "https://news.example.com/article/42"])
        #expect(objects[0]["invocation"]?["kind"] == "deepLink")
        #expect(objects[2]["invocation"] == nil)
        #expect(results("openURL") == [true, false])  // news:// is the router's; elsewhere.example.org is not
        #expect(results("willContinueUserActivity") == [true])
        #expect(results("continueUserActivity") == [["handled": true, "restorableObjects": ["article/9"]]])
        #expect(results("didReceiveRemoteNotification") == ["newData"])
        #expect(results("performFetch") == ["newData"])
        #expect(results("performActionForShortcutItem") == [false])
        #expect(results("supportedInterfaceOrientations") == [["portrait", "landscapeLeft"]])
        #expect(results("shouldAllowExtensionPointIdentifier") == [false])
        #expect(results("shouldSaveSecureApplicationState") == [true])
        #expect(results("configurationForConnecting") == ["Default Configuration"])
        #expect(results("handleWatchKitExtensionRequest") == [[:]])
        #expect(results("didBecomeActive") == [.null])
        let veto = try #require(objects.first { $0["event"] == "shouldAllowExtensionPointIdentifier" })
        #expect(veto["answers"]?.arrayValue?.first { $0["subscriber"] == "ExtensionGuard" }?["answer"] == false)
        // Logs go to stderr, never into the JSON lines.
        #expect(run.stderr.contains("[DeepLinkRouter] info: routing to article/42"))
        #expect(run.stderr.contains("[NotificationFetcher] error: could not register for remote notifications"))
    }

    @Test("a bad script line: exit 2, one line naming the line number and the field, nothing played")
    func badScriptLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lines = [#"{"event": "didFinishLaunching"}"#, "# a comment", "", #"{"event": "performFetch"}"#,
                     #"{"event": "openURL", "url": "news://article/1"}"#, "// another comment",
                     #"{"event": "openURL", "url": 42}"#, #"{"event": "willTerminate"}"#]
        let script = try directory.write("events.jsonl", lines.joined(separator: "\n") + "\n")
        let logFile = directory.path + "/log.jsonl"
        let run = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json"), "--events", script,
                                          "--log-file", logFile])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["apphost: \(script):7: url: expected a string, found the number 42"])
        // Not even the plugins were loaded: nothing logged, no log file made.
        #expect(!FileManager.default.fileExists(atPath: logFile))
    }

    @Test("--events - reads the script from standard input, playing each line as it comes")
    func scriptFromStandardInput() throws {
        let script = """
            # opened from a notification
            {"event": "didFinishLaunching", "launchOptions": {"url": "news://article/3"}}
            {"event": "openURL", "url": "news://article/3"}
            {"event": "supportedInterfaceOrientations", "idiom": "phone"}
            """
        let run = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json"), "--events", "-", "--json"],
                                         stdin: script)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let objects = try run.stdoutLines.map { try $0.parsedJSON() }
        #expect(objects.map { $0["event"] } == ["didFinishLaunching", "openURL", "supportedInterfaceOrientations"])
        #expect(objects.map { $0["result"] } == [true, true, ["portrait"]])

        let bad = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json"), "--events", "-"],
                                         stdin: "{\"event\": \"didFinishLaunching\"}\n{\"event\": \"fetch\"}\n")
        // Standard input plays as it streams: the event before the bad line was played.
        #expect(bad.status == 2)
        #expect(bad.stdoutLines.filter { $0.hasPrefix("▸ ") } == ["▸ didFinishLaunching  → true   invocation: appIconClick"])
        #expect(bad.stdoutLines.last == "1 event played, no reports")
        #expect(bad.stderrLines == [#"apphost: <stdin>:2: event: expected an event wire name such as performFetch, found the string "fetch""#])
        let near = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json"), "--events", "-"],
                                          stdin: #"{"event": "openUrl", "url": "news://x"}"# + "\n")
        #expect(near.status == 2)
        #expect(near.stderrLines == [#"apphost: <stdin>:1: event: expected an event wire name such as performFetch, found the string "openUrl" (did you mean openURL?)"#])
    }

    @Test("a missing manifest: exit 2, one line on stderr naming it")
    func missingManifest() throws {
        let run = try AppHostProcess.run(["--manifest", "manifests/nothing-here.json"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["apphost: manifests/nothing-here.json: expected a readable manifest file, found nothing at that path"])
    }

    @Test("a folder as the event script or the manifest: exit 2, one line saying it is a directory")
    func folderAsScript() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json"), "--events", directory.path])
        #expect(script.status == 2)
        #expect(script.stderrLines == ["apphost: \(directory.path): expected a readable event script, found a directory"])
        let manifest = try AppHostProcess.run(["--manifest", directory.path])
        #expect(manifest.status == 2)
        #expect(manifest.stderrLines == ["apphost: \(directory.path): expected a readable manifest file, found a directory"])
    }

    @Test("an unknown flag: exit 2 with a did-you-mean")
    func unknownFlag() throws {
        let run = try AppHostProcess.run(["--manfest", "manifests/news.json"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["apphost: unknown option '--manfest' for 'apphost' (did you mean '--manifest'?)"])
        let list = try AppHostProcess.run(["list", "--manifest", "manifests/news.json", "--jsn"])
        #expect(list.status == 2)
        #expect(list.stderrLines == ["apphost: unknown option '--jsn' for 'list' (did you mean '--json'?)"])
    }

    @Test("--log-file writes every log record as a JSON line, with the event it belongs to")
    func logFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let logFile = directory.path + "/log.jsonl"
        let run = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json"), "--log-file", logFile])
        #expect(run.status == 0)
        let records = try String(contentsOfFile: logFile, encoding: .utf8).split(separator: "\n").map { try String($0).parsedJSON() }
        #expect(records.count >= 10)
        for record in records {
            #expect(record["subscriber"]?.stringValue != nil && record["kind"]?.stringValue != nil
                    && record["message"]?.stringValue != nil && record["time"]?.doubleValue != nil && record["event"] != nil)
        }
        #expect(records.contains { $0["message"] == "routing to article/42" && $0["event"] == "didFinishLaunching"
                                   && $0["subscriber"] == "DeepLinkRouter" && $0["level"] == "info" && $0["kind"] == "log" })
        #expect(records.contains { $0["message"] == "session_started" && $0["kind"] == "event" && $0["event"] == "didBecomeActive" })
        // Written while the subscribers were made, before any event.
        #expect(records.first?["event"] == .null && records.first?["subscriber"] == "ExtensionGuard")
    }

    @Test("no escape codes when stdout is not a terminal, with or without NO_COLOR")
    func noColourOffTerminal() throws {
        for environment in [[:], ["NO_COLOR": "1"]] {
            let run = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json")], environment: environment)
            #expect(run.status == 0)
            #expect(!run.stdout.contains("\u{1B}["))
            #expect(run.stdout.contains("▸ willTerminate"))
        }
    }

    @Test("--deadline at its largest saturates: a plugin that completes at once is answered, in process and isolated (whose child once trapped on it)")
    func largestDeadline() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("fetch.jsonl", #"{"event": "didFinishLaunching"}"# + "\n" + #"{"event": "performFetch"}"# + "\n")
        for isolation in ["inProcess", "process"] {
            let manifest = try directory.write("fetch-\(isolation).json", """
                {"app": {"name": "Fetch", "bundleIdentifier": "com.example.fetch"},
                 "plugins": [{"library": "NotificationFetcher", "isolation": "\(isolation)", "options": {"fetchResult": "newData", "delayMs": 0}}]}
                """)
            for deadline in ["18446744073710", "\(Int.max)"] {
                let run = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--deadline", deadline, "--json",
                                                  "--plugin-dir", AppHostProcess.buildDirectory])
                #expect(run.status == 0, "\(isolation) \(deadline): \(run.stderr)")
                let fetch = try #require(run.stdoutLines.last).parsedJSON()
                #expect(fetch["result"] == "newData", "\(isolation) \(deadline)")
                #expect(fetch["reports"]?.arrayValue?.isEmpty ?? true, "\(isolation) \(deadline): \(run.stdoutLines.last ?? "")")
            }
        }
    }

    @Test("--deadline applies: a plugin that never completes is late at the short deadline, exit 1")
    func deadlineOverride() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("slow.json", """
            {"app": {"name": "Slow", "bundleIdentifier": "com.example.slow"},
             "deadlines": {"performFetch": 600000},
             "plugins": [{"library": "NeverCompletes"}]}
            """)
        let script = try directory.write("fetch.jsonl", #"{"event": "didFinishLaunching"}"# + "\n" + #"{"event": "performFetch"}"# + "\n")
        let arguments = ["--manifest", manifest, "--events", script, "--deadline", "100",
                         "--plugin-dir", AppHostProcess.buildDirectory]
        let json = try AppHostProcess.run(arguments + ["--json"])
        #expect(json.status == 1, "stderr: \(json.stderr)")
        #expect(json.stdoutLines.count == 2)
        let fetch = try #require(json.stdoutLines.last).parsedJSON()
        // Alone, and never completing: nothing in the run depends on how fast anything else answers.
        #expect(fetch["result"] == "failed")  // the late one counts as failed
        let late = try #require(fetch["reports"]?.arrayValue?.first)
        #expect(late["kind"] == "late" && late["subscriber"] == "NeverCompletes" && late["event"] == "performFetch")
        #expect(fetch["answers"]?.arrayValue?.map { $0["answer"] } == ["failed"])

        let human = try AppHostProcess.run(arguments)
        #expect(human.status == 1)
        #expect(human.stdout.contains("    ⚠ late: NeverCompletes did not complete performFetch before its deadline"))
        #expect(human.stdoutLines.last == "2 events played, 1 report (exit status 1)")
    }

    @Test("a required plugin that fails to load stops the run before any event: exit 2")
    func requiredPluginFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("broken.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"library": "SessionAnalytics"}, {"library": "BrokenABIMajor"}]}
            """)
        let run = try AppHostProcess.run(["--manifest", manifest, "--plugin-dir", AppHostProcess.buildDirectory])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("plugins[1]") && run.stderr.contains("ABI mismatch: expected ABI \(ABI.major).x (the host's), found \(ABI.major + 1)."))
    }

    /// The lines of the first block headed by `event`, heading included.
    private func block(of event: String, in output: String) -> [String]? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("▸ \(event)") }) else { return nil }
        return Array(lines[start...].prefix(while: { !$0.isEmpty }))
    }
}
