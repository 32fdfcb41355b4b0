import Foundation

/// How the app was launched, classified from its launch options — the "AppInvocationType" iOS apps
/// compute in `didFinishLaunching`. The host computes it once per launch and hands it to every
/// subscriber (``Application/launchInvocation``) and to its output.
public enum LaunchInvocation: Sendable, Hashable, CustomStringConvertible {
    /// A universal link: a browsing-web user activity with a web page URL.
    case deepLink(URL)
    /// A custom URL scheme: the `url` launch option.
    case urlScheme(URL)
    /// The user tapped a remote notification; its payload.
    case notification(JSONObject)
    /// The user chose a home-screen quick action; its type.
    case shortcut(String)
    /// The system launched the app in the background.
    case background(BackgroundLaunchReason)
    /// The user tapped the app's icon.
    case appIconClick
    /// Anything else, e.g. a user activity that is not a universal link.
    case unknown

    /// Classifies `options`. The checks run in this order: user activity, notification, URL,
    /// shortcut, background, icon; the first that applies wins.
    package init(classifying options: LaunchOptions) {
        if let activity = options.userActivity {
            if activity.activityType == UserActivity.browsingWeb, let url = activity.webpageURL {
                self = .deepLink(url)
            } else {
                self = .unknown
            }
        } else if let userInfo = options.remoteNotification {
            self = .notification(userInfo)
        } else if let url = options.url {
            self = .urlScheme(url)
        } else if let item = options.shortcutItem {
            self = .shortcut(item.type)
        } else if options.location {
            self = .background(.location)
        } else if options.bluetoothCentrals != nil || options.bluetoothPeripherals != nil {
            self = .background(.bluetooth)
        } else if options.backgroundFetch {
            self = .background(.fetch)
        } else if options.sourceApplication == nil {
            self = .appIconClick
        } else {
            self = .unknown
        }
    }

    /// Its place in the classification order (user activity, notification, URL, shortcut, background,
    /// icon): lower wins. A notification response while the app launches replaces a launch
    /// classified after notifications.
    package var precedence: Int {
        switch self {
        case .deepLink, .unknown: 0
        case .notification: 1
        case .urlScheme: 2
        case .shortcut: 3
        case .background: 4
        case .appIconClick: 5
        }
    }

    /// The case's name as it appears in output: "deepLink", "urlScheme", "notification", …
    public var kind: String {
        switch self {
        case .deepLink: "deepLink"
        case .urlScheme: "urlScheme"
        case .notification: "notification"
        case .shortcut: "shortcut"
        case .background: "background"
        case .appIconClick: "appIconClick"
        case .unknown: "unknown"
        }
    }

    /// As JSON: {"kind": "deepLink", "url": "…"}, {"kind": "notification", "userInfo": {…}}, …
    package var json: JSONObject {
        var object: JSONObject = ["kind": .string(kind)]
        switch self {
        case .deepLink(let url), .urlScheme(let url): object["url"] = .string(url.absoluteString)
        case .notification(let userInfo): object["userInfo"] = .object(userInfo)
        case .shortcut(let type): object["type"] = .string(type)
        case .background(let reason): object["reason"] = .string(reason.rawValue)
        case .appIconClick, .unknown: break
        }
        return object
    }

    public var description: String {
        switch self {
        case .deepLink(let url): "deepLink(\(url.absoluteString))"
        case .urlScheme(let url): "urlScheme(\(url.absoluteString))"
        case .notification(let userInfo): "notification(\(JSONValue.object(userInfo)))"
        case .shortcut(let type): "shortcut(\(type))"
        case .background(let reason): "background(\(reason.rawValue))"
        case .appIconClick: "appIconClick"
        case .unknown: "unknown"
        }
    }
}

/// Why the system launched the app in the background.
public enum BackgroundLaunchReason: Sendable, Hashable, CaseIterable {
    /// Launched for a location event.
    case location
    /// Launched for a Bluetooth accessory.
    case bluetooth
    /// Launched for a background fetch.
    case fetch

    /// The name in the C header's `detail` and in output ("location", "bluetooth", "fetch").
    @inlinable package var rawValue: String {
        switch self {
        case .location: "location"
        case .bluetooth: "bluetooth"
        case .fetch: "fetch"
        }
    }

    /// The case whose ``rawValue`` is `rawValue`, or nil.
    @inlinable package init?(rawValue: String) {
        switch rawValue {
        case "location": self = .location
        case "bluetooth": self = .bluetooth
        case "fetch": self = .fetch
        default: return nil
        }
    }
}
