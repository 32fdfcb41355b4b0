import Testing
import SubscriberABI
@testable import SubscriberHost
import SubscriberKit

@MainActor
@Suite("Loader: checks 4-8 on the built plugins")
struct LoaderDescriptorTests {
    @Test("the C example plugin loads, and its descriptor reads into the image")
    func goodPlugin() throws {
        let path = BuiltPlugins.path("ExtensionGuard")
        let image = try PluginLoader().loadImage(at: path)
        #expect(image.realPath == FilePaths.realPath(path))
        #expect(image.id == "dev.appdelegatehost.extension-guard")
        #expect(image.name == "ExtensionGuard")
        #expect(image.version == "1.0.0")
        #expect(image.vendor == "AppDelegateHost")
        #expect(image.swiftVersion == "" && image.isCPlugin)
        #expect(image.abiMajor == ABI.major && image.abiMinor == ABI.minor)
        #expect(image.structSize == UInt32(MemoryLayout<adh_plugin_descriptor>.size))
        #expect(image.subscriberNames == ["ExtensionGuard"])
        #expect(image.descriptor.pointee.create != nil)
        #expect(PluginLoader.loadedImage(realPath: image.realPath) === image)
    }

    @Test("a Swift plugin loads: its [main-thread] entry (MainActor.assumeIsolated) runs on the loader's main actor")
    func swiftPlugin() throws {
        // A fresh copy, so that this load really calls the entry (an image loaded before would not).
        let folder = try TestDirectory()
        defer { folder.remove() }
        let copy = try folder.copy(BuiltPlugins.path("Greeter"), to: "libGreeterCopy.so")
        let image = try PluginLoader().loadImage(at: copy)
        #expect(image.realPath == copy)
        #expect(image.id == "com.example.greeter" && image.subscriberNames == ["Greeter"])
        #expect(image.swiftVersion == HostSwiftVersion.current && !image.isCPlugin)
    }

    @Test("the same file twice, directly or through a symlink, is one image")
    func sameFileOnce() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let path = BuiltPlugins.path("ExtensionGuard")
        let link = try folder.symlink("libAlias.so", to: path)
        let first = try PluginLoader().loadImage(at: path)
        #expect(try PluginLoader().loadImage(at: path) === first)
        #expect(try PluginLoader().loadImage(at: link) === first)
    }

    @Test("check 4: a symbol nothing defines, which RTLD_NOW must resolve")
    func unresolvedSymbol() throws {
        let path = BuiltPlugins.path("BrokenUnresolved")
        let real = try #require(FilePaths.realPath(path))
        #expect(loadError(path) == #"plugin "\#(path)": could not load library: \#(real): undefined symbol: adh_broken_unresolved_function"#)
    }

    @Test("check 5: no adh_plugin_entry")
    func noEntry() {
        let path = BuiltPlugins.path("BrokenNoEntry")
        #expect(loadError(path) == #"plugin "\#(path)" is not a subscriber plugin: no symbol adh_plugin_entry"#)
    }

    /// Calling the data as a function used to jump into the descriptor and crash the host (SIGSEGV).
    @Test("check 5: adh_plugin_entry exported as data, not a function, is refused without calling it")
    func entryIsData() {
        let path = BuiltPlugins.path("BrokenEntryData")
        #expect(loadError(path) == #"plugin "\#(path)": adh_plugin_entry is not a function (found a data object); export a function returning the descriptor"#)
    }

    @Test("check 6: ABI major 2")
    func abiMajor() {
        let path = BuiltPlugins.path("BrokenABIMajor")
        #expect(loadError(path) == #"plugin "\#(path)": ABI mismatch: expected ABI 1.x (the host's), found 2.0; rebuild the plugin against this host's SubscriberABI.h, or use a host that speaks 2.x"#)
    }

    @Test("check 6: struct_size smaller than the 1.0 descriptor")
    func structSize() {
        let path = BuiltPlugins.path("BrokenStructSize")
        #expect(DescriptorReader.size1_0 == 80)
        #expect(loadError(path) == #"plugin "\#(path)": expected a descriptor struct_size of at least 80 (ABI 1.0), found 16"#)
    }

    @Test("check 7: a Swift version other than the host's")
    func swiftVersion() throws {
        let path = BuiltPlugins.path("BrokenSwiftVersion")
        let host = HostSwiftVersion.current
        #expect(loadError(path) == #"plugin "\#(path)": Swift compiler mismatch: expected \#(host) (the host's), found 5.9; rebuild the plugin with the host's toolchain"#)
        // The comparison is against the host's version, not a constant: a 5.9 host accepts it.
        #expect(try PluginLoader(hostSwiftVersion: "5.9").loadImage(at: path).swiftVersion == "5.9")
        // Once resident, the image is still checked against each loader's own host version.
        #expect(loadError(path)?.contains("Swift compiler mismatch") == true)
    }

    @Test("the host's Swift version is the compiler's major.minor")
    func hostSwiftVersion() {
        let parts = HostSwiftVersion.current.split(separator: ".")
        #expect(parts.count == 2 && parts.allSatisfy { Int($0) != nil })
        #if compiler(>=6.3) && !compiler(>=6.4)
        #expect(HostSwiftVersion.current == "6.3")
        #endif
    }

    @Test("check 8: an empty id")
    func emptyId() {
        let path = BuiltPlugins.path("BrokenDescriptor")
        #expect(loadError(path) == #"plugin "\#(path)": malformed descriptor: id: expected a non-empty string, found an empty string"#)
    }

    @Test("check 8: a name that is not valid UTF-8, shown as bytes")
    func invalidUTF8Name() {
        let path = BuiltPlugins.path("BrokenUTF8Name")
        #expect(loadError(path) == #"plugin "\#(path)": malformed descriptor: name: expected valid UTF-8, found the bytes 42 72 6f 6b 65 6e ff fe 4e 61 6d 65"#)
    }

    @Test("check 8: a subscriber name listed twice")
    func duplicateNames() {
        let path = BuiltPlugins.path("BrokenDuplicateNames")
        #expect(loadError(path) == #"plugin "\#(path)": malformed descriptor: subscriber_names[1]: expected a unique name, found "Alpha" again (also subscriber_names[0])"#)
    }

    @Test("every broken plugin fails the check it was built to fail", arguments: [
        ("BrokenUnresolved", 4), ("BrokenNoEntry", 5), ("BrokenEntryData", 5), ("BrokenABIMajor", 6), ("BrokenStructSize", 6),
        ("BrokenSwiftVersion", 7), ("BrokenDescriptor", 8), ("BrokenUTF8Name", 8), ("BrokenDuplicateNames", 8),
    ])
    func checkNumbers(name: String, check: Int) {
        #expect(throws: PluginLoadError.self) { try PluginLoader().loadImage(at: BuiltPlugins.path(name)) }
        do {
            _ = try PluginLoader().loadImage(at: BuiltPlugins.path(name))
        } catch {
            #expect(error.check == check)
        }
    }

    /// SlowScan is left out: its constructor sleeps 1.2 s inside dlopen, under the loader's lock.
    @Test("the conformance kit's broken plugins load: their defects are at run time", arguments: [
        "NoDestroy", "CrashOnEvent", "HangOnEvent", "FuzzCrash", "NeverCompletes", "CompletesTwice", "LeakyCreate",
        "Nondeterministic", "SlowHandler", "UnknownNameNotNull",
    ])
    func runtimeDefectsLoad(name: String) throws {
        let image = try PluginLoader().loadImage(at: BuiltPlugins.path(name))
        #expect(image.subscriberNames == [name])
    }
}
