/// UNNotification's counterpart: a notification delivered to the app (its request's identifier and
/// content).
public struct UserNotification: Sendable, Hashable {
    /// The request's identifier.
    public var identifier: String
    /// The content's `userInfo` (a remote notification's payload).
    public var userInfo: JSONObject
    /// The content's category, which chooses its actions; empty when none.
    public var categoryIdentifier: String

    /// A notification with the given identifier and content.
    public init(identifier: String, userInfo: JSONObject = [:], categoryIdentifier: String = "") {
        self.identifier = identifier
        self.userInfo = userInfo
        self.categoryIdentifier = categoryIdentifier
    }

    /// As JSON: {"identifier", "userInfo"?, "categoryIdentifier"?}.
    package var json: JSONObject {
        var object: JSONObject = ["identifier": .string(identifier)]
        if !userInfo.isEmpty { object["userInfo"] = .object(userInfo) }
        if !categoryIdentifier.isEmpty { object["categoryIdentifier"] = .string(categoryIdentifier) }
        return object
    }

    /// Reads a notification written as ``json``; errors name the key path under `path`.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        try self.init(reading: &reader)
    }

    /// Reads a notification's keys through `reader`, and rejects any other.
    package init(reading reader: inout JSONObjectReader) throws(JSONShapeError) {
        identifier = try reader.requiredString("identifier")
        userInfo = try reader.object("userInfo") ?? [:]
        categoryIdentifier = try reader.string("categoryIdentifier") ?? ""
        try reader.rejectUnknownKeys()
    }
}

extension JSONObjectReader {
    /// Member `key` as a notification ({"identifier", "userInfo"?, "categoryIdentifier"?}); nil when
    /// absent, or, over a line's bytes, when it does not parse (then ``isIntact`` is false). Over a
    /// line's bytes, read from its own: built as a `JSONObject` by the parser first (its `userInfo`
    /// makes it more than plain strings) and read again, it cost about 5,900 instructions more.
    package mutating func notification(_ key: String) throws(JSONShapeError) -> UserNotification? {
        if let notification = try flatObject(key, { (reader) throws(JSONShapeError) in
            try UserNotification(reading: &reader)
        }) {
            return notification
        }
        guard let value = value(key) else { return nil }
        return try UserNotification(json: value, path: path(of: key))
    }
}

/// UNNotificationResponse's counterpart: what the user did with a notification.
public struct NotificationResponse: Sendable, Hashable {
    /// The action of a tap on the notification itself (UNNotificationDefaultActionIdentifier).
    public static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
    /// The action of a dismissal (UNNotificationDismissActionIdentifier).
    public static let dismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

    /// The notification responded to.
    public var notification: UserNotification
    /// ``defaultActionIdentifier``, ``dismissActionIdentifier`` or one of the category's actions.
    public var actionIdentifier: String
    /// The text the user typed (UNTextInputNotificationResponse); nil for any other response.
    public var userText: String?

    /// A response to `notification`; a tap on it by default.
    public init(notification: UserNotification, actionIdentifier: String = NotificationResponse.defaultActionIdentifier,
                userText: String? = nil) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        self.userText = userText
    }

    /// As JSON: {"notification", "actionIdentifier", "userText"?}.
    package var json: JSONObject {
        var object: JSONObject = ["notification": .object(notification.json), "actionIdentifier": .string(actionIdentifier)]
        if let userText { object["userText"] = .string(userText) }
        return object
    }

    /// Reads a response written as ``json``; errors name the key path under `path`.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        try self.init(reading: &reader)
        try reader.rejectUnknownKeys()
    }

    /// Reads the response's keys through `reader` (the caller rejects unknown keys).
    package init(reading reader: inout JSONObjectReader) throws(JSONShapeError) {
        guard let notification = try reader.notification("notification") else {
            throw JSONShapeError(path: reader.path(of: "notification"), expected: "a notification {\"identifier\", …}",
                                 found: "nothing")
        }
        self.notification = notification
        actionIdentifier = try reader.string("actionIdentifier") ?? Self.defaultActionIdentifier
        userText = try reader.string("userText")
    }
}

/// UNNotificationPresentationOptions: how a notification that arrives while the app is in the
/// foreground is presented. Bits are UIKit's and the C header's (`ADH_PRESENTATION_*`).
///
/// A set of options, written as UIKit's is (`[.banner, .sound]`, `[]`), with the set operations a
/// subscriber needs; not an `OptionSet`, whose `SetAlgebra` members would be most of what plugin
/// authors see.
public struct NotificationPresentationOptions: Sendable, Hashable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The bits, as the C header's `ADH_PRESENTATION_*`.
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The options of `elements` together.
    public init(arrayLiteral elements: NotificationPresentationOptions...) {
        rawValue = elements.reduce(0) { $0 | $1.rawValue }
    }

    /// Whether every option of `other` is set here.
    public func contains(_ other: NotificationPresentationOptions) -> Bool { rawValue & other.rawValue == other.rawValue }
    /// The options set here or in `other`.
    public func union(_ other: NotificationPresentationOptions) -> NotificationPresentationOptions {
        Self(rawValue: rawValue | other.rawValue)
    }
    /// The options set both here and in `other`.
    public func intersection(_ other: NotificationPresentationOptions) -> NotificationPresentationOptions {
        Self(rawValue: rawValue & other.rawValue)
    }
    /// Whether no option is set.
    public var isEmpty: Bool { rawValue == 0 }
    /// Sets the options of `other` too.
    package mutating func formUnion(_ other: NotificationPresentationOptions) { self = union(other) }
    /// Sets the options of `other` too.
    package mutating func insert(_ other: NotificationPresentationOptions) { self = union(other) }

    /// Update the app's badge.
    public static let badge = NotificationPresentationOptions(rawValue: 1 << 0)
    /// Play the sound.
    public static let sound = NotificationPresentationOptions(rawValue: 1 << 1)
    /// Show it in Notification Center.
    public static let list = NotificationPresentationOptions(rawValue: 1 << 3)
    /// Show it as a banner.
    public static let banner = NotificationPresentationOptions(rawValue: 1 << 4)

    /// Each option with its name, in UIKit's order of bits.
    package static let named: [(name: String, option: NotificationPresentationOptions)] = [
        ("badge", .badge), ("sound", .sound), ("list", .list), ("banner", .banner),
    ]

    /// The names of the options set, in order; bits without a name are left out.
    public var names: [String] { Self.named.filter { contains($0.option) }.map(\.name) }

    /// "[banner, sound]", "[]".
    public var description: String { "[" + names.joined(separator: ", ") + "]" }
}
