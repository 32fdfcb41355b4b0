import Testing
@testable import SubscriberHost

/// `plugins: [<entry>]` after a valid app.
private func plugin(_ entry: String) -> String { withApp(#""plugins": [\#(entry)]"#) }

@Suite("Manifest: NUL and control characters in names; lists checked in linear time")
struct ManifestInputLimitTests {
    /// JSON text `\u0000` is a NUL in the string: a C string would end there, and dlopen would load
    /// libGreeterC.so while the manifest and every message show the longer name.
    static let controlCharacters: [BadManifest] = [
        BadManifest(plugin(#"{"path": "lib/libGreeterC.so\u0000.evil"}"#),
                    #"m.json: plugins[0].path: expected a path without NUL, found "lib/libGreeterC.so\u0000.evil""#),
        BadManifest(plugin(#"{"path": "lib/\u001b[2Jx.so"}"#),
                    #"m.json: plugins[0].path: expected a path without control characters, found "lib/\u001b[2Jx.so""#),
        BadManifest(plugin(#"{"path": "a\u001bb\u0000c.so"}"#),
                    #"m.json: plugins[0].path: expected a path without NUL, found "a\u001bb\u0000c.so""#),
        BadManifest(plugin(#"{"library": "GreeterC\u0000Evil"}"#),
                    #"m.json: plugins[0].library: expected a library name without NUL, found "GreeterC\u0000Evil""#),
        BadManifest(plugin(#"{"library": "Greeter\u007f"}"#),
                    #"m.json: plugins[0].library: expected a library name without control characters, found "Greeter\#u{7f}""#),
        BadManifest(plugin(#"{"library": "A", "subscribers": ["One", "Two\u0000"]}"#),
                    #"m.json: plugins[0].subscribers[1]: expected a subscriber name without NUL, found "Two\u0000""#),
        BadManifest(plugin(#"{"library": "A", "ios": {"appDelegateSubscribers": ["On\ne"]}}"#),
                    #"m.json: plugins[0].ios.appDelegateSubscribers[0]: expected a subscriber name without control characters, found "On\ne""#),
        BadManifest(withApp(#""pluginSearchPaths": ["lib", "/opt/\u0000/x"]"#),
                    #"m.json: pluginSearchPaths[1]: expected a directory path without NUL, found "/opt/\u0000/x""#),
        BadManifest(withApp(#""pluginSearchPaths": ["\u0085lib"]"#),
                    #"m.json: pluginSearchPaths[0]: expected a directory path without control characters, found "\#u{85}lib""#),
    ]

    @Test("NUL and control characters in paths, library names, subscriber names, search paths", arguments: controlCharacters)
    func controlCharacterErrors(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }

    @Test("a very long refused value is cut, with its length")
    func longValueCut() {
        let long = String(repeating: "d/", count: 200) + #"x\u0000.so"#
        let error = manifestError(plugin(#"{"path": "\#(long)"}"#))
        let shown = String(repeating: "d/", count: 60)
        #expect(error == #"m.json: plugins[0].path: expected a path without NUL, found "\#(shown)…" (405 bytes)"#)
    }

    @Test("names with ordinary Unicode are fine")
    func unicodeNamesAccepted() throws {
        let manifest = try parseManifest(plugin(#"{"path": "plugins/libÜber—日本.so", "subscribers": ["Grüße", "日本"]}"#))
        #expect(manifest.plugins[0].source == .path("plugins/libÜber—日本.so"))
        #expect(manifest.plugins[0].subscribers == ["Grüße", "日本"])
    }

    /// 200,000 names, the repeat at the very end. The check used to search the list for every name
    /// (`firstIndex(of:)`): 20,000 names took 10.6 s, so 200,000 would take about 100 times as long,
    /// far past any test's patience. One dictionary lookup per name makes it a fraction of a second.
    @Test("a 200,000-name subscriber list with a repeat at the end is refused, naming both places")
    func hugeListWithRepeat() {
        let count = 200_000
        var names = (0..<count).map { "\"S\($0)\"" }
        names.append("\"S\(count - 7)\"")
        let error = manifestError(plugin(#"{"library": "A", "subscribers": [\#(names.joined(separator: ","))]}"#))
        #expect(error == #"m.json: plugins[0].subscribers[\#(count)]: expected a subscriber name not listed before, found "S\#(count - 7)" again (first at plugins[0].subscribers[\#(count - 7)])"#)
    }

    @Test("two 100,000-name entries, the last name repeated across them, name both places")
    func hugeListsAcrossEntries() {
        let first = (0..<100_000).map { "\"A\($0)\"" }.joined(separator: ",")
        let second = (0..<100_000).map { "\"B\($0)\"" }.joined(separator: ",") + #","A99999""#
        let error = manifestError(plugin(#"{"library": "A", "subscribers": [\#(first)]}, {"library": "B", "apple": {"appDelegateSubscribers": [\#(second)]}}"#))
        #expect(error == #"m.json: plugins[1].apple.appDelegateSubscribers[100000]: expected a subscriber name no other plugin entry lists, found "A99999", already listed at plugins[0].subscribers[99999]"#)
    }

    @Test("a unique 200,000-name list reads, in order")
    func hugeUniqueList() throws {
        let names = (0..<200_000).map { "S\($0)" }
        let manifest = try parseManifest(plugin(#"{"library": "A", "subscribers": [\#(names.map { "\"\($0)\"" }.joined(separator: ","))]}"#))
        #expect(manifest.plugins[0].subscribers == names)
    }

    @Test("pluginSearchPaths is bounded: every library entry may look in each folder")
    func searchPathLimit() throws {
        let limit = ManifestReader.maximumSearchPathCount
        let allowed = (0..<limit).map { "\"lib\($0)\"" }.joined(separator: ",")
        #expect(try parseManifest(withApp(#""pluginSearchPaths": [\#(allowed)]"#)).pluginSearchPaths.count == limit)
        #expect(manifestError(withApp(#""pluginSearchPaths": [\#(allowed), "one-more"]"#))
            == "m.json: pluginSearchPaths: expected at most \(limit) directories, found \(limit + 1)")
    }

    @Test("a library missing from a SwiftPM build folder says to build the plugins first: the error carries that, its line reads it")
    func buildFolderHint() {
        let error = PluginLoadError.libraryNotFound(library: "Greeter", fileName: "libGreeter.so",
                                                    searched: ["/apps/news/lib", "/src/pkg/.build/debug"], build: SwiftPMBuild())
        #expect(error.description == #"plugin library "Greeter": expected libGreeter.so in one of /apps/news/lib, /src/pkg/.build/debug, found it in none (build the plugins first: swift build)"#)
        // The description guesses nothing from the paths (BuildFolderHintTests: where it is decided).
        let notDecided = PluginLoadError.libraryNotFound(library: "Greeter", fileName: "libGreeter.so", searched: ["/src/pkg/.build/debug"])
        #expect(notDecided.description.hasSuffix("found it in none"))
    }
}
