import Testing
import SubscriberABI
@testable import SubscriberHost

#if canImport(Glibc)
import Glibc
#endif

/// A descriptor built in memory, valid until a test breaks one field. Owns its strings.
final class FakeDescriptor {
    let pointer = UnsafeMutablePointer<adh_plugin_descriptor>.allocate(capacity: 1)
    private var allocations: [UnsafeMutableRawPointer] = []

    init() {
        let create: @convention(c) (UnsafePointer<CChar>?, UnsafePointer<adh_host>?) -> UnsafePointer<adh_subscriber>? = { _, _ in nil }
        pointer.initialize(to: adh_plugin_descriptor())
        pointer.pointee.struct_size = UInt32(MemoryLayout<adh_plugin_descriptor>.size)
        pointer.pointee.abi_major = UInt32(ADH_ABI_MAJOR)
        pointer.pointee.abi_minor = UInt32(ADH_ABI_MINOR)
        pointer.pointee.id = text("com.example.fake")
        pointer.pointee.name = text("Fake")
        pointer.pointee.version = text("1.0")
        pointer.pointee.vendor = text("")
        pointer.pointee.swift_version = text("")
        setNames([text("One"), text("Two")])
        pointer.pointee.create = create
    }

    deinit {
        allocations.forEach { free($0) }
        pointer.deallocate()
    }

    /// A NUL-terminated copy of `bytes`, owned by this descriptor.
    func bytes(_ bytes: [UInt8]) -> UnsafePointer<CChar> {
        let memory = malloc(bytes.count + 1)!
        allocations.append(memory)
        memory.copyMemory(from: bytes, byteCount: bytes.count)
        memory.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        return UnsafePointer(memory.assumingMemoryBound(to: CChar.self))
    }

    func text(_ string: String) -> UnsafePointer<CChar> { bytes(Array(string.utf8)) }

    func setNames(_ names: [UnsafePointer<CChar>?]) {
        let memory = malloc(max(1, names.count) * MemoryLayout<UnsafePointer<CChar>?>.stride)!
        allocations.append(memory)
        let list = memory.bindMemory(to: UnsafePointer<CChar>?.self, capacity: names.count)
        for (index, name) in names.enumerated() { list[index] = name }
        pointer.pointee.subscriber_names = UnsafePointer(list)
        pointer.pointee.subscriber_count = UInt32(names.count)
    }

    func read(host: String = "6.3") throws(PluginLoadError) -> DescriptorFields {
        try DescriptorReader(raw: UnsafeRawPointer(pointer), path: "/p/libFake.so", hostSwiftVersion: host).read()
    }

    /// The error's one line, or nil when the descriptor reads.
    func error(host: String = "6.3") -> String? {
        do {
            _ = try read(host: host)
            return nil
        } catch {
            return error.description
        }
    }
}

