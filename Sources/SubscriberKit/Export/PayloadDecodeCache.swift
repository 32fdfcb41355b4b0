import Foundation
import SubscriberABI

/// The last decoded payload of each kind, keyed by the host's `serial`, so that the many subscribers
/// one image serves decode an event's payload once: the host gives equal payloads the same serial
/// (adh/payloads.h). Serial 0 is never cached (a host that does not number its events).
@MainActor
final class PayloadDecodeCache {
    /// This image's cache.
    static let shared = PayloadDecodeCache()

    /// How many payloads were decoded (not served from the cache); for tests and diagnostics.
    private(set) var decodeCount = 0

    private var launch = Slot<DecodedLaunch>()
    private var openURL = Slot<DecodedOpenURL>()
    private var userActivity = Slot<DecodedUserActivity>()
    private var shortcutItem = Slot<DecodedShortcutItem>()

    /// The launch payload at `pointer`; `fresh` is true when it was decoded by this call.
    func launch(_ pointer: UnsafePointer<adh_launch>) -> (value: DecodedLaunch, fresh: Bool) {
        let payload = ABI.readCovered(pointer)
        return decode(&launch, serial: payload.serial) { DecodedLaunch(payload) }
    }

    /// The open-URL payload at `pointer`.
    func openURL(_ pointer: UnsafePointer<adh_open_url>) -> (value: DecodedOpenURL, fresh: Bool) {
        let payload = ABI.readCovered(pointer)
        return decode(&openURL, serial: payload.serial) { DecodedOpenURL(payload) }
    }

    /// The user-activity payload at `pointer`.
    func userActivity(_ pointer: UnsafePointer<adh_user_activity>) -> (value: DecodedUserActivity, fresh: Bool) {
        let payload = ABI.readCovered(pointer)
        return decode(&userActivity, serial: payload.serial) { DecodedUserActivity(payload) }
    }

    /// The shortcut-item payload at `pointer`.
    func shortcutItem(_ pointer: UnsafePointer<adh_shortcut_item>) -> (value: DecodedShortcutItem, fresh: Bool) {
        let payload = ABI.readCovered(pointer)
        return decode(&shortcutItem, serial: payload.serial) { DecodedShortcutItem(payload) }
    }

    private struct Slot<Value> {
        var serial: UInt64 = 0
        var value: Value?
    }

    private func decode<Value>(_ slot: inout Slot<Value>, serial: UInt64, _ make: () -> Value)
        -> (value: Value, fresh: Bool)
    {
        if serial != 0, slot.serial == serial, let value = slot.value { return (value, false) }
        decodeCount += 1
        let value = make()
        slot = Slot(serial: serial, value: value)
        return (value, true)
    }
}

/// A decoded adh_launch. `problems` names what could not be decoded (and was read as absent).
struct DecodedLaunch {
    var options = LaunchOptions()
    var invocation: LaunchInvocation
    var problems: [String] = []

    init(_ payload: adh_launch) {
        invocation = ABI.invocation(kind: payload.invocation, detail: payload.invocation_detail)
        do {
            if let json = try ABI.parseJSON(payload.options_json) {
                options = try LaunchOptions(json: json, path: "launchOptions")
            }
        } catch {
            problems.append("launch options: \(error); read as no options")
        }
    }
}

/// A decoded adh_open_url. `url` is nil when the payload's URL is not an absolute URL.
struct DecodedOpenURL {
    var url: URL?
    var options = OpenURLOptions()
    var problems: [String] = []

    init(_ payload: adh_open_url) {
        url = ABI.absoluteURL(payload.url.string)
        if url == nil {
            let found = payload.url.string.map { "\"\($0)\"" } ?? "nothing"
            problems.append("openURL: expected an absolute URL, found \(found); not delivered (no opinion)")
        }
        options.sourceApplication = payload.source_application.string
        options.openInPlace = payload.open_in_place == ADH_TRUE
        do {
            options.annotation = try ABI.parseJSON(payload.annotation_json)
        } catch {
            problems.append("openURL annotation: expected JSON, found invalid JSON (\(error)); read as absent")
        }
    }
}

/// A decoded adh_user_activity.
struct DecodedUserActivity {
    var activity: UserActivity
    var problems: [String] = []

    init(_ payload: adh_user_activity) {
        activity = UserActivity(activityType: payload.activity_type.string ?? "")
        if let text = payload.webpage_url.string {
            activity.webpageURL = ABI.absoluteURL(text)
            if activity.webpageURL == nil {
                problems.append("user activity webpageURL: expected an absolute URL, found \"\(text)\"; read as absent")
            }
        }
        let (userInfo, problem) = ABI.jsonObject(payload.user_info_json, what: "user activity userInfo")
        activity.userInfo = userInfo
        if let problem { problems.append(problem) }
    }
}

/// A decoded adh_shortcut_item.
struct DecodedShortcutItem {
    var item: ShortcutItem
    var problems: [String] = []

    init(_ payload: adh_shortcut_item) {
        let (userInfo, problem) = ABI.jsonObject(payload.user_info_json, what: "shortcut item userInfo")
        item = ShortcutItem(type: payload.type.string ?? "", title: payload.title.string ?? "", userInfo: userInfo)
        if let problem { problems.append(problem) }
    }
}
