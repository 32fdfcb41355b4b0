import Foundation

/// UIEventAttribution's counterpart (UIApplication.OpenURLOptionsKey.eventAttribution): the ad a user
/// tapped to open the URL, for privacy-preserving ad attribution. In `OpenURLOptions`, in event
/// scripts as `options.eventAttribution`, and in C as `adh_open_url.event_attribution_json`.
public struct EventAttribution: Sendable, Hashable {
    /// The ad campaign's identifier, 0 to 255 (UIEventAttribution.sourceIdentifier).
    public var sourceIdentifier: UInt8
    /// Where the ad leads (UIEventAttribution.destinationURL).
    public var destinationURL: URL
    /// Where the attribution report goes, when the app declares one (UIEventAttribution.reportEndpoint).
    public var reportEndpoint: URL?
    /// What the ad says, for people (UIEventAttribution.sourceDescription).
    public var sourceDescription: String
    /// Who paid for the ad (UIEventAttribution.purchaser).
    public var purchaser: String

    /// An attribution with the given values.
    public init(sourceIdentifier: UInt8, destinationURL: URL, reportEndpoint: URL? = nil, sourceDescription: String,
                purchaser: String) {
        self.sourceIdentifier = sourceIdentifier
        self.destinationURL = destinationURL
        self.reportEndpoint = reportEndpoint
        self.sourceDescription = sourceDescription
        self.purchaser = purchaser
    }

    /// As JSON: {"sourceIdentifier", "destinationURL", "reportEndpoint"?, "sourceDescription", "purchaser"}.
    package var json: JSONObject {
        var object: JSONObject = ["sourceIdentifier": .number(Double(sourceIdentifier)),
                                  "destinationURL": .string(destinationURL.absoluteString),
                                  "sourceDescription": .string(sourceDescription), "purchaser": .string(purchaser)]
        if let reportEndpoint { object["reportEndpoint"] = .string(reportEndpoint.absoluteString) }
        return object
    }

    /// Reads an attribution written as ``json``; errors name the key path under `path`.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        guard let identifier = reader.value("sourceIdentifier") else {
            throw JSONShapeError(path: reader.path(of: "sourceIdentifier"), expected: "a whole number from 0 to 255",
                                 found: "nothing")
        }
        guard let number = identifier.intValue, let byte = UInt8(exactly: number) else {
            throw reader.mismatch("sourceIdentifier", "a whole number from 0 to 255", identifier)
        }
        sourceIdentifier = byte
        guard let destination = try reader.url("destinationURL") else {
            throw JSONShapeError(path: reader.path(of: "destinationURL"), expected: "an absolute URL", found: "nothing")
        }
        destinationURL = destination
        reportEndpoint = try reader.url("reportEndpoint")
        sourceDescription = try reader.requiredString("sourceDescription")
        purchaser = try reader.requiredString("purchaser")
        try reader.rejectUnknownKeys()
    }
}
