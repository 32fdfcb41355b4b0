import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// A plugin that calls its completion with contexts the host never gave, from a thread of its own:
/// `apphost` ignores the calls, reports them with no subscriber named, and exits 1.
@Suite("apphost: forged completion tokens from a plugin's own thread")
struct CLIForgedCompletionTests {
    @Test("ForgesFromThread's two forged calls make one counted report and exit status 1")
    func forgedCallsFromAPluginThreadAreReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "News", "bundleIdentifier": "com.example.news", "version": "1.0"},
             "plugins": [{"path": "\(AppHostProcess.plugin("ForgesFromThread"))",
                          "subscribers": ["ForgesFromThread"]}]}
            """)
        let arguments = ["--manifest", manifest, "--events", "-", "--allow-writable"]
        let script = "{\"event\": \"didFinishLaunching\"}\n{\"event\": \"performFetch\"}\n"

        let json = try AppHostProcess.run(arguments + ["--json"], stdin: script)
        #expect(json.status == 1)
        let event = try #require(json.stdoutLines.first { $0.contains("\"event\":\"performFetch\"") })
        let reports = try #require(try JSONValue(parsing: Array(event.utf8)).objectValue?["reports"]?.arrayValue)
        #expect(reports.count == 1)
        let report = try #require(reports.first?.objectValue)
        #expect(report["kind"] == .string("forgedCompletion"))
        #expect(report["count"] == .number(2))
        #expect(report["subscriber"] == nil)
        #expect(report["event"] == .null)

        let human = try AppHostProcess.run(arguments, stdin: script)
        #expect(human.status == 1)
        #expect(human.stdout.contains("a completion was called with a context the host never gave (2 times)"))
        #expect(human.stdout.contains("2 events played, 1 report (exit status 1)"))
    }
}
