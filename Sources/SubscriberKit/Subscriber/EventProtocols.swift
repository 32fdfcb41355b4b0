import Foundation
import SubscriberEventModel
import SubscriberValues

/// A type whose instances respond to application lifecycle events: Expo's `ExpoAppDelegateSubscriber`,
/// Q2's `ApplicationLifecycleModule`, for subscribers loaded by AppDelegateHost or registered in-process.
///
/// A subscriber responds to exactly the events whose protocols it adopts, one small protocol per
/// event, each with one required method (``OpenURLSubscriber``, ``DidBecomeActiveSubscriber``, …):
///
/// ```swift
/// final class SessionAnalytics: InstantiableSubscriber, DidBecomeActiveSubscriber {
///     let context: SubscriberContext
///     init(context: SubscriberContext) { self.context = context }
///     func applicationDidBecomeActive(_ application: Application) {
///         context.logEvent("session_started")
///     }
/// }
/// ```
///
/// Adopting the protocol is what makes a method a handler: a method with a wrong signature does not
/// compile, and a plugin's vtable gets an entry for exactly these events (a host skips the others,
/// and `apphost check` lists only these). Adopt the event protocols on the class that declares
/// `AppDelegateSubscriber` (or ``InstantiableSubscriber``): the compiler records the events there,
/// so a subclass of such a class cannot add events of its own.
///
/// The host calls every method on its main thread, one at a time; hence `@MainActor`.
/// Completion handlers may be called from any thread.
@MainActor
public protocol AppDelegateSubscriber: AnyObject, _EventWitnesses, _NotificationCenterEventWitnesses, _SceneEventWitnesses {}

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
    public static var subscriberName: String { SubscriberTypeName.of(self) }
}

extension AppDelegateSubscriber {
    /// This subscriber's handler of each event it responds to, by event index (nil: does not respond):
    /// every family's, in table order.
    ///
    /// Why witnesses rather than `as?`: a dynamic cast to a protocol scans the conformance records
    /// of every loaded image (tens of microseconds each, and growing with every plugin loaded), and
    /// a subscriber type would need one per event. The compiler instead picks, for each requirement of
    /// a family's witness protocol (``_EventWitnesses``, ``_NotificationCenterEventWitnesses``,
    /// ``_SceneEventWitnesses``), the
    /// implementation constrained to the event protocol when the type adopts it — once, when it
    /// compiles the conformance.
    package func eventHandlers() -> [AnyEventHandler?] { eventWitnesses().map { $0?.handler } }

    /// This subscriber's witness of each event it responds to, by event index (nil: does not respond).
    package func eventWitnesses() -> [_EventWitness?] {
        Self._applicationWitnesses + Self._notificationCenterWitnesses + Self._sceneWitnesses
    }
}

extension _EventWitnesses {
    /// The app delegate family's witnesses, in table order.
    static var _applicationWitnesses: [_EventWitness?] {
        [
            _willFinishLaunching,
            _didFinishLaunching,
            _didBecomeActive,
            _willResignActive,
            _didEnterBackground,
            _willEnterForeground,
            _willTerminate,
            _didReceiveMemoryWarning,
            _significantTimeChange,
            _protectedDataWillBecomeUnavailable,
            _protectedDataDidBecomeAvailable,
            _didRegisterForRemoteNotifications,
            _didFailToRegisterForRemoteNotifications,
            _didReceiveRemoteNotification,
            _performFetch,
            _handleEventsForBackgroundURLSession,
            _openURL,
            _willContinueUserActivity,
            _continueUserActivity,
            _didUpdateUserActivity,
            _didFailToContinueUserActivity,
            _performActionForShortcutItem,
            _supportedInterfaceOrientations,
            _shouldAllowExtensionPointIdentifier,
            _shouldSaveSecureApplicationState,
            _shouldRestoreSecureApplicationState,
            _configurationForConnecting,
            _didDiscardSceneSessions,
            _handleWatchKitExtensionRequest,
        ]
    }
}

