// NotificationFetcher — remote notifications and background fetch that complete later, from another
// thread, as real fetches do.
//
// A notification's payload decides the result: {"error": …} → failed, {"articles": [non-empty]} →
// newData, {"articles": []} → noData; a notification without "articles" or "error" is not ours
// (declined). performFetch answers the `fetchResult` option ("newData" unless set). In the notification
// center's family: a notification about articles arriving in the foreground is shown as a banner with a
// sound, others are not its business; a tap on one is logged with the articles it opens.
// Options: {"fetchResult": "newData", "delayMs": 20}.
import Dispatch
import Foundation
import SubscriberKit

/// Fetches content for notifications and background fetches, completing from a background queue.
final class NotificationFetcher: AppDelegateSubscriberBase, InstantiableSubscriber,
                                 DidRegisterForRemoteNotificationsSubscriber,
                                 DidFailToRegisterForRemoteNotificationsSubscriber,
                                 DidReceiveRemoteNotificationSubscriber, PerformFetchSubscriber,
                                 WillPresentNotificationSubscriber, DidReceiveNotificationResponseSubscriber {
    private let fetchResult: BackgroundFetchResult
    private let delay: DispatchTimeInterval

    required init(context: SubscriberContext) {
        fetchResult = context.options["fetchResult"]?.stringValue.flatMap(BackgroundFetchResult.init(name:)) ?? .newData
        delay = .milliseconds(context.options["delayMs"]?.intValue ?? 20)
        super.init(context: context)
    }

    func application(_ application: Application,
                     didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        log("registered for remote notifications, token \(Self.hex(deviceToken))")
    }

    /// The token in lowercase hexadecimal, two digits a byte. Written digit by digit:
    /// `String(format: "%02x", byte)` a byte cost about 13,000 instructions (a C varargs list built
    /// through dynamic casts), most of what this plugin cost `apphost --json` on the tour.
    static func hex(_ bytes: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    func application(_ application: Application,
                     didFailToRegisterForRemoteNotificationsWithError error: LifecycleError) {
        logError("could not register for remote notifications: \(error)")
    }

    func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                     fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        let result: BackgroundFetchResult
        if userInfo["error"] != nil {
            result = .failed
        } else if let articles = userInfo["articles"]?.arrayValue {
            result = articles.isEmpty ? .noData : .newData
        } else {
            completionHandler.decline()
            return
        }
        let context = self.context
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            context.log("notification fetch finished: \(result)")
            completionHandler(result)
        }
    }

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        let result = fetchResult
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            completionHandler(result)
        }
    }
}

extension NotificationFetcher {
    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>) {
        guard notification.userInfo["articles"] != nil else { return completionHandler.decline() }
        completionHandler([.banner, .sound])
    }

    func userNotificationCenter(_ application: Application, didReceive response: NotificationResponse,
                                withCompletionHandler completionHandler: CompletionHandler<Void>) {
        guard let articles = response.notification.userInfo["articles"] else { return completionHandler.decline() }
        log("opening articles \(articles) from notification \(response.notification.identifier)")
        completionHandler()
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(
        id: "dev.appdelegatehost.notification-fetcher", name: "Notification Fetcher", version: "1.0.0",
        vendor: "AppDelegateHost examples", subscribers: [NotificationFetcher.self])
}
