import SubscriberValues

/// Every event's position in the event table (its ``LifecycleEvent/index``) as a constant: what the
/// SDK's C entries pass (`SDKEntry.notify($0, (), .didReceiveMemoryWarning, …)` in each row's
/// `install`). A ``LifecycleEvent`` is a static made on first use, so an entry that named one paid a
/// `swift_once` on every call, and the entries of a shape shared one function that took the static's
/// address (callgrind: 41 of a loaded void call's 151 instructions before the call reached the
/// instance). Cases in table order, named as the events' statics; ``EventTable/rows`` checks every case
/// against its event's index, so a case out of order stops the first read of the table (every test run).
package enum EventIndex: Int, CaseIterable, Sendable {
    case willFinishLaunching
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    case didReceiveMemoryWarning
    case significantTimeChange
    case protectedDataWillBecomeUnavailable
    case protectedDataDidBecomeAvailable
    case didRegisterForRemoteNotifications
    case didFailToRegisterForRemoteNotifications
    case didReceiveRemoteNotification
    case performFetch
    case handleEventsForBackgroundURLSession
    case openURL
    case willContinueUserActivity
    case continueUserActivity
    case didUpdateUserActivity
    case didFailToContinueUserActivity
    case performActionForShortcutItem
    case supportedInterfaceOrientations
    case shouldAllowExtensionPointIdentifier
    case shouldSaveSecureApplicationState
    case shouldRestoreSecureApplicationState
    case configurationForConnecting
    case didDiscardSceneSessions
    case handleWatchKitExtensionRequest
    case willPresentNotification
    case didReceiveNotificationResponse
    case openNotificationSettings
    case sceneWillConnect
    case sceneDidDisconnect
    case sceneDidBecomeActive
    case sceneWillResignActive
    case sceneWillEnterForeground
    case sceneDidEnterBackground
    case sceneOpenURLContexts
    case sceneWillContinueUserActivity
    case sceneContinueUserActivity
    case sceneDidFailToContinueUserActivity
    case sceneDidUpdateUserActivity
    case scenePerformActionForShortcutItem
    case sceneStateRestorationActivity
    case sceneDidUpdateGeometry

    /// The event: for the SDK's rare paths (a new completion receiver, a warning).
    package var event: LifecycleEvent {
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
        case .willPresentNotification: .willPresentNotification
        case .didReceiveNotificationResponse: .didReceiveNotificationResponse
        case .openNotificationSettings: .openNotificationSettings
        case .sceneWillConnect: .sceneWillConnect
        case .sceneDidDisconnect: .sceneDidDisconnect
        case .sceneDidBecomeActive: .sceneDidBecomeActive
        case .sceneWillResignActive: .sceneWillResignActive
        case .sceneWillEnterForeground: .sceneWillEnterForeground
        case .sceneDidEnterBackground: .sceneDidEnterBackground
        case .sceneOpenURLContexts: .sceneOpenURLContexts
        case .sceneWillContinueUserActivity: .sceneWillContinueUserActivity
        case .sceneContinueUserActivity: .sceneContinueUserActivity
        case .sceneDidFailToContinueUserActivity: .sceneDidFailToContinueUserActivity
        case .sceneDidUpdateUserActivity: .sceneDidUpdateUserActivity
        case .scenePerformActionForShortcutItem: .scenePerformActionForShortcutItem
        case .sceneStateRestorationActivity: .sceneStateRestorationActivity
        case .sceneDidUpdateGeometry: .sceneDidUpdateGeometry
        }
    }
}
