import SubscriberABI
@testable import SubscriberKit
@testable import SubscriberEventModel
import Testing
import SubscriberHost

@Suite("Bridge: which vtable entries are read")
struct BridgeEntriesTests {
    /// A full-size adh_subscriber with every core entry installed (the SDK's functions, never called).
    private func everyEntry() -> UnsafeMutablePointer<adh_subscriber> {
        let vtable = UnsafeMutablePointer<adh_subscriber>.allocate(capacity: 1)
        vtable.initialize(to: adh_subscriber())
        vtable.pointee.struct_size = UInt32(MemoryLayout<adh_subscriber>.size)
        for event in EventFamily.application.events { event.row.install(into: UnsafeMutableRawPointer(vtable)) }
        return vtable
    }

    @Test("entries past struct_size are not read, whatever they hold")
    func structSizeCoverage() {
        let vtable = everyEntry()
        defer { vtable.deallocate() }
        let core = EventFamily.application.events
        #expect(core.filter { $0.row.entry(in: vtable) != nil } == core)
        // Covering up to did_become_active: the entries before it in header order, and it.
        vtable.pointee.struct_size = UInt32(MemoryLayout<adh_subscriber>.offset(of: \.did_become_active)! + 8)
        let covered = core.prefix { $0 != .didBecomeActive } + [.didBecomeActive]
        #expect(core.filter { $0.row.entry(in: vtable) != nil } == Array(covered))
        // A 1.0 struct (no get_extension): the core entries of 1.0, a prefix in header order ending
        // with the last of them; an entry appended since reads as NULL.
        vtable.pointee.struct_size = UInt32(MemoryLayout<adh_subscriber>.offset(of: \.get_extension)!)
        let readable = core.filter { $0.row.entry(in: vtable) != nil }
        #expect(readable == Array(core.prefix(readable.count)))
        #expect(readable.last == .handleWatchKitExtensionRequest)
    }
}
