import Testing
import SubscriberKit
@testable import SubscriberHost

/// Writes a manifest with `plugins` (JSON array text) and optional search paths into `folder`.
private func writeManifest(in folder: TestDirectory, searchPaths: [String] = [BuiltPlugins.directory],
                           plugins: String) throws -> Manifest {
    let paths = searchPaths.map { "\"\($0)\"" }.joined(separator: ", ")
    let path = try folder.write("app.json", withApp(#""pluginSearchPaths": [\#(paths)], "plugins": \#(plugins)"#))
    return try Manifest(contentsOfFile: path)
}

/// The set loaded from `manifest` without the executable's folder (so only the manifest and
/// `extra` say where libraries are), or the one-line error.
@MainActor
private func load(_ manifest: Manifest, extra: [String] = []) -> Result<PluginSet, PluginSetError> {
    let locator = PluginLocator(manifest: manifest, extraDirectories: extra, executableDirectory: nil)
    return Result { () throws(PluginSetError) -> PluginSet in try PluginLoader().load(manifest, locator: locator) }
}

@MainActor
@Suite("Loader: a manifest's plugins, checks 9-10, optional and required")
struct LoaderManifestTests {
    let guardPath = BuiltPlugins.path("ExtensionGuard")

    @Test("a library found through pluginSearchPaths loads with its options and priority")
    func loadsThroughManifest() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let manifest = try writeManifest(in: folder, plugins: #"""
            [{"library": "ExtensionGuard", "options": {"deny": ["com.example.keyboard"]}, "priority": 3}]
            """#)
        let set = try load(manifest).get()
        #expect(set.skipped.isEmpty)
        #expect(set.plugins.count == 1)
        #expect(set.plugins[0].path == guardPath)
        #expect(set.plugins[0].image.id == "dev.appdelegatehost.extension-guard")
        #expect(set.plugins[0].subscriberNames == ["ExtensionGuard"])
        let subscriber = try #require(set.subscribers.first)
        #expect(set.subscribers.count == 1)
        #expect(subscriber.name == "ExtensionGuard")
        #expect(subscriber.options == ["deny": ["com.example.keyboard"]])
        #expect(subscriber.priority == 3 && subscriber.pluginIndex == 0)
        #expect(subscriber.image === set.plugins[0].image)
    }

    @Test("a path entry is relative to the manifest; an extra folder is searched after pluginSearchPaths")
    func pathAndExtraFolder() throws {
        let folder = try TestDirectory(), extra = try TestDirectory()
        defer { folder.remove(); extra.remove() }
        try folder.symlink("libLinked.so", to: guardPath)
        try extra.copy(guardPath, to: "libGuardCopy.so")
        let manifest = try writeManifest(in: folder, searchPaths: [], plugins: #"""
            [{"path": "libLinked.so", "subscribers": ["ExtensionGuard"]}]
            """#)
        let set = try load(manifest).get()
        #expect(set.plugins[0].path == folder.file("libLinked.so"))
        #expect(set.plugins[0].image.realPath == FilePaths.realPath(guardPath))

        let viaExtra = try writeManifest(in: folder, searchPaths: [], plugins: #"[{"library": "GuardCopy"}]"#)
        #expect(try load(viaExtra, extra: [extra.path]).get().plugins[0].path == extra.file("libGuardCopy.so"))
    }

    @Test("a matching pin loads; a wrong pin stops the host naming the entry")
    func pins() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let actual = try SHA256.hash(fileAtPath: guardPath).hex
        let good = try writeManifest(in: folder, plugins: #"[{"library": "ExtensionGuard", "sha256": "\#(actual)"}]"#)
        #expect(try load(good).get().plugins.count == 1)
        let zeros = String(repeating: "0", count: 64)
        let bad = try writeManifest(in: folder, plugins: #"[{"library": "ExtensionGuard", "sha256": "\#(zeros)"}]"#)
        #expect(load(bad).failure?.description
            == #"\#(folder.file("app.json")): plugins[0]: plugin "\#(guardPath)": SHA-256 does not match the manifest's pin: expected \#(zeros), found \#(actual)"#)
    }

    @Test("check 9: a subscriber the plugin does not declare")
    func unknownSubscriber() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let manifest = try writeManifest(in: folder, plugins: #"[{"library": "ExtensionGuard", "ios": {"appDelegateSubscribers": ["Nope"]}}]"#)
        let failure = try #require(load(manifest).failure)
        #expect(failure.pluginIndex == 0 && failure.error.check == 9)
        #expect(failure.description
            == #"\#(folder.file("app.json")): plugins[0]: plugin "\#(guardPath)" declares no subscriber named Nope; it declares: ExtensionGuard"#)
    }

    @Test("check 10: two entries providing one subscriber name")
    func duplicateAcrossPlugins() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        try folder.copy(guardPath, to: "libGuardCopy.so")
        let manifest = try writeManifest(in: folder, plugins: #"[{"library": "ExtensionGuard"}, {"path": "libGuardCopy.so"}]"#)
        let failure = try #require(load(manifest).failure)
        #expect(failure.pluginIndex == 1 && failure.error.check == 10)
        #expect(failure.description
            == #"\#(folder.file("app.json")): plugins[1]: plugin "\#(folder.file("libGuardCopy.so"))": expected subscriber names unique across plugins, found ExtensionGuard also in plugins[0] "\#(guardPath)""#)
    }

    @Test("check 10: one file listed twice names the first entry, not the same path twice")
    func sameFileListedTwice() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let manifest = try writeManifest(in: folder, plugins: #"[{"library": "ExtensionGuard"}, {"path": "\#(guardPath)"}]"#)
        let failure = try #require(load(manifest).failure)
        #expect(failure.pluginIndex == 1 && failure.error.check == 10)
        #expect(failure.description.hasSuffix(#"found ExtensionGuard also in plugins[0] "\#(guardPath)""#), "\(failure)")
    }

    @Test("optional failures are skipped and reported; the rest loads")
    func optionalSkipped() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        try folder.copy(guardPath, to: "libGuardCopy.so")
        let manifest = try writeManifest(in: folder, plugins: #"""
            [{"library": "BrokenNoEntry", "optional": true},
             {"library": "ExtensionGuard"},
             {"library": "Missing", "optional": true},
             {"path": "libGuardCopy.so", "optional": true}]
            """#)
        let set = try load(manifest).get()
        #expect(set.plugins.map(\.entry.index) == [1])
        #expect(set.skipped.map(\.pluginIndex) == [0, 2, 3])
        #expect(set.skipped.map(\.error.check) == [5, 1, 10])
        #expect(set.skipped[0].description
            == #"plugins[0] (optional, skipped): plugin "\#(BuiltPlugins.path("BrokenNoEntry"))" is not a subscriber plugin: no symbol adh_plugin_entry"#)
        // The build folder the suite's plugins are in: its hint is a swift build (with --scratch-path
        // when the suite was built with one).
        guard case .libraryNotFound(let library, _, let searched, let build?, _) = set.skipped[1].error else {
            Issue.record("\(set.skipped[1].error)")
            return
        }
        #expect(library == "Missing" && searched == [BuiltPlugins.directory])
        // Told from the folder's path as SwiftPM lays it out: a package's own .build or a scratch folder.
        let directory = BuiltPlugins.directory
        #expect((build.scratchPath == nil) == directory.contains("/.build/"), "\(directory): \(build)")
        #expect(build.release == directory.split(separator: "/").contains("release"), "\(directory): \(build)")
        #expect(set.subscribers.map(\.name) == ["ExtensionGuard"])
    }

    @Test("a library name one or two edits from one in the folders searched: did you mean that one, not a build hint")
    func libraryNameMisspelled() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let manifest = try writeManifest(in: folder, plugins: #"[{"library": "Greter", "optional": true}, {"library": "greeterc", "optional": true}]"#)
        let set = try load(manifest).get()
        guard case .libraryNotFound(_, _, _, _, let nearest) = set.skipped[0].error,
              case .libraryNotFound(_, _, _, _, let caseOnly) = set.skipped[1].error else {
            Issue.record("\(set.skipped.map(\.error))")
            return
        }
        #expect(nearest == "Greeter")
        #expect(caseOnly == "GreeterC")
        #expect(set.skipped[0].error.description.hasSuffix(#"found it in none (did you mean "Greeter"?)"#), "\(set.skipped[0].error)")
        // Nothing near: no guess.
        #expect(PluginLocator.nearestLibrary(to: "Completely", in: [BuiltPlugins.directory]) == nil)
    }

    @Test("a skipped optional plugin does not reserve its names")
    func skippedReservesNothing() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        try folder.copy(guardPath, to: "libGuardCopy.so", mode: 0o775)  // refused: group-writable
        let manifest = try writeManifest(in: folder, plugins: #"""
            [{"path": "libGuardCopy.so", "optional": true}, {"library": "ExtensionGuard"}]
            """#)
        let set = try load(manifest).get()
        #expect(set.skipped.map(\.error.check) == [2])
        #expect(set.plugins.map(\.entry.index) == [1])
    }

    @Test("a required failure stops everything, whatever loaded before it")
    func requiredStops() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let manifest = try writeManifest(in: folder, plugins: #"""
            [{"library": "ExtensionGuard"}, {"library": "BrokenABIMajor"}, {"library": "Missing", "optional": true}]
            """#)
        let failure = try #require(load(manifest).failure)
        #expect(failure.pluginIndex == 1)
        #expect(failure.description
            == #"\#(folder.file("app.json")): plugins[1]: plugin "\#(BuiltPlugins.path("BrokenABIMajor"))": ABI mismatch: expected ABI 1.x (the host's), found 2.0; rebuild the plugin against this host's SubscriberABI.h, or use a host that speaks 2.x"#)
    }

    @Test("a required library found nowhere lists where it looked")
    func requiredNotFound() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let manifest = try writeManifest(in: folder, searchPaths: ["lib"], plugins: #"[{"library": "Missing"}]"#)
        #expect(load(manifest, extra: ["/opt/none"]).failure?.description
            == #"\#(folder.file("app.json")): plugins[0]: plugin library "Missing": expected libMissing.so in one of \#(folder.path)/lib, /opt/none, found it in none"#)
    }

    @Test("loadEntry: one entry through all ten checks; only an entry that passes reserves its names")
    func loadEntry() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let manifest = try writeManifest(in: folder, plugins: #"""
            [{"library": "ExtensionGuard", "priority": 2}, {"path": "\#(guardPath)", "subscribers": ["Nope"]}]
            """#)
        let locator = PluginLocator(manifest: manifest, extraDirectories: [], executableDirectory: nil)
        let loader = PluginLoader()

        var owners = ["ExtensionGuard": #"plugins[7] "/elsewhere/libOther.so""#]
        #expect(throws: PluginLoadError.duplicateSubscriber(path: guardPath, name: "ExtensionGuard",
                                                            provider: #"plugins[7] "/elsewhere/libOther.so""#)) {
            try loader.loadEntry(manifest.plugins[0], locator: locator, owners: &owners)
        }
        #expect(owners == ["ExtensionGuard": #"plugins[7] "/elsewhere/libOther.so""#])

        owners = [:]
        #expect(throws: PluginLoadError.unknownSubscriber(path: guardPath, name: "Nope", declared: ["ExtensionGuard"])) {
            try loader.loadEntry(manifest.plugins[1], locator: locator, owners: &owners)
        }
        #expect(owners.isEmpty)

        let plugin = try loader.loadEntry(manifest.plugins[0], locator: locator, owners: &owners)
        #expect(plugin.entry == manifest.plugins[0] && plugin.path == guardPath)
        #expect(plugin.subscriberNames == ["ExtensionGuard"])
        #expect(owners == ["ExtensionGuard": #"plugins[0] "\#(guardPath)""#])
    }

    @Test("the default locator also finds libraries beside the running executable")
    func besideExecutable() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let manifest = try writeManifest(in: folder, searchPaths: [], plugins: #"[{"library": "ExtensionGuard"}]"#)
        try #require(PluginLocator.runningExecutableDirectory == BuiltPlugins.directory)
        #expect(try PluginLoader().load(manifest).plugins.first?.path == guardPath)
    }
}

extension Result {
    /// The error, when this is a failure.
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
