import Foundation
import SubscriberHost
import SubscriberKit

/// One canonical call: an event with ordinary, well-formed arguments, and a label for evidence.
struct CanonicalCall: Sendable {
    let call: EventCall
    /// "openURL #2": the event and which of its canonical inputs.
    let label: String

    var event: LifecycleEvent { call.event }
}

/// The canonical input of every event: what a real app sends, one or more variants each, in the
/// event table's order (the header's: launch, foreground and background, then the rest). Derived
/// from each row's argument schema, so a new event gets canonical input without an edit here unless
/// it brings a new shape.
enum CanonicalInput {
    /// Every canonical call, in event-table order.
    static let calls: [CanonicalCall] = EventTable.rows.flatMap { row in
        let variants = arguments(row.arguments)
        return variants.indices.map { index in
            CanonicalCall(call: EventCall(row.event, variants[index]), label: "\(row.event) #\(index + 1)")
        }
    }

    /// The canonical calls of the events in `events`, in event-table order.
    static func calls(for events: Set<LifecycleEvent>) -> [CanonicalCall] {
        calls.filter { events.contains($0.event) }
    }

    /// The ordinary arguments of `schema`, one per variant a real app sends.
    static func arguments(_ schema: ArgumentSchema) -> [EventArguments] {
        switch schema {
        case .none:
            return [.none]
        case .launchOptions:
            return [
                LaunchOptions(),
                LaunchOptions(url: URL(string: "news://article/42"), sourceApplication: "com.example.mail"),
                LaunchOptions(userActivity: article(in: UserActivity.browsingWeb)),
                LaunchOptions(remoteNotification: ["aps": ["alert": "Breaking news"], "articles": [42]]),
                LaunchOptions(shortcutItem: search),
                LaunchOptions(backgroundFetch: true),
            ].map(EventArguments.launch)
        case .deviceToken:
            return [.deviceToken(Data((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0xA1) }))]
        case .error:
            return [.error(LifecycleError(domain: "NSCocoaErrorDomain", code: 3010,
                                          message: "remote notifications are not supported"))]
        case .userInfo:
            return [.userInfo(["aps": ["content-available": 1], "articles": [["id": 42]]]),
                    .userInfo(["request": "latestHeadlines"])]
        case .text(let key, let defaultValue):
            return [.text(defaultValue ?? texts[key] ?? "com.example.news.\(key)")]
        case .openURL:
            return [.openURL(URL(string: "news://article/42")!, OpenURLOptions()),
                    .openURL(URL(string: "https://news.example.com/article/42")!,
                             OpenURLOptions(sourceApplication: "com.apple.mobilesafari", openInPlace: false))]
        case .userActivity:
            return [.userActivity(article(in: UserActivity.browsingWeb)),
                    .userActivity(UserActivity(activityType: "com.example.news.reading", userInfo: ["articleID": 42]))]
        case .activityFailure:
            return [.activityFailure(activityType: "com.example.news.reading",
                                     error: LifecycleError(domain: "NSCocoaErrorDomain", code: 4608,
                                                           message: "the activity could not be continued"))]
        case .shortcutItem:
            return [.shortcutItem(search)]
        case .idiom:
            return [.idiom(.phone), .idiom(.pad)]
        case .count:
            return [.count(2)]
        }
    }

    /// A string argument by its script key, for keys without a default.
    private static let texts: [String: String] = [
        "identifier": "com.example.news.background-download",
        "activityType": UserActivity.browsingWeb,
    ]

    private static let search = ShortcutItem(type: "com.example.news.search", title: "Search")

    private static func article(in activityType: String) -> UserActivity {
        UserActivity(activityType: activityType, webpageURL: URL(string: "https://news.example.com/article/42"))
    }
}
