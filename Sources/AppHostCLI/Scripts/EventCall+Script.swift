import Foundation
import SubscriberKit

extension EventCall {
    /// Reads one event-script object (docs/cli.md): `{"event": "<wire name>", …arguments}`, the
    /// arguments named as in docs/events.md.
    ///
    /// The event's row in the event table says which keys it takes (``ArgumentSchema``): launch
    /// events `launchOptions` (default none: a launch from the icon); `openURL` `url` and `options`
    /// (sourceApplication, annotation, openInPlace); `didRegisterForRemoteNotifications`
    /// `deviceToken` (hex); `didFailToRegisterForRemoteNotifications` `error`
    /// ({"domain", "code", "message"}); `didReceiveRemoteNotification` and
    /// `handleWatchKitExtensionRequest` `userInfo` (default {}); the user-activity events
    /// `activityType`, `webpageURL`, `userInfo`; `performActionForShortcutItem` `type`, `title`,
    /// `userInfo`; `supportedInterfaceOrientations` `idiom` (default phone);
    /// `handleEventsForBackgroundURLSession` and `shouldAllowExtensionPointIdentifier` `identifier`;
    /// `configurationForConnecting` `sceneRole` (default UIWindowSceneSessionRoleApplication);
    /// `didDiscardSceneSessions` `count` (default 1). Unknown keys and wrong types are errors naming
    /// the key path under `path`.
    package init(json: JSONValue, path: String = "") throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        let name = try reader.requiredString("event")
        guard let event = LifecycleEvent(rawValue: name) else {
            throw JSONShapeError(path: reader.path(of: "event"), expected: "an event wire name such as performFetch",
                                 found: JSONValue.string(name).shapeDescription)
        }
        self.init(event, try reader.arguments(event.row.arguments, path: path))
    }
}

extension JSONObjectReader {
    /// The members `schema` names, read into arguments; every other member (but `"event"`) is an error.
    fileprivate mutating func arguments(_ schema: ArgumentSchema, path: String) throws(JSONShapeError) -> EventArguments {
        let arguments: EventArguments
        switch schema {
        case .none:
            arguments = .none
        case .launchOptions:
            arguments = .launch(try value("launchOptions").map { (value) throws(JSONShapeError) in
                try LaunchOptions(json: value, path: self.path(of: "launchOptions"))
            } ?? LaunchOptions())
        case .deviceToken:
            arguments = .deviceToken(try hexBytes("deviceToken"))
        case .error:
            arguments = .error(try lifecycleError("error"))
        case .userInfo:
            arguments = .userInfo(try object("userInfo") ?? [:])
        case .text(let key, let defaultValue?):
            arguments = .text(try string(key) ?? defaultValue)
        case .text(let key, nil):
            arguments = .text(try requiredString(key))
        case .openURL:
            guard let url = try url("url") else {
                throw JSONShapeError(path: self.path(of: "url"), expected: "an absolute URL", found: "nothing")
            }
            let options = try value("options").map { (value) throws(JSONShapeError) in
                try OpenURLOptions(json: value, path: self.path(of: "options"))
            } ?? OpenURLOptions()
            arguments = .openURL(url, options)
        case .userActivity:
            // The activity reads the whole object and checks its keys itself.
            return .userActivity(try UserActivity(json: .object(membersButEvent), path: path))
        case .activityFailure:
            arguments = .activityFailure(activityType: try requiredString("activityType"), error: try lifecycleError("error"))
        case .shortcutItem:
            // The item reads the whole object and checks its keys itself.
            return .shortcutItem(try ShortcutItem(json: .object(membersButEvent), path: path))
        case .idiom:
            let idiomName = try string("idiom") ?? UserInterfaceIdiom.phone.name
            guard let idiom = UserInterfaceIdiom(name: idiomName) else {
                let names = UserInterfaceIdiom.allCases.map(\.name).joined(separator: ", ")
                throw JSONShapeError(path: self.path(of: "idiom"), expected: "one of \(names)",
                                     found: JSONValue.string(idiomName).shapeDescription)
            }
            arguments = .idiom(idiom)
        case .count:
            let count = try int("count") ?? 1
            guard count >= 0 else {
                throw JSONShapeError(path: self.path(of: "count"), expected: "a count of 0 or more",
                                     found: JSONValue.number(Double(count)).shapeDescription)
            }
            arguments = .count(count)
        }
        try rejectUnknownKeys()
        return arguments
    }

    /// The object's members without `"event"`, for the values that read a whole object.
    private var membersButEvent: JSONObject {
        var members = object
        members["event"] = nil
        return members
    }

    /// Member `key` as bytes written in hexadecimal ("0a1b…"), which must be present.
    fileprivate mutating func hexBytes(_ key: String) throws(JSONShapeError) -> Data {
        let text = try requiredString(key)
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in text.utf8 {
            guard let nibble = Self.hexValue(character) else { throw mismatch(key, "hexadecimal bytes", .string(text)) }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard high == nil else { throw mismatch(key, "an even number of hexadecimal digits", .string(text)) }
        return Data(bytes)
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Member `key` as {"domain", "code", "message"} (code and message optional), which must be present.
    fileprivate mutating func lifecycleError(_ key: String) throws(JSONShapeError) -> LifecycleError {
        guard let value = value(key) else {
            throw JSONShapeError(path: path(of: key), expected: "an error {\"domain\", \"code\", \"message\"}", found: "nothing")
        }
        var error = try JSONObjectReader(value, path: path(of: key))
        let domain = try error.requiredString("domain")
        let code = try error.int("code") ?? 0
        let message = try error.string("message") ?? ""
        try error.rejectUnknownKeys()
        return LifecycleError(domain: domain, code: code, message: message)
    }
}
