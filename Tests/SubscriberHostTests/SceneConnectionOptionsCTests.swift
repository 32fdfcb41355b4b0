import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Who gets `scene.willConnect`'s connection options, with C scene subscribers (Plugins/Broken/ConnectionEcho):
/// under `flutter` the first scene subscriber only, the later one empty options through its own C
/// payload; every one under `uikit`.
@MainActor
@Suite("Peer rule through C: a scene's connection options to the first C scene subscriber only (flutter), to both under uikit")
struct SceneConnectionOptionsCTests {
    @Test("ConnectFirst and ConnectSecond log what their will_connect was handed", arguments: ["flutter", "uikit"])
    func connectionOptions(_ profile: String) throws {
        let json = """
            {"app": {"name": "Echo", "bundleIdentifier": "com.example.echo", "version": "1"}, "profile": "\(profile)",
             "plugins": [{"library": "ConnectionEcho"}]}
            """
        let manifest = try Manifest(bytes: Array(json.utf8), file: "echo.json", directory: FilePaths.absolute("."))
        let host = try PluginHost(manifest: manifest, options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
        defer { host.shutDown() }
        host.dispatchAtOnce(.didFinishLaunching())
        let options = SceneConnectionOptions(urlContexts: [OpenURLContext(url: URL(string: "news://cold")!)],
                                             userActivity: UserActivity(activityType: "com.example.read"))
        let main = host.dispatchAtOnce(.sceneWillConnect(scene: "main", options: options))
        let second = host.dispatchAtOnce(.sceneWillConnect(scene: "second"))
        let full = "main: news://cold, com.example.read, 1"
        let later = profile == "flutter" ? "main: -, -, 0" : full
        #expect(main.logs.map { "\($0.subscriber): \($0.message)" } == ["ConnectFirst: \(full)", "ConnectSecond: \(later)"])
        #expect(second.logs.map { "\($0.subscriber): \($0.message)" } == ["ConnectFirst: second: -, -, 0", "ConnectSecond: second: -, -, 0"])
    }
}
