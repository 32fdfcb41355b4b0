import Foundation
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
