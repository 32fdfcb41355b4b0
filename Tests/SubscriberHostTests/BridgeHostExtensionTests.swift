import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// `adh_host.get_extension` as a plugin calls it: the host services by their ids, NULL for anything else
/// (an unknown id, a subscriber-side extension's id, another version, NULL itself), never a crash.
@Suite("Bridge: the host's get_extension")
struct BridgeHostExtensionTests {
    let state = ApplicationStateCell()
    let sink = HostLogRecorder()
    let interface: HostInterface

    init() {
        interface = HostInterface(context: SubscriberContext(subscriberName: "asker", application: bridgeTestApplication,
                                                             options: [:], sink: sink), state: state)
    }

    /// What the host's get_extension answers for `id`.
    func ask(_ id: UnsafePointer<CChar>?) throws -> UnsafeRawPointer? {
        let host = interface.pointer
        #expect(structCovers(host, \.get_extension))
        let getExtension = try #require(host.pointee.get_extension)
        return getExtension(host, id)
    }

    @Test("unknown ids, another version, a subscriber extension's id, the empty id and NULL: NULL")
    func unknownIsNull() throws {
        for id in ["adh.unknown/1", "adh.host.state/2", "adh.host.state", "adh.host.requests/0", "", "ADH.HOST.STATE/1",
                   ADH_EXT_NOTIFICATION_CENTER] {
            #expect(try id.withCString { try ask($0) } == nil, "\(id)")
        }
        #expect(try ask(nil) == nil)
    }

    @Test("the host state service: non-NULL, its size, the same vtable every time, today's state")
    func hostState() throws {
        let vtable = try #require(try ask(ADH_EXT_HOST_STATE)).assumingMemoryBound(to: adh_host_state.self)
        #expect(try ask(ADH_EXT_HOST_STATE) == UnsafeRawPointer(vtable))
        #expect(Int(vtable.pointee.struct_size) == MemoryLayout<adh_host_state>.size)
        let applicationState = try #require(vtable.pointee.application_state)
        #expect(applicationState(interface.pointer) == ApplicationState.notRunning.rawValue)
        state.state = .background
        #expect(applicationState(interface.pointer) == ApplicationState.background.rawValue)
    }

    @Test("the host request service: non-NULL, its size, the same vtable every time, requests attributed")
    func hostRequests() throws {
        let vtable = try #require(try ask(ADH_EXT_HOST_REQUESTS)).assumingMemoryBound(to: adh_host_requests.self)
        #expect(try ask(ADH_EXT_HOST_REQUESTS) == UnsafeRawPointer(vtable))
        #expect(Int(vtable.pointee.struct_size) == MemoryLayout<adh_host_requests>.size)
        let register = try #require(vtable.pointee.register_for_remote_notifications)
        let update = try #require(vtable.pointee.update_supported_interface_orientations)
        register(interface.pointer)
        update(interface.pointer)
        #expect(sink.drainRequests() == [
            HostRequest(subscriber: "asker", request: .registerForRemoteNotifications),
            HostRequest(subscriber: "asker", request: .updateSupportedInterfaceOrientations),
        ])
    }
}

/// `ADH_STRUCT_HAS(host, adh_host, field)` in Swift: whether the host's struct_size covers `field`.
private func structCovers<Field>(_ host: UnsafePointer<adh_host>, _ field: KeyPath<adh_host, Field>) -> Bool {
    Int(host.pointee.struct_size) >= MemoryLayout<adh_host>.offset(of: field)! + MemoryLayout<Field>.size
}
