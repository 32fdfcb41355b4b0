import Foundation

/// What an event carries besides the application, by shape: several events share a shape (the
/// launch events both carry launch options; three events carry one identifier string).
///
/// Build calls with the constructors of ``EventCall`` (`.openURL(url)`), which pair each event with
/// its shape; a host reads scripts into the same values.
public enum EventArguments: Sendable, Hashable {
    /// Nothing but the application.
    case none
    /// Launch options (`willFinishLaunching`, `didFinishLaunching`).
    case launch(LaunchOptions)
    /// A device token (`didRegisterForRemoteNotifications`).
    case deviceToken(Data)
    /// An error (`didFailToRegisterForRemoteNotifications`).
    case error(LifecycleError)
    /// A notification's or a request's `userInfo` (`didReceiveRemoteNotification`,
    /// `handleWatchKitExtensionRequest`).
    case userInfo(JSONObject)
    /// One string: a session identifier, an extension point, an activity type or a scene role.
    case text(String)
    /// A URL and its options (`openURL`).
    case openURL(URL, OpenURLOptions)
    /// A user activity (`continueUserActivity`, `didUpdateUserActivity`).
    case userActivity(UserActivity)
    /// An activity type and the error it failed with (`didFailToContinueUserActivity`).
    case activityFailure(activityType: String, error: LifecycleError)
    /// A home-screen quick action (`performActionForShortcutItem`).
    case shortcutItem(ShortcutItem)
    /// A user-interface idiom (`supportedInterfaceOrientations`).
    case idiom(UserInterfaceIdiom)
    /// A count (`didDiscardSceneSessions`).
    case count(Int)
}

// The typed reads the event handlers use (Subscriber/EventProtocols.swift). Every call is built for
// its event's shape (EventCall's constructors, or a script read through the event table), so a read
// of another shape cannot happen; it answers an empty value rather than trap.
extension EventArguments {
    package var launchOptions: LaunchOptions {
        if case .launch(let options) = self { return options }
        return LaunchOptions()
    }

    package var deviceToken: Data {
        if case .deviceToken(let token) = self { return token }
        return Data()
    }

    package var error: LifecycleError {
        switch self {
        case .error(let error), .activityFailure(_, let error): return error
        default: return LifecycleError(domain: "", code: 0, message: "")
        }
    }

    package var userInfo: JSONObject {
        if case .userInfo(let userInfo) = self { return userInfo }
        return [:]
    }

    package var text: String {
        switch self {
        case .text(let text), .activityFailure(let text, _): return text
        default: return ""
        }
    }

    package var url: URL {
        if case .openURL(let url, _) = self { return url }
        return EventArguments.emptyURL
    }

    package var openURLOptions: OpenURLOptions {
        if case .openURL(_, let options) = self { return options }
        return OpenURLOptions()
    }

    package var userActivity: UserActivity {
        if case .userActivity(let activity) = self { return activity }
        return UserActivity(activityType: "")
    }

    package var shortcutItem: ShortcutItem {
        if case .shortcutItem(let item) = self { return item }
        return ShortcutItem(type: "")
    }

    package var idiom: UserInterfaceIdiom {
        if case .idiom(let idiom) = self { return idiom }
        return .unspecified
    }

    package var count: Int {
        if case .count(let count) = self { return count }
        return 0
    }

    private static let emptyURL = URL(string: "about:blank")!
}
