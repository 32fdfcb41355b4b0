import Foundation
import SubscriberKit
import SubscriberEventModel

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

    /// The events the last ``run(_:calls:)`` to end sent, in order, each once: held against the event
    /// table (every app delegate event), so an event added to the table and not to the script fails a
    /// test. Set when a run ends: runs of other tests overlap at their awaits.
    private(set) static var driven: [LifecycleEvent] = []

    /// The script's lines for `subscriber`, which calls each completion `calls` times.
    static func run(_ subscriber: Solo, calls: Int) async -> [String] {
        var sent: [LifecycleEvent] = []
        func drive(_ event: LifecycleEvent) { if !sent.contains(event) { sent.append(event) } }
        var lines: [String] = ["responds: \(subscriber.respondingEvents)"]
        func line(_ label: String, _ answer: (any Sendable)?, of event: LifecycleEvent) {
            lines.append("\(label) -> " + (answer.map { event.row.json(answer: $0).serialized() } ?? "nil"))
        }
        func ask<I, F>(_ label: String, _ call: EventCall<I, F>) {
            drive(call.event)
            line(label, subscriber.answer(call), of: call.event)
        }
        func notify<I, F>(_ call: EventCall<I, F>) { drive(call.event); _ = subscriber.answer(call) }
        /// "called <value>", "declined"; with "; called again" when a second call came (the host's
        /// duplicate report, at once or later).
        func complete<I, F>(_ label: String, _ call: EventCall<I, F>) async {
            drive(call.event)
            let outcome = await subscriber.deliver(call)
            var text = outcome.answers.first.map { "called " + ($0.answer.map { call.event.row.json(answer: $0).serialized() } ?? "nil") }
                ?? "declined"
            if calls > 1, await subscriber.duplicateReported(in: outcome) { text += "; called again" }
            lines.append("\(label) -> \(text)")
        }

        for options in launches {
            ask("willFinish", .willFinishLaunching(options: options))
            ask("didFinish", .didFinishLaunching(options: options))
            notify(.didBecomeActive)
            ask("configuration(main)", .configurationForConnecting(sceneRole: "main"))
        }
        notify(.willResignActive)
        notify(.didEnterBackground)
        notify(.willEnterForeground)
        notify(.didReceiveMemoryWarning)
        notify(.significantTimeChange)
        notify(.protectedDataWillBecomeUnavailable)
        notify(.protectedDataDidBecomeAvailable)
        notify(.didRegisterForRemoteNotifications(deviceToken: Data([0xde, 0xad, 0x00, 0x01])))
        notify(.didRegisterForRemoteNotifications(deviceToken: Data()))
        notify(.didFailToRegisterForRemoteNotifications(error: LifecycleError(domain: "com.example.push", code: -3,
                                                                               message: "no network")))

        for userInfo: JSONObject in [["result": "failed"], ["result": "newData", "n": 1], ["other": true]] {
            await complete("remoteNotification(\(JSONValue.object(userInfo)))", .didReceiveRemoteNotification(userInfo: userInfo))
        }
        await complete("performFetch", .performFetch)
        for identifier in ["com.example.session", "decline"] {
            await complete("backgroundSession(\(identifier))", .handleEventsForBackgroundURLSession(identifier: identifier))
        }

        for (url, options) in urls {
            ask("openURL(\(url))", .openURL(url: url, options: options))
        }
        for type in ["com.example.reading", "org.other", ""] {
            ask("willContinue(\(type))", .willContinueUserActivity(activityType: type))
        }
        for activity in activities {
            drive(.continueUserActivity)
            let outcome = await subscriber.deliver(.continueUserActivity(activity))
            let restored = outcome.result.restorableObjects.map { JSONValue.array($0.map { .string($0) }).serialized() }
            var text = "continue(\(activity.activityType)) -> \(outcome.result.handled) restored \(restored ?? "nothing")"
            if calls > 1, await subscriber.duplicateReported(in: outcome) { text += "; called again" }
            lines.append(text)
            notify(.didUpdateUserActivity(activity))
        }
        notify(.didFailToContinueUserActivity(activityType: "com.example.reading",
                                              error: LifecycleError(domain: "NSCocoaErrorDomain", code: 4, message: "gone")))
        for item in [ShortcutItem(type: "com.example.news.search", title: "Search", userInfo: ["q": ""]),
                     ShortcutItem(type: "com.example.news.compose")] {
            await complete("shortcut(\(item.type))", .performActionForShortcutItem(item))
        }

        for idiom in UserInterfaceIdiom.allCases {
            ask("orientations(\(idiom))", .supportedInterfaceOrientations(idiom: idiom))
        }
        for identifier in ["com.apple.keyboard-service", "com.example.share", ""] {
            ask("allowExtension(\(identifier))", .shouldAllowExtensionPointIdentifier(identifier: identifier))
        }
        ask("shouldSave", .shouldSaveSecureApplicationState)
        ask("shouldRestore", .shouldRestoreSecureApplicationState)
        for role in ["external", "none", ""] {
            ask("configuration(\(role))", .configurationForConnecting(sceneRole: role))
        }
        notify(.didDiscardSceneSessions(count: 3))
        for userInfo: JSONObject in [["ask": "weather", "units": ["c", "f"]], [:]] {
            await complete("watchKit(\(JSONValue.object(userInfo)))", .handleWatchKitExtensionRequest(userInfo: userInfo))
        }
        notify(.willTerminate)
        driven = sent
        return lines
    }
}
