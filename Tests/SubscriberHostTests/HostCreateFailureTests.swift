import Testing
import SubscriberABI
import SubscriberKit
@testable import SubscriberHost

#if canImport(Glibc)
import Glibc
#endif

/// An image for a descriptor built in memory, as if the loader had loaded it from `path`.
@MainActor
func inMemoryImage(_ descriptor: UnsafePointer<adh_plugin_descriptor>, path: String) throws -> LoadedPluginImage {
    let fields = try DescriptorReader(raw: UnsafeRawPointer(descriptor), path: path,
                                      hostSwiftVersion: HostSwiftVersion.current).read()
    // Any valid handle: the host never uses it (and never passes it to dlclose).
    let handle = try #require(dlopen(nil, RTLD_NOW))
    return LoadedPluginImage(path: path, realPath: path, handle: handle, descriptor: descriptor, fields: fields,
                             loadDuration: .zero)
}

/// The manifest entries `entries` (image, subscribers, optional) as a loaded set, and the manifest.
@MainActor
private func loadedSet(_ entries: [(image: LoadedPluginImage, subscribers: [String], optional: Bool)])
    -> (Manifest, PluginSet)
{
    let plugins = entries.enumerated().map { index, planned in
        PluginSet.Plugin(entry: ManifestPlugin(index: index, source: .path(planned.image.path),
                                               subscribers: planned.subscribers, priority: index,
                                               optional: planned.optional),
                         path: planned.image.path, image: planned.image, subscriberNames: planned.subscribers)
    }
    let manifest = Manifest(file: "m.json", directory: "/apps", app: bridgeTestApplication,
                            plugins: plugins.map(\.entry))
    return (manifest, PluginSet(plugins: plugins, skipped: []))
}

/// A host made from `set` with the manifest's default configuration.
@MainActor
private func makeHost(_ manifest: Manifest, _ set: PluginSet) throws(HostError) -> PluginHost {
    try PluginHost(manifest: manifest, loaded: set, configuration: DispatchConfiguration(application: manifest.app),
                   log: HostLogRecorder())
}

@MainActor
@Suite("Host: a create that fails skips an optional plugin and stops on a required one")
struct HostCreateFailureTests {
    @Test("optional entries whose create fails are skipped, their made subscribers destroyed; the rest run")
    func optionalSkipped() throws {
        let nullCreate = FakeDescriptor()  // declares One and Two; create returns NULL for both
        let handBuilt = try inMemoryImage(HandBuilt.descriptor, path: "/p/libHandBuilt.so")
        let fake = try inMemoryImage(nullCreate.pointer, path: "/p/libFake.so")
        let (manifest, set) = loadedSet([
            (handBuilt, ["logger"], false),
            (handBuilt, ["sparse", "nodestroy"], true),  // sparse is made, then nodestroy fails
            (fake, ["One"], true),
            (handBuilt, ["weird"], false),
        ])
        let destroyedBefore = HandBuilt.destroyed
        let host = try makeHost(manifest, set)
        #expect(HandBuilt.destroyed == destroyedBefore + 1, "the sparse made from the skipped entry is destroyed")
        #expect(host.subscribers.map(\.name) == ["logger", "weird"])
        #expect(host.dispatcher.subscribers.map(\.name) == ["weird", "logger"])  // priority = index here
        #expect(host.plugins.plugins.map(\.entry.index) == [0, 3])
        #expect(host.plugins.skipped.map(\.pluginIndex) == [1, 2])
        #expect(host.plugins.skipped.map(\.error) == [
            .createFailed(path: "/p/libHandBuilt.so", name: "nodestroy", reason: "the subscriber has no destroy"),
            .createFailed(path: "/p/libFake.so", name: "One", reason: "create returned NULL"),
        ])
        #expect(host.plugins.skipped[1].description
            == #"plugins[2] (optional, skipped): plugin "/p/libFake.so": expected create("One") to make a subscriber it declares, found that create returned NULL"#)
        #expect(host.plugins.skipped.allSatisfy { $0.error.check == 9 })
        #expect(host.dispatcher.responderNames(for: .openURL) == ["weird"])
    }

    @Test("a required entry whose create fails stops the host, destroying every subscriber made so far")
    func requiredStops() throws {
        let nullCreate = FakeDescriptor()
        let handBuilt = try inMemoryImage(HandBuilt.descriptor, path: "/p/libHandBuilt.so")
        let fake = try inMemoryImage(nullCreate.pointer, path: "/p/libFake.so")
        let (manifest, set) = loadedSet([
            (handBuilt, ["logger", "sparse"], false),
            (fake, ["One"], true),
            (fake, ["Two"], false),
        ])
        let destroyedBefore = HandBuilt.destroyed
        #expect {
            try makeHost(manifest, set)
        } throws: { error in
            guard case .load(let failure) = (error as? HostError)?.reason else { return false }
            return failure == PluginSetError(file: "m.json", pluginIndex: 2, error: .createFailed(
                path: "/p/libFake.so", name: "Two", reason: "create returned NULL"))
                && failure.description
                == #"m.json: plugins[2]: plugin "/p/libFake.so": expected create("Two") to make a subscriber it declares, found that create returned NULL"#
        }
        #expect(HandBuilt.destroyed == destroyedBefore + 2, "logger and sparse are destroyed")
    }

    @Test("a required entry whose subscriber has no destroy stops the host, saying so")
    func requiredWithoutDestroy() throws {
        let handBuilt = try inMemoryImage(HandBuilt.descriptor, path: "/p/libHandBuilt.so")
        let (manifest, set) = loadedSet([(handBuilt, ["nodestroy"], false)])
        #expect {
            try makeHost(manifest, set)
        } throws: { error in
            String(describing: error)
                == #"m.json: plugins[0]: plugin "/p/libHandBuilt.so": expected create("nodestroy") to make a subscriber it declares, found that the subscriber has no destroy"#
        }
    }
}
