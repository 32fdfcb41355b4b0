import Foundation
import SubscriberHost
import SubscriberKit

/// The scenario `apphost --manifest FILE` plays without `--events` (docs/cli.md): a day in the life of
/// an app, in the order iOS delivers it.
///
/// A cold launch from a universal link (will/didFinishLaunching), active, a custom-scheme URL opened,
/// a remote notification, the same news shown while in the foreground and tapped (the notification
/// center), background (resign active, enter background), a background fetch, foreground (enter
/// foreground, active), a memory warning, terminate.
///
/// The same events whatever the manifest: the inputs are the news demo's (its URLs and payloads).
package enum DefaultScenario {
    /// The universal link the app is launched from.
    package static let deepLink = URL(string: "https://news.example.com/article/42")!
    /// The custom-scheme URL opened while active.
    package static let openedURL = URL(string: "news://article/7")!

    /// The notification shown while the app is in the foreground, then tapped.
    package static let breakingNews = UserNotification(identifier: "breaking-101", userInfo: ["articles": [101]],
                                                       categoryIdentifier: "article")

    /// The scenario's events, in order.
    package static var calls: [AnyEventCall] {
        let launch = LaunchOptions(userActivity: UserActivity(activityType: UserActivity.browsingWeb, webpageURL: deepLink))
        return [
            EventCall.willFinishLaunching(options: launch).erased,
            EventCall.didFinishLaunching(options: launch).erased,
            NotificationCall.didBecomeActive.erased,
            EventCall.openURL(url: openedURL, options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari")).erased,
            EventCall.didReceiveRemoteNotification(userInfo: ["articles": [101, 102]]).erased,
            EventCall.willPresentNotification(breakingNews).erased,
            EventCall.didReceiveNotificationResponse(NotificationResponse(notification: breakingNews)).erased,
            NotificationCall.willResignActive.erased,
            NotificationCall.didEnterBackground.erased,
            EventCall.performFetch.erased,
            NotificationCall.willEnterForeground.erased,
            NotificationCall.didBecomeActive.erased,
            NotificationCall.didReceiveMemoryWarning.erased,
            NotificationCall.willTerminate.erased,
        ]
    }
}
