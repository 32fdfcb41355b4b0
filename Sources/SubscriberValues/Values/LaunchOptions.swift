import Foundation

/// UIApplication.LaunchOptionsKey's counterpart: why the app was launched. Empty when the user
/// launched the app directly.
public struct LaunchOptions: Sendable, Hashable {
    /// The URL the app was asked to open (a custom scheme such as `news://article/42`).
    public var url: URL?
    /// The bundle identifier of the app that launched this one.
    public var sourceApplication: String?
    /// Information the source app attached to `url`.
    public var annotation: JSONValue?
    /// The activity the app was launched to continue (a universal link, Handoff).
    public var userActivity: UserActivity?
    /// The payload of the remote notification the user tapped.
    public var remoteNotification: JSONObject?
    /// The home-screen quick action the user chose.
    public var shortcutItem: ShortcutItem?
    /// Launched in the background to handle a location event.
    public var location: Bool
    /// Launched in the background for Bluetooth central managers with these identifiers.
    public var bluetoothCentrals: [String]?
    /// Launched in the background for Bluetooth peripheral managers with these identifiers.
    public var bluetoothPeripherals: [String]?
    /// Launched in the background to fetch content.
    public var backgroundFetch: Bool

    /// Launch options with the given values; no arguments means a plain launch from the icon.
    public init(url: URL? = nil, sourceApplication: String? = nil, annotation: JSONValue? = nil,
                userActivity: UserActivity? = nil, remoteNotification: JSONObject? = nil,
                shortcutItem: ShortcutItem? = nil, location: Bool = false,
                bluetoothCentrals: [String]? = nil, bluetoothPeripherals: [String]? = nil,
                backgroundFetch: Bool = false) {
        self.url = url
        self.sourceApplication = sourceApplication
        self.annotation = annotation
        self.userActivity = userActivity
        self.remoteNotification = remoteNotification
        self.shortcutItem = shortcutItem
        self.location = location
        self.bluetoothCentrals = bluetoothCentrals
        self.bluetoothPeripherals = bluetoothPeripherals
        self.backgroundFetch = backgroundFetch
    }

    /// Whether no option is set (a launch from the icon).
    package var isEmpty: Bool { json.isEmpty }

    /// As JSON, with the keys documented in the C header (adh/payloads.h).
    package var json: JSONObject {
        var object: JSONObject = [:]
        if let url { object["url"] = .string(url.absoluteString) }
        if let sourceApplication { object["sourceApplication"] = .string(sourceApplication) }
        if let annotation { object["annotation"] = annotation }
        if let userActivity { object["userActivity"] = .object(userActivity.json) }
        if let remoteNotification { object["remoteNotification"] = .object(remoteNotification) }
        if let shortcutItem { object["shortcutItem"] = .object(shortcutItem.json) }
        if location { object["location"] = true }
        if let bluetoothCentrals { object["bluetoothCentrals"] = .array(bluetoothCentrals.map { .string($0) }) }
        if let bluetoothPeripherals {
            object["bluetoothPeripherals"] = .array(bluetoothPeripherals.map { .string($0) })
        }
        if backgroundFetch { object["backgroundFetch"] = true }
        return object
    }

    /// Reads options written as ``json``; unknown keys and wrong types are errors naming the key path.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        url = try reader.url("url")
        sourceApplication = try reader.string("sourceApplication")
        annotation = reader.value("annotation")
        userActivity = try reader.value("userActivity").map { (value) throws(JSONShapeError) in
            try UserActivity(json: value, path: reader.path(of: "userActivity"))
        }
        remoteNotification = try reader.object("remoteNotification")
        shortcutItem = try reader.value("shortcutItem").map { (value) throws(JSONShapeError) in
            try ShortcutItem(json: value, path: reader.path(of: "shortcutItem"))
        }
        location = try reader.bool("location") ?? false
        bluetoothCentrals = try reader.strings("bluetoothCentrals")
        bluetoothPeripherals = try reader.strings("bluetoothPeripherals")
        backgroundFetch = try reader.bool("backgroundFetch") ?? false
        try reader.rejectUnknownKeys()
    }
}
