import Foundation

/// NSUserActivity's counterpart: an activity handed over to the app (a universal link, Handoff).
public struct UserActivity: Sendable, Hashable {
    /// The activity type of a universal link: NSUserActivityTypeBrowsingWeb.
    public static let browsingWeb = "NSUserActivityTypeBrowsingWeb"

    /// The activity type ("NSUserActivityTypeBrowsingWeb", "com.example.news.reading").
    public var activityType: String
    /// The web page the activity is about; a universal link has one.
    public var webpageURL: URL?
    /// The activity's own data.
    public var userInfo: JSONObject

    /// An activity of `activityType`.
    public init(activityType: String, webpageURL: URL? = nil, userInfo: JSONObject = [:]) {
        self.activityType = activityType
        self.webpageURL = webpageURL
        self.userInfo = userInfo
    }

    /// As JSON: {"activityType", "webpageURL"?, "userInfo"?}.
    package var json: JSONObject {
        var object: JSONObject = ["activityType": .string(activityType)]
        if let webpageURL { object["webpageURL"] = .string(webpageURL.absoluteString) }
        if !userInfo.isEmpty { object["userInfo"] = .object(userInfo) }
        return object
    }

    /// Reads an activity written as ``json``; errors name the key path under `path`.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        activityType = try reader.requiredString("activityType")
        webpageURL = try reader.url("webpageURL")
        userInfo = try reader.object("userInfo") ?? [:]
        try reader.rejectUnknownKeys()
    }
}

extension JSONObjectReader {
    /// Member `key` as an absolute URL; nil when absent.
    public mutating func url(_ key: String) throws(JSONShapeError) -> URL? {
        guard let string = try string(key) else { return nil }
        guard let url = URL(string: string), url.scheme != nil else {
            throw mismatch(key, "an absolute URL", .string(string))
        }
        return url
    }
}
