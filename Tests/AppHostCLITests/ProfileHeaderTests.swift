import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

@Suite("apphost's header names a peer profile")
struct ProfileHeaderTests {
    @Test("a profile other than uikit is a line of the header, before the order; uikit adds nothing")
    func profileLine() {
        let renderer = HumanRenderer(style: .plain, subscriberNames: ["A"])
        let app = Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0")
        let expo = HostSummary(manifestFile: "m.json", app: app, plugins: [], dispatchOrder: ["A"], profile: .expo)
        #expect(renderer.header(expo) == """
            News 1.0 (com.example.news) · m.json
              (no plugins)
              profile: expo (docs/profiles.md)
              order: A


            """)
        let plain = HostSummary(manifestFile: "m.json", app: app, plugins: [], dispatchOrder: ["A"])
        #expect(!renderer.header(plain).contains("profile"))
    }
}

@Suite("apphost: a run under a profile, and a notification response kept", .serialized)
struct ProfileRunTests {
    @Test("the header names the profile; a response nobody handled says it was kept, in text and in JSON")
    func keptResponse() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let manifest = try folder.write("m.json", #"{"app": {"name": "News", "bundleIdentifier": "com.example.news"}, "profile": "expo"}"#)
        let script = try folder.write("s.jsonl", """
            {"event": "didFinishLaunching"}
            {"event": "notifications.didReceiveResponse", "notification": {"identifier": "breaking-42"}}

            """)
        let text = try AppHostProcess.run(["--manifest", manifest, "--events", script])
        #expect(text.status == 0)
        #expect(text.stdout.contains("profile: expo (docs/profiles.md)"))
        #expect(text.stdout.contains("kept: no subscriber handled it; offered to subscribers added later"))
        let json = try AppHostProcess.run(["--manifest", manifest, "--events", script, "--json"])
        let lines = json.stdoutLines
        #expect(lines.count == 2)
        #expect(lines.last?.contains(#""kept":true"#) == true)
        #expect(lines.first?.contains("kept") == false)
    }
}

@Suite("apphost shows what URL hooks decided")
struct URLHookOutputTests {
    @Test("one line per decision under the event, and a urlHook array in JSON")
    func lines() throws {
        let renderer = HumanRenderer(style: .plain, subscriberNames: ["A"])
        var outcome = AnyEventOutcome(event: .openURL, result: false, answers: [], reports: [], invocation: nil,
                                      applicationState: .active, logs: [])
        outcome.urlHook = ["LinkRewriter dropped news://spam"]
        let call = EventCall.openURL(url: URL(string: "news://spam")!).erased
        #expect(renderer.event(outcome, call: call).contains("url hook: LinkRewriter dropped news://spam"))
        let json = try JSONLines.event(outcome).parsedJSON()
        #expect(json["urlHook"] == .array([.string("LinkRewriter dropped news://spam")]))
    }
}
