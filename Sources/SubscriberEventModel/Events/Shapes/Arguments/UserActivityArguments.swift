import Foundation
import SubscriberABI
import SubscriberValues

/// The shape of the user-activity events: {activityType (required), webpageURL, userInfo}; in C an
/// `adh_user_activity`.
package enum UserActivityArguments: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> UserActivity {
        UserActivity(activityType: try reader.requiredString("activityType"), webpageURL: try reader.url("webpageURL"),
                     userInfo: try reader.object("userInfo") ?? [:])
    }

    package static func write(_ value: UserActivity, spec: Void, into object: inout JSONObject) {
        for (key, member) in value.json.members { object[key] = member }
    }

    package static func summary(_ value: UserActivity) -> String? {
        value.webpageURL.map { "\(value.activityType) \($0.absoluteString)" } ?? value.activityType
    }

    package static func encode(_ value: UserActivity, _ context: EncodingContext) -> EncodedPayload<adh_user_activity> {
        EncodedPayload { $0.userActivity(value, serial: context.serial) }
    }

    package static func cArguments(_ encoded: EncodedPayload<adh_user_activity>) -> UnsafePointer<adh_user_activity>? {
        encoded.pointer
    }

    package static func decode(_ arguments: UnsafePointer<adh_user_activity>?, problems: inout [String]) -> UserActivity? {
        guard let arguments else { return nil }
        return UserActivity(abi: ABI.readCovered(arguments), problems: &problems)
    }

    package static func serial(of arguments: UnsafePointer<adh_user_activity>?) -> UInt64 {
        arguments.map { ABI.serial($0) } ?? 0
    }

    package static func canonical(spec: Void) -> [UserActivity] {
        [UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/article/42")),
         UserActivity(activityType: "com.example.news.reading", userInfo: ["articleID": 42])]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedPayload<adh_user_activity> {
        EncodedPayload { $0.fuzzedUserActivity(&draw, serial: serial) }
    }
}

extension PayloadStorage {
    /// `activity` as an `adh_user_activity` whose strings live in this storage.
    package mutating func userActivity(_ activity: UserActivity, serial: UInt64) -> adh_user_activity {
        adh_user_activity(struct_size: UInt32(MemoryLayout<adh_user_activity>.size), serial: serial,
                          activity_type: string(activity.activityType), webpage_url: string(activity.webpageURL?.absoluteString),
                          user_info_json: json(.object(activity.userInfo)))
    }

    /// A hostile `adh_user_activity` drawn from `draw`.
    package mutating func fuzzedUserActivity(_ draw: inout some FuzzDraw, serial: UInt64) -> adh_user_activity {
        let type = draw.text("activityType", url: false), url = draw.optionalText("webpageURL", url: true)
        let userInfo = draw.optionalJSONObject("userInfo")
        return adh_user_activity(struct_size: UInt32(MemoryLayout<adh_user_activity>.size), serial: serial,
                                 activity_type: raw(type), webpage_url: raw(url), user_info_json: raw(userInfo))
    }
}

extension UserActivity {
    /// The activity an `adh_user_activity` describes; what cannot be read is named in `problems`.
    package init(abi payload: adh_user_activity, problems: inout [String]) {
        // Made at once from its parts (an activity made first and set field by field made an empty
        // userInfo object to throw away).
        var webpageURL: URL? = nil
        if let text = payload.webpage_url.string {
            webpageURL = ABI.absoluteURL(text)
            if webpageURL == nil {
                problems.append("user activity webpageURL: expected an absolute URL, found \"\(text)\"; read as absent")
            }
        }
        let (userInfo, problem) = ABI.jsonObject(payload.user_info_json, what: "user activity userInfo")
        if let problem { problems.append(problem) }
        self.init(activityType: payload.activity_type.string ?? "", webpageURL: webpageURL, userInfo: userInfo)
    }
}
