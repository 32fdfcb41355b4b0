import SubscriberABI
import SubscriberEventModel
import SubscriberValues

/// Exports subscriber types from a plugin: the Swift side of the C entry symbol.
///
/// A plugin author writes one export line; everything else (the descriptor, `create`, the vtable,
/// payload decoding, completion handlers) is done here:
///
/// ```swift
/// @_cdecl("adh_plugin_entry")
/// public func pluginEntry() -> UnsafeRawPointer {
///     SubscriberPlugin.export(id: "com.example.analytics", name: "Session Analytics", version: "1.0",
///                             subscribers: [SessionAnalytics.self])
/// }
/// ```
public enum SubscriberPlugin {
    /// The name of the symbol a plugin exports and a host looks up ("adh_plugin_entry").
    package static let entrySymbol: String = ABI.entrySymbol

    /// The Swift compiler that built this code, "major.minor". Hosts compare their own value with a
    /// plugin's `swift_version`: both come from this same source, compiled on each side.
    package static let swiftCompilerVersion: String = {
        #if compiler(>=7.0)
        "unknown (newer than 6.9)" // extend the ladder; hosts refuse every plugin until then
        #elseif compiler(>=6.9)
        "6.9"
        #elseif compiler(>=6.8)
        "6.8"
        #elseif compiler(>=6.7)
        "6.7"
        #elseif compiler(>=6.6)
        "6.6"
        #elseif compiler(>=6.5)
        "6.5"
        #elseif compiler(>=6.4)
        "6.4"
        #elseif compiler(>=6.3)
        "6.3"
        #elseif compiler(>=6.2)
        "6.2"
        #elseif compiler(>=6.1)
        "6.1"
        #else
        "6.0"
        #endif
    }()

    /// Returns this image's descriptor for plugin `id`, a pointer to an `adh_plugin_descriptor` that
    /// stays valid for the life of the process. The first call for an `id` builds it; later calls
    /// return the same pointer (and ignore their other arguments), as the entry contract requires.
    ///
    /// `subscribers` lists the types `create` can make, by their `subscriberName`.
    /// [main-thread] The entry function is called on the host's main thread.
    public static func export(id: String, name: String, version: String, vendor: String = "",
                              subscribers: [any InstantiableSubscriber.Type]) -> UnsafeRawPointer {
        // The metatypes are only touched on the main actor, where the entry runs.
        let subscribers = UncheckedSendable(subscribers)
        return MainActor.assumeIsolated {
            let descriptor = ExportRegistry.shared.descriptor(
                id: id, name: name, version: version, vendor: vendor, subscribers: subscribers.value)
            return UncheckedSendable(UnsafeRawPointer(descriptor))
        }.value
    }
}
