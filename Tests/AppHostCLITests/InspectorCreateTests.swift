import Glibc
import Synchronization
import Testing
import SubscriberABI
import SubscriberKit
@testable import SubscriberHost
@testable import AppHostCLI

/// A plugin built in memory: it declares "Made" (a subscriber with nothing but destroy) and "Null"
/// (for which create returns NULL).
private enum InMemoryPlugin {
    static let path = "/p/libInMemory.so"
    /// How many "Made" instances were destroyed.
    static let destroyed = Atomic<Int>(0)

    @MainActor static let descriptor: UnsafePointer<adh_plugin_descriptor> = {
        let names = ["Made", "Null"]
        let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: names.count)
        for (index, name) in names.enumerated() { list[index] = UnsafePointer(strdup(name)) }
        let descriptor = UnsafeMutablePointer<adh_plugin_descriptor>.allocate(capacity: 1)
        descriptor.initialize(to: adh_plugin_descriptor(
            struct_size: UInt32(MemoryLayout<adh_plugin_descriptor>.size), abi_major: 1, abi_minor: 0,
            id: UnsafePointer(strdup("com.example.in-memory")), name: UnsafePointer(strdup("In memory")),
            version: UnsafePointer(strdup("1.0")), vendor: UnsafePointer(strdup("")),
            swift_version: UnsafePointer(strdup("")), subscriber_count: UInt32(names.count),
            subscriber_names: UnsafePointer(list),
            create: { name, _ in
                guard let name, String(cString: name) == "Made" else { return nil }
                var v = adh_subscriber()
                v.struct_size = UInt32(MemoryLayout<adh_subscriber>.size)
                v.destroy = { me in
                    InMemoryPlugin.destroyed.add(1, ordering: .relaxed)
                    UnsafeMutablePointer(mutating: me!).deallocate()
                }
                let vtable = UnsafeMutablePointer<adh_subscriber>.allocate(capacity: 1)
                vtable.initialize(to: v)
                return UnsafePointer(vtable)
            }))
        return UnsafePointer(descriptor)
    }()

    /// The image, as if the loader had loaded it from ``path``.
    @MainActor
    static func image() throws -> LoadedPluginImage {
        let fields = try DescriptorReader(raw: UnsafeRawPointer(descriptor), path: path,
                                          hostSwiftVersion: HostSwiftVersion.current).read()
        let handle = try #require(dlopen(nil, RTLD_NOW))  // never used: any valid handle
        return LoadedPluginImage(path: path, realPath: path, handle: handle, descriptor: descriptor, fields: fields,
                                 loadDuration: .zero)
    }
}

@MainActor
@Suite("list makes and destroys each subscriber, so it agrees with a run")
struct InspectorCreateTests {
    @Test("an entry whose create returns NULL fails (check 9), optional or required; the others make and destroy theirs")
    func createFailures() throws {
        let image = try InMemoryPlugin.image()
        let entries = [
            ManifestPlugin(index: 0, source: .library("InMemory"), subscribers: ["Made"]),
            ManifestPlugin(index: 1, source: .library("InMemory"), subscribers: ["Made", "Null"], optional: true),
            ManifestPlugin(index: 2, source: .library("InMemory"), subscribers: ["Null"]),
        ]
        let manifest = Manifest(file: "m.json", directory: "/apps",
                                app: Application(name: "A", bundleIdentifier: "a", version: "1.0"), plugins: entries)
        let destroyedBefore = InMemoryPlugin.destroyed.load(ordering: .relaxed)
        // Names are not reserved here (check 10 is loadEntry's, tested with the loader).
        let verdicts = PluginInspector.inspect(manifest) { (entry, _) throws(PluginLoadError) -> PluginSet.Plugin in
            PluginSet.Plugin(entry: entry, path: InMemoryPlugin.path, image: image, subscriberNames: entry.subscribers)
        }
        // Entry 0 made and destroyed one; entry 1 made one, then destroyed it when Null failed.
        #expect(InMemoryPlugin.destroyed.load(ordering: .relaxed) == destroyedBefore + 2)
        #expect(verdicts.count == 3)
        guard case .loaded(let summary) = verdicts[0].outcome else {
            Issue.record("entry 0: \(verdicts[0].outcome)")
            return
        }
        #expect(summary.subscribers == ["Made"] && summary.id == "com.example.in-memory")
        let nullFailure = PluginLoadError.createFailed(path: InMemoryPlugin.path, name: "Null", reason: "create returned NULL")
        for verdict in verdicts[1...] {
            guard case .failed(let error) = verdict.outcome else {
                Issue.record("entry \(verdict.entry.index): \(verdict.outcome)")
                continue
            }
            #expect(error == nullFailure && error.check == 9)
        }
        #expect(verdicts.map(\.isFatal) == [false, false, true])
    }
}
