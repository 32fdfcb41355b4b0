/// UIApplication.OpenURLOptionsKey's counterpart: how a URL is being opened.
public struct OpenURLOptions: Sendable, Hashable {
    /// The bundle identifier of the app that asked to open the URL, when known.
    public var sourceApplication: String?
    /// Information the source app attached.
    public var annotation: JSONValue?
    /// Whether the file must be opened in place rather than copied.
    public var openInPlace: Bool

    /// Options with the given values.
    public init(sourceApplication: String? = nil, annotation: JSONValue? = nil, openInPlace: Bool = false) {
        self.sourceApplication = sourceApplication
        self.annotation = annotation
        self.openInPlace = openInPlace
    }

    /// As JSON: {"sourceApplication"?, "annotation"?, "openInPlace"?}.
    public var json: JSONObject {
        var object: JSONObject = [:]
        if let sourceApplication { object["sourceApplication"] = .string(sourceApplication) }
        if let annotation { object["annotation"] = annotation }
        if openInPlace { object["openInPlace"] = true }
        return object
    }

    /// Reads options written as ``json``; errors name the key path under `path`.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        sourceApplication = try reader.string("sourceApplication")
        annotation = reader.value("annotation")
        openInPlace = try reader.bool("openInPlace") ?? false
        try reader.rejectUnknownKeys()
    }
}
