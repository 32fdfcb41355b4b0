import Foundation
import Testing
import BuiltProducts
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// Process isolation changes nothing but failures: the demo manifest with every plugin in a child
/// process gives the outcomes, answers, reports and log lines it gives in-process, for every event
/// of the default scenario (apphost plays the scenario's own list, not one kept here).
///
/// Out of process, through `apphost`, like every test that starts isolated children: a host waits
/// for its children's replies on its main thread (as an app's main thread waits for an in-process
/// subscriber), and in the test runner that would stall every other main-actor test behind it.
@Suite("Isolation: the demo, every plugin isolated, plays as in-process", .serialized)
struct IsolationScenarioTests {
    /// news.json with `top` laid over its top level, written beside nothing else (its plugins are
    /// `library` entries, found beside apphost).
    static func manifest(_ top: [String: Any], in directory: TemporaryDirectory) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: AppHostProcess.manifest("news.json")))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object.merge(top) { $1 }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        return try directory.write("news.json", text)
    }

    /// A run's output lines with what differs from run to run taken out: each answer's duration,
    /// the clock readings the demo plugins log, and the order of a log line's attributes (a Swift
    /// plugin logs a dictionary, whose order is seeded per process).
    static func play(_ manifest: String) throws -> (stdout: [String], stderr: [String]) {
        let result = try AppHostProcess.run(["--json", "--manifest", manifest])
        #expect(result.status == 0, "\(result.stderr)")
        let times = try Regex(#""(timestamp|startedAt|duration|ms)":[0-9.e-]+"#)
        func normalized(_ text: String) -> [String] {
            text.split(separator: "\n").map { line in
                var line = String(line)
                if line.hasPrefix("["), line.hasSuffix("}"), let brace = line.firstIndex(of: "{"),
                   let object = try? JSONSerialization.jsonObject(with: Data(line[brace...].utf8)),
                   let sorted = try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys) {
                    line = line[..<brace] + String(decoding: sorted, as: UTF8.self)
                }
                return line.replacing(times) { "\"\($0.output[1].substring ?? "")\":_" }
            }
        }
        return (normalized(result.stdout), normalized(result.stderr))
    }

    // A budget no busy machine reaches: these tests are about answers, not hangs.
    static var isolated: [String: Any] { ["isolation": "process", "callBudget": 600_000] }

    @Test("news.json: each plugin in a child of its own, every event of the default scenario as in-process",
          arguments: [false, true])
    func everyPluginIsolated(grouped: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let inProcess = try Self.play(AppHostProcess.manifest("news.json"))
        var top = Self.isolated
        if grouped { top["isolationGroup"] = "all" }
        let isolated = try Self.play(try Self.manifest(top, in: directory))
        #expect(inProcess.stdout.count == DefaultScenario.calls.count)
        // The one difference: with a plugin in a child, --json starts with the header line (docs/cli.md).
        #expect(isolated.stdout.first?.hasPrefix(#"{"plugins":["#) == true)
        #expect(Array(isolated.stdout.dropFirst()) == inProcess.stdout)
        #expect(isolated.stderr == inProcess.stderr)
    }
}
