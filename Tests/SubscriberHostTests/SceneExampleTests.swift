import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The scene examples of the docs (Plugins/SceneGreeter, Swift; Plugins/SceneGreeterC, C), loaded
/// from manifests/scene-greeters.json: they do what the docs say.
@MainActor
@Suite("Scene examples: the docs' scene plugins work")
struct SceneExampleTests {
    @Test func theSceneGreetersGreetAndOpenTheirURLs() throws {
        let host = try PluginHost(manifestAt: ReadmeExampleTests.root + "/manifests/scene-greeters.json",
                                  options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
        defer { host.shutDown() }
        _ = host.takeLogs()
        var logs: [LogRecord] = []
        logs += host.dispatchAtOnce(.didFinishLaunching()).logs
        logs += host.dispatchAtOnce(.sceneWillConnect(scene: "main")).logs
        logs += host.dispatchAtOnce(.sceneWillEnterForeground(scene: "main")).logs
        let active = host.dispatchAtOnce(.sceneDidBecomeActive(scene: "main"))
        logs += active.logs
        #expect(active.reports.isEmpty)
        #expect(logs.map { "\($0.subscriber): \($0.message)" } == [
            "SceneGreeter: Scene main connects as UIWindowSceneSessionRoleApplication.",
            "SceneGreeter: Hello from scene main of Greeters!", "SceneGreeterC: Hello from C in scene main!",
        ])
        let greeter = host.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [OpenURLContext(url: URL(string: "greeter://hi")!)]))
        #expect(greeter.result == true)
        #expect(greeter.answers(as: Bool.self) == [true, true])
        let other = host.dispatchAtOnce(.sceneOpenURLContexts(scene: "main", urlContexts: [OpenURLContext(url: URL(string: "news://a")!)]))
        #expect(other.result == false && other.answers(as: Bool.self) == [nil, nil])
        #expect(host.dispatcher.responderNames(for: .sceneDidBecomeActive) == ["SceneGreeter", "SceneGreeterC"])
        #expect(host.dispatcher.responderNames(for: .sceneWillConnect) == ["SceneGreeter"])
    }
}
