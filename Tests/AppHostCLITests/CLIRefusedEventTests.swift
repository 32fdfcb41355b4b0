import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

/// An event the host refused reads as refused, with why: never as if it had been delivered.
@Suite("apphost: a refused event says refused, and why")
struct CLIRefusedEventTests {
    let renderer = HumanRenderer(style: .plain, subscriberNames: ["X"])

    static func refused() -> AnyEventOutcome {
        let report = DispatchReport.stateViolation(event: .openURL, state: .notRunning,
                                                   expected: "the app launched first (willFinishLaunching or didFinishLaunching)")
        var outcome = AnyEventOutcome(event: .openURL, result: false, answers: [], reports: [report], applicationState: .notRunning)
        outcome.refusal = report
        return outcome
    }

    @Test("human output: no result, 'refused: <why>' instead of '(no subscriber answered)'")
    func human() {
        let text = renderer.event(Self.refused(), call: EventCall.openURL(url: URL(string: "news://x")!).erased)
        #expect(text == """
            ▸ openURL news://x
                refused: the app is notRunning; expected the app launched first (willFinishLaunching or didFinishLaunching)
                ⚠ state violation: openURL while the app is notRunning; expected the app launched first (willFinishLaunching or didFinishLaunching); not delivered


            """)
    }

    @Test("JSON: \"result\": null and \"refused\": why")
    func json() throws {
        let object = try JSONLines.event(Self.refused()).parsedJSON()
        #expect(object["result"] == .null)
        #expect(object["refused"] == "the app is notRunning; expected the app launched first (willFinishLaunching or didFinishLaunching)")
        #expect(object["reports"]?.arrayValue?.count == 1)
    }

    @Test("a script that does not launch first: its events are refused, in both outputs, exit 1")
    func scriptWithoutLaunch() throws {
        let script = #"{"event": "openURL", "url": "news://article/7"}"# + "\n"
        let manifest = AppHostProcess.manifest("news.json")
        let human = try AppHostProcess.run(["--manifest", manifest, "--events", "-", "--plugin-dir", AppHostProcess.buildDirectory],
                                           stdin: script)
        #expect(human.status == 1)
        #expect(human.stdout.contains("▸ openURL news://article/7\n    refused: the app is notRunning; expected the app launched first"))
        #expect(!human.stdout.contains("(no subscriber answered)"))
        let json = try AppHostProcess.run(["--manifest", manifest, "--events", "-", "--json", "--plugin-dir", AppHostProcess.buildDirectory],
                                          stdin: script)
        let object = try #require(json.stdoutLines.first).parsedJSON()
        #expect(object["event"] == "openURL" && object["result"] == .null)
        #expect(object["refused"]?.stringValue?.hasPrefix("the app is notRunning") == true)
    }
}
