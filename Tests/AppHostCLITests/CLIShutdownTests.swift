import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// `apphost` destroys the subscribers before it prints what arrived after the last event, so every
/// line a plugin logs until its `destroy` returns is printed.
@Suite("apphost: log lines written during destroy are printed")
struct CLIShutdownTests {
    @Test("LogsAtDestroy's 2,000 lines from a thread inside destroy, and its last line, all reach stderr")
    func linesDuringDestroyArePrinted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "News", "bundleIdentifier": "com.example.news", "version": "1.0"},
             "plugins": [{"path": "\(AppHostProcess.plugin("LogsAtDestroy"))", "subscribers": ["LogsAtDestroy"]}]}
            """)
        let run = try AppHostProcess.run(["--manifest", manifest, "--events", "-", "--json", "--allow-writable"],
                                         stdin: "{\"event\": \"didFinishLaunching\"}\n{\"event\": \"didBecomeActive\"}\n")
        #expect(run.status == 0)
        let lines = run.stderrLines.filter { $0.hasPrefix("[LogsAtDestroy] ") }
        #expect(lines.count == 2_001)
        #expect(lines.last == "[LogsAtDestroy] info: destroyed")
    }
}
