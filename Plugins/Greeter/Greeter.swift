import Foundation
import SubscriberKit

final class Greeter: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber,
                     OpenURLSubscriber {
    func applicationDidBecomeActive(_ application: Application) {
        log("Hello from \(application.name)!")
    }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        url.scheme == "greeter" ? true : nil
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(id: "com.example.greeter", name: "Greeter", version: "1.0.0",
                            subscribers: [Greeter.self])
}