/// How a subscriber type's adopted app-delegate event protocols reach the SDK: one requirement per
/// event, which the SDK implements twice — nil, and a handler where the type adopts the event's
/// protocol. Never implement these yourself.
@MainActor
public protocol _EventWitnesses {
    static var _willFinishLaunching: _EventWitness? { get }
    static var _didFinishLaunching: _EventWitness? { get }
    static var _didBecomeActive: _EventWitness? { get }
    static var _willResignActive: _EventWitness? { get }
    static var _didEnterBackground: _EventWitness? { get }
    static var _willEnterForeground: _EventWitness? { get }
    static var _willTerminate: _EventWitness? { get }
    static var _didReceiveMemoryWarning: _EventWitness? { get }
    static var _significantTimeChange: _EventWitness? { get }
    static var _protectedDataWillBecomeUnavailable: _EventWitness? { get }
    static var _protectedDataDidBecomeAvailable: _EventWitness? { get }
    static var _didRegisterForRemoteNotifications: _EventWitness? { get }
    static var _didFailToRegisterForRemoteNotifications: _EventWitness? { get }
    static var _didReceiveRemoteNotification: _EventWitness? { get }
    static var _performFetch: _EventWitness? { get }
    static var _handleEventsForBackgroundURLSession: _EventWitness? { get }
    static var _openURL: _EventWitness? { get }
    static var _willContinueUserActivity: _EventWitness? { get }
    static var _continueUserActivity: _EventWitness? { get }
    static var _didUpdateUserActivity: _EventWitness? { get }
    static var _didFailToContinueUserActivity: _EventWitness? { get }
    static var _performActionForShortcutItem: _EventWitness? { get }
    static var _supportedInterfaceOrientations: _EventWitness? { get }
    static var _shouldAllowExtensionPointIdentifier: _EventWitness? { get }
    static var _shouldSaveSecureApplicationState: _EventWitness? { get }
    static var _shouldRestoreSecureApplicationState: _EventWitness? { get }
    static var _configurationForConnecting: _EventWitness? { get }
    static var _didDiscardSceneSessions: _EventWitness? { get }
    static var _handleWatchKitExtensionRequest: _EventWitness? { get }
}

extension _EventWitnesses {
    public static var _willFinishLaunching: _EventWitness? { nil }
    public static var _didFinishLaunching: _EventWitness? { nil }
    public static var _didBecomeActive: _EventWitness? { nil }
    public static var _willResignActive: _EventWitness? { nil }
    public static var _didEnterBackground: _EventWitness? { nil }
    public static var _willEnterForeground: _EventWitness? { nil }
    public static var _willTerminate: _EventWitness? { nil }
    public static var _didReceiveMemoryWarning: _EventWitness? { nil }
    public static var _significantTimeChange: _EventWitness? { nil }
    public static var _protectedDataWillBecomeUnavailable: _EventWitness? { nil }
    public static var _protectedDataDidBecomeAvailable: _EventWitness? { nil }
    public static var _didRegisterForRemoteNotifications: _EventWitness? { nil }
    public static var _didFailToRegisterForRemoteNotifications: _EventWitness? { nil }
    public static var _didReceiveRemoteNotification: _EventWitness? { nil }
    public static var _performFetch: _EventWitness? { nil }
    public static var _handleEventsForBackgroundURLSession: _EventWitness? { nil }
    public static var _openURL: _EventWitness? { nil }
    public static var _willContinueUserActivity: _EventWitness? { nil }
    public static var _continueUserActivity: _EventWitness? { nil }
    public static var _didUpdateUserActivity: _EventWitness? { nil }
    public static var _didFailToContinueUserActivity: _EventWitness? { nil }
    public static var _performActionForShortcutItem: _EventWitness? { nil }
    public static var _supportedInterfaceOrientations: _EventWitness? { nil }
    public static var _shouldAllowExtensionPointIdentifier: _EventWitness? { nil }
    public static var _shouldSaveSecureApplicationState: _EventWitness? { nil }
    public static var _shouldRestoreSecureApplicationState: _EventWitness? { nil }
    public static var _configurationForConnecting: _EventWitness? { nil }
    public static var _didDiscardSceneSessions: _EventWitness? { nil }
    public static var _handleWatchKitExtensionRequest: _EventWitness? { nil }
}

/// application(_:willFinishLaunchingWithOptions:). Reconciled: any true; nobody answers: true. `application.launchInvocation` says how the app was launched.
@MainActor
public protocol WillFinishLaunchingSubscriber: AppDelegateSubscriber {
    /// application(_:willFinishLaunchingWithOptions:).
    func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool?
}

extension _EventWitnesses where Self: WillFinishLaunchingSubscriber {
    public static var _willFinishLaunching: _EventWitness? {
        _EventWitness(ApplicationEvents.willFinishLaunching, immediateHandler(LaunchArguments.self, OptionalBoolAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, willFinishLaunchingWithOptions: a) })
    }
}

