import Foundation
import SubscriberABI
import Testing
@testable import SubscriberKit

/// The export registry's parts that let plugins share one copy of the SDK.
@Suite("Export registry: records found by image")
struct ExportRegistryTests {
    @Test("1,000 image handles, close together as loaded images are: each found with its own record, others not found")
    func imageIndexFindsEachImage() {
        var index = ImageIndex()
        let handles = (0..<1_000).map { UInt(0x7f3a_0000_0000) + UInt($0) * 0x21_000 + 0x3a8 }
        for (number, handle) in handles.enumerated() {
            #expect(index.find(handle) == nil)
            index.insert(handle, number)
        }
        for (number, handle) in handles.enumerated() {
            #expect(index.find(handle) == number)
        }
        #expect(index.find(handles[0] + 8) == nil)
        #expect(index.find(1) == nil)
    }
}

/// What the registry writes into a descriptor comes from the plugin's image, not from the copy of the
/// SDK that builds it: with a shared `libSubscriberKit.so`, the library's own compiler is not the plugin's.
@MainActor
@Suite("Export registry: descriptors say what the exporting image said")
struct ExportRegistryDescriptorTests {
    final class Probe: InstantiableSubscriber {
        init(context: SubscriberContext) {}
    }

    @Test("the Swift version an image passes is the descriptor's swift_version, not the registry's own compiler")
    func swiftVersionFromTheImage() throws {
        var image = 0  // any address stands for an image here
        let none: ExportRegistry.CreateFunction = { _, _ in nil }
        let creates = Array(repeating: none, count: ExportRegistry.slotCount)
        let descriptor = withUnsafePointer(to: &image) { image in
            ExportRegistry.shared.descriptor(image: UnsafeRawPointer(image), swiftVersion: "0.1-test", creates: creates,
                                             id: "dev.appdelegatehost.tests.version", name: "Version", version: "1",
                                             vendor: "", subscribers: [Probe.self])
        }
        #expect(String(cString: try #require(descriptor.pointee.swift_version)) == "0.1-test")
        #expect(SubscriberPlugin.swiftCompilerVersion != "0.1-test")
    }
}
