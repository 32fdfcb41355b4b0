import SubscriberABI
import SubscriberValues

/// The shape of `notifications.willPresent`: a notification under the script key `notification`;
/// in C an `adh_notification`.
package enum NotificationArguments: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> UserNotification {
        guard let notification = try reader.notification("notification") else {
            throw JSONShapeError(path: reader.path(of: "notification"), expected: "a notification {\"identifier\", …}",
                                 found: "nothing")
        }
        return notification
    }

    package static func write(_ value: UserNotification, spec: Void, into object: inout JSONObject) {
        object["notification"] = .object(value.json)
    }

    package static func summary(_ value: UserNotification) -> String? { value.identifier }

    package static func encode(_ value: UserNotification, _ context: EncodingContext) -> EncodedPayload<adh_notification> {
        EncodedPayload { $0.notification(value, serial: context.serial) }
    }

    package static func cArguments(_ encoded: EncodedPayload<adh_notification>) -> UnsafePointer<adh_notification>? {
        encoded.pointer
    }

    package static func decode(_ arguments: UnsafePointer<adh_notification>?, problems: inout [String]) -> UserNotification? {
        guard let arguments else { return nil }
        return UserNotification(abi: ABI.readCovered(arguments), problems: &problems)
    }

    package static func serial(of arguments: UnsafePointer<adh_notification>?) -> UInt64 {
        arguments.map { ABI.serial($0) } ?? 0
    }

    package static func canonical(spec: Void) -> [UserNotification] {
        [UserNotification(identifier: "breaking-42", userInfo: ["articles": [42]], categoryIdentifier: "article"),
         UserNotification(identifier: "digest")]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedPayload<adh_notification> {
        EncodedPayload { $0.fuzzedNotification(&draw, serial: serial) }
    }
}