/// application(_:didFinishLaunchingWithOptions:). Reconciled: any true (false only if every answer is false); nobody answers: true.
@MainActor
public protocol DidFinishLaunchingSubscriber: AppDelegateSubscriber {
    /// application(_:didFinishLaunchingWithOptions:).
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool?
}

extension _EventWitnesses where Self: DidFinishLaunchingSubscriber {
    public static var _didFinishLaunching: _EventWitness? {
        _EventWitness(ApplicationEvents.didFinishLaunching, immediateHandler(LaunchArguments.self, OptionalBoolAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, didFinishLaunchingWithOptions: a) })
    }
}

/// applicationDidBecomeActive(_:).
@MainActor
public protocol DidBecomeActiveSubscriber: AppDelegateSubscriber {
    /// applicationDidBecomeActive(_:).
    func applicationDidBecomeActive(_ application: Application)
}

extension _EventWitnesses where Self: DidBecomeActiveSubscriber {
    public static var _didBecomeActive: _EventWitness? {
        _EventWitness(ApplicationEvents.didBecomeActive, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationDidBecomeActive(app) })
    }
}

/// applicationWillResignActive(_:).
@MainActor
public protocol WillResignActiveSubscriber: AppDelegateSubscriber {
    /// applicationWillResignActive(_:).
    func applicationWillResignActive(_ application: Application)
}

extension _EventWitnesses where Self: WillResignActiveSubscriber {
    public static var _willResignActive: _EventWitness? {
        _EventWitness(ApplicationEvents.willResignActive, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationWillResignActive(app) })
    }
}

/// applicationDidEnterBackground(_:).
@MainActor
public protocol DidEnterBackgroundSubscriber: AppDelegateSubscriber {
    /// applicationDidEnterBackground(_:).
    func applicationDidEnterBackground(_ application: Application)
}

extension _EventWitnesses where Self: DidEnterBackgroundSubscriber {
    public static var _didEnterBackground: _EventWitness? {
        _EventWitness(ApplicationEvents.didEnterBackground, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationDidEnterBackground(app) })
    }
}

/// applicationWillEnterForeground(_:).
@MainActor
public protocol WillEnterForegroundSubscriber: AppDelegateSubscriber {
    /// applicationWillEnterForeground(_:).
    func applicationWillEnterForeground(_ application: Application)
}

extension _EventWitnesses where Self: WillEnterForegroundSubscriber {
    public static var _willEnterForeground: _EventWitness? {
        _EventWitness(ApplicationEvents.willEnterForeground, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationWillEnterForeground(app) })
    }
}

/// applicationWillTerminate(_:).
@MainActor
public protocol WillTerminateSubscriber: AppDelegateSubscriber {
    /// applicationWillTerminate(_:).
    func applicationWillTerminate(_ application: Application)
}

extension _EventWitnesses where Self: WillTerminateSubscriber {
    public static var _willTerminate: _EventWitness? {
        _EventWitness(ApplicationEvents.willTerminate, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationWillTerminate(app) })
    }
}

/// applicationDidReceiveMemoryWarning(_:).
@MainActor
public protocol DidReceiveMemoryWarningSubscriber: AppDelegateSubscriber {
    /// applicationDidReceiveMemoryWarning(_:).
    func applicationDidReceiveMemoryWarning(_ application: Application)
}

extension _EventWitnesses where Self: DidReceiveMemoryWarningSubscriber {
    public static var _didReceiveMemoryWarning: _EventWitness? {
        _EventWitness(ApplicationEvents.didReceiveMemoryWarning, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationDidReceiveMemoryWarning(app) })
    }
}

/// applicationSignificantTimeChange(_:).
@MainActor
public protocol SignificantTimeChangeSubscriber: AppDelegateSubscriber {
    /// applicationSignificantTimeChange(_:).
    func applicationSignificantTimeChange(_ application: Application)
}

extension _EventWitnesses where Self: SignificantTimeChangeSubscriber {
    public static var _significantTimeChange: _EventWitness? {
        _EventWitness(ApplicationEvents.significantTimeChange, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationSignificantTimeChange(app) })
    }
}

/// applicationProtectedDataWillBecomeUnavailable(_:).
@MainActor
public protocol ProtectedDataWillBecomeUnavailableSubscriber: AppDelegateSubscriber {
    /// applicationProtectedDataWillBecomeUnavailable(_:).
    func applicationProtectedDataWillBecomeUnavailable(_ application: Application)
}

