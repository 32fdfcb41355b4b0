import Foundation
import SubscriberHost
import SubscriberKit

extension EventCall {
    /// The call's arguments in a few words, for an event's heading: `news://article/7`,
    /// `{articles: [101, 102]}`, `pad`; nil for events without arguments. Launch events show none:
    /// their invocation says it better.
    var argumentSummary: String? {
        switch self {
        case .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive, .didEnterBackground,
             .willEnterForeground, .willTerminate, .didReceiveMemoryWarning, .significantTimeChange,
             .protectedDataWillBecomeUnavailable, .protectedDataDidBecomeAvailable, .performFetch,
             .shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState:
            return nil
        case .didRegisterForRemoteNotifications(let token):
            return token.map { String(format: "%02x", $0) }.joined()
        case .didFailToRegisterForRemoteNotifications(let error):
            return error.description
        case .didReceiveRemoteNotification(let userInfo), .handleWatchKitExtensionRequest(let userInfo):
            return DisplayText.value(.object(userInfo))
        case .handleEventsForBackgroundURLSession(let identifier), .shouldAllowExtensionPointIdentifier(let identifier):
            return identifier
        case .openURL(let url, _):
            return url.absoluteString
        case .willContinueUserActivity(let activityType):
            return activityType
        case .continueUserActivity(let activity), .didUpdateUserActivity(let activity):
            return activity.webpageURL.map { "\(activity.activityType) \($0.absoluteString)" } ?? activity.activityType
        case .didFailToContinueUserActivity(let activityType, let error):
            return "\(activityType): \(error)"
        case .performActionForShortcutItem(let item):
            return item.type
        case .supportedInterfaceOrientations(let idiom):
            return idiom.name
        case .configurationForConnecting(let sceneRole):
            return sceneRole
        case .didDiscardSceneSessions(let count):
            return "\(count) session\(count == 1 ? "" : "s")"
        }
    }
}
