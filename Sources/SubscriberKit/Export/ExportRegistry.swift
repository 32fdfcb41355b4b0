import Glibc
import SubscriberABI
import SubscriberEventModel
import SubscriberValues

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

    // Plain arrays of stdlib types, no dictionary: every image builds the metadata of the generic
    // types it uses on first use, and a `[String: UnsafePointer<adh_plugin_descriptor>]` cost about
    // 600,000 instructions per image with 100 images loaded, growing with their number (the
    // runtime checks its storage's requirements against every loaded image's conformances).

    /// The descriptors built so far and their plugin ids (an image has one, rarely a few). Element
    /// types from the stdlib only: their metadata is shared by all images, not built per image.
    private var ids: [String] = []
    private var descriptors: [UnsafeRawPointer] = []
    /// Per slot, the types `create` can make, and their names, read once.
    private var slots: [[any InstantiableSubscriber.Type]] = []
    private var slotNames: [[String]] = []

    /// The descriptor for `id`, built on the first call.
    func descriptor(id: String, name: String, version: String, vendor: String,
                    subscribers: [any InstantiableSubscriber.Type]) -> UnsafePointer<adh_plugin_descriptor> {
        if let index = ids.firstIndex(of: id) {
            return descriptors[index].assumingMemoryBound(to: adh_plugin_descriptor.self)
        }
        let slot = min(slots.count, Self.slotCount - 1)
        let subscriberNames = subscribers.map { $0.subscriberName }
        if slot == slots.count {
            slots.append(subscribers)
            slotNames.append(subscriberNames)
        } else {
            slots[slot] += subscribers
            slotNames[slot] += subscriberNames
        }

        let names = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: max(subscribers.count, 1))
        for (index, name) in subscriberNames.enumerated() {
            names[index] = UnsafePointer(strdup(name))
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
        ids.append(id)
        descriptors.append(UnsafeRawPointer(descriptor))
        return UnsafePointer(descriptor)
    }

    /// Makes subscriber `name` of slot `slot` for `host`; NULL for a name the slot does not list.
    func create(slot: Int, name: UnsafePointer<CChar>?, host: UnsafePointer<adh_host>?)
        -> UnsafePointer<adh_subscriber>?
    {
        guard let name, let host, slots.indices.contains(slot) else { return nil }
        let wanted = String(cString: name)
        guard let index = slotNames[slot].firstIndex(of: wanted) else { return nil }
        let type = slots[slot][index]
        return ExportedInstance.create(name: wanted, host: host) { context in
            let subscriber = type.init(context: context)
            return (subscriber, subscriber.eventWitnesses())
        }
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
