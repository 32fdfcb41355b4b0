import Testing
import SubscriberKit
@testable import SubscriberHost

/// Parses `text` as manifest "m.json" in /apps/news; the error's one line, or nil when it parsed.
func manifestError(_ text: String) -> String? {
    do {
        _ = try Manifest(bytes: Array(text.utf8), file: "m.json", directory: "/apps/news")
        return nil
    } catch {
        return error.description
    }
}

/// Parses `text` as manifest "m.json" in /apps/news.
func parseManifest(_ text: String) throws -> Manifest {
    try Manifest(bytes: Array(text.utf8), file: "m.json", directory: "/apps/news")
}

/// A manifest whose only content besides `app` is `rest` (a JSON fragment of members, or empty).
func withApp(_ rest: String = "") -> String {
    let app = #""app": {"name": "News", "bundleIdentifier": "com.example.news"}"#
    return rest.isEmpty ? "{\(app)}" : "{\(app), \(rest)}"
}

@Suite("Manifest: sections and values")
struct ManifestTests {
    @Test("a manifest using every field reads into every field")
    func everyFieldExample() throws {
        let manifest = try parseManifest(#"""
        {
          "app": {"name": "News", "bundleIdentifier": "com.example.news", "version": "2.1"},
          "supportedInterfaceOrientations": {"phone": ["portrait"], "pad": ["portrait", "landscapeLeft", "landscapeRight"]},
          "deadlines": {"performFetch": 30000, "default": 5000},
          "reconcilers": {"performFetch": ["newData", "failed", "noData"], "openURL": "allTrue"},
          "pluginSearchPaths": ["../.build/debug", "/opt/plugins"],
          "plugins": [
            {"library": "AppLifecycleDelegate", "subscribers": ["AppLifecycleDelegate"]},
            {"path": "plugins/libAnalytics.so", "sha256": "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
             "options": {"endpoint": "https://example.com"}, "priority": 5, "optional": true},
            {"library": "DeepLinkRouter", "ios": {"appDelegateSubscribers": ["DeepLinkRouter"]}}
          ]
        }
        """#)
        #expect(manifest.app == Application(name: "News", bundleIdentifier: "com.example.news", version: "2.1"))
        #expect(manifest.supportedInterfaceOrientations == [.phone: .portrait, .pad: .allButUpsideDown])
        #expect(manifest.deadlines == [.performFetch: 30000])
        #expect(manifest.defaultDeadline == 5000)
        #expect(manifest.reconcilers == [.performFetch: .precedence([.newData, .failed, .noData]), .openURL: .allTrue])
        #expect(manifest.pluginSearchPaths == ["../.build/debug", "/opt/plugins"])
        #expect(manifest.pluginSearchDirectories == ["/apps/news/../.build/debug", "/opt/plugins"])
        #expect(manifest.plugins.count == 3)

        let first = manifest.plugins[0]
        #expect(first.index == 0)
        #expect(first.source == .library("AppLifecycleDelegate"))
        #expect(first.subscribers == ["AppLifecycleDelegate"])
        #expect(first.sha256 == nil)
        #expect(first.options == .object(JSONObject()))
        #expect(first.priority == 0)
        #expect(first.optional == false)

        let second = manifest.plugins[1]
        #expect(second.source == .path("plugins/libAnalytics.so"))
        #expect(second.subscribers.isEmpty)
        #expect(second.sha256?.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(second.options == ["endpoint": "https://example.com"])
        #expect(second.priority == 5)
        #expect(second.optional == true)
        #expect(second.keyPath == "plugins[1]")

        #expect(manifest.plugins[2].subscribers == ["DeepLinkRouter"])
    }

    @Test("only app is required; everything else has its default")
    func defaults() throws {
        let manifest = try parseManifest(withApp())
        #expect(manifest.app.version == "1.0")
        #expect(manifest.supportedInterfaceOrientations.isEmpty)
        #expect(manifest.deadlines.isEmpty && manifest.defaultDeadline == nil)
        #expect(manifest.reconcilers.isEmpty)
        #expect(manifest.pluginSearchPaths.isEmpty)
        #expect(manifest.plugins.isEmpty)
        #expect(manifest.file == "m.json" && manifest.directory == "/apps/news")
    }

    @Test("orientations: ~ipad and ~iphone are the pad and phone idioms; Info.plist names are accepted")
    func plistOrientations() throws {
        let manifest = try parseManifest(withApp(#"""
        "supportedInterfaceOrientations": {"~ipad": ["UIInterfaceOrientationPortraitUpsideDown"], "~iphone": ["landscapeRight"], "tv": ["landscapeLeft"]}
        """#))
        #expect(manifest.supportedInterfaceOrientations
            == [.pad: .portraitUpsideDown, .phone: .landscapeRight, .tv: .landscapeLeft])
    }

    @Test("deadlines: an event's own, else default (completion events only), else none")
    func deadlines() throws {
        let manifest = try parseManifest(withApp(#""deadlines": {"performFetch": 250, "default": 1000}"#))
        #expect(manifest.deadline(for: .performFetch) == 250)
        #expect(manifest.deadline(for: .handleWatchKitExtensionRequest) == 1000)
        #expect(manifest.deadline(for: .didBecomeActive) == nil)
        #expect(try parseManifest(withApp()).deadline(for: .performFetch) == nil)
    }

    @Test("reconcilers: every name reads into its case, on an event it fits", arguments: [
        ("openURL", "anyTrue", ReconcilerChoice.anyTrue), ("openURL", "allTrue", .allTrue),
        ("openURL", "firstAnswer", .firstAnswer), ("supportedInterfaceOrientations", "intersection", .intersection),
        ("handleWatchKitExtensionRequest", "merge", .merge),
    ])
    func reconcilerNames(event: String, name: String, reconciler: ReconcilerChoice) throws {
        let manifest = try parseManifest(withApp(#""reconcilers": {"\#(event)": "\#(name)"}"#))
        #expect(manifest.reconcilers[LifecycleEvent(rawValue: event)!] == reconciler)
        #expect(reconciler.description == name)
    }

    @Test("reconcilers: a choice that does not fit the event's answer type names the key and what fits")
    func reconcilerThatDoesNotFit() throws {
        let error = #expect(throws: ManifestError.self) {
            try parseManifest(withApp(#""reconcilers": {"performFetch": "merge"}"#))
        }
        #expect(error?.description.hasSuffix(
            #"reconcilers.performFetch: expected a precedence list such as [failed, newData, noData] or firstAnswer, found the string "merge""#) == true)
    }

    @Test("reconcilers: a precedence list keeps its order")
    func precedence() throws {
        let manifest = try parseManifest(withApp(#""reconcilers": {"didReceiveRemoteNotification": ["noData", "newData", "failed"]}"#))
        #expect(manifest.reconcilers[.didReceiveRemoteNotification] == .precedence([.noData, .newData, .failed]))
        #expect(ReconcilerChoice.precedence([.noData, .newData, .failed]).description == "[noData, newData, failed]")
    }

    @Test("Expo's module-config shape: ios and apple give the subscriber list")
    func expoShape() throws {
        let manifest = try parseManifest(withApp(#"""
        "plugins": [
          {"library": "A", "ios": {"appDelegateSubscribers": ["One", "Two"]}},
          {"library": "B", "apple": {"appDelegateSubscribers": ["Three"]}}
        ]
        """#))
        #expect(manifest.plugins.map(\.subscribers) == [["One", "Two"], ["Three"]])
    }
}
