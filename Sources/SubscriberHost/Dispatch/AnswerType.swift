import SubscriberKit

/// The type of the answers subscribers give to an event; it decides which reconcilers fit.
public enum AnswerType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Notifications and completions without a value: nothing to reconcile.
    case none
    /// `Bool?` (or a Bool completion).
    case bool
    /// A `BackgroundFetchResult` through a completion.
    case fetchResult
    /// An `InterfaceOrientationMask?`.
    case orientationMask
    /// A scene configuration name, `String?`.
    case configurationName
    /// A dictionary (JSON object) through a completion.
    case dictionary

    /// The reconcilers that fit this answer type, the default first.
    public var fittingReconcilers: [ReconcilerChoice] {
        switch self {
        case .none: []
        case .bool: [.anyTrue, .allTrue, .firstAnswer]
        case .fetchResult: [.precedence(ReconcilerChoice.defaultFetchPrecedence), .firstAnswer]
        case .orientationMask: [.intersection, .firstAnswer]
        case .configurationName: [.firstAnswer]
        case .dictionary: [.merge, .firstAnswer]
        }
    }

    /// How error messages name the type: "a Bool", "a fetch result", …
    public var description: String {
        switch self {
        case .none: "nothing"
        case .bool: "a Bool"
        case .fetchResult: "a fetch result"
        case .orientationMask: "an orientation mask"
        case .configurationName: "a configuration name"
        case .dictionary: "a dictionary"
        }
    }
}

extension LifecycleEvent {
    /// The type of the answers subscribers give to this event (the "answer" of each event in docs/events.md).
    public var answerType: AnswerType {
        switch self {
        case .willFinishLaunching, .didFinishLaunching, .openURL, .willContinueUserActivity,
             .continueUserActivity, .performActionForShortcutItem, .shouldAllowExtensionPointIdentifier,
             .shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState:
            .bool
        case .didReceiveRemoteNotification, .performFetch:
            .fetchResult
        case .supportedInterfaceOrientations:
            .orientationMask
        case .configurationForConnecting:
            .configurationName
        case .handleWatchKitExtensionRequest:
            .dictionary
        case .didBecomeActive, .willResignActive, .didEnterBackground, .willEnterForeground, .willTerminate,
             .didReceiveMemoryWarning, .significantTimeChange, .protectedDataWillBecomeUnavailable,
             .protectedDataDidBecomeAvailable, .didRegisterForRemoteNotifications,
             .didFailToRegisterForRemoteNotifications, .handleEventsForBackgroundURLSession,
             .didUpdateUserActivity, .didFailToContinueUserActivity, .didDiscardSceneSessions:
            .none
        }
    }

    /// The default reconciler of this event (docs/events.md); nil when it has no answer.
    public var defaultReconciler: ReconcilerChoice? {
        switch self {
        case .shouldAllowExtensionPointIdentifier, .shouldSaveSecureApplicationState,
             .shouldRestoreSecureApplicationState:
            .allTrue
        default:
            answerType.fittingReconcilers.first
        }
    }
}
