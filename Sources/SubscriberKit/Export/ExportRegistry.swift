import Glibc
import SubscriberABI
import SubscriberEventModel
import SubscriberValues

/// The descriptors plugin images exported, one per plugin id and image, built once and never freed
/// (the host never unloads a plugin, and the entry must return the same pointer every time).
///
/// One registry per copy of the SDK: per plugin image when a plugin carries the SDK's objects, one
/// for all plugins when they share `libSubscriberKit.so`. So every record is keyed by the image that
/// exported it (its `#dsohandle`): two plugins may use the same id or subscriber names, and each
/// plugin's `create` makes its own types.
///
/// `create` is a C function pointer and cannot capture which descriptor it belongs to, so each
/// descriptor of an image gets its own numbered slot function, made in the plugin's image by
/// ``SubscriberPlugin/export(id:name:version:vendor:subscribers:)``. An image almost always exports one
/// descriptor (it has one entry symbol); its last slot is shared by any ids beyond the first
/// `ExportRegistry.slotCount - 1`, and looks names up across all of them.
@MainActor
final class ExportRegistry {
    /// This copy of the SDK's registry.
    static let shared = ExportRegistry()

    /// How many descriptors of one image get a `create` of their own.
    nonisolated static let slotCount = 16

    // Plain arrays of stdlib types and of this module's structs, no dictionary: an image that carries
    // the SDK builds the metadata of the generic types it uses on first use, and a
    // `[String: UnsafePointer<adh_plugin_descriptor>]` cost about 600,000 instructions per image with
    // 100 images loaded, growing with their number (the runtime checks its storage's requirements
    // against every loaded image's conformances).

    /// Each exporting image's record, and where to find it by the image's handle.
    private var images: [ImageExports] = []
    private var imageIndex = ImageIndex()

    /// What one image exported.
    private struct ImageExports {
        /// The descriptors built so far and their plugin ids (an image has one, rarely a few).
        var ids: [String] = []
        var descriptors: [UnsafeRawPointer] = []
        /// Per slot, the types `create` can make, and their names, read once.
        var slots: [[any InstantiableSubscriber.Type]] = []
        var slotNames: [[String]] = []
    }

    /// The descriptor for `id` exported by `image`, built on the first call. `creates` are the image's
    /// slot functions, `slotCount` of them; `swiftVersion` is the compiler that built the image.
    func descriptor(image: UnsafeRawPointer, swiftVersion: String, creates: [CreateFunction], id: String, name: String,
                    version: String, vendor: String, subscribers: [any InstantiableSubscriber.Type])
        -> UnsafePointer<adh_plugin_descriptor>
    {
        let key = UInt(bitPattern: image)
        let imageNumber: Int
        if let known = imageIndex.find(key) {
            imageNumber = known
        } else {
            imageNumber = images.count
            images.append(ImageExports())
            imageIndex.insert(key, imageNumber)
        }
        if let index = images[imageNumber].ids.firstIndex(of: id) {
            return images[imageNumber].descriptors[index].assumingMemoryBound(to: adh_plugin_descriptor.self)
        }
        let slot = min(images[imageNumber].slots.count, Self.slotCount - 1)
        let subscriberNames = subscribers.map { $0.subscriberName }
        if slot == images[imageNumber].slots.count {
            images[imageNumber].slots.append(subscribers)
            images[imageNumber].slotNames.append(subscriberNames)
        } else {
            images[imageNumber].slots[slot] += subscribers
            images[imageNumber].slotNames[slot] += subscriberNames
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
            swift_version: UnsafePointer(strdup(swiftVersion)),
            subscriber_count: UInt32(subscribers.count),
            subscriber_names: UnsafePointer(names),
            create: creates[slot]))
        images[imageNumber].ids.append(id)
        images[imageNumber].descriptors.append(UnsafeRawPointer(descriptor))
        return UnsafePointer(descriptor)
    }

    /// Makes subscriber `name` of `image`'s slot `slot` for `host`; NULL for a name the slot does not list.
    func create(image: UnsafeRawPointer, slot: Int, name: UnsafePointer<CChar>?, host: UnsafePointer<adh_host>?)
        -> UnsafePointer<adh_subscriber>?
    {
        guard let name, let host, let imageNumber = imageIndex.find(UInt(bitPattern: image)),
              images[imageNumber].slots.indices.contains(slot)
        else { return nil }
        let wanted = String(cString: name)
        guard let index = images[imageNumber].slotNames[slot].firstIndex(of: wanted) else { return nil }
        let type = images[imageNumber].slots[slot][index]
        return ExportedInstance.create(name: wanted, host: host) { context in
            let subscriber = type.init(context: context)
            return (subscriber, subscriber.eventWitnesses())
        }
    }

    typealias CreateFunction = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<adh_host>?)
        -> UnsafePointer<adh_subscriber>?
}

/// Image handle → record number: open addressing over two arrays (no `Dictionary`, see the
/// registry's note), so finding an image costs the same with 1,000 plugins sharing the SDK as with one.
struct ImageIndex {
    /// Keys (0: empty; no image handle is 0) and their values, a power of two long, at most half full.
    private var keys = [UInt](repeating: 0, count: 16)
    private var values = [Int](repeating: 0, count: 16)
    private var count = 0

    func find(_ key: UInt) -> Int? {
        var position = Self.start(key, mask: keys.count - 1)
        while keys[position] != 0 {
            if keys[position] == key { return values[position] }
            position = (position + 1) & (keys.count - 1)
        }
        return nil
    }

    /// Adds `key` (not present, not 0) with `value`.
    mutating func insert(_ key: UInt, _ value: Int) {
        precondition(key != 0)
        if (count + 1) * 2 > keys.count {
            let old = zip(keys, values).filter { $0.0 != 0 }
            keys = [UInt](repeating: 0, count: keys.count * 2)
            values = [Int](repeating: 0, count: keys.count)
            count = 0
            for (oldKey, oldValue) in old { insert(oldKey, oldValue) }
        }
        var position = Self.start(key, mask: keys.count - 1)
        while keys[position] != 0 { position = (position + 1) & (keys.count - 1) }
        keys[position] = key
        values[position] = value
        count += 1
    }

    /// Where `key`'s probe starts: its bits mixed (image handles are page-aligned and close together).
    private static func start(_ key: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