extension _EventWitnesses where Self: ProtectedDataWillBecomeUnavailableSubscriber {
    public static var _protectedDataWillBecomeUnavailable: _EventWitness? {
        _EventWitness(ApplicationEvents.protectedDataWillBecomeUnavailable, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationProtectedDataWillBecomeUnavailable(app) })
    }
}

/// applicationProtectedDataDidBecomeAvailable(_:).
@MainActor
public protocol ProtectedDataDidBecomeAvailableSubscriber: AppDelegateSubscriber {
    /// applicationProtectedDataDidBecomeAvailable(_:).
    func applicationProtectedDataDidBecomeAvailable(_ application: Application)
}

extension _EventWitnesses where Self: ProtectedDataDidBecomeAvailableSubscriber {
    public static var _protectedDataDidBecomeAvailable: _EventWitness? {
        _EventWitness(ApplicationEvents.protectedDataDidBecomeAvailable, notificationHandler(NoArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationProtectedDataDidBecomeAvailable(app) })
    }
}

/// application(_:didRegisterForRemoteNotificationsWithDeviceToken:).
@MainActor
public protocol DidRegisterForRemoteNotificationsSubscriber: AppDelegateSubscriber {
    /// application(_:didRegisterForRemoteNotificationsWithDeviceToken:).
    func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)
}

extension _EventWitnesses where Self: DidRegisterForRemoteNotificationsSubscriber {
    public static var _didRegisterForRemoteNotifications: _EventWitness? {
        _EventWitness(ApplicationEvents.didRegisterForRemoteNotifications, notificationHandler(DeviceTokenArgument.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, didRegisterForRemoteNotificationsWithDeviceToken: a) })
    }
}

/// application(_:didFailToRegisterForRemoteNotificationsWithError:).
@MainActor
public protocol DidFailToRegisterForRemoteNotificationsSubscriber: AppDelegateSubscriber {
    /// application(_:didFailToRegisterForRemoteNotificationsWithError:).
    func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError)
}

extension _EventWitnesses where Self: DidFailToRegisterForRemoteNotificationsSubscriber {
    public static var _didFailToRegisterForRemoteNotifications: _EventWitness? {
        _EventWitness(ApplicationEvents.didFailToRegisterForRemoteNotifications, notificationHandler(ErrorArgument.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, didFailToRegisterForRemoteNotificationsWithError: a) })
    }
}

/// application(_:didReceiveRemoteNotification:fetchCompletionHandler:). Call the handler once. Reconciled: failed > newData > noData; a late answer counts as failed; nobody answers: noData.
@MainActor
public protocol DidReceiveRemoteNotificationSubscriber: AppDelegateSubscriber {
    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:).
    func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                     fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>)
}

extension _EventWitnesses where Self: DidReceiveRemoteNotificationSubscriber {
    public static var _didReceiveRemoteNotification: _EventWitness? {
        _EventWitness(ApplicationEvents.didReceiveRemoteNotification, completionEventHandler(UserInfoArgument.self, FetchResultAnswer.self) { s, app, a, h in unsafeDowncast(s, to: Self.self).application(app, didReceiveRemoteNotification: a, fetchCompletionHandler: h) })
    }
}

/// application(_:performFetchWithCompletionHandler:). Call the handler once. Reconciled: failed > newData > noData; a late answer counts as failed; nobody answers: noData.
@MainActor
public protocol PerformFetchSubscriber: AppDelegateSubscriber {
    /// application(_:performFetchWithCompletionHandler:).
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>)
}

extension _EventWitnesses where Self: PerformFetchSubscriber {
    public static var _performFetch: _EventWitness? {
        _EventWitness(ApplicationEvents.performFetch, completionEventHandler(NoArguments.self, FetchResultAnswer.self) { s, app, a, h in unsafeDowncast(s, to: Self.self).application(app, performFetchWithCompletionHandler: h) })
    }
}

/// application(_:handleEventsForBackgroundURLSession:completionHandler:). Call the handler once when done; the event is done when every responder is.
@MainActor
public protocol HandleEventsForBackgroundURLSessionSubscriber: AppDelegateSubscriber {
    /// application(_:handleEventsForBackgroundURLSession:completionHandler:).
    func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: CompletionHandler<Void>)
}

extension _EventWitnesses where Self: HandleEventsForBackgroundURLSessionSubscriber {
    public static var _handleEventsForBackgroundURLSession: _EventWitness? {
        _EventWitness(ApplicationEvents.handleEventsForBackgroundURLSession, completionEventHandler(TextArgument.self, DoneAnswer.self) { s, app, a, h in unsafeDowncast(s, to: Self.self).application(app, handleEventsForBackgroundURLSession: a, completionHandler: h) })
    }
}

