import Foundation
import SubscriberKit

/// Drives every protocol method of a subscriber with canonical inputs (several per event where the
/// answer depends on the input) and writes one line per call: its answer, or what it did with its
/// completion. Running it on a subscriber directly and through C must give the same lines.
@MainActor
enum BridgeScript {
    static let launches: [LaunchOptions] = [
        LaunchOptions(userActivity: UserActivity(activityType: UserActivity.browsingWeb,
                                                 webpageURL: URL(string: "https://example.com/article/42?ref=mail")!,
                                                 userInfo: ["campaign": "spring", "rank": 2])),
        LaunchOptions(remoteNotification: ["aps": ["alert": "Breaking"], "id": 7]),
        LaunchOptions(url: URL(string: "news://article/7")!, sourceApplication: "com.example.mail",
                      annotation: ["via": ["mail", 1, true, nil]]),
        LaunchOptions(shortcutItem: ShortcutItem(type: "com.example.news.search", title: "Search")),
        LaunchOptions(location: true),
        LaunchOptions(bluetoothCentrals: ["c1"]),
        LaunchOptions(backgroundFetch: true),
        LaunchOptions(sourceApplication: "com.example.other"),
        LaunchOptions(),
    ]

    static let urls: [(URL, OpenURLOptions)] = [
        (URL(string: "news://article/42")!, OpenURLOptions()),
        (URL(string: "https://example.com/%C3%A9?q=1")!, OpenURLOptions(sourceApplication: "com.example.mail",
                                                                  annotation: ["k": 1.5], openInPlace: true)),
        (URL(string: "file:///tmp/a.txt")!, OpenURLOptions(annotation: "text")),
    ]

    static let activities: [UserActivity] = [
        UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://example.com/a")!,
                     userInfo: ["b": 1, "a": ["nested": true]]),
        UserActivity(activityType: "com.example.reading"),
        UserActivity(activityType: "org.other.thing", userInfo: ["x": "y"]),
    ]

    /// The script's lines for `subscriber`, which calls each completion `calls` times.
    static func run(_ subscriber: any AppDelegateSubscriber, calls: Int) async -> [String] {
        var lines: [String] = []
        var app = bridgeTestApplication
        func line(_ label: String, _ answer: Any?) {
            switch answer {
            case nil: lines.append("\(label) -> nil")
            case let text as String: lines.append("\(label) -> \"\(text)\"")
            case let answer?: lines.append("\(label) -> \(answer)")
            }
        }
        func outcome(_ label: String, _ outcome: String) { lines.append("\(label) -> \(outcome)") }

        for options in launches {
            app.launchInvocation = LaunchInvocation(classifying: options)
            line("willFinish", subscriber.application(app, willFinishLaunchingWithOptions: options))
            line("didFinish", subscriber.application(app, didFinishLaunchingWithOptions: options))
            subscriber.applicationDidBecomeActive(app)
            line("configuration(main)", subscriber.application(app, configurationForConnecting: "main"))
        }
        subscriber.applicationWillResignActive(app)
        subscriber.applicationDidEnterBackground(app)
        subscriber.applicationWillEnterForeground(app)
        subscriber.applicationDidReceiveMemoryWarning(app)
        subscriber.applicationSignificantTimeChange(app)
        subscriber.applicationProtectedDataWillBecomeUnavailable(app)
        subscriber.applicationProtectedDataDidBecomeAvailable(app)
        subscriber.application(app, didRegisterForRemoteNotificationsWithDeviceToken: Data([0xde, 0xad, 0x00, 0x01]))
        subscriber.application(app, didRegisterForRemoteNotificationsWithDeviceToken: Data())
        subscriber.application(app, didFailToRegisterForRemoteNotificationsWithError:
            LifecycleError(domain: "com.example.push", code: -3, message: "no network"))

        for userInfo: JSONObject in [["result": "failed"], ["result": "newData", "n": 1], ["other": true]] {
            let recorder = Recorder<BackgroundFetchResult>()
            subscriber.application(app, didReceiveRemoteNotification: userInfo, fetchCompletionHandler: recorder.handler)
            outcome("remoteNotification(\(JSONValue.object(userInfo)))", await recorder.outcome(expecting: calls))
        }
        let fetch = Recorder<BackgroundFetchResult>()
        subscriber.application(app, performFetchWithCompletionHandler: fetch.handler)
        outcome("performFetch", await fetch.outcome(expecting: calls))
        for identifier in ["com.example.session", "decline"] {
            let session = Recorder<Void>()
            subscriber.application(app, handleEventsForBackgroundURLSession: identifier, completionHandler: session.handler)
            outcome("backgroundSession(\(identifier))", await session.outcome(expecting: calls))
        }

        for (url, options) in urls {
            line("openURL(\(url))", subscriber.application(app, open: url, options: options))
        }
        for type in ["com.example.reading", "org.other", ""] {
            line("willContinue(\(type))", subscriber.application(app, willContinueUserActivityWithType: type))
        }
        for activity in activities {
            let restoration = Recorder<[String]>()
            let answer = subscriber.application(app, continue: activity, restorationHandler: restoration.handler)
            let restored = answer == true ? await restoration.outcome(expecting: calls) : "\(restoration.values)"
            lines.append("continue(\(activity.activityType)) -> \(answer.map(String.init) ?? "nil") restored \(restored)")
            subscriber.application(app, didUpdate: activity)
        }
        subscriber.application(app, didFailToContinueUserActivityWithType: "com.example.reading",
                               error: LifecycleError(domain: "NSCocoaErrorDomain", code: 4, message: "gone"))
        for item in [ShortcutItem(type: "com.example.news.search", title: "Search", userInfo: ["q": ""]),
                     ShortcutItem(type: "com.example.news.compose")] {
            let done = Recorder<Bool>()
            subscriber.application(app, performActionFor: item, completionHandler: done.handler)
            outcome("shortcut(\(item.type))", await done.outcome(expecting: calls))
        }

        for idiom in UserInterfaceIdiom.allCases {
            line("orientations(\(idiom))", subscriber.application(app, supportedInterfaceOrientationsFor: idiom))
        }
        for identifier in ["com.apple.keyboard-service", "com.example.share", ""] {
            line("allowExtension(\(identifier))", subscriber.application(app, shouldAllowExtensionPointIdentifier: identifier))
        }
        line("shouldSave", subscriber.applicationShouldSaveSecureApplicationState(app))
        line("shouldRestore", subscriber.applicationShouldRestoreSecureApplicationState(app))
        for role in ["external", "none", ""] {
            line("configuration(\(role))", subscriber.application(app, configurationForConnecting: role))
        }
        subscriber.application(app, didDiscardSceneSessions: 3)
        for userInfo: JSONObject in [["ask": "weather", "units": ["c", "f"]], [:]] {
            let reply = Recorder<JSONObject>()
            subscriber.application(app, handleWatchKitExtensionRequest: userInfo, reply: reply.handler)
            outcome("watchKit(\(JSONValue.object(userInfo)))", await reply.outcome(expecting: calls) { "\(JSONValue.object($0))" })
        }
        subscriber.applicationWillTerminate(app)
        return lines
    }
}
