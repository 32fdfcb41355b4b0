import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Reads the event attribution of each openURL it gets, through the C ABI when exported.
final class AttributionReader: InstantiableSubscriber, OpenURLSubscriber {
    @MainActor static var seen: [EventAttribution?] = []
    init(context: SubscriberContext) {}
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        Self.seen.append(options.eventAttribution)
        return options.eventAttribution != nil
    }
}

/// `eventAttribution` in openURL's options (UIApplication.OpenURLOptionsKey.eventAttribution, a
/// UIEventAttribution): in Swift, in event scripts, and in C as `adh_open_url.event_attribution_json`
/// (appended in ABI 1.1, read only when `struct_size` covers it).
@MainActor
@Suite("openURL: eventAttribution in Swift, scripts and C")
struct EventAttributionTests {
    static let attribution = EventAttribution(sourceIdentifier: 7, destinationURL: URL(string: "https://news.example.com")!,
                                              reportEndpoint: URL(string: "https://ads.example.com"),
                                              sourceDescription: "Breaking news, every morning", purchaser: "Example Ads")
    static let line: JSONValue = [
        "event": "openURL", "url": "https://news.example.com/article/42",
        "options": ["sourceApplication": "com.example.game",
                    "eventAttribution": ["sourceIdentifier": 7, "destinationURL": "https://news.example.com",
                                         "reportEndpoint": "https://ads.example.com",
                                         "sourceDescription": "Breaking news, every morning", "purchaser": "Example Ads"]],
    ]

    /// Reads a script line's openURL call.
    static func read(_ json: JSONValue) throws(JSONShapeError) -> AnyEventCall {
        var reader = try JSONObjectReader(json, path: "")
        _ = try reader.requiredString("event")
        return try LifecycleEvent.openURL.row.call(reading: &reader)
    }

    @Test("UIKit, UIApplication.OpenURLOptionsKey.eventAttribution (a link opened from an ad, as Expo forwards it): a script line reads it, and writes it back the same")
    func scriptKeys() throws {
        let call = try Self.read(Self.line)
        let value = try #require(call.arguments(as: OpenURLArguments.Value.self))
        #expect(value.options.eventAttribution == Self.attribution)
        #expect(value.options.json["eventAttribution"] == .object(Self.attribution.json))
        let written = try #require(call.event.row.scriptMembers(of: call).members.first { $0.key == "options" }?.value)
        #expect(try OpenURLOptions(json: written, path: "options") == value.options)
        // Without a reportEndpoint (an app that declares none).
        var plain = Self.attribution
        plain.reportEndpoint = nil
        #expect(try EventAttribution(json: .object(plain.json), path: "a") == plain)
    }

    @Test("a bad attribution is one line naming its key path")
    func badShapes() {
        func error(_ attribution: JSONValue) -> String? {
            do {
                _ = try Self.read(["event": "openURL", "url": "news://x", "options": ["eventAttribution": attribution]])
                return nil
            } catch {
                return error.description
            }
        }
        let good = Self.attribution.json
        var over = good
        over["sourceIdentifier"] = 300
        #expect(error(.object(over)) == "options.eventAttribution.sourceIdentifier: expected a whole number from 0 to 255, found the number 300")
        var relative = good
        relative["destinationURL"] = "news"
        #expect(error(.object(relative)) == #"options.eventAttribution.destinationURL: expected an absolute URL, found the string "news""#)
        var missing = good
        missing["purchaser"] = nil
        #expect(error(.object(missing)) == "options.eventAttribution.purchaser: expected a string, found nothing")
        #expect(error("ad") == #"options.eventAttribution: expected an object, found the string "ad""#)
    }

    @Test("C payload: encoded into event_attribution_json and decoded back; absent is NULL")
    func payloadBothWays() throws {
        let context = EncodingContext(serial: 0, application: testApplication)
        for options in [OpenURLOptions(eventAttribution: Self.attribution), OpenURLOptions()] {
            let value = OpenURLArguments.Value(url: URL(string: "https://news.example.com/a")!, options: options)
            let encoded = OpenURLArguments.encode(value, context)
            let payload = encoded.pointer.pointee
            #expect(Int(payload.struct_size) == MemoryLayout<adh_open_url>.size)
            #expect((payload.event_attribution_json.data == nil) == (options.eventAttribution == nil))
            if let data = payload.event_attribution_json.data {
                let text = String(decoding: UnsafeRawBufferPointer(start: data, count: payload.event_attribution_json.length), as: UTF8.self)
                #expect(try JSONValue(parsing: text) == .object(Self.attribution.json))
            }
            var problems: [String] = []
            #expect(OpenURLArguments.decode(encoded.pointer, problems: &problems) == value)
            #expect(problems.isEmpty)
        }
    }

    @Test("C payload from a 1.0 host (struct_size without the field) reads as absent; invalid JSON is reported and read as absent")
    func payloadFromOlderHostAndBadJSON() throws {
        let value = OpenURLArguments.Value(url: URL(string: "news://a")!, options: OpenURLOptions(eventAttribution: Self.attribution))
        let encoded = OpenURLArguments.encode(value, EncodingContext(serial: 0, application: testApplication))
        var old = encoded.pointer.pointee
        old.struct_size = UInt32(MemoryLayout<adh_open_url>.offset(of: \.event_attribution_json)!)  // ABI 1.0's adh_open_url
        var problems: [String] = []
        let decoded = withUnsafePointer(to: &old) { OpenURLArguments.decode($0, problems: &problems) }
        #expect(decoded?.options.eventAttribution == nil)
        #expect(decoded?.url == value.url)
        #expect(problems.isEmpty)

        let bad = Array("{\"sourceIdentifier\": 7}".utf8)
        var broken = encoded.pointer.pointee
        let decodedBad = bad.withUnsafeBufferPointer { bytes in
            broken.event_attribution_json = adh_string(data: UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                                       length: bytes.count)
            return withUnsafePointer(to: &broken) { OpenURLArguments.decode($0, problems: &problems) }
        }
        #expect(decodedBad?.options.eventAttribution == nil)
        #expect(problems.count == 1 && problems[0].hasPrefix("openURL eventAttribution: ") && problems[0].hasSuffix("; read as absent"))
    }

    @Test("through C: a Swift plugin's subscriber, exported as a plugin is, gets the attribution the host was given")
    func throughAnExportedSubscriber() throws {
        let descriptor = SubscriberPlugin.export(id: "com.example.attribution-tests", name: "Attribution tests", version: "1.0",
                                                 subscribers: [AttributionReader.self])
            .assumingMemoryBound(to: adh_plugin_descriptor.self)
        let loaded = try #require(CSubscriber(descriptor: descriptor, name: "AttributionReader",
                                              context: bridgeContext("AttributionReader", sink: RecordingSink())))
        defer { loaded.destroy() }
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(loaded)],
                                             configuration: DispatchConfiguration(application: testApplication))
        dispatcher.launch()
        AttributionReader.seen = []
        let url = URL(string: "https://news.example.com/article/42")!
        #expect(dispatcher.dispatchAtOnce(.openURL(url: url, options: OpenURLOptions(eventAttribution: Self.attribution))).result == true)
        #expect(dispatcher.dispatchAtOnce(.openURL(url: url)).result == false)
        #expect(AttributionReader.seen == [Self.attribution, nil])
    }

    @Test("the conformance kit's canonical openURL inputs include one opened from an ad")
    func canonicalInput() {
        let canonical = OpenURLArguments.canonical(spec: ())
        #expect(canonical.contains { $0.options.eventAttribution != nil })
    }
}
