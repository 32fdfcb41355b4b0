import SubscriberABI
import SubscriberValues

/// A family of events, with one C vtable and one group of Swift protocols: the app delegate's
/// events (the core, `adh_subscriber` itself, frozen at ABI 1.0), the notification center's
/// (`adh.notification-center/1`), the scenes' (`adh.scene/1`). Every other family than the core is an extension, CLAP style: a
/// subscriber hands out its vtable from `get_extension(self, id)`; the host asks once, right after
/// `create`, and a NULL answer means the subscriber is not in the family.
package class EventFamily: @unchecked Sendable {
    // @unchecked: immutable.
    /// The family's name in output and docs: "application", "notifications", "scene".
    package let name: String
    /// The extension id the vtable is asked for by; nil for the core family (`adh_subscriber`).
    package let extensionID: String?
    /// The C struct of its vtable.
    package let vtableName: String
    /// The header that declares it, under `include/` (`adh/subscriber.h`).
    package let header: String
    /// Its position in ``all``.
    package let index: Int

    init(name: String, extensionID: String?, vtableName: String, header: String, index: Int) {
        self.name = name
        self.extensionID = extensionID
        self.vtableName = vtableName
        self.header = header
        self.index = index
    }

    /// A new vtable of this family with only `struct_size` set, for the SDK to fill. Never freed:
    /// a subscriber's vtables live until its `destroy`, which frees them (``freeVTable(_:)``).
    package func makeVTable() -> UnsafeMutableRawPointer { fatalError("EventFamily.makeVTable is abstract") }
    /// The size of its vtable.
    package var vtableSize: Int { fatalError("EventFamily.vtableSize is abstract") }
    /// Frees a vtable ``makeVTable()`` made.
    package func freeVTable(_ vtable: UnsafeMutableRawPointer) { fatalError("EventFamily.freeVTable is abstract") }

    /// The app delegate's events: `adh_subscriber`'s entries.
    package static let application = TypedEventFamily<adh_subscriber>(
        name: "application", extensionID: nil, vtableName: "adh_subscriber", header: "adh/subscriber.h", index: 0)
    /// UNUserNotificationCenterDelegate's events: adh/ext/notification_center.h.
    package static let notificationCenter = TypedEventFamily<adh_notification_center>(
        name: "notifications", extensionID: ADH_EXT_NOTIFICATION_CENTER, vtableName: "adh_notification_center",
        header: "adh/ext/notification_center.h", index: 1)

    /// UIWindowSceneDelegate's events: adh/ext/scene.h.
    package static let scene = TypedEventFamily<adh_scene_delegate>(
        name: "scene", extensionID: ADH_EXT_SCENE, vtableName: "adh_scene_delegate", header: "adh/ext/scene.h", index: 2)

    /// Every family, the core first.
    package static let all: [EventFamily] = [application, notificationCenter, scene]

    /// The events of this family, in table order.
    package var events: [LifecycleEvent] { LifecycleEvent.allCases.filter { $0.row.family === self } }
}

/// A family whose vtable is the C struct `VTable` (whose first field is `uint32_t struct_size`).
package final class TypedEventFamily<VTable>: EventFamily, @unchecked Sendable {
    override package func makeVTable() -> UnsafeMutableRawPointer {
        let vtable = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<VTable>.size,
                                                      alignment: MemoryLayout<VTable>.alignment)
        vtable.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<VTable>.size)
        vtable.storeBytes(of: UInt32(MemoryLayout<VTable>.size), as: UInt32.self)
        return vtable
    }

    override package func freeVTable(_ vtable: UnsafeMutableRawPointer) {
        vtable.deallocate()
    }

    override package var vtableSize: Int { MemoryLayout<VTable>.size }
}
