import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// Input can never rewrite the terminal: control characters from manifests, scripts, plugin
/// descriptors and plugin log lines are escaped in human output and errors, and errors stay one line.
@Suite("CLI: control characters", .serialized)
struct CLIControlCharacterTests {
    /// Whether `text` holds a control character other than the newlines ending its lines.
    func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test("manifest values, script values and plugin log lines are escaped in human output")
    func humanOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "News\\u001b[2J\\r\\u0007", "bundleIdentifier": "com.example.news"},
             "plugins": [{"library": "NotificationFetcher", "options": {"delayMs": 1}}]}
            """)
        let script = try directory.write("events.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "didFailToRegisterForRemoteNotifications", "error": {"domain": "push\\u001b]0;owned\\u0007", "code": 3, "message": "no\\nnetwork"}}
            {"event": "didReceiveRemoteNotification", "userInfo": {"key\\u001b[1A": "\\u001b[2Jvalue\\u009b"}}

            """)
        let run = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--plugin-dir", AppHostProcess.buildDirectory])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(!hasControlCharacters(run.stdout))
        #expect(run.stdoutLines.first?.hasPrefix(#"News\e[2J\r\u{7} 1.0 (com.example.news)"#) == true)
        // The plugin logs the error it was given: one line, escaped.
        #expect(run.stdout.contains(#"    error NotificationFetcher: could not register for remote notifications: push\e]0;owned\u{7} 3: no\nnetwork"#))
        #expect(run.stdout.contains(#"▸ didReceiveRemoteNotification {key\e[1A: \e[2Jvalue\u{9B}}"#))
    }

    @Test("errors quoting input stay one line, escaped; a huge unknown key is cut with its length")
    func errorLines() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [], "bad\\nkey\\u001b[2J": 1}
            """)
        let run = try AppHostProcess.run(["--manifest", manifest])
        #expect(run.status == 2)
        #expect(run.stderrLines.count == 1)
        #expect(!hasControlCharacters(run.stderr))
        #expect(run.stderr.hasPrefix(#"apphost: \#(manifest): bad\nkey\e[2J: expected one of the known keys"#))

        let key = String(repeating: "k", count: 15 * 1024 * 1024)
        let huge = try directory.write("huge.json", #"{"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [], "\#(key)": 1}"#)
        let hugeRun = try AppHostProcess.run(["list", "--manifest", huge])
        #expect(hugeRun.status == 2)
        #expect(hugeRun.stderrLines.count == 1)
        #expect(hugeRun.stderr.utf8.count < 1_000)
        #expect(hugeRun.stderr.contains(String(repeating: "k", count: 200) + "… (15,728,640 bytes): expected one of the known keys"))
    }

    @Test("list escapes manifest values in its entries and errors")
    func listOutput() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "A\\u001b[2J", "bundleIdentifier": "a"}, "plugins": [{"library": "Missing", "optional": true}]}
            """)
        let run = try AppHostProcess.run(["list", "--manifest", manifest])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(!hasControlCharacters(run.stdout))
        #expect(run.stdout.contains(#"A\e[2J"#))
        // JSON stays exact: the value as it was, escaped by JSON itself.
        let json = try AppHostProcess.run(["list", "--manifest", manifest, "--json"])
        #expect(try json.stdout.parsedJSON()["app"]?["name"] == "A\u{1B}[2J")

        // A library name with control characters is a manifest error: one escaped line.
        let evil = try directory.write("evil.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [{"library": "Evil\\u001b[2J\\r", "optional": true}]}
            """)
        let refused = try AppHostProcess.run(["list", "--manifest", evil])
        #expect(refused.status == 2)
        #expect(refused.stderrLines.count == 1)
        #expect(!hasControlCharacters(refused.stderr.trimmingCharacters(in: .newlines)))
        #expect(refused.stderr.contains(#"plugins[0].library"#))
        // Quoted as the manifest's JSON would spell it.
        #expect(refused.stderr.contains(#"Evil\u001b[2J\r"#))
    }
}
