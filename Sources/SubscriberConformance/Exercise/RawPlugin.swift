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
        return RawSubscriber(pointer: made)
    }
}

/// One subscriber instance made by ``RawPlugin``: its pointer, the covered part of its vtable, and
/// its entries, read once (the extension families' through `get_extension`) as the host reads them.
struct RawSubscriber {
    let pointer: UnsafePointer<adh_subscriber>
    let vtable: adh_subscriber
    /// By event index: the entry, as a raw function pointer; nil when NULL.
    let entries: [UnsafeRawPointer?]
    /// Whether `get_extension` hands out a URL hook (`adh.url-hook/1`, adh/ext/url_hook.h): a host
    /// asks it about URLs, whatever events it responds to.
    let isURLHook: Bool

    init(pointer: UnsafePointer<adh_subscriber>) {
        self.pointer = pointer
        vtable = ABI.readCovered(pointer)
        let vtable = vtable
        let families: [UnsafeRawPointer?] = EventFamily.all.map { family in
            guard let id = family.extensionID else { return UnsafeRawPointer(pointer) }
            return vtable.get_extension?(pointer, id)
        }
        entries = EventTable.rows.map { row in families[row.family.index].flatMap { row.entry(in: $0) } }
        isURLHook = vtable.get_extension?(pointer, ADH_EXT_URL_HOOK) != nil
    }

    /// Whether `destroy` is set (the header requires it).
    var canDestroy: Bool { vtable.destroy != nil }

    /// Calls `destroy`. Call once.
    func destroy() { vtable.destroy?(pointer) }

    /// The entries that are set: the events this subscriber responds to, in table order. Read once,
    /// so it still answers after ``destroy()``.
    var respondingEvents: [LifecycleEvent] { zip(LifecycleEvent.allCases, entries).compactMap { $1 == nil ? nil : $0 } }

    /// The entry of `event`; nil when it is NULL.
    func entry(_ event: LifecycleEvent) -> UnsafeRawPointer? { entries[event.index] }
}

/// The `adh_host` raw instances get: fixed app info, the check's options, and logging that keeps no
/// line but checks every string the plugin passes with the host's own check (``ABIStringProblem``),
/// recording the ones it cannot read in ``HostCallProblems``. Never freed (a child makes one), so it
/// outlives every instance as the header requires.
struct RawHost {
    static let appInfo = ABIBytes(#"{"name":"Conformance","bundleIdentifier":"dev.appdelegatehost.conformance","version":"1.0"}"#)

    /// What `host_data` points to.
    private final class HostData: Sendable {
        let optionsJSON: ABIBytes
        let problems: HostCallProblems

        init(optionsJSON: ABIBytes, problems: HostCallProblems) {
            self.optionsJSON = optionsJSON
            self.problems = problems
        }

        static func from(_ host: UnsafePointer<adh_host>?) -> HostData? {
            guard let data = host?.pointee.host_data else { return nil }
            return Unmanaged<HostData>.fromOpaque(data).takeUnretainedValue()
        }

        /// Records the problem of each of `strings` that cannot be read, naming `call`.
        func check(_ call: String, _ strings: adh_string...) {
            for string in strings {
                if let problem = ABIStringProblem.of(data: string.data, length: string.length) {
                    problems.recordString(problem, in: call)
                }
            }
        }
    }

    nonisolated(unsafe) let pointer: UnsafePointer<adh_host>

    /// A host handing out `options`, recording unreadable strings in `problems`.
    init(options: JSONObject, problems: HostCallProblems) {
        let data = Unmanaged.passRetained(HostData(optionsJSON: ABIBytes(JSONValue.object(options).serializedBytes()),
                                               problems: problems))
        let host = UnsafeMutablePointer<adh_host>.allocate(capacity: 1)
        host.initialize(to: adh_host(
            struct_size: UInt32(MemoryLayout<adh_host>.size), abi_major: ABI.major, abi_minor: ABI.minor,
            host_data: data.toOpaque(),
            log: { host, _, message in HostData.from(host)?.check("log", message) },
            log_event: { host, name, attributes in HostData.from(host)?.check("log_event", name, attributes) },
            log_error: { host, message, attributes in HostData.from(host)?.check("log_error", message, attributes) },
            app_info_json: { _ in RawHost.appInfo.string },
            options_json: { HostData.from($0)?.optionsJSON.string ?? .absent },
            // No host service: a plugin must cope with a host that offers none.
            get_extension: { _, _ in nil }))
        pointer = UnsafePointer(host)
    }
}
