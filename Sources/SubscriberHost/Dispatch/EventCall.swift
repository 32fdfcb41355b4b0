import Foundation
import SubscriberKit

/// One event with its arguments, by wire name (docs/events.md): what an event script line or a scenario
/// step asks the dispatcher to deliver. ``LifecycleDispatcher/dispatch(_:)`` plays it.
public enum EventCall: Sendable, Hashable {
    /// application(_:willFinishLaunchingWithOptions:).
    case willFinishLaunching(options: LaunchOptions)
    /// application(_:didFinishLaunchingWithOptions:).
    case didFinishLaunching(options: LaunchOptions)
    /// applicationDidBecomeActive(_:).
    case didBecomeActive
    /// applicationWillResignActive(_:).
    case willResignActive
    /// applicationDidEnterBackground(_:).
    case didEnterBackground
    /// applicationWillEnterForeground(_:).
    case willEnterForeground
    /// applicationWillTerminate(_:).
    case willTerminate
    /// applicationDidReceiveMemoryWarning(_:).
    case didReceiveMemoryWarning
    /// applicationSignificantTimeChange(_:).
    case significantTimeChange
    /// applicationProtectedDataWillBecomeUnavailable(_:).
    case protectedDataWillBecomeUnavailable
    /// applicationProtectedDataDidBecomeAvailable(_:).
    case protectedDataDidBecomeAvailable
    /// application(_:didRegisterForRemoteNotificationsWithDeviceToken:).
    case didRegisterForRemoteNotifications(deviceToken: Data)
    /// application(_:didFailToRegisterForRemoteNotificationsWithError:).
    case didFailToRegisterForRemoteNotifications(error: LifecycleError)
    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:).
    case didReceiveRemoteNotification(userInfo: JSONObject)
    /// application(_:performFetchWithCompletionHandler:).
    case performFetch
    /// application(_:handleEventsForBackgroundURLSession:completionHandler:).
    case handleEventsForBackgroundURLSession(identifier: String)
    /// application(_:open:options:).
    case openURL(url: URL, options: OpenURLOptions)
    /// application(_:willContinueUserActivityWithType:).
    case willContinueUserActivity(activityType: String)
    /// application(_:continue:restorationHandler:).
    case continueUserActivity(UserActivity)
    /// application(_:didUpdate:).
    case didUpdateUserActivity(UserActivity)
    /// application(_:didFailToContinueUserActivityWithType:error:).
    case didFailToContinueUserActivity(activityType: String, error: LifecycleError)
    /// application(_:performActionFor:completionHandler:).
    case performActionForShortcutItem(ShortcutItem)
    /// application(_:supportedInterfaceOrientationsFor:).
    case supportedInterfaceOrientations(idiom: UserInterfaceIdiom)
    /// application(_:shouldAllowExtensionPointIdentifier:).
    case shouldAllowExtensionPointIdentifier(identifier: String)
    /// application(_:shouldSaveSecureApplicationState:).
    case shouldSaveSecureApplicationState
    /// application(_:shouldRestoreSecureApplicationState:).
    case shouldRestoreSecureApplicationState
    /// application(_:configurationForConnecting:options:).
    case configurationForConnecting(sceneRole: String)
    /// application(_:didDiscardSceneSessions:).
    case didDiscardSceneSessions(count: Int)
    /// application(_:handleWatchKitExtensionRequest:reply:).
    case handleWatchKitExtensionRequest(userInfo: JSONObject)

    /// The event this call delivers.
    public var event: LifecycleEvent {
        switch self {
        case .willFinishLaunching: .willFinishLaunching
        case .didFinishLaunching: .didFinishLaunching
        case .didBecomeActive: .didBecomeActive
        case .willResignActive: .willResignActive
        case .didEnterBackground: .didEnterBackground
        case .willEnterForeground: .willEnterForeground
        case .willTerminate: .willTerminate
        case .didReceiveMemoryWarning: .didReceiveMemoryWarning
        case .significantTimeChange: .significantTimeChange
        case .protectedDataWillBecomeUnavailable: .protectedDataWillBecomeUnavailable
        case .protectedDataDidBecomeAvailable: .protectedDataDidBecomeAvailable
        case .didRegisterForRemoteNotifications: .didRegisterForRemoteNotifications
        case .didFailToRegisterForRemoteNotifications: .didFailToRegisterForRemoteNotifications
        case .didReceiveRemoteNotification: .didReceiveRemoteNotification
        case .performFetch: .performFetch
        case .handleEventsForBackgroundURLSession: .handleEventsForBackgroundURLSession
        case .openURL: .openURL
        case .willContinueUserActivity: .willContinueUserActivity
        case .continueUserActivity: .continueUserActivity
        case .didUpdateUserActivity: .didUpdateUserActivity
        case .didFailToContinueUserActivity: .didFailToContinueUserActivity
        case .performActionForShortcutItem: .performActionForShortcutItem
        case .supportedInterfaceOrientations: .supportedInterfaceOrientations
        case .shouldAllowExtensionPointIdentifier: .shouldAllowExtensionPointIdentifier
        case .shouldSaveSecureApplicationState: .shouldSaveSecureApplicationState
        case .shouldRestoreSecureApplicationState: .shouldRestoreSecureApplicationState
        case .configurationForConnecting: .configurationForConnecting
        case .didDiscardSceneSessions: .didDiscardSceneSessions
        case .handleWatchKitExtensionRequest: .handleWatchKitExtensionRequest
        }
    }
}
