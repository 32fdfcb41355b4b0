/// Every lifecycle event a subscriber can respond to, by its wire name (the name used in manifests,
/// event scripts and output; docs/events.md).
public enum LifecycleEvent: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
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

    /// The wire name.
    public var name: String { rawValue }
    public var description: String { rawValue }

    /// Whether subscribers answer this event through a completion handler (and so it has a deadline).
    public var answersThroughCompletion: Bool {
        switch self {
        case .didReceiveRemoteNotification, .performFetch, .handleEventsForBackgroundURLSession,
             .continueUserActivity, .performActionForShortcutItem, .handleWatchKitExtensionRequest:
            true
        default:
            false
        }
    }
}
