import Foundation
import SubscriberKit

extension EventCall {
    /// Reads one event-script object (docs/cli.md): `{"event": "<wire name>", …arguments}`, the
    /// arguments named as in docs/events.md.
    ///
    /// Arguments: launch events `launchOptions` (default none: a launch from the icon); `openURL` `url` and
    /// `options` (sourceApplication, annotation, openInPlace); `didRegisterForRemoteNotifications`
    /// `deviceToken` (hex); `didFailToRegisterForRemoteNotifications` `error`
    /// ({"domain", "code", "message"}); `didReceiveRemoteNotification` and
    /// `handleWatchKitExtensionRequest` `userInfo` (default {}); the user-activity events
    /// `activityType`, `webpageURL`, `userInfo`; `performActionForShortcutItem` `type`, `title`,
    /// `userInfo`; `supportedInterfaceOrientations` `idiom` (default phone);
    /// `handleEventsForBackgroundURLSession` and `shouldAllowExtensionPointIdentifier` `identifier`;
    /// `configurationForConnecting` `sceneRole` (default UIWindowSceneSessionRoleApplication);
    /// `didDiscardSceneSessions` `count` (default 1). Unknown keys and wrong types are errors naming
    /// the key path under `path`.
    public init(json: JSONValue, path: String = "") throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        let name = try reader.requiredString("event")
        guard let event = LifecycleEvent(rawValue: name) else {
            throw JSONShapeError(path: reader.path(of: "event"), expected: "an event wire name such as performFetch",
                                 found: JSONValue.string(name).shapeDescription)
        }
        // The arguments without "event", for the value types that read a whole object.
        var arguments = reader.object
        arguments["event"] = nil
        let rest = JSONValue.object(arguments)

        switch event {
        case .willFinishLaunching, .didFinishLaunching:
            let options = try reader.value("launchOptions").map { (value) throws(JSONShapeError) in
                try LaunchOptions(json: value, path: reader.path(of: "launchOptions"))
            } ?? LaunchOptions()
            self = event == .willFinishLaunching ? .willFinishLaunching(options: options) : .didFinishLaunching(options: options)
        case .didBecomeActive: self = .didBecomeActive
        case .willResignActive: self = .willResignActive
        case .didEnterBackground: self = .didEnterBackground
        case .willEnterForeground: self = .willEnterForeground
        case .willTerminate: self = .willTerminate
        case .didReceiveMemoryWarning: self = .didReceiveMemoryWarning
        case .significantTimeChange: self = .significantTimeChange
        case .protectedDataWillBecomeUnavailable: self = .protectedDataWillBecomeUnavailable
        case .protectedDataDidBecomeAvailable: self = .protectedDataDidBecomeAvailable
        case .performFetch: self = .performFetch
        case .shouldSaveSecureApplicationState: self = .shouldSaveSecureApplicationState
        case .shouldRestoreSecureApplicationState: self = .shouldRestoreSecureApplicationState
        case .didRegisterForRemoteNotifications:
            self = .didRegisterForRemoteNotifications(deviceToken: try reader.hexBytes("deviceToken"))
        case .didFailToRegisterForRemoteNotifications:
            self = .didFailToRegisterForRemoteNotifications(error: try reader.lifecycleError("error"))
        case .didReceiveRemoteNotification:
            self = .didReceiveRemoteNotification(userInfo: try reader.object("userInfo") ?? [:])
        case .handleWatchKitExtensionRequest:
            self = .handleWatchKitExtensionRequest(userInfo: try reader.object("userInfo") ?? [:])
        case .handleEventsForBackgroundURLSession:
            self = .handleEventsForBackgroundURLSession(identifier: try reader.requiredString("identifier"))
        case .openURL:
            guard let url = try reader.url("url") else {
                throw JSONShapeError(path: reader.path(of: "url"), expected: "an absolute URL", found: "nothing")
            }
            let options = try reader.value("options").map { (value) throws(JSONShapeError) in
                try OpenURLOptions(json: value, path: reader.path(of: "options"))
            } ?? OpenURLOptions()
            self = .openURL(url: url, options: options)
        case .willContinueUserActivity:
            self = .willContinueUserActivity(activityType: try reader.requiredString("activityType"))
        case .continueUserActivity, .didUpdateUserActivity:
            let activity = try UserActivity(json: rest, path: path)
            self = event == .continueUserActivity ? .continueUserActivity(activity) : .didUpdateUserActivity(activity)
            return
        case .didFailToContinueUserActivity:
            self = .didFailToContinueUserActivity(activityType: try reader.requiredString("activityType"),
                                                  error: try reader.lifecycleError("error"))
        case .performActionForShortcutItem:
            self = .performActionForShortcutItem(try ShortcutItem(json: rest, path: path))
            return
        case .supportedInterfaceOrientations:
            let idiomName = try reader.string("idiom") ?? UserInterfaceIdiom.phone.name
            guard let idiom = UserInterfaceIdiom(name: idiomName) else {
                let names = UserInterfaceIdiom.allCases.map(\.name).joined(separator: ", ")
                throw JSONShapeError(path: reader.path(of: "idiom"), expected: "one of \(names)",
                                     found: JSONValue.string(idiomName).shapeDescription)
            }
            self = .supportedInterfaceOrientations(idiom: idiom)
        case .shouldAllowExtensionPointIdentifier:
            self = .shouldAllowExtensionPointIdentifier(identifier: try reader.requiredString("identifier"))
        case .configurationForConnecting:
            self = .configurationForConnecting(sceneRole: try reader.string("sceneRole") ?? "UIWindowSceneSessionRoleApplication")
        case .didDiscardSceneSessions:
            let count = try reader.int("count") ?? 1
            guard count >= 0 else {
                throw JSONShapeError(path: reader.path(of: "count"), expected: "a count of 0 or more",
                                     found: JSONValue.number(Double(count)).shapeDescription)
            }
            self = .didDiscardSceneSessions(count: count)
        }
        try reader.rejectUnknownKeys()
    }
}

extension JSONObjectReader {
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
