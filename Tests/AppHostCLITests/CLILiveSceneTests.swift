import Foundation
import Glibc
import Testing
import SubscriberKit
import SubscriberEventModel

/// A scene-based manifest (`"sceneBased": true`) under the live host: scene "main" connects at launch
/// with the launch's options, the signals move the scene, and `apphost open` sends the running
/// instance the scene's `openURLContexts`. Waits are on the fake NOTIFY_SOCKET, a reply, or the exit.
@Suite("apphost run and open with a scene-based manifest")
struct CLILiveSceneTests {
    static func manifest(in directory: TemporaryDirectory) throws -> String {
        _ = AppHostProcess.plugin("SceneGreeter")
        _ = AppHostProcess.plugin("SceneGreeterC")
        return try directory.write("greeters.json", """
            {"app": {"name": "Greeters", "bundleIdentifier": "com.example.greeters", "version": "1.0"}, "sceneBased": true,
             "plugins": [{"library": "SceneGreeter"}, {"library": "SceneGreeterC"}]}
            """)
    }

    static func events(_ stdout: String) throws -> [JSONValue] {
        try stdout.split(separator: "\n").map { try String($0).parsedJSON() }.filter { $0["event"] != nil }
    }

    @Test("open twice: a cold launch connects scene main with the URL (invocation urlScheme); the second open is the scene's openURLContexts")
    func openTwice() throws {
        let directory = try TemporaryDirectory()
        let manifest = try Self.manifest(in: directory)
        let host = try LiveHostChild(["open", "--manifest", manifest, "--plugin-dir", AppHostProcess.buildDirectory, "--json",
                                      "greeter://cold"], directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        let second = try AppHostProcess.run(["open", "--manifest", manifest, "greeter://warm"], environment: host.environment)
        #expect(second.status == 0, "\(second.stderr)")
        let reply = try #require(try second.stdoutLines.first?.parsedJSON())
        #expect(reply["event"] == "scene.openURLContexts" && reply["scene"] == "main" && reply["result"] == true)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        let events = try Self.events(host.stdout)
        #expect(events.compactMap { $0["event"] } == [
            "willFinishLaunching", "didFinishLaunching", "scene.willConnect", "scene.willEnterForeground", "scene.didBecomeActive",
            "scene.openURLContexts", "scene.willResignActive", "scene.didEnterBackground", "willTerminate",
        ])
        let connect = try #require(events.first { $0["event"] == "scene.willConnect" })
        #expect(connect["scene"] == "main")
        #expect(connect["invocation"]?["kind"] == "urlScheme" && connect["invocation"]?["url"] == "greeter://cold")
        // The launch options are empty: in a scene-based app the URL comes in the connection options.
        #expect(events.first?["invocation"]?["kind"] == "appIconClick")
        #expect(host.stderr.contains("[SceneGreeter] info: Opening greeter://warm in scene main."))
    }

    @Test("run --shortcut: the quick action is in the connection options; SIGTSTP and SIGCONT move the scene")
    func runShortcutAndSignals() throws {
        let directory = try TemporaryDirectory()
        let manifest = try Self.manifest(in: directory)
        let host = try LiveHostChild(["run", "--manifest", manifest, "--plugin-dir", AppHostProcess.buildDirectory, "--json",
                                      "--shortcut", "compose"], directory: directory)
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        host.signal(SIGTSTP)
        #expect(host.waitForState("T"), "the host did not stop")
        host.signal(SIGCONT)
        #expect(host.notify.messages(until: "STATUS=Greeters is active (SIGCONT)") != nil)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
        let events = try Self.events(host.stdout)
        #expect(events.compactMap { $0["event"] } == [
            "willFinishLaunching", "didFinishLaunching", "scene.willConnect", "scene.willEnterForeground", "scene.didBecomeActive",
            "scene.willResignActive", "scene.didEnterBackground", "scene.willEnterForeground", "scene.didBecomeActive",
            "scene.willResignActive", "scene.didEnterBackground", "willTerminate",
        ])
        #expect(events.first { $0["event"] == "scene.willConnect" }?["invocation"]?["kind"] == "shortcut")
    }
}
