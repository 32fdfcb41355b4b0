// OrientationLock — answers the supported interface orientations per device idiom from its options,
// e.g. {"phone": ["portrait"], "pad": ["portrait", "landscapeLeft", "landscapeRight"]}. Idioms it
// has no option for get no opinion; a bad orientation name is reported once and ignored.
import SubscriberKit

/// Locks orientations per idiom, as configured in the manifest.
final class OrientationLock: InstantiableSubscriber, SupportedInterfaceOrientationsSubscriber {
    private let masks: [UserInterfaceIdiom: InterfaceOrientationMask]

    init(context: SubscriberContext) {
        var masks: [UserInterfaceIdiom: InterfaceOrientationMask] = [:]
        for (key, value) in context.options.objectValue?.members ?? [] {
            guard let idiom = UserInterfaceIdiom(name: key) else {
                context.logError("unknown idiom '\(key)' in options; expected phone, pad, tv, carPlay, mac or vision")
                continue
            }
            let names = value.arrayValue?.compactMap(\.stringValue) ?? []
            guard let mask = InterfaceOrientationMask(names: names, unknown: { name in
                context.logError("unknown orientation '\(name)' for \(key)")
            }) else { continue }
            masks[idiom] = mask
        }
        self.masks = masks
    }

    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? {
        masks[idiom]
    }
}

@_cdecl("adh_plugin_entry")
public func pluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(
        id: "dev.appdelegatehost.orientation-lock", name: "Orientation Lock", version: "1.0.0",
        vendor: "AppDelegateHost examples", subscribers: [OrientationLock.self])
}