/// application(_:open:options:). Reconciled: any true; nobody answers: false.
@MainActor
public protocol OpenURLSubscriber: AppDelegateSubscriber {
    /// application(_:open:options:).
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool?
}

extension _EventWitnesses where Self: OpenURLSubscriber {
    public static var _openURL: _EventWitness? {
        _EventWitness(ApplicationEvents.openURL, immediateHandler(OpenURLArguments.self, OptionalBoolAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, open: a.url, options: a.options) })
    }
}

/// application(_:willContinueUserActivityWithType:). Reconciled: any true; nobody answers: false.
@MainActor
public protocol WillContinueUserActivitySubscriber: AppDelegateSubscriber {
    /// application(_:willContinueUserActivityWithType:).
    func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool?
}

extension _EventWitnesses where Self: WillContinueUserActivitySubscriber {
    public static var _willContinueUserActivity: _EventWitness? {
        _EventWitness(ApplicationEvents.willContinueUserActivity, immediateHandler(TextArgument.self, OptionalBoolAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, willContinueUserActivityWithType: a) })
    }
}

/// application(_:continue:restorationHandler:). Reconciled: any true; nobody answers: false. When you return true you may call `restorationHandler` once with the identifiers of the objects to restore; otherwise never call it.
@MainActor
public protocol ContinueUserActivitySubscriber: AppDelegateSubscriber {
    /// application(_:continue:restorationHandler:).
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool?
}

extension _EventWitnesses where Self: ContinueUserActivitySubscriber {
    public static var _continueUserActivity: _EventWitness? {
        _EventWitness(ApplicationEvents.continueUserActivity, restorationHandler(UserActivityArguments.self) { s, app, a, h in unsafeDowncast(s, to: Self.self).application(app, continue: a, restorationHandler: h) })
    }
}

/// application(_:didUpdate:).
@MainActor
public protocol DidUpdateUserActivitySubscriber: AppDelegateSubscriber {
    /// application(_:didUpdate:).
    func application(_ application: Application, didUpdate userActivity: UserActivity)
}

extension _EventWitnesses where Self: DidUpdateUserActivitySubscriber {
    public static var _didUpdateUserActivity: _EventWitness? {
        _EventWitness(ApplicationEvents.didUpdateUserActivity, notificationHandler(UserActivityArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, didUpdate: a) })
    }
}

/// application(_:didFailToContinueUserActivityWithType:error:).
@MainActor
public protocol DidFailToContinueUserActivitySubscriber: AppDelegateSubscriber {
    /// application(_:didFailToContinueUserActivityWithType:error:).
    func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String,
                     error: LifecycleError)
}

extension _EventWitnesses where Self: DidFailToContinueUserActivitySubscriber {
    public static var _didFailToContinueUserActivity: _EventWitness? {
        _EventWitness(ApplicationEvents.didFailToContinueUserActivity, notificationHandler(ActivityFailureArguments.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, didFailToContinueUserActivityWithType: a.activityType, error: a.error) })
    }
}

/// application(_:performActionFor:completionHandler:). Call the handler once. Reconciled: any true; a late answer counts as false; nobody answers: false.
@MainActor
public protocol PerformActionForShortcutItemSubscriber: AppDelegateSubscriber {
    /// application(_:performActionFor:completionHandler:).
    func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                     completionHandler: CompletionHandler<Bool>)
}

extension _EventWitnesses where Self: PerformActionForShortcutItemSubscriber {
    public static var _performActionForShortcutItem: _EventWitness? {
        _EventWitness(ApplicationEvents.performActionForShortcutItem, completionEventHandler(ShortcutItemArguments.self, BoolCompletionAnswer.self) { s, app, a, h in unsafeDowncast(s, to: Self.self).application(app, performActionFor: a, completionHandler: h) })
    }
}

/// application(_:supportedInterfaceOrientationsFor:). Reconciled: the intersection; nobody answers: the manifest's default for the idiom.
@MainActor
public protocol SupportedInterfaceOrientationsSubscriber: AppDelegateSubscriber {
    /// application(_:supportedInterfaceOrientationsFor:).
    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask?
}

extension _EventWitnesses where Self: SupportedInterfaceOrientationsSubscriber {
    public static var _supportedInterfaceOrientations: _EventWitness? {
        _EventWitness(ApplicationEvents.supportedInterfaceOrientations, immediateHandler(IdiomArgument.self, OrientationMaskAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, supportedInterfaceOrientationsFor: a) })
    }
}

