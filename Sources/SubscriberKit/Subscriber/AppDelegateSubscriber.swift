import Foundation

/// A subscriber type that a plugin exports, or a host registers in-process, by name: it can be made
/// from a ``SubscriberContext`` alone.
@MainActor
public protocol InstantiableSubscriber: AppDelegateSubscriber {
    /// The name this subscriber is listed under (Expo's `appDelegateSubscribers`). Defaults to the
    /// type's name.
    static var subscriberName: String { get }

    /// Makes a subscriber. `context` gives logging, the app info and this subscriber's options.
    init(context: SubscriberContext)
}

extension InstantiableSubscriber {
    // `_typeName` is what `String(describing:)` prints for a type, without its dynamic casts: each
    // of those scans the protocol conformances of every loaded image, which made loading N plugins
    // quadratic in N.
    public static var subscriberName: String { _typeName(self, qualified: false) }
}

/// A type that responds to application lifecycle events: Expo's `ExpoAppDelegateSubscriber`, Q2's
/// `ApplicationLifecycleModule`, for plugins loaded by AppDelegateHost.
///
/// Every method has a default implementation that does not respond (`nil` answers, no-op
/// notifications, declined completions), so a subscriber implements only what it needs:
///
/// ```swift
/// final class SessionAnalytics: InstantiableSubscriber {
///     let context: SubscriberContext
///     init(context: SubscriberContext) { self.context = context }
///     func applicationDidBecomeActive(_ application: Application) {
///         context.logEvent("session_started")
///     }
/// }
/// ```
///
/// The host calls every method on its main thread, one at a time; hence `@MainActor`.
/// Completion handlers may be called from any thread.
@MainActor
public protocol AppDelegateSubscriber: AnyObject {
    // MARK: Launch

    /// application(_:willFinishLaunchingWithOptions:). Reconciled: any true; nobody answers: true.
    func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool?
    /// application(_:didFinishLaunchingWithOptions:). Reconciled: any true; nobody answers: true.
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool?

    // MARK: State transitions

    /// applicationDidBecomeActive(_:).
    func applicationDidBecomeActive(_ application: Application)
    /// applicationWillResignActive(_:).
    func applicationWillResignActive(_ application: Application)
    /// applicationDidEnterBackground(_:).
    func applicationDidEnterBackground(_ application: Application)
    /// applicationWillEnterForeground(_:).
    func applicationWillEnterForeground(_ application: Application)
    /// applicationWillTerminate(_:).
    func applicationWillTerminate(_ application: Application)

    // MARK: System

    /// applicationDidReceiveMemoryWarning(_:).
    func applicationDidReceiveMemoryWarning(_ application: Application)
    /// applicationSignificantTimeChange(_:).
    func applicationSignificantTimeChange(_ application: Application)
    /// applicationProtectedDataWillBecomeUnavailable(_:).
    func applicationProtectedDataWillBecomeUnavailable(_ application: Application)
    /// applicationProtectedDataDidBecomeAvailable(_:).
    func applicationProtectedDataDidBecomeAvailable(_ application: Application)

    // MARK: Remote notifications and background work

    /// application(_:didRegisterForRemoteNotificationsWithDeviceToken:).
    func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
    /// application(_:didFailToRegisterForRemoteNotificationsWithError:).
    func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError)
    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:).
    /// Reconciled: failed > newData > noData; nobody answers: noData.
    func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                     fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>)
    /// application(_:performFetchWithCompletionHandler:). Reconciled: failed > newData > noData.
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>)
    /// application(_:handleEventsForBackgroundURLSession:completionHandler:). Done when every
    /// responder is done.
    func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: CompletionHandler<Void>)

    // MARK: URLs and user activities

    /// application(_:open:options:). Reconciled: any true; nobody answers: false.
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool?
    /// application(_:willContinueUserActivityWithType:). Reconciled: any true; nobody answers: false.
    func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool?
    /// application(_:continue:restorationHandler:). Reconciled: any true; nobody answers: false.
    /// When you return true, call `restorationHandler` once with the identifiers of the objects to
    /// restore (`[]` for none); otherwise never call it.
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool?
    /// application(_:didUpdate:).
    func application(_ application: Application, didUpdate userActivity: UserActivity)
    /// application(_:didFailToContinueUserActivityWithType:error:).
    func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String,
                     error: LifecycleError)
    /// application(_:performActionFor:completionHandler:). Reconciled: any true; nobody answers: false.
    func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                     completionHandler: CompletionHandler<Bool>)

    // MARK: Interface, extensions, state restoration, scenes

    /// application(_:supportedInterfaceOrientationsFor:). Reconciled: intersection; nobody answers:
    /// the manifest's default for the idiom.
    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask?
    /// application(_:shouldAllowExtensionPointIdentifier:). One false vetoes; nobody answers: true.
    func application(_ application: Application,
                     shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool?
    /// application(_:shouldSaveSecureApplicationState:). One false vetoes; nobody answers: false.
    func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool?
    /// application(_:shouldRestoreSecureApplicationState:). One false vetoes; nobody answers: false.
    func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool?
    /// application(_:configurationForConnecting:options:): the name of a scene configuration.
    /// Reconciled: the first answer; nobody answers: "Default Configuration".
    func application(_ application: Application, configurationForConnecting sceneRole: String) -> String?
    /// application(_:didDiscardSceneSessions:).
    func application(_ application: Application, didDiscardSceneSessions count: Int)
    /// application(_:handleWatchKitExtensionRequest:reply:). Replies are merged; a key answered twice
    /// keeps the first. Nobody answers: {}.
    func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                     reply: CompletionHandler<JSONObject>)
}

// Defaults: do not respond. A `nil` answer is "no opinion"; a declined completion is not waited for.
extension AppDelegateSubscriber {
    public func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? { nil }
    public func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? { nil }
    public func applicationDidBecomeActive(_ application: Application) {}
    public func applicationWillResignActive(_ application: Application) {}
    public func applicationDidEnterBackground(_ application: Application) {}
    public func applicationWillEnterForeground(_ application: Application) {}
    public func applicationWillTerminate(_ application: Application) {}
    public func applicationDidReceiveMemoryWarning(_ application: Application) {}
    public func applicationSignificantTimeChange(_ application: Application) {}
    public func applicationProtectedDataWillBecomeUnavailable(_ application: Application) {}
    public func applicationProtectedDataDidBecomeAvailable(_ application: Application) {}
    public func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {}
    public func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError) {}
    public func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                            fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        completionHandler.decline()
    }
    public func application(_ application: Application,
                            performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        completionHandler.decline()
    }
    public func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                            completionHandler: CompletionHandler<Void>) {
        completionHandler.decline()
    }
    public func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { nil }
    public func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool? { nil }
    public func application(_ application: Application, continue userActivity: UserActivity,
                            restorationHandler: CompletionHandler<[String]>) -> Bool? { nil }
    public func application(_ application: Application, didUpdate userActivity: UserActivity) {}
    public func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String,
                            error: LifecycleError) {}
    public func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                            completionHandler: CompletionHandler<Bool>) {
        completionHandler.decline()
    }
    public func application(_ application: Application,
                            supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? { nil }
    public func application(_ application: Application,
                            shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool? { nil }
    public func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool? { nil }
    public func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool? { nil }
    public func application(_ application: Application, configurationForConnecting sceneRole: String) -> String? { nil }
    public func application(_ application: Application, didDiscardSceneSessions count: Int) {}
    public func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                            reply: CompletionHandler<JSONObject>) {
        reply.decline()
    }
}
