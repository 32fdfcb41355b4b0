import Testing
import SubscriberKit
@testable import SubscriberHost

/// `plugins: [<entry>]` after a valid app.
private func plugin(_ entry: String) -> String { withApp(#""plugins": [\#(entry)]"#) }

/// What each subscriber of a host logged as its options at create (`OptionsEcho` logs "options: <json>").
private func echoedOptions(_ logs: LogCollector) -> [String: JSONValue] {
    var echoed: [String: JSONValue] = [:]
    for record in logs.all where record.message.hasPrefix("options: ") {
        echoed[record.subscriber] = try? JSONValue(parsing: Array(record.message.dropFirst("options: ".count).utf8))
    }
    return echoed
}

@MainActor
@Suite("Manifest: options per subscriber (subscriberOptions)")
struct ManifestSubscriberOptionsTests {
    @Test("each subscriber of one plugin gets the entry's options with its own keys laid over them, through options_json")
    func perSubscriberThroughALoadedPlugin() throws {
        let (host, logs) = try loadHost(manifest: plugin(#"""
            {"library": "OptionsEcho",
             "options": {"endpoint": "https://a.example", "level": "info"},
             "subscriberOptions": {"EchoSecond": {"level": "debug", "sampling": 0.5}}}
            """#))
        defer { _ = host.shutDown() }
        #expect(host.subscribers.map(\.name) == ["EchoFirst", "EchoSecond"])
        let echoed = echoedOptions(logs)
        // EchoFirst: the entry's options as they are; EchoSecond: its own level, its own key after.
        #expect(echoed["EchoFirst"] == ["endpoint": "https://a.example", "level": "info"])
        #expect(echoed["EchoSecond"] == ["endpoint": "https://a.example", "level": "debug", "sampling": 0.5])
        // The order of keys, as handed over: the entry's first, overridden in place, then the subscriber's own.
        #expect(echoed["EchoSecond"]?.objectValue?.keys == ["endpoint", "level", "sampling"])
    }

    @Test("without entry options, a subscriber's own options are all it gets; the others get {}")
    func ownOnly() throws {
        let (host, logs) = try loadHost(manifest: plugin(#"""
            {"library": "OptionsEcho", "subscribers": ["EchoSecond", "EchoFirst"],
             "subscriberOptions": {"EchoFirst": {"token": "t1"}}}
            """#))
        defer { _ = host.shutDown() }
        let echoed = echoedOptions(logs)
        #expect(echoed["EchoFirst"] == ["token": "t1"])
        #expect(echoed["EchoSecond"] == [:])
    }

    @Test("options(for:) is a shallow merge: a key's value is replaced whole")
    func shallowMerge() throws {
        let manifest = try parseManifest(plugin(#"""
            {"library": "A", "options": {"a": {"x": 1, "y": 2}, "b": 1},
             "subscriberOptions": {"One": {"a": {"x": 3}}, "Two": {}}}
            """#))
        let entry = manifest.plugins[0]
        #expect(entry.options(for: "One") == ["a": ["x": 3], "b": 1])
        #expect(entry.options(for: "Two") == ["a": ["x": 1, "y": 2], "b": 1])
        #expect(entry.options(for: "Three") == entry.options)
        #expect(entry.subscriberOptionNames == ["One", "Two"])
    }

    nonisolated static let errors: [BadManifest] = [
        BadManifest(plugin(#"{"library": "A", "subscriberOptions": []}"#),
                    "m.json: plugins[0].subscriberOptions: expected an object, found an array"),
        BadManifest(plugin(#"{"library": "A", "subscriberOptions": {"One": 5}}"#),
                    "m.json: plugins[0].subscriberOptions.One: expected an object (this subscriber's options), found the number 5"),
        BadManifest(plugin(#"{"library": "A", "subscriberOptions": {"": {}}}"#),
                    "m.json: plugins[0].subscriberOptions.: expected a subscriber name, found an empty key"),
        BadManifest(plugin(#"{"library": "A", "subscribers": ["One"], "subscriberOptions": {"Two": {}}}"#),
                    #"m.json: plugins[0].subscriberOptions.Two: expected the name of a subscriber plugins[0].subscribers lists, found "Two""#),
        BadManifest(plugin(#"{"library": "A", "ios": {"appDelegateSubscribers": ["One"]}, "subscriberOptions": {"Two": {}}}"#),
                    #"m.json: plugins[0].subscriberOptions.Two: expected the name of a subscriber plugins[0].ios.appDelegateSubscribers lists, found "Two""#),
    ]

    @Test("a bad subscriberOptions is one line naming its key path", arguments: errors)
    func badShapes(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }

    @Test("more names than a plugin may declare are refused before any is read")
    func tooMany() {
        let names = (0...4096).map { #""S\#($0)": {}"# }.joined(separator: ", ")
        #expect(manifestError(plugin(#"{"library": "A", "subscriberOptions": {\#(names)}}"#))
            == "m.json: plugins[0].subscriberOptions: expected at most 4096 subscriber names (a plugin declares at most 4096), found 4097")
    }

    @Test("without a subscriber list, a name the plugin does not declare fails check 9, naming the plugin")
    func undeclaredFailsCheck9() throws {
        let result = Result { try loadHost(manifest: plugin(#"{"library": "OptionsEcho", "subscriberOptions": {"EchoThird": {}}}"#)) }
        guard case .failure(let error) = result else {
            Issue.record("loaded a manifest giving options to a subscriber the plugin does not declare")
            return
        }
        let path = BuiltPlugins.path("OptionsEcho")
        #expect("\(error)".hasSuffix(#"plugins[0]: plugin "\#(path)" declares no subscriber named EchoThird; it declares: EchoFirst, EchoSecond"#),
                "\(error)")
    }
}