/// The shape of `notifications.didReceiveResponse`: {notification, actionIdentifier (default: a tap),
/// userText}; in C an `adh_notification_response` pointing to its `adh_notification`.
package enum NotificationResponseArguments: ArgumentShape {
    package final class Encoded: @unchecked Sendable {
        // @unchecked: immutable after init.
        let notification: EncodedPayload<adh_notification>
        let response: EncodedPayload<adh_notification_response>

        init(notification: EncodedPayload<adh_notification>, response: (inout PayloadStorage) -> adh_notification_response) {
            self.notification = notification
            self.response = EncodedPayload(response)
        }
    }

    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> NotificationResponse {
        try NotificationResponse(reading: &reader)
    }

    package static func write(_ value: NotificationResponse, spec: Void, into object: inout JSONObject) {
        for (key, member) in value.json.members { object[key] = member }
    }

    /// A response while the app launches is what launched it (the host decides whether it launches).
    package static func launchInvocation(of value: NotificationResponse) -> LaunchInvocation? {
        .notification(value.notification.userInfo)
    }

    package static var readsLaunchInvocation: Bool { true }

    package static func summary(_ value: NotificationResponse) -> String? {
        "\(value.notification.identifier) \(value.actionIdentifier)"
    }

    package static func encode(_ value: NotificationResponse, _ context: EncodingContext) -> Encoded {
        let notification = EncodedPayload { $0.notification(value.notification, serial: context.serial) }
        return Encoded(notification: notification) { storage in
            adh_notification_response(struct_size: UInt32(MemoryLayout<adh_notification_response>.size),
                                      serial: context.serial, notification: notification.pointer,
                                      action_identifier: storage.string(value.actionIdentifier),
                                      user_text: storage.string(value.userText))
        }
    }

    package static func cArguments(_ encoded: Encoded) -> UnsafePointer<adh_notification_response>? {
        encoded.response.pointer
    }

    package static func decode(_ arguments: UnsafePointer<adh_notification_response>?,
                               problems: inout [String]) -> NotificationResponse? {
        guard let arguments else { return nil }
        let payload = ABI.readCovered(arguments)
        guard let notification = payload.notification else {
            problems.append("notification response: expected a notification, found NULL; not delivered")
            return nil
        }
        return NotificationResponse(notification: UserNotification(abi: ABI.readCovered(notification), problems: &problems),
                                    actionIdentifier: payload.action_identifier.string ?? NotificationResponse.defaultActionIdentifier,
                                    userText: payload.user_text.string)
    }

    package static func serial(of arguments: UnsafePointer<adh_notification_response>?) -> UInt64 {
        arguments.map { ABI.serial($0) } ?? 0
    }

    package static func canonical(spec: Void) -> [NotificationResponse] {
        let notification = UserNotification(identifier: "breaking-42", userInfo: ["articles": [42]], categoryIdentifier: "article")
        return [NotificationResponse(notification: notification),
                NotificationResponse(notification: notification, actionIdentifier: "reply", userText: "Thanks")]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> Encoded {
        let notification = EncodedPayload { $0.fuzzedNotification(&draw, serial: serial) }
        let action = draw.text("actionIdentifier", url: false), text = draw.optionalText("userText", url: false)
        return Encoded(notification: notification) { storage in
            adh_notification_response(struct_size: UInt32(MemoryLayout<adh_notification_response>.size), serial: serial,
                                      notification: notification.pointer, action_identifier: storage.raw(action),
                                      user_text: storage.raw(text))
        }
    }
}

/// The shape of `notifications.openSettings`: the notification the settings were opened from, or
/// none (opened from Settings); NULL in C.
package enum OptionalNotificationArgument: ArgumentShape {
    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> UserNotification? {
        try reader.notification("notification")
    }

    package static func write(_ value: UserNotification?, spec: Void, into object: inout JSONObject) {
        if let value { object["notification"] = .object(value.json) }
    }

    package static func summary(_ value: UserNotification?) -> String? { value?.identifier }

    package static func encode(_ value: UserNotification?, _ context: EncodingContext) -> EncodedPayload<adh_notification>? {
        value.map { NotificationArguments.encode($0, context) }
    }

    package static func cArguments(_ encoded: EncodedPayload<adh_notification>?) -> UnsafePointer<adh_notification>? {
        encoded?.pointer
    }

    package static func decode(_ arguments: UnsafePointer<adh_notification>?, problems: inout [String]) -> UserNotification?? {
        .some(NotificationArguments.decode(arguments, problems: &problems))
    }

    package static func canonical(spec: Void) -> [UserNotification?] {
        [nil, UserNotification(identifier: "breaking-42", categoryIdentifier: "article")]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedPayload<adh_notification>? {
        NotificationArguments.fuzzed(&draw, spec: (), serial: serial)
    }
}

extension PayloadStorage {
    /// `notification` as an `adh_notification` whose strings live in this storage.
    package mutating func notification(_ notification: UserNotification, serial: UInt64) -> adh_notification {
        adh_notification(struct_size: UInt32(MemoryLayout<adh_notification>.size), serial: serial,
                         identifier: string(notification.identifier), user_info_json: json(.object(notification.userInfo)),
                         category_identifier: string(notification.categoryIdentifier))
    }

    /// A hostile `adh_notification` drawn from `draw`.
    package mutating func fuzzedNotification(_ draw: inout some FuzzDraw, serial: UInt64) -> adh_notification {
        let identifier = draw.text("notification.identifier", url: false)
        let userInfo = draw.optionalJSONObject("notification.userInfo")
        let category = draw.text("notification.categoryIdentifier", url: false)
        return adh_notification(struct_size: UInt32(MemoryLayout<adh_notification>.size), serial: serial,
                                identifier: raw(identifier), user_info_json: raw(userInfo), category_identifier: raw(category))
    }
}

extension UserNotification {
    /// The notification an `adh_notification` describes; what cannot be read is named in `problems`.
    package init(abi payload: adh_notification, problems: inout [String]) {
        let (userInfo, problem) = ABI.jsonObject(payload.user_info_json, what: "notification userInfo")
        if let problem { problems.append(problem) }
        self.init(identifier: payload.identifier.string ?? "", userInfo: userInfo,
                  categoryIdentifier: payload.category_identifier.string ?? "")
    }
}
