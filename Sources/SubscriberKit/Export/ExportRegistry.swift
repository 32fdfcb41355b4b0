import Glibc
import SubscriberABI

/// The descriptors this image exported, one per plugin id, built once and never freed (the host
/// never unloads a plugin, and the entry must return the same pointer every time).
///
/// `create` is a C function pointer and cannot capture which descriptor it belongs to, so each
/// descriptor gets its own numbered slot function. An image almost always exports one descriptor
/// (it has one entry symbol); the last slot is shared by any ids beyond the first
/// `ExportRegistry.slotCount - 1`, and looks names up across all of them.
@MainActor
final class ExportRegistry {
    /// This image's registry.
    static let shared = ExportRegistry()

    /// How many descriptors get a `create` of their own.
    static let slotCount = 16

    private var descriptors: [String: UnsafePointer<adh_plugin_descriptor>] = [:]
    private var slots: [[any InstantiableSubscriber.Type]] = []

    /// The descriptor for `id`, built on the first call.
    func descriptor(id: String, name: String, version: String, vendor: String,
                    subscribers: [any InstantiableSubscriber.Type]) -> UnsafePointer<adh_plugin_descriptor> {
        if let existing = descriptors[id] { return existing }
        let slot = min(slots.count, Self.slotCount - 1)
        if slot == slots.count { slots.append(subscribers) } else { slots[slot] += subscribers }

        let names = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(subscribers.count, 1))
        for (index, type) in subscribers.enumerated() {
            names[index] = UnsafePointer(strdup(type.subscriberName))
        }
        let descriptor = UnsafeMutablePointer<adh_plugin_descriptor>.allocate(capacity: 1)
        descriptor.initialize(to: adh_plugin_descriptor(
            struct_size: UInt32(MemoryLayout<adh_plugin_descriptor>.size),
            abi_major: ABI.major,
            abi_minor: ABI.minor,
            id: UnsafePointer(strdup(id)),
            name: UnsafePointer(strdup(name)),
            version: UnsafePointer(strdup(version)),
            vendor: UnsafePointer(strdup(vendor)),
            swift_version: UnsafePointer(strdup(SubscriberPlugin.swiftCompilerVersion)),
            subscriber_count: UInt32(subscribers.count),
            subscriber_names: UnsafePointer(names),
            create: Self.createFunction(slot: slot)))
        descriptors[id] = UnsafePointer(descriptor)
        return UnsafePointer(descriptor)
    }

    /// Makes subscriber `name` of slot `slot` for `host`; NULL for a name the slot does not list.
    func create(slot: Int, name: UnsafePointer<CChar>?, host: UnsafePointer<adh_host>?)
        -> UnsafePointer<adh_subscriber>?
    {
        guard let name, let host, slots.indices.contains(slot) else { return nil }
        let wanted = String(cString: name)
        guard let type = slots[slot].first(where: { $0.subscriberName == wanted }) else { return nil }
        return ExportedInstance.create(type, name: wanted, host: host)
    }

    typealias CreateFunction = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<adh_host>?)
        -> UnsafePointer<adh_subscriber>?

    private static func createFunction(slot: Int) -> CreateFunction {
        // One literal closure per slot: C function pointers cannot capture the slot number.
        let functions: [CreateFunction] = [
            { createOnMain(0, $0, $1) }, { createOnMain(1, $0, $1) }, { createOnMain(2, $0, $1) },
            { createOnMain(3, $0, $1) }, { createOnMain(4, $0, $1) }, { createOnMain(5, $0, $1) },
            { createOnMain(6, $0, $1) }, { createOnMain(7, $0, $1) }, { createOnMain(8, $0, $1) },
            { createOnMain(9, $0, $1) }, { createOnMain(10, $0, $1) }, { createOnMain(11, $0, $1) },
            { createOnMain(12, $0, $1) }, { createOnMain(13, $0, $1) }, { createOnMain(14, $0, $1) },
            { createOnMain(15, $0, $1) },
        ]
        assert(functions.count == slotCount)
        return functions[slot]
    }
}

/// `create` for slot `slot`. [main-thread]
private func createOnMain(_ slot: Int, _ name: UnsafePointer<CChar>?, _ host: UnsafePointer<adh_host>?)
    -> UnsafePointer<adh_subscriber>?
{
    let name = UncheckedSendable(name), host = UncheckedSendable(host)
    return MainActor.assumeIsolated {
        UncheckedSendable(ExportRegistry.shared.create(slot: slot, name: name.value, host: host.value))
    }.value
}
