import Foundation
import SubscriberKit

/// Welcomes the user when the app becomes active, and opens `acme-welcome://` links.
/// Options: {"greeting": "Welcome back"}.
final class AcmeWelcome: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber,
                         OpenURLSubscriber {
    private let greeting: String

    required init(context: SubscriberContext) {
        greeting = context.options["greeting"]?.stringValue ?? "Welcome"
        super.init(context: context)
    }

    func applicationDidBecomeActive(_ application: Application) {
        log("\(greeting) to \(application.name)!")
    }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        guard url.scheme == "acme-welcome" else { return nil }  // not ours: no opinion
        logEvent("welcome_link_opened", attributes: ["url": .string(url.absoluteString)])
        return true
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(id: "com.acme.welcome", name: "Acme Welcome", version: "1.0.0", vendor: "Acme",
                            subscribers: [AcmeWelcome.self])
}
