import Foundation
import SubscriberABI
import SubscriberValues

/// The shape of `openURL`: an absolute URL (required) and its options {sourceApplication,
/// annotation, openInPlace, eventAttribution}; in C an `adh_open_url` (`event_attribution_json`
/// since ABI 1.1, read only when its `struct_size` covers it).
package enum OpenURLArguments: ArgumentShape {
    /// The URL and how it is opened.
    package struct Value: Sendable, Hashable {
        /// The URL as carried: a script's text, kept (its `URL` made only when asked for), or a `URL`.
        package var absoluteURL: AbsoluteURL
        package var options: OpenURLOptions

        /// The URL (made now when the text was kept).
        package var url: URL {
            get { absoluteURL.url }
            set { absoluteURL = AbsoluteURL(newValue) }
        }

        package init(url: URL, options: OpenURLOptions) {
            self.init(absoluteURL: AbsoluteURL(url), options: options)
        }

        package init(absoluteURL: AbsoluteURL, options: OpenURLOptions) {
            self.absoluteURL = absoluteURL
            self.options = options
        }
    }

    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> Value {
        guard let url = try reader.absoluteURL("url") else {
            throw JSONShapeError(path: reader.path(of: "url"), expected: "an absolute URL", found: "nothing")
        }
        // Over a line's bytes, the options are read from theirs (not built as a JSONObject first).
        if let options = try reader.flatObject("options", { (options) throws(JSONShapeError) in try OpenURLOptions(reading: &options) }) {
            return Value(absoluteURL: url, options: options)
        }
        let options = try reader.value("options").map { (value) throws(JSONShapeError) in
            try OpenURLOptions(json: value, path: reader.path(of: "options"))
        } ?? OpenURLOptions()
        return Value(absoluteURL: url, options: options)
    }

    package static func write(_ value: Value, spec: Void, into object: inout JSONObject) {
        object["url"] = .string(value.absoluteURL.absoluteString)
        if !value.options.json.isEmpty { object["options"] = .object(value.options.json) }
    }

    package static func summary(_ value: Value) -> String? { value.absoluteURL.absoluteString }

    package static func encode(_ value: Value, _ context: EncodingContext) -> EncodedPayload<adh_open_url> {
        EncodedPayload { $0.openURL(url: value.absoluteURL.absoluteString, options: value.options, serial: context.serial) }
    }

    package static func cArguments(_ encoded: EncodedPayload<adh_open_url>) -> UnsafePointer<adh_open_url>? { encoded.pointer }

    /// A payload whose URL is not an absolute URL cannot reach the handler (no opinion).
    package static func decode(_ arguments: UnsafePointer<adh_open_url>?, problems: inout [String]) -> Value? {
        guard let arguments else { return nil }
        return decode(ABI.readCovered(arguments), what: "openURL", problems: &problems)
    }

    /// The URL and options `payload` carries (`what` names it in problems); nil without an absolute URL.
    package static func decode(_ payload: adh_open_url, what: String, problems: inout [String]) -> Value? {
        guard let url = ABI.absoluteURL(payload.url.string) else {
            let found = payload.url.string.map { "\"\($0)\"" } ?? "nothing"
            problems.append("\(what): expected an absolute URL, found \(found); not delivered (no opinion)")
            return nil
        }
        // The options made at once from their parts (setting them one by one on a made value copied
        // and destroyed the options twice a call).
        var annotation: JSONValue? = nil
        do {
            annotation = try ABI.parseJSON(payload.annotation_json)
        } catch {
            problems.append("\(what) annotation: expected JSON, found invalid JSON (\(error)); read as absent")
        }
        // A 1.0 host's smaller payload reads as zeroes past its struct_size (ABI.readCovered): absent.
        var attribution: EventAttribution? = nil
        do {
            attribution = try ABI.parseJSON(payload.event_attribution_json).map { (json) throws in
                try EventAttribution(json: json, path: "eventAttribution")
            }
        } catch {
            problems.append("\(what) eventAttribution: \(error); read as absent")
        }
        return Value(absoluteURL: AbsoluteURL(url),
                     options: OpenURLOptions(sourceApplication: payload.source_application.string, annotation: annotation,
                                             openInPlace: payload.open_in_place == ADH_TRUE, eventAttribution: attribution))
    }

    package static func serial(of arguments: UnsafePointer<adh_open_url>?) -> UInt64 {
        arguments.map { ABI.serial($0) } ?? 0
    }

    package static func canonical(spec: Void) -> [Value] {
        [Value(url: URL(string: "news://article/42")!, options: OpenURLOptions()),
         Value(url: URL(string: "https://news.example.com/article/42")!,
               options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari", openInPlace: false)),
         // Opened from an ad (privacy-preserving ad attribution).
         Value(url: URL(string: "https://news.example.com/article/42?campaign=7")!,
               options: OpenURLOptions(sourceApplication: "com.example.game",
                                       eventAttribution: EventAttribution(
                                           sourceIdentifier: 7, destinationURL: URL(string: "https://news.example.com")!,
                                           reportEndpoint: URL(string: "https://ads.example.com"),
                                           sourceDescription: "Breaking news, every morning", purchaser: "Example Ads")))]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> EncodedPayload<adh_open_url> {
        let url = draw.text("url", url: true)
        let source = draw.optionalText("sourceApplication", url: false)
        let annotation = draw.jsonValue("annotation")
        let inPlace = draw.pick("openInPlace", [ADH_FALSE, ADH_TRUE, ADH_NO_OPINION].map { adh_tristate($0) })
        let attribution = draw.optionalJSONObject("eventAttribution")
        return EncodedPayload { storage in
            adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: serial, url: storage.raw(url),
                         source_application: storage.raw(source), annotation_json: storage.raw(annotation),
                         open_in_place: inPlace, event_attribution_json: storage.raw(attribution))
        }
    }
}

extension PayloadStorage {
    /// An `adh_open_url` for `url` and `options` whose strings live in this storage: `openURL`'s
    /// payload, and each of `scene.openURLContexts`' contexts.
    package mutating func openURL(url: URL, options: OpenURLOptions, serial: UInt64) -> adh_open_url {
        openURL(url: url.absoluteString, options: options, serial: serial)
    }

    /// ``openURL(url:options:serial:)`` for a URL's absolute string.
    package mutating func openURL(url: String, options: OpenURLOptions, serial: UInt64) -> adh_open_url {
        adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: serial,
                     url: string(url), source_application: string(options.sourceApplication),
                     annotation_json: json(options.annotation), open_in_place: ABI.tristate(options.openInPlace),
                     event_attribution_json: json(options.eventAttribution.map { .object($0.json) }))
    }
}
