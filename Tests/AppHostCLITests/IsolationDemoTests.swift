import Foundation
import Testing
@testable import AppHostCLI

/// manifests/isolated.json: the demo plugins isolated beside CrashOnEvent and HangOnEvent. The
/// default scenario plays to the end, every other plugin answers every event as in news.json, the
/// failures are reported in human and JSON output, and the exit status is 1.
@Suite("Isolation: the isolated demo", .serialized)
struct IsolationDemoTests {
    /// Each JSON line's object.
    static func objects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test("JSON: every event of the scenario, crashed, hung and restarted reports, exit 1")
    func json() throws {
        let result = try AppHostProcess.run(["--json", "--manifest", AppHostProcess.manifest("isolated.json")])
        #expect(result.status == 1)
        let events = Self.objects(result.stdout).filter { $0["event"] != nil && $0["reports"] != nil }
        #expect(events.map { $0["event"] as? String } == DefaultScenario.calls.map { $0.event.name })
        let reports = events.flatMap { ($0["reports"] as? [[String: Any]]) ?? [] }
        #expect(reports.compactMap { $0["kind"] as? String } == ["crashed", "hung", "restarted", "crashed"])
        #expect(reports.allSatisfy { ($0["plugin"] as? String)?.hasSuffix(".so") == true && $0["message"] is String })
        // The plugins that do not fail answer as in news.json.
        let news = try AppHostProcess.run(["--json", "--manifest", AppHostProcess.manifest("news.json")])
        let expected = Self.objects(news.stdout).filter { $0["event"] != nil && $0["reports"] != nil }
        for (found, wanted) in zip(events, expected) {
            #expect(String(describing: found["result"] ?? "nil") == String(describing: wanted["result"] ?? "nil"))
        }
    }

    @Test("human output: each report on its event, one line naming plugin, subscriber, event, expected and found")
    func human() throws {
        let result = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("isolated.json")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("crashed: libCrashOnEvent.so (isolated) ended during the call of CrashOnEvent for "
                                       + "didBecomeActive; expected a reply, found: killed by SIGSEGV"))
        #expect(result.stdout.contains("hung: libHangOnEvent.so (isolated): HangOnEvent did not answer openURL"))
        #expect(result.stdout.contains("restarted: libCrashOnEvent.so (isolated) was started again before didBecomeActive"))
    }
}