private func malformed(_ rest: String) -> String { #"plugin "/p/libFake.so": malformed descriptor: \#(rest)"# }

@Suite("Loader: descriptor fields, read only as far as struct_size")
struct LoaderDescriptorFieldTests {
    @Test("a valid descriptor reads into fields")
    func valid() throws {
        let fake = FakeDescriptor()
        let fields = try fake.read()
        #expect(fields.id == "com.example.fake" && fields.name == "Fake" && fields.version == "1.0")
        #expect(fields.vendor == "" && fields.swiftVersion == "")
        #expect(fields.subscriberNames == ["One", "Two"])
    }

    @Test("check 6: struct_size too small to hold even the version fields")
    func tinyStruct() {
        let fake = FakeDescriptor()
        fake.pointer.pointee.struct_size = 8
        fake.pointer.pointee.abi_major = 2  // not read: struct_size does not cover it
        #expect(fake.error() == #"plugin "/p/libFake.so": expected a descriptor struct_size of at least 80 (ABI 1.0), found 8"#)
    }

    @Test("check 6: another major is refused whatever its size; a newer minor of 1 is accepted")
    func versions() throws {
        let fake = FakeDescriptor()
        fake.pointer.pointee.abi_major = 2
        fake.pointer.pointee.abi_minor = 3
        #expect(fake.error() == #"plugin "/p/libFake.so": ABI mismatch: expected ABI 1.x (the host's), found 2.3; rebuild the plugin against this host's SubscriberABI.h, or use a host that speaks 2.x"#)
        fake.pointer.pointee.abi_major = 1
        fake.pointer.pointee.abi_minor = 7
        #expect(try fake.read().abiMinor == 7)
    }

    @Test("check 7: a Swift plugin must match the host's major.minor; a C plugin is not asked")
    func swiftVersions() throws {
        let fake = FakeDescriptor()
        #expect(fake.error(host: "6.3") == nil)
        fake.pointer.pointee.swift_version = fake.text("6.2")
        #expect(fake.error(host: "6.3") == #"plugin "/p/libFake.so": Swift compiler mismatch: expected 6.3 (the host's), found 6.2; rebuild the plugin with the host's toolchain"#)
        fake.pointer.pointee.swift_version = fake.text("6.3")
        #expect(try fake.read(host: "6.3").swiftVersion == "6.3")
        fake.pointer.pointee.swift_version = nil
        #expect(fake.error() == malformed("swift_version: expected a string, found NULL"))
    }

    @Test("check 7 fails closed: a host version the ladder could not name matches nothing, not even itself")
    func unnamedSwiftVersion() throws {
        let fake = FakeDescriptor()
        let unnamed = "unknown (newer than 6.9)"
        fake.pointer.pointee.swift_version = fake.text(unnamed)
        #expect(fake.error(host: unnamed)?.contains("Swift compiler mismatch: expected \(unnamed) (the host's)") == true)
        fake.pointer.pointee.swift_version = fake.text("")
        #expect(fake.error(host: unnamed) == nil)  // a C plugin is not asked
        #expect(DescriptorReader.isMajorMinor("6.3") && DescriptorReader.isMajorMinor("10.12"))
        #expect(!DescriptorReader.isMajorMinor("6") && !DescriptorReader.isMajorMinor("6.3.1") && !DescriptorReader.isMajorMinor("6.") && !DescriptorReader.isMajorMinor(unnamed))
    }

    @Test("check 8: strings must be present, valid UTF-8, and id/name non-empty")
    func strings() {
        let fake = FakeDescriptor()
        fake.pointer.pointee.name = fake.bytes([0x42, 0xFF, 0xFE, 0x44])
        #expect(fake.error() == malformed("name: expected valid UTF-8, found the bytes 42 ff fe 44"))
        fake.pointer.pointee.name = nil
        #expect(fake.error() == malformed("name: expected a non-empty string, found NULL"))
        fake.pointer.pointee.name = fake.text("Fake")
        fake.pointer.pointee.id = fake.text("")
        #expect(fake.error() == malformed("id: expected a non-empty string, found an empty string"))
        fake.pointer.pointee.id = fake.text("id")
        fake.pointer.pointee.version = nil
        #expect(fake.error() == malformed("version: expected a string, found NULL"))
        fake.pointer.pointee.version = fake.text("")
        fake.pointer.pointee.vendor = fake.bytes([0xC3])
        #expect(fake.error() == malformed("vendor: expected valid UTF-8, found the bytes c3"))
    }

    @Test("check 8: create must be a function")
    func nullCreate() {
        let fake = FakeDescriptor()
        fake.pointer.pointee.create = nil
        #expect(fake.error() == malformed("create: expected a function, found NULL"))
    }

    @Test("check 8: subscriber names: a list when counted, present, non-empty, unique; a sane count")
    func subscriberNames() throws {
        let fake = FakeDescriptor()
        fake.pointer.pointee.subscriber_names = nil
        #expect(fake.error() == malformed("subscriber_names: expected an array of 2 names, found NULL"))
        fake.setNames([fake.text("One"), nil])
        #expect(fake.error() == malformed("subscriber_names[1]: expected a non-empty string, found NULL"))
        fake.setNames([fake.text("")])
        #expect(fake.error() == malformed("subscriber_names[0]: expected a non-empty string, found an empty string"))
        fake.setNames([fake.text("One")])
        fake.pointer.pointee.subscriber_count = 5000
        #expect(fake.error() == malformed("subscriber_count: expected at most 4096, found 5000"))
        fake.setNames([])
        #expect(try fake.read().subscriberNames == [])
    }
}
