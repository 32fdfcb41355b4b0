/// UIApplication.OpenURLOptionsKey's counterpart: how a URL is being opened.
public struct OpenURLOptions: Sendable, Hashable {
    /// The bundle identifier of the app that asked to open the URL, when known.
    public var sourceApplication: String?
    /// Information the source app attached.
    public var annotation: JSONValue?
    /// Whether the file must be opened in place rather than copied.
    public var openInPlace: Bool
    /// The ad the user tapped to open the URL, when it came from one (UIApplication.OpenURLOptionsKey.eventAttribution).
    public var eventAttribution: EventAttribution?

    /// Options with the given values.
    public init(sourceApplication: String? = nil, annotation: JSONValue? = nil, openInPlace: Bool = false,
                eventAttribution: EventAttribution? = nil) {
        self.sourceApplication = sourceApplication
        self.annotation = annotation
        self.openInPlace = openInPlace
        self.eventAttribution = eventAttribution
    }

    /// As JSON: {"sourceApplication"?, "annotation"?, "openInPlace"?, "eventAttribution"?}.
    package var json: JSONObject {
        var object: JSONObject = [:]
        if let sourceApplication { object["sourceApplication"] = .string(sourceApplication) }
        if let annotation { object["annotation"] = annotation }
        if openInPlace { object["openInPlace"] = true }
        if let eventAttribution { object["eventAttribution"] = .object(eventAttribution.json) }
        return object
    }

    /// Reads options written as ``json``; errors name the key path under `path`.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        try self.init(reading: &reader)
    }

    /// Reads options written as ``json`` from `reader` (an object's, or a line's bytes).
    package init(reading reader: inout JSONObjectReader) throws(JSONShapeError) {
        sourceApplication = try reader.string("sourceApplication")
        annotation = reader.value("annotation")
        openInPlace = try reader.bool("openInPlace") ?? false
        eventAttribution = try reader.value("eventAttribution").map { (value) throws(JSONShapeError) in
            try EventAttribution(json: value, path: reader.path(of: "eventAttribution"))
        }
        try reader.rejectUnknownKeys()
    }
}
