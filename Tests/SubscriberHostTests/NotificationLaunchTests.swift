import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// A launch from a notification response. With UNUserNotificationCenter, a tap on a notification
/// that cold-launches the app arrives as `userNotificationCenter(_:didReceive:…)` after
/// `didFinishLaunching` and before `didBecomeActive`; the launch options need not carry the
/// payload (`remoteNotification` is absent for a local notification). Such a launch is a launch
/// from a notification: `notification(userInfo)`.
@MainActor
@Suite("Launch from a notification response")
struct NotificationLaunchTests {
    static let userInfo: JSONObject = ["article": 42, "aps": ["alert": "Breaking"]]
    static let tap = NotificationResponse(notification: UserNotification(identifier: "breaking-42", userInfo: userInfo))

    @Test("today: didFinishLaunching without options classifies as appIconClick, and the launch events say so")
    func launchEventsClassify() {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"], launched: false)
        let launched = dispatcher.dispatchAtOnce(.didFinishLaunching())
        #expect(launched.invocation == .appIconClick)
        #expect(subscribers[0].applications.map(\.launchInvocation) == [.appIconClick])
    }

    @Test("the remoteNotification launch option classifies as notification (the launch options' way)")
    func launchOptionClassifies() {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"], launched: false)
        let launched = dispatcher.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(remoteNotification: Self.userInfo)))
        #expect(launched.invocation == .notification(Self.userInfo))
        dispatcher.dispatchAtOnce(.didReceiveNotificationResponse(Self.tap))
        dispatcher.dispatchAtOnce(.didBecomeActive)
        #expect(subscribers[0].applications.map(\.launchInvocation) == Array(repeating: .notification(Self.userInfo), count: 3))
    }

    @Test("didFinishLaunching, then didReceiveResponse before didBecomeActive: the launch is a notification launch")
    func responseBeforeActive() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], launched: false)
        subscribers.forEach { $0.session = .now(()) }
        #expect(dispatcher.dispatchAtOnce(.didFinishLaunching()).invocation == .appIconClick)
        let response = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.tap))
        #expect(response.reports.isEmpty)
        #expect(response.applicationState == .inactive)  // delivered while launching, as UIKit does
        subscribers.forEach { $0.applications = [] }
        let active = dispatcher.dispatchAtOnce(.didBecomeActive)
        #expect(active.reports.isEmpty)

        #expect(dispatcher.application.launchInvocation == .notification(Self.userInfo))
        // What subscribers see from then on.
        #expect(subscribers.map { $0.applications.map(\.launchInvocation) }
                    == [[.notification(Self.userInfo)], [.notification(Self.userInfo)]])
    }

    @Test("a response once the app is running (after didBecomeActive) is no launch: the invocation stays")
    func responseWhileRunning() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"], launched: false)
        subscribers[0].session = .now(())
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        dispatcher.dispatchAtOnce(.didBecomeActive)
        _ = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.tap))
        #expect(dispatcher.application.launchInvocation == .appIconClick)
        // From the background too: a tap that brings the app back is not a launch.
        dispatcher.dispatchAtOnce(.willResignActive)
        dispatcher.dispatchAtOnce(.didEnterBackground)
        _ = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.tap))
        #expect(dispatcher.application.launchInvocation == .appIconClick)
    }

    @Test("a launch classified otherwise (a deep link) is not overridden by a later response")
    func deepLinkStays() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"], launched: false)
        subscribers[0].session = .now(())
        let link = URL(string: "https://news.example.com/article/42")!
        let options = LaunchOptions(userActivity: UserActivity(activityType: UserActivity.browsingWeb, webpageURL: link))
        #expect(dispatcher.dispatchAtOnce(.didFinishLaunching(options: options)).invocation == .deepLink(link))
        _ = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.tap))
        #expect(dispatcher.application.launchInvocation == .deepLink(link))
    }
}
