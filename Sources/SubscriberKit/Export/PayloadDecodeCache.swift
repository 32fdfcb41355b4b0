import Foundation
import SubscriberABI

/// The last decoded payload of each kind, keyed by the host's `serial`, so that the many subscribers
/// one image serves decode an event's payload once: the host gives equal payloads the same serial
/// (adh/payloads.h). Serial 0 is never cached (a host that does not number its events).
/// A decoded payload is an immutable object: each subscriber borrows its URL, options and strings
/// instead of copying them.
@MainActor
final class PayloadDecodeCache {
    /// This image's cache.
    static let shared = PayloadDecodeCache()

    /// How many payloads were decoded (not served from the cache); for tests and diagnostics.
    private(set) var decodeCount = 0

    private var launch: DecodedLaunch?
    private var openURL: DecodedOpenURL?
    private var userActivity: DecodedUserActivity?
    private var shortcutItem: DecodedShortcutItem?

    // No helper shared by the four: an `inout` slot or a generic box makes every lookup pay for
    // dynamic exclusivity checks or value witnesses, per subscriber.

    /// The launch payload at `pointer`; `fresh` is true when it was decoded by this call.
    func launch(_ pointer: UnsafePointer<adh_launch>) -> (decoded: DecodedLaunch, fresh: Bool) {
        let payload = ABI.readCovered(pointer)
        if payload.serial != 0, let launch, launch.serial == payload.serial { return (launch, false) }
        decodeCount += 1
        let decoded = DecodedLaunch(payload)
        launch = decoded
        return (decoded, true)
    }

    /// The open-URL payload at `pointer`.
    func openURL(_ pointer: UnsafePointer<adh_open_url>) -> (decoded: DecodedOpenURL, fresh: Bool) {
        let payload = ABI.readCovered(pointer)
        if payload.serial != 0, let openURL, openURL.serial == payload.serial { return (openURL, false) }
        decodeCount += 1
        let decoded = DecodedOpenURL(payload)
        openURL = decoded
        return (decoded, true)
    }

    /// The user-activity payload at `pointer`.
    func userActivity(_ pointer: UnsafePointer<adh_user_activity>) -> (decoded: DecodedUserActivity, fresh: Bool) {
        let payload = ABI.readCovered(pointer)
        if payload.serial != 0, let userActivity, userActivity.serial == payload.serial { return (userActivity, false) }
        decodeCount += 1
        let decoded = DecodedUserActivity(payload)
        userActivity = decoded
        return (decoded, true)
    }

    /// The shortcut-item payload at `pointer`.
    func shortcutItem(_ pointer: UnsafePointer<adh_shortcut_item>) -> (decoded: DecodedShortcutItem, fresh: Bool) {
        let payload = ABI.readCovered(pointer)
        if payload.serial != 0, let shortcutItem, shortcutItem.serial == payload.serial { return (shortcutItem, false) }
        decodeCount += 1
        let decoded = DecodedShortcutItem(payload)
        shortcutItem = decoded
        return (decoded, true)
    }
}

/// A decoded adh_launch. `problems` names what could not be decoded (and was read as absent).
final class DecodedLaunch {
    let serial: UInt64
    let options: LaunchOptions
    let invocation: LaunchInvocation
    let problems: [String]

    init(_ payload: adh_launch) {
        serial = payload.serial
        invocation = ABI.invocation(kind: payload.invocation, detail: payload.invocation_detail)
        var options = LaunchOptions()
        var problems: [String] = []
        do {
            if let json = try ABI.parseJSON(payload.options_json) {
                options = try LaunchOptions(json: json, path: "launchOptions")
            }
        } catch {
            problems.append("launch options: \(error); read as no options")
        }
        self.options = options
        self.problems = problems
    }
}

/// A decoded adh_open_url. `url` is nil when the payload's URL is not an absolute URL.
final class DecodedOpenURL {
    let serial: UInt64
    let url: URL?
    let options: OpenURLOptions
    let problems: [String]

    init(_ payload: adh_open_url) {
        serial = payload.serial
        url = ABI.absoluteURL(payload.url.string)
        var problems: [String] = []
        if url == nil {
            let found = payload.url.string.map { "\"\($0)\"" } ?? "nothing"
            problems.append("openURL: expected an absolute URL, found \(found); not delivered (no opinion)")
        }
        var options = OpenURLOptions()
        options.sourceApplication = payload.source_application.string
        options.openInPlace = payload.open_in_place == ADH_TRUE
        do {
            options.annotation = try ABI.parseJSON(payload.annotation_json)
        } catch {
            problems.append("openURL annotation: expected JSON, found invalid JSON (\(error)); read as absent")
        }
        self.options = options
        self.problems = problems
    }
}

/// A decoded adh_user_activity.
final class DecodedUserActivity {
    let serial: UInt64
    let activity: UserActivity
    let problems: [String]

    init(_ payload: adh_user_activity) {
        serial = payload.serial
        var activity = UserActivity(activityType: payload.activity_type.string ?? "")
        var problems: [String] = []
        if let text = payload.webpage_url.string {
            activity.webpageURL = ABI.absoluteURL(text)
            if activity.webpageURL == nil {
                problems.append("user activity webpageURL: expected an absolute URL, found \"\(text)\"; read as absent")
            }
        }
        let (userInfo, problem) = ABI.jsonObject(payload.user_info_json, what: "user activity userInfo")
        activity.userInfo = userInfo
        if let problem { problems.append(problem) }
        self.activity = activity
        self.problems = problems
    }
}

/// A decoded adh_shortcut_item.
final class DecodedShortcutItem {
    let serial: UInt64
    let item: ShortcutItem
    let problems: [String]

    init(_ payload: adh_shortcut_item) {
        serial = payload.serial
        let (userInfo, problem) = ABI.jsonObject(payload.user_info_json, what: "shortcut item userInfo")
        item = ShortcutItem(type: payload.type.string ?? "", title: payload.title.string ?? "", userInfo: userInfo)
        problems = problem.map { [$0] } ?? []
    }
}
