import Foundation
import SubscriberKit

final class SceneGreeter: AppDelegateSubscriberBase, InstantiableSubscriber, SceneWillConnectSubscriber,
                          SceneDidBecomeActiveSubscriber, SceneOpenURLContextsSubscriber {
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions) {
        log("Scene \(scene.identifier) connects as \(session.role).")
    }

    func sceneDidBecomeActive(_ scene: Scene) {
        log("Hello from scene \(scene.identifier) of \(scene.application.name)!")
    }

    func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool? {
        let mine = urlContexts.filter { $0.url.scheme == "greeter" }
        for context in mine { log("Opening \(context.url.absoluteString) in scene \(scene.identifier).") }
        return mine.isEmpty ? nil : true
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(id: "com.example.scene-greeter", name: "Scene Greeter", version: "1.0.0",
                            subscribers: [SceneGreeter.self])
}
