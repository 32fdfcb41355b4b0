import SubscriberABI
import SubscriberHost
import SubscriberKit

/// A plugin's `create` called directly, without the host's bridge: for the checks that must see what
/// the C side itself does (NULL for unknown names, memory over many instances, hostile payloads).
struct RawPlugin {
    let descriptor: UnsafePointer<adh_plugin_descriptor>
    /// What every instance gets as its host.
    let host: UnsafePointer<adh_host>

    /// `create(name, host)`; nil when it returns NULL.
    func create(_ name: String) -> RawSubscriber? {
        guard let create = ABI.readCovered(descriptor).create else { return nil }
        guard let made = name.withCString({ create($0, host) }) else { return nil }
        return RawSubscriber(pointer: made, vtable: ABI.readCovered(made))
    }
}

/// One subscriber instance made by ``RawPlugin``: its pointer and the covered part of its vtable.
struct RawSubscriber {
    let pointer: UnsafePointer<adh_subscriber>
    let vtable: adh_subscriber

    /// Whether `destroy` is set (the header requires it).
    var canDestroy: Bool { vtable.destroy != nil }

    /// Calls `destroy`. Call once.
    func destroy() { vtable.destroy?(pointer) }

    /// The entries that are set: the events this subscriber responds to, in header order. Read from
    /// the copied vtable, so it still answers after ``destroy()``.
    var respondingEvents: [LifecycleEvent] { SubscriberEntries.respondingEvents(of: vtable) }
}

/// The `adh_host` raw instances get: logging that drops everything, fixed app info, the check's
/// options (through `host_data`). Never freed (a child makes one), so it outlives every instance as
/// the header requires.
struct RawHost {
    static let appInfo = ABIBytes(#"{"name":"Conformance","bundleIdentifier":"dev.appdelegatehost.conformance","version":"1.0"}"#)

    nonisolated(unsafe) let pointer: UnsafePointer<adh_host>

    init(options: JSONObject) {
        let optionsJSON = Unmanaged.passRetained(ABIBytes(JSONValue.object(options).serializedBytes()))
        let host = UnsafeMutablePointer<adh_host>.allocate(capacity: 1)
        host.initialize(to: adh_host(
            struct_size: UInt32(MemoryLayout<adh_host>.size), abi_major: ABI.major, abi_minor: ABI.minor,
            host_data: optionsJSON.toOpaque(),
            log: { _, _, _ in }, log_event: { _, _, _ in }, log_error: { _, _, _ in },
            app_info_json: { _ in RawHost.appInfo.string },
            options_json: { host in
                guard let data = host?.pointee.host_data else { return .absent }
                return Unmanaged<ABIBytes>.fromOpaque(data).takeUnretainedValue().string
            }))
        pointer = UnsafePointer(host)
    }
}