/// application(_:shouldAllowExtensionPointIdentifier:). One false vetoes; nobody answers: true.
@MainActor
public protocol ShouldAllowExtensionPointIdentifierSubscriber: AppDelegateSubscriber {
    /// application(_:shouldAllowExtensionPointIdentifier:).
    func application(_ application: Application,
                     shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool?
}

extension _EventWitnesses where Self: ShouldAllowExtensionPointIdentifierSubscriber {
    public static var _shouldAllowExtensionPointIdentifier: _EventWitness? {
        _EventWitness(ApplicationEvents.shouldAllowExtensionPointIdentifier, immediateHandler(TextArgument.self, OptionalBoolAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, shouldAllowExtensionPointIdentifier: a) })
    }
}

/// application(_:shouldSaveSecureApplicationState:). One false vetoes; nobody answers: false.
@MainActor
public protocol ShouldSaveSecureApplicationStateSubscriber: AppDelegateSubscriber {
    /// application(_:shouldSaveSecureApplicationState:).
    func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool?
}

extension _EventWitnesses where Self: ShouldSaveSecureApplicationStateSubscriber {
    public static var _shouldSaveSecureApplicationState: _EventWitness? {
        _EventWitness(ApplicationEvents.shouldSaveSecureApplicationState, immediateHandler(NoArguments.self, OptionalBoolAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationShouldSaveSecureApplicationState(app) })
    }
}

/// application(_:shouldRestoreSecureApplicationState:). One false vetoes; nobody answers: false.
@MainActor
public protocol ShouldRestoreSecureApplicationStateSubscriber: AppDelegateSubscriber {
    /// application(_:shouldRestoreSecureApplicationState:).
    func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool?
}

extension _EventWitnesses where Self: ShouldRestoreSecureApplicationStateSubscriber {
    public static var _shouldRestoreSecureApplicationState: _EventWitness? {
        _EventWitness(ApplicationEvents.shouldRestoreSecureApplicationState, immediateHandler(NoArguments.self, OptionalBoolAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).applicationShouldRestoreSecureApplicationState(app) })
    }
}

/// application(_:configurationForConnecting:options:): the name of a scene configuration. Reconciled: the first answer; nobody answers: "Default Configuration".
@MainActor
public protocol ConfigurationForConnectingSubscriber: AppDelegateSubscriber {
    /// application(_:configurationForConnecting:options:): the name of a scene configuration.
    func application(_ application: Application, configurationForConnecting sceneRole: String) -> String?
}

extension _EventWitnesses where Self: ConfigurationForConnectingSubscriber {
    public static var _configurationForConnecting: _EventWitness? {
        _EventWitness(ApplicationEvents.configurationForConnecting, immediateHandler(TextArgument.self, ConfigurationNameAnswer.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, configurationForConnecting: a) })
    }
}

/// application(_:didDiscardSceneSessions:), with the number of sessions.
@MainActor
public protocol DidDiscardSceneSessionsSubscriber: AppDelegateSubscriber {
    /// application(_:didDiscardSceneSessions:), with the number of sessions.
    func application(_ application: Application, didDiscardSceneSessions count: Int)
}

extension _EventWitnesses where Self: DidDiscardSceneSessionsSubscriber {
    public static var _didDiscardSceneSessions: _EventWitness? {
        _EventWitness(ApplicationEvents.didDiscardSceneSessions, notificationHandler(CountArgument.self) { s, app, a in unsafeDowncast(s, to: Self.self).application(app, didDiscardSceneSessions: a) })
    }
}

/// application(_:handleWatchKitExtensionRequest:reply:). Call `reply` once. Replies are merged; a key answered twice keeps the first. Nobody answers: {}.
@MainActor
public protocol HandleWatchKitExtensionRequestSubscriber: AppDelegateSubscriber {
    /// application(_:handleWatchKitExtensionRequest:reply:).
    func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                     reply: CompletionHandler<JSONObject>)
}

extension _EventWitnesses where Self: HandleWatchKitExtensionRequestSubscriber {
    public static var _handleWatchKitExtensionRequest: _EventWitness? {
        _EventWitness(ApplicationEvents.handleWatchKitExtensionRequest, completionEventHandler(UserInfoArgument.self, DictionaryAnswer.self) { s, app, a, h in unsafeDowncast(s, to: Self.self).application(app, handleWatchKitExtensionRequest: a, reply: h) })
    }
}
