/// UIApplicationShortcutItem's counterpart: a home-screen quick action.
public struct ShortcutItem: Sendable, Hashable {
    /// The action's type ("com.example.news.search").
    public var type: String
    /// The title shown to the user.
    public var title: String
    /// The action's own data.
    public var userInfo: JSONObject

    /// A shortcut item of `type`.
    public init(type: String, title: String = "", userInfo: JSONObject = [:]) {
        self.type = type
        self.title = title
        self.userInfo = userInfo
    }

    /// As JSON: {"type", "title", "userInfo"?}.
    package var json: JSONObject {
        var object: JSONObject = ["type": .string(type), "title": .string(title)]
        if !userInfo.isEmpty { object["userInfo"] = .object(userInfo) }
        return object
    }

    /// Reads an item written as ``json``; errors name the key path under `path`.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        type = try reader.requiredString("type")
        title = try reader.string("title") ?? ""
        userInfo = try reader.object("userInfo") ?? [:]
        try reader.rejectUnknownKeys()
    }
}
