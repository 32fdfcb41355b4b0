import Foundation
import SubscriberKit

/// One event with its arguments, by wire name (SPEC §3): what an event script line or a scenario
/// step asks the dispatcher to deliver. ``LifecycleDispatcher/dispatch(_:)`` plays it.
public enum EventCall: Sendable, Hashable {
    case willFinishLaunching(options: LaunchOptions)
    case didFinishLaunching(options: LaunchOptions)
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    case didReceiveMemoryWarning
    case significantTimeChange
    case protectedDataWillBecomeUnavailable
    case protectedDataDidBecomeAvailable
    case didRegisterForRemoteNotifications(deviceToken: Data)
    case didFailToRegisterForRemoteNotifications(error: LifecycleError)
    case didReceiveRemoteNotification(userInfo: JSONObject)
    case performFetch
    case handleEventsForBackgroundURLSession(identifier: String)
    case openURL(url: URL, options: OpenURLOptions)
    case willContinueUserActivity(activityType: String)
    case continueUserActivity(UserActivity)
    case didUpdateUserActivity(UserActivity)
    case didFailToContinueUserActivity(activityType: String, error: LifecycleError)
    case performActionForShortcutItem(ShortcutItem)
    case supportedInterfaceOrientations(idiom: UserInterfaceIdiom)
    case shouldAllowExtensionPointIdentifier(identifier: String)
    case shouldSaveSecureApplicationState
    case shouldRestoreSecureApplicationState
    case configurationForConnecting(sceneRole: String)
    case didDiscardSceneSessions(count: Int)
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
