// AppLifecycleDelegate — the example of Expo's "iOS AppDelegate Subscribers" guide, as a plugin:
// it follows the five state transitions and logs each one through the host.
import SubscriberKit

/// Logs the app's state transitions. Written Q2-style: subclass the base class, adopt the protocol of
/// each event you respond to.
final class AppLifecycleDelegate: AppDelegateSubscriberBase, InstantiableSubscriber,
                                  DidBecomeActiveSubscriber, WillResignActiveSubscriber,
                                  DidEnterBackgroundSubscriber, WillEnterForegroundSubscriber,
                                  WillTerminateSubscriber {
    func applicationDidBecomeActive(_ application: Application) {
        log("The app has become active.")
    }

    func applicationWillResignActive(_ application: Application) {
        log("The app is about to become inactive.")
    }

    func applicationDidEnterBackground(_ application: Application) {
        log("The app is now in the background.")
    }

    func applicationWillEnterForeground(_ application: Application) {
        log("The app is about to enter the foreground.")
    }

    func applicationWillTerminate(_ application: Application) {
        log("The app is about to terminate.")
    }
}

/// The plugin's one export line: the descriptor the host reads through `adh_plugin_entry`.
@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(
        id: "dev.appdelegatehost.app-lifecycle-delegate", name: "App Lifecycle Delegate", version: "1.0.0",
        vendor: "AppDelegateHost examples", subscribers: [AppLifecycleDelegate.self])
}
