import Foundation

/// A base class for subscribers, Q2's `Q2ModuleBase` style: subclass it and override only the
/// events you need. It keeps the context and forwards `log`, `logEvent` and `logError` to it.
///
/// ```swift
/// final class AppLifecycleDelegate: AppDelegateSubscriberBase {
///     override func applicationDidBecomeActive(_ application: Application) {
///         log("The app has become active.")
///     }
/// }
/// ```
@MainActor
open class AppDelegateSubscriberBase: InstantiableSubscriber {
    /// Logging, app info and this subscriber's manifest options.
    public let context: SubscriberContext

    /// Keeps `context`. Override to read options; call `super.init(context:)`.
    public required init(context: SubscriberContext) {
        self.context = context
    }

    /// The subscriber's name: the class name, unless overridden.
    open class var subscriberName: String { _typeName(self, qualified: false) }

    /// Writes one log line through the host.
    public func log(_ message: String, level: LogLevel = .info) { context.log(message, level: level) }
    /// Records an analytics event through the host.
    public func logEvent(_ name: String, attributes: JSONObject = [:]) { context.logEvent(name, attributes: attributes) }
    /// Records an error through the host.
    public func logError(_ message: String, attributes: JSONObject = [:]) { context.logError(message, attributes: attributes) }


    open func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? { nil }
    open func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? { nil }
    open func applicationDidBecomeActive(_ application: Application) {}
    open func applicationWillResignActive(_ application: Application) {}
    open func applicationDidEnterBackground(_ application: Application) {}
    open func applicationWillEnterForeground(_ application: Application) {}
    open func applicationWillTerminate(_ application: Application) {}
    open func applicationDidReceiveMemoryWarning(_ application: Application) {}
    open func applicationSignificantTimeChange(_ application: Application) {}
    open func applicationProtectedDataWillBecomeUnavailable(_ application: Application) {}
    open func applicationProtectedDataDidBecomeAvailable(_ application: Application) {}
    open func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {}
    open func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError) {}
    open func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                          fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        completionHandler.decline()
    }
    open func application(_ application: Application,
                          performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        completionHandler.decline()
    }
    open func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                          completionHandler: CompletionHandler<Void>) {
        completionHandler.decline()
    }
    open func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { nil }
    open func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool? { nil }
    open func application(_ application: Application, continue userActivity: UserActivity,
                          restorationHandler: CompletionHandler<[String]>) -> Bool? { nil }
    open func application(_ application: Application, didUpdate userActivity: UserActivity) {}
    open func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String,
                          error: LifecycleError) {}
    open func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                          completionHandler: CompletionHandler<Bool>) {
        completionHandler.decline()
    }
    open func application(_ application: Application,
                          supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? { nil }
    open func application(_ application: Application,
                          shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool? { nil }
    open func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool? { nil }
    open func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool? { nil }
    open func application(_ application: Application, configurationForConnecting sceneRole: String) -> String? { nil }
    open func application(_ application: Application, didDiscardSceneSessions count: Int) {}
    open func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                          reply: CompletionHandler<JSONObject>) {
        reply.decline()
    }
}
