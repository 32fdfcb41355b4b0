import Foundation
import SubscriberABI
import SubscriberValues

/// The shape of the launch events: launch options (default none: a launch from the icon), and in C
/// an `adh_launch` that also carries how the host classified the launch.
package enum LaunchArguments: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> LaunchOptions {
        guard let value = reader.value("launchOptions") else { return LaunchOptions() }
        return try LaunchOptions(json: value, path: reader.path(of: "launchOptions"))
    }

    package static func write(_ value: LaunchOptions, spec: Void, into object: inout JSONObject) {
        if !value.isEmpty { object["launchOptions"] = .object(value.json) }
    }

    // Launch events show none: their invocation says it better.
    package static func summary(_ value: LaunchOptions) -> String? { nil }

    /// The payload carries the application's launch invocation, classified from the options when unset.
    package static func encode(_ value: LaunchOptions, _ context: EncodingContext) -> EncodedPayload<adh_launch> {
        let invocation = context.launchInvocation ?? LaunchInvocation(classifying: value)
        return EncodedPayload { storage in
            adh_launch(struct_size: UInt32(MemoryLayout<adh_launch>.size), serial: context.serial,
                       options_json: storage.json(.object(value.json)), invocation: ABI.invocationKind(invocation),
                       invocation_detail: storage.string(ABI.invocationDetail(invocation)))
        }
    }

    package static func cArguments(_ encoded: EncodedPayload<adh_launch>) -> UnsafePointer<adh_launch>? { encoded.pointer }

    /// A NULL payload reads as no options (a launch from the icon).
    package static func decode(_ arguments: UnsafePointer<adh_launch>?, problems: inout [String]) -> LaunchOptions? {
        guard let arguments else { return LaunchOptions() }
        let payload = ABI.readCovered(arguments)
        do {
            guard let json = try ABI.parseJSON(payload.options_json) else { return LaunchOptions() }
            return try LaunchOptions(json: json, path: "launchOptions")
        } catch {
            problems.append("launch options: \(error); read as no options")
            return LaunchOptions()
        }
    }

    package static func serial(of arguments: UnsafePointer<adh_launch>?) -> UInt64 {
        arguments.map { ABI.serial($0) } ?? 0
    }

    package static var updatesApplication: Bool { true }

    package static func launchInvocation(of value: LaunchOptions) -> LaunchInvocation? { LaunchInvocation(classifying: value) }

    /// Every later event's `application.launchInvocation` is the one this launch carries.
    package static func update(_ application: inout Application, from arguments: UnsafePointer<adh_launch>?) {
        guard let arguments else { return application.launchInvocation = .appIconClick }
        let payload = ABI.readCovered(arguments)
        application.launchInvocation = ABI.invocation(kind: payload.invocation, detail: payload.invocation_detail)
    }

    package static func canonical(spec: Void) -> [LaunchOptions] {
        let article = UserActivity(activityType: UserActivity.browsingWeb,
                                   webpageURL: URL(string: "https://news.example.com/article/42"))
        return [
            LaunchOptions(),
            LaunchOptions(url: URL(string: "news://article/42"), sourceApplication: "com.example.mail"),
            LaunchOptions(userActivity: article),
            LaunchOptions(remoteNotification: ["aps": ["alert": "Breaking news"], "articles": [42]]),
            LaunchOptions(shortcutItem: ShortcutItem(type: "com.example.news.search", title: "Search")),
            LaunchOptions(backgroundFetch: true),
        ]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedPayload<adh_launch> {
        let options = draw.jsonObject("launchOptions")
        let kinds = Array(adh_invocation_kind(ADH_INVOCATION_UNKNOWN)...adh_invocation_kind(ADH_INVOCATION_BACKGROUND))
        let kind = draw.pick("invocation", kinds)
        let detail = draw.optionalText("invocationDetail", url: true)
        return EncodedPayload { storage in
            adh_launch(struct_size: UInt32(MemoryLayout<adh_launch>.size), serial: serial, options_json: storage.raw(options),
                       invocation: kind, invocation_detail: storage.raw(detail))
        }
    }
}
