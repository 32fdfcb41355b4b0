import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// A scene-based app through `apphost`: the shipped demo (manifests/scenes.json with
/// manifests/events/scenes.jsonl) plays legally, each scene event's block and JSON line name its
/// scene, and what the scene bridge replayed is shown under the scene event that caused it.
@Suite("CLI: scenes", .serialized)
struct CLISceneTests {
    static let manifest = AppHostProcess.manifest("scenes.json")
    static let script = AppHostProcess.manifest("events/scenes.jsonl")

    @Test("the scene demo, for people: exit 0, no report, each scene event names its scene, the bridge's replays shown")
    func demoHuman() throws {
        let run = try AppHostProcess.run(["--manifest", Self.manifest, "--events", Self.script])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdoutLines.last?.hasSuffix("events played, no reports") == true)
        // The cold launch from the first scene's URL.
        #expect(run.stdout.contains("▸ scene.willConnect main news://article/42   invocation: urlScheme(news://article/42)"))
        #expect(run.stdout.contains("    log   DeepLinkRouter: routing to article/42 in scene main"))
        // One URL opened in each scene, each block naming its scene.
        #expect(run.stdout.contains("▸ scene.openURLContexts main news://article/7  → true"))
        #expect(run.stdout.contains("▸ scene.openURLContexts reader https://news.example.com/article/9  → true"))
        #expect(run.stdout.contains("    log   DeepLinkRouter: routing to article/9 in scene reader"))
        // The app-delegate-only plugins hear the app's transitions through the bridge, under the scene event.
        let active = try #require(block(startingWith: "▸ scene.didBecomeActive main", in: run.stdout))
        #expect(active.contains("    ↳ bridged didBecomeActive"))
        #expect(active.contains { $0.hasPrefix("        AppLifecycleDelegate  called") })
        #expect(active.contains { $0.hasPrefix("        SessionAnalytics      called") })
        #expect(active.contains("    log   AppLifecycleDelegate: The app has become active."))
        // The second scene's activation does not make the app active again.
        let second = try #require(block(startingWith: "▸ scene.didBecomeActive reader", in: run.stdout))
        #expect(!second.contains { $0.contains("bridged") })
        let background = try #require(block(startingWith: "▸ scene.didEnterBackground main", in: run.stdout))
        #expect(background.contains("    ↳ bridged didEnterBackground"))
    }

    @Test("the scene demo with --json: scene events carry \"scene\", app events none; replays under \"bridged\"")
    func demoJSON() throws {
        let run = try AppHostProcess.run(["--manifest", Self.manifest, "--events", Self.script, "--json"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let objects = try run.stdoutLines.map { try $0.parsedJSON() }
        for object in objects {
            let event = object["event"]?.stringValue ?? ""
            #expect((object["scene"] != nil) == event.hasPrefix("scene."), "\(object)")
            #expect(object["reports"] == [])
        }
        let opened = objects.filter { $0["event"] == "scene.openURLContexts" }
        #expect(opened.map { $0["scene"] } == ["main", "reader"])
        #expect(opened.map { $0["result"] } == [true, true])
        let connect = try #require(objects.first { $0["event"] == "scene.willConnect" })
        #expect(connect["invocation"] == ["kind": "urlScheme", "url": "news://article/42"])
        let bridged = objects.filter { $0["bridged"] != nil }
        #expect(bridged.map { "\($0["event"]?.stringValue ?? "") \($0["scene"]?.stringValue ?? "")" }
                    == ["scene.didBecomeActive main", "scene.willResignActive main", "scene.didEnterBackground main"])
        let replay = try #require(bridged.first?["bridged"]?.arrayValue?.first)
        #expect(replay["event"] == "didBecomeActive")
        #expect(replay["answers"]?.arrayValue?.compactMap { $0["subscriber"]?.stringValue } == ["AppLifecycleDelegate", "SessionAnalytics"])
    }

    @Test("URLs no scene subscriber handled are replayed as openURL to an app-delegate plugin, one per URL; handled ones are not")
    func bridgedURL() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "Greeters", "bundleIdentifier": "com.example.greeters"}, "sceneBridge": true,
             "plugins": [{"library": "Greeter"}, {"library": "DeepLinkRouter"}]}
            """)
        let script = [
            #"{"event": "didFinishLaunching"}"#,
            #"{"event": "scene.willConnect", "scene": "main"}"#,
            #"{"event": "scene.willEnterForeground", "scene": "main"}"#,
            #"{"event": "scene.didBecomeActive", "scene": "main"}"#,
            #"{"event": "scene.openURLContexts", "scene": "main", "urlContexts": [{"url": "greeter://hello"}, {"url": "https://elsewhere.example.org/"}]}"#,
            #"{"event": "scene.openURLContexts", "scene": "main", "urlContexts": [{"url": "news://article/3"}]}"#,
        ].joined(separator: "\n") + "\n"
        let human = try AppHostProcess.run(["--manifest", manifest, "--events", "-", "--allow-writable"], stdin: script)
        #expect(human.status == 0, "stderr: \(human.stderr)")
        // DeepLinkRouter (a scene subscriber) owns neither URL: each goes to Greeter as openURL, once.
        let replayed = try #require(block(startingWith: "▸ scene.openURLContexts main greeter://hello https://elsewhere.example.org/  → true",
                                          in: human.stdout), "\(human.stdout)")
        #expect(replayed.contains { $0.hasPrefix("    DeepLinkRouter") && $0.contains(" false ") })
        #expect(replayed.contains("    ↳ bridged openURL greeter://hello  → true"))
        #expect(replayed.contains("    ↳ bridged openURL https://elsewhere.example.org/  → false"))
        #expect(replayed.filter { $0.hasPrefix("        Greeter") }.count == 2)
        // The router handled news://…: nothing is replayed.
        let handled = try #require(block(startingWith: "▸ scene.openURLContexts main news://article/3  → true", in: human.stdout))
        #expect(!handled.contains { $0.contains("bridged") || $0.hasPrefix("        Greeter") })

        let json = try AppHostProcess.run(["--manifest", manifest, "--events", "-", "--allow-writable", "--json"], stdin: script)
        let lines = try json.stdoutLines.suffix(2).map { try $0.parsedJSON() }
        #expect(lines.map { $0["scene"] } == ["main", "main"] && lines.map { $0["result"] } == [true, true])
        #expect(lines[0]["bridged"]?.arrayValue?.map { $0["event"] } == ["openURL", "openURL"])
        #expect(lines[0]["bridged"]?.arrayValue?.map { $0["result"] } == [true, false])
        #expect(lines[1]["bridged"] == nil)
    }

    @Test("a scene event for an unknown scene: its line names the scene and the stateViolation, the run exits 1")
    func violation() throws {
        let script = #"{"event": "didFinishLaunching"}"# + "\n" + #"{"event": "scene.didBecomeActive", "scene": "ghost"}"# + "\n"
        let run = try AppHostProcess.run(["--manifest", Self.manifest, "--events", "-", "--json"], stdin: script)
        #expect(run.status == 1)
        let line = try #require(run.stdoutLines.last).parsedJSON()
        #expect(line["scene"] == "ghost")
        let report = try #require(line["reports"]?.arrayValue?.first)
        #expect(report["kind"] == "stateViolation" && report["scene"] == "ghost" && report["sceneState"] == .null)
        #expect(report["message"]?.stringValue?.contains("scene \"ghost\", which is not connected") == true)
        let human = try AppHostProcess.run(["--manifest", Self.manifest, "--events", "-"], stdin: script)
        #expect(human.stdout.contains("⚠ state violation: scene.didBecomeActive for scene \"ghost\", which is not connected"))
    }

    /// The lines of the block whose heading starts with `heading`, up to the blank line.
    func block(startingWith heading: String, in output: String) -> [String]? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else { return nil }
        return Array(lines[start...].prefix { !$0.isEmpty })
    }
}
