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
    package static let swiftCompilerVersion: String = _swiftCompilerVersion

    /// The compiler ladder, compiled into the plugin by `export`: a plugin that shares the host's
    /// `libSubscriberKit.so` must report its own compiler, not the library's. (A module is read only by
    /// the compiler that wrote it, so the SDK module a plugin was compiled against names that compiler.)
    @_alwaysEmitIntoClient @usableFromInline
    static var _swiftCompilerVersion: String {
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
    }

    /// Returns this image's descriptor for plugin `id`, a pointer to an `adh_plugin_descriptor` that
    /// stays valid for the life of the process. The first call for an `id` builds it; later calls
    /// return the same pointer (and ignore their other arguments), as the entry contract requires.
    ///
    /// `subscribers` lists the types `create` can make, by their `subscriberName`.
    /// [main-thread] The entry function is called on the host's main thread.
    @_alwaysEmitIntoClient
    public static func export(id: String, name: String, version: String, vendor: String = "",
                              subscribers: [any InstantiableSubscriber.Type]) -> UnsafeRawPointer {
        // Compiled into the plugin's own image, not the SDK's: `#dsohandle` is the plugin's, and so
        // are these `create` functions, one per descriptor slot, each saying whose it is. That is what
        // lets plugins share one copy of the SDK (`libSubscriberKit.so`).
        _sdkGeneration1Export(image: _thisImage(), swiftVersion: _swiftCompilerVersion, creates: [
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 0, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 1, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 2, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 3, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 4, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 5, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 6, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 7, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 8, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 9, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 10, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 11, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 12, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 13, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 14, $0, $1) },
            { SubscriberPlugin._sdkGeneration1Create(SubscriberPlugin._thisImage(), 15, $0, $1) },
        ], id: id, name: name, version: version, vendor: vendor, subscribers: subscribers)
    }

    /// The image this code is compiled into: a plugin's, when `export`'s code calls it.
    @_alwaysEmitIntoClient @usableFromInline
    static func _thisImage() -> UnsafeRawPointer { #dsohandle }

    /// The SDK generation: the layout of the SDK's types and the functions a plugin's code calls. A
    /// plugin that uses the shared SDK (`libSubscriberKit.so`) runs only with a library of the
    /// generation it was built against: the two functions below carry it in their names, so the
    /// dynamic linker refuses the pair before any of the plugin's code runs, and the host says which
    /// generations met. Raise it, and rename those functions, with any change a plugin's compiled
    /// code would see (`SDKGenerationTests` says when the SDK's sources changed).
    package static let sdkGeneration = 1

    /// `export`'s work, in the SDK. Not API: called from the code `export` puts in a plugin.
    @usableFromInline
    static func _sdkGeneration1Export(image: UnsafeRawPointer, swiftVersion: String, creates: [@convention(c) (UnsafePointer<CChar>?, UnsafePointer<adh_host>?) -> UnsafePointer<adh_subscriber>?],
                                      id: String, name: String, version: String, vendor: String,
                                      subscribers: [any InstantiableSubscriber.Type]) -> UnsafeRawPointer {
        // A plugin's own code made `creates`: one per slot, or the registry would read past them.
        precondition(creates.count == ExportRegistry.slotCount, "expected \(ExportRegistry.slotCount) create functions")
        // The metatypes are only touched on the main actor, where the entry runs.
        let arguments = UncheckedSendable((image, creates, subscribers))
        return MainActor.assumeIsolated {
            let (image, creates, subscribers) = arguments.value
            let descriptor = ExportRegistry.shared.descriptor(
                image: image, swiftVersion: swiftVersion, creates: creates, id: id, name: name, version: version, vendor: vendor,
                subscribers: subscribers)
            return UncheckedSendable(UnsafeRawPointer(descriptor))
        }.value
    }

    /// A descriptor's `create`: subscriber `name` of `image`'s slot `slot`, made for `host`. Not API:
    /// called from the `create` functions `export` puts in a plugin. [main-thread]
    @usableFromInline
    static func _sdkGeneration1Create(_ image: UnsafeRawPointer, _ slot: Int, _ name: UnsafePointer<CChar>?,
                                      _ host: UnsafePointer<adh_host>?) -> UnsafePointer<adh_subscriber>? {
        let arguments = UncheckedSendable((image, name, host))
        return MainActor.assumeIsolated {
            let (image, name, host) = arguments.value
            return UncheckedSendable(ExportRegistry.shared.create(image: image, slot: slot, name: name, host: host))
        }.value
    }
}

/// This copy of the SDK's generation, for a host that asks which `libSubscriberKit.so` a process
/// loaded (a C symbol: it reads no Swift across the boundary). Not API.
@usableFromInline @_cdecl("adh_swift_sdk_generation")
func _sdkGenerationForHosts() -> Int { SubscriberPlugin.sdkGeneration }
