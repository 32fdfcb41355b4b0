import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

/// A continueUserActivity whose optional restoration handler a subscriber never calls is written at
/// the end of the run: with the lines its subscribers logged during it, in every output.
@Suite("apphost: the lines of a continueUserActivity waiting for its optional handler are kept", .timeLimit(.minutes(10)))
struct CLIPendingRestorationLogTests {
    @Test("DeepLinkRouter's line during a continueUserActivity NeverRestores leaves open: on stdout, in --json's stderr and in --log-file",
          arguments: [false, true])
    func linesAreKept(json: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "News", "bundleIdentifier": "com.example.news", "version": "1.0"},
             "deadlines": {"continueUserActivity": 90000},
             "plugins": [{"path": "\(AppHostProcess.plugin("DeepLinkRouter"))"},
                         {"path": "\(AppHostProcess.plugin("NeverRestores"))"}]}
            """)
        let script = """
            {"event": "didFinishLaunching"}
            {"event": "continueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://news.example.com/article/42"}
            {"event": "performFetch"}

            """
        let log = directory.path + "/log.jsonl"
        let run = try AppHostProcess.run(["--manifest", manifest, "--events", "-", "--allow-writable", "--log-file", log]
                                         + (json ? ["--json"] : []), stdin: script)
        #expect(run.status == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        let line = "DeepLinkRouter: routing to article/42"
        if json {
            #expect(run.stderr.contains("[DeepLinkRouter] info: routing to article/42"))
        } else {
            // In the continueUserActivity's block, not the fetch's.
            let block = run.stdout.components(separatedBy: "\n\n").first { $0.contains("▸ continueUserActivity") }
            #expect(block?.contains(line) == true, "\(run.stdout)")
        }
        let logged = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { try String($0).parsedJSON() }
        let routed = logged.filter { $0["message"] == "routing to article/42" }
        #expect(routed.count == 1)
        #expect(routed.first?["event"] == "continueUserActivity")
    }
}
