import Foundation
import SubscriberKit

/// Drives every event handler of a subscriber with canonical inputs (several per event where the
/// answer depends on the input) and writes one line per call: its answer, or what it did with its
/// completion, after a first line listing the events it responds to. Running it on a subscriber
/// directly and through C must give the same lines. An event it does not respond to reads as nil or
/// declined, so the first line is what tells a missing handler apart.
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
    static func run(_ subscriber: SubscriberHandlers, calls: Int) async -> [String] {
        var lines: [String] = ["responds: \(subscriber.respondingEvents)"]
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
            line("willFinish", subscriber.ask(.willFinishLaunching(options: options), app))
            line("didFinish", subscriber.ask(.didFinishLaunching(options: options), app))
            subscriber.notify(.didBecomeActive, app)
            line("configuration(main)", subscriber.configuration(.configurationForConnecting(sceneRole: "main"), app))
        }
        subscriber.notify(.willResignActive, app)
        subscriber.notify(.didEnterBackground, app)
        subscriber.notify(.willEnterForeground, app)
        subscriber.notify(.didReceiveMemoryWarning, app)
        subscriber.notify(.significantTimeChange, app)
        subscriber.notify(.protectedDataWillBecomeUnavailable, app)
        subscriber.notify(.protectedDataDidBecomeAvailable, app)
        subscriber.notify(.didRegisterForRemoteNotifications(deviceToken: Data([0xde, 0xad, 0x00, 0x01])), app)
        subscriber.notify(.didRegisterForRemoteNotifications(deviceToken: Data()), app)
        subscriber.notify(.didFailToRegisterForRemoteNotifications(
            error: LifecycleError(domain: "com.example.push", code: -3, message: "no network")), app)

        for userInfo: JSONObject in [["result": "failed"], ["result": "newData", "n": 1], ["other": true]] {
            let recorder = Recorder<BackgroundFetchResult>()
            subscriber.fetch(.didReceiveRemoteNotification(userInfo: userInfo), app, completion: recorder.handler)
            outcome("remoteNotification(\(JSONValue.object(userInfo)))", await recorder.outcome(expecting: calls))
        }
        let fetch = Recorder<BackgroundFetchResult>()
        subscriber.fetch(.performFetch, app, completion: fetch.handler)
        outcome("performFetch", await fetch.outcome(expecting: calls))
        for identifier in ["com.example.session", "decline"] {
            let session = Recorder<Void>()
            subscriber.done(.handleEventsForBackgroundURLSession(identifier: identifier), app, completion: session.handler)
            outcome("backgroundSession(\(identifier))", await session.outcome(expecting: calls))
        }

        for (url, options) in urls {
            line("openURL(\(url))", subscriber.ask(.openURL(url: url, options: options), app))
        }
        for type in ["com.example.reading", "org.other", ""] {
            line("willContinue(\(type))", subscriber.ask(.willContinueUserActivity(activityType: type), app))
        }
        for activity in activities {
            let restoration = Recorder<[String]>()
            let answer = subscriber.restore(.continueUserActivity(activity), app, completion: restoration.handler)
            let restored = answer == true ? await restoration.outcome(expecting: calls) : "\(restoration.values)"
            lines.append("continue(\(activity.activityType)) -> \(answer.map(String.init) ?? "nil") restored \(restored)")
            subscriber.notify(.didUpdateUserActivity(activity), app)
        }
        subscriber.notify(.didFailToContinueUserActivity(activityType: "com.example.reading",
                               error: LifecycleError(domain: "NSCocoaErrorDomain", code: 4, message: "gone")), app)
        for item in [ShortcutItem(type: "com.example.news.search", title: "Search", userInfo: ["q": ""]),
                     ShortcutItem(type: "com.example.news.compose")] {
            let done = Recorder<Bool>()
            subscriber.boolCompletion(.performActionForShortcutItem(item), app, completion: done.handler)
            outcome("shortcut(\(item.type))", await done.outcome(expecting: calls))
        }

        for idiom in UserInterfaceIdiom.allCases {
            line("orientations(\(idiom))", subscriber.orientations(.supportedInterfaceOrientations(idiom: idiom), app))
        }
        for identifier in ["com.apple.keyboard-service", "com.example.share", ""] {
            line("allowExtension(\(identifier))", subscriber.ask(.shouldAllowExtensionPointIdentifier(identifier: identifier), app))
        }
        line("shouldSave", subscriber.ask(.shouldSaveSecureApplicationState, app))
        line("shouldRestore", subscriber.ask(.shouldRestoreSecureApplicationState, app))
        for role in ["external", "none", ""] {
            line("configuration(\(role))", subscriber.configuration(.configurationForConnecting(sceneRole: role), app))
        }
        subscriber.notify(.didDiscardSceneSessions(count: 3), app)
        for userInfo: JSONObject in [["ask": "weather", "units": ["c", "f"]], [:]] {
            let reply = Recorder<JSONObject>()
            subscriber.reply(.handleWatchKitExtensionRequest(userInfo: userInfo), app, completion: reply.handler)
            outcome("watchKit(\(JSONValue.object(userInfo)))", await reply.outcome(expecting: calls) { "\(JSONValue.object($0))" })
        }
        subscriber.notify(.willTerminate, app)
        return lines
    }
}
