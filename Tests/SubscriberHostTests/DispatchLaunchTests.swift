import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// How the app was launched (docs/events.md), classified on the launch events and handed to subscribers.
@MainActor
@Suite("Dispatch: launch invocation")
struct DispatchLaunchTests {
    nonisolated static let web = URL(string: "https://news.example.com/article/42")!
    nonisolated static let scheme = URL(string: "news://article/42")!

    /// Every kind of launch, and the check order when several options are present.
    nonisolated static let cases: [(String, LaunchOptions, LaunchInvocation)] = [
        ("universal link", LaunchOptions(userActivity: UserActivity(activityType: UserActivity.browsingWeb, webpageURL: web)),
         .deepLink(web)),
        ("activity without a URL", LaunchOptions(userActivity: UserActivity(activityType: UserActivity.browsingWeb)), .unknown),
        ("Handoff activity", LaunchOptions(userActivity: UserActivity(activityType: "com.example.reading", webpageURL: web)),
         .unknown),
        ("URL scheme", LaunchOptions(url: scheme, sourceApplication: "com.apple.mobilesafari"), .urlScheme(scheme)),
        ("notification", LaunchOptions(remoteNotification: ["article": 42]), .notification(["article": 42])),
        ("shortcut", LaunchOptions(shortcutItem: ShortcutItem(type: "com.example.search")), .shortcut("com.example.search")),
        ("location", LaunchOptions(location: true), .background(.location)),
        ("bluetooth centrals", LaunchOptions(bluetoothCentrals: ["central"]), .background(.bluetooth)),
        ("bluetooth peripherals", LaunchOptions(bluetoothPeripherals: ["peripheral"]), .background(.bluetooth)),
        ("background fetch", LaunchOptions(backgroundFetch: true), .background(.fetch)),
        ("no options", LaunchOptions(), .appIconClick),
        ("sourceApplication alone", LaunchOptions(sourceApplication: "com.example.mail"), .unknown),
        ("activity before notification and URL",
         LaunchOptions(url: scheme, userActivity: UserActivity(activityType: UserActivity.browsingWeb, webpageURL: web),
                       remoteNotification: ["a": 1]), .deepLink(web)),
        ("notification before URL", LaunchOptions(url: scheme, remoteNotification: ["a": 1]), .notification(["a": 1])),
        ("URL before shortcut", LaunchOptions(url: scheme, shortcutItem: ShortcutItem(type: "s")), .urlScheme(scheme)),
        ("shortcut before background", LaunchOptions(shortcutItem: ShortcutItem(type: "s"), location: true), .shortcut("s")),
        ("background before icon", LaunchOptions(sourceApplication: "x", backgroundFetch: true), .background(.fetch)),
        ("location before bluetooth before fetch",
         LaunchOptions(location: true, bluetoothCentrals: ["c"], backgroundFetch: true), .background(.location)),
    ]

    @Test("classified on willFinishLaunching and handed to subscribers", arguments: cases)
    func classify(_ name: String, _ options: LaunchOptions, _ expected: LaunchInvocation) {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], launched: false)
        #expect(dispatcher.application.launchInvocation == nil)
        let outcome = dispatcher.dispatchAtOnce(.willFinishLaunching(options: options))
        #expect(outcome.invocation == expected, "\(name)")
        #expect(dispatcher.application.launchInvocation == expected)
        #expect(subscribers.allSatisfy { $0.applications.last?.launchInvocation == expected })
    }

    @Test("didFinishLaunching classifies too, and every later event sees the invocation")
    func laterEventsSeeIt() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"], launched: false) { $0.fetch = .now(.noData) }
        let outcome = dispatcher.dispatchAtOnce(.didFinishLaunching(options: LaunchOptions(url: Self.scheme)))
        #expect(outcome.invocation == .urlScheme(Self.scheme))
        _ = dispatcher.dispatchAtOnce(.didBecomeActive)
        _ = await dispatcher.dispatch(.performFetch)
        #expect(dispatcher.dispatchAtOnce(.didReceiveMemoryWarning).invocation == nil)
        #expect(subscribers[0].applications.count == 4)
        #expect(subscribers[0].applications.allSatisfy { $0.launchInvocation == .urlScheme(Self.scheme) })
        #expect(subscribers[0].applications[0].bundleIdentifier == "com.example.news")
    }
}
