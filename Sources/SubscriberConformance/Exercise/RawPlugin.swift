import SubscriberABI
import SubscriberKit

/// A plugin's `create` called directly, without the host's bridge: for the checks that must see what
/// the C side itself does (NULL for unknown names, memory over many instances, hostile payloads).
struct RawPlugin {
    let descriptor: UnsafePointer<adh_plugin_descriptor>

    /// `create(name, host)` with the shared raw host; nil when it returns NULL.
    func create(_ name: String) -> RawSubscriber? {
        guard let create = ABI.readCovered(descriptor).create else { return nil }
        guard let made = name.withCString({ create($0, RawHost.pointer) }) else { return nil }
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

    /// The entries that are set: the events this subscriber responds to.
    var respondingEvents: [LifecycleEvent] { EventEntries.responding(vtable) }
}

/// The one `adh_host` every raw instance gets: logging that drops everything, fixed app info, `{}`
/// options. Allocated once and never freed, so it outlives every instance as the header requires.
enum RawHost {
    static let appInfo = ABIBytes(#"{"name":"Conformance","bundleIdentifier":"dev.appdelegatehost.conformance","version":"1.0"}"#)
    static let options = ABIBytes("{}")

    nonisolated(unsafe) static let pointer: UnsafePointer<adh_host> = {
        let host = UnsafeMutablePointer<adh_host>.allocate(capacity: 1)
        host.initialize(to: adh_host(
            struct_size: UInt32(MemoryLayout<adh_host>.size), abi_major: ABI.major, abi_minor: ABI.minor,
            host_data: nil,
            log: { _, _, _ in }, log_event: { _, _, _ in }, log_error: { _, _, _ in },
            app_info_json: { _ in RawHost.appInfo.string }, options_json: { _ in RawHost.options.string }))
        return UnsafePointer(host)
    }()
}

/// Which vtable entry belongs to which event.
enum EventEntries {
    /// The offset of each event's entry in `adh_subscriber`, in header order.
    static let offsets: [(LifecycleEvent, Int)] = {
        let table: [(LifecycleEvent, PartialKeyPath<adh_subscriber>)] = [
            (.willFinishLaunching, \.will_finish_launching), (.didFinishLaunching, \.did_finish_launching),
            (.didBecomeActive, \.did_become_active), (.willResignActive, \.will_resign_active),
            (.didEnterBackground, \.did_enter_background), (.willEnterForeground, \.will_enter_foreground),
            (.willTerminate, \.will_terminate), (.didReceiveMemoryWarning, \.did_receive_memory_warning),
            (.significantTimeChange, \.significant_time_change),
            (.protectedDataWillBecomeUnavailable, \.protected_data_will_become_unavailable),
            (.protectedDataDidBecomeAvailable, \.protected_data_did_become_available),
            (.didRegisterForRemoteNotifications, \.did_register_for_remote_notifications),
            (.didFailToRegisterForRemoteNotifications, \.did_fail_to_register_for_remote_notifications),
            (.didReceiveRemoteNotification, \.did_receive_remote_notification), (.performFetch, \.perform_fetch),
            (.handleEventsForBackgroundURLSession, \.handle_events_for_background_url_session),
            (.openURL, \.open_url), (.willContinueUserActivity, \.will_continue_user_activity),
            (.continueUserActivity, \.continue_user_activity), (.didUpdateUserActivity, \.did_update_user_activity),
            (.didFailToContinueUserActivity, \.did_fail_to_continue_user_activity),
            (.performActionForShortcutItem, \.perform_action_for_shortcut_item),
            (.supportedInterfaceOrientations, \.supported_interface_orientations),
            (.shouldAllowExtensionPointIdentifier, \.should_allow_extension_point_identifier),
            (.shouldSaveSecureApplicationState, \.should_save_secure_application_state),
            (.shouldRestoreSecureApplicationState, \.should_restore_secure_application_state),
            (.configurationForConnecting, \.configuration_for_connecting),
            (.didDiscardSceneSessions, \.did_discard_scene_sessions),
            (.handleWatchKitExtensionRequest, \.handle_watchkit_extension_request),
        ]
        return table.map { ($0, MemoryLayout<adh_subscriber>.offset(of: $1)!) }
    }()

    /// The events whose entries are set in `vtable` (already cut to the plugin's `struct_size`).
    static func responding(_ vtable: adh_subscriber) -> [LifecycleEvent] {
        withUnsafeBytes(of: vtable) { raw in
            offsets.compactMap { event, offset in
                raw.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) == nil ? nil : event
            }
        }
    }
}
