import SubscriberABI

/// Builds the `adh_subscriber` of an exported instance. Every event entry is non-NULL: Swift cannot
/// tell a method the author wrote from a protocol default, so each entry calls the method, and the
/// defaults answer "no opinion" (nil) or decline their completion, which the host treats exactly as
/// it treats a NULL entry.
enum SubscriberVTable {
    /// The vtable for `instance` (a retained ``ExportedInstance``).
    static func make(instance: UnsafeMutableRawPointer) -> adh_subscriber {
        var v = adh_subscriber()
        v.struct_size = UInt32(MemoryLayout<adh_subscriber>.size)
        v.instance = instance
        v.destroy = { ExportedInstance.destroy($0) }

        v.will_finish_launching = { Trampoline.launch($0, $1, .willFinishLaunching) }
        v.did_finish_launching = { Trampoline.launch($0, $1, .didFinishLaunching) }

        v.did_become_active = { Trampoline.notify($0) { $0.applicationDidBecomeActive($1) } }
        v.will_resign_active = { Trampoline.notify($0) { $0.applicationWillResignActive($1) } }
        v.did_enter_background = { Trampoline.notify($0) { $0.applicationDidEnterBackground($1) } }
        v.will_enter_foreground = { Trampoline.notify($0) { $0.applicationWillEnterForeground($1) } }
        v.will_terminate = { Trampoline.notify($0) { $0.applicationWillTerminate($1) } }
        v.did_receive_memory_warning = { Trampoline.notify($0) { $0.applicationDidReceiveMemoryWarning($1) } }
        v.significant_time_change = { Trampoline.notify($0) { $0.applicationSignificantTimeChange($1) } }
        v.protected_data_will_become_unavailable = {
            Trampoline.notify($0) { $0.applicationProtectedDataWillBecomeUnavailable($1) }
        }
        v.protected_data_did_become_available = {
            Trampoline.notify($0) { $0.applicationProtectedDataDidBecomeAvailable($1) }
        }

        v.did_register_for_remote_notifications = { Trampoline.didRegisterForRemoteNotifications($0, $1) }
        v.did_fail_to_register_for_remote_notifications = {
            Trampoline.didFailToRegisterForRemoteNotifications($0, $1)
        }
        v.did_receive_remote_notification = { Trampoline.didReceiveRemoteNotification($0, $1, $2) }
        v.perform_fetch = { Trampoline.performFetch($0, $1) }
        v.handle_events_for_background_url_session = { Trampoline.handleEventsForBackgroundURLSession($0, $1, $2) }

        v.open_url = { Trampoline.openURL($0, $1) }
        v.will_continue_user_activity = { Trampoline.willContinueUserActivity($0, $1) }
        v.continue_user_activity = { Trampoline.continueUserActivity($0, $1, $2) }
        v.did_update_user_activity = { Trampoline.didUpdateUserActivity($0, $1) }
        v.did_fail_to_continue_user_activity = { Trampoline.didFailToContinueUserActivity($0, $1, $2) }
        v.perform_action_for_shortcut_item = { Trampoline.performActionForShortcutItem($0, $1, $2) }

        v.supported_interface_orientations = { Trampoline.supportedInterfaceOrientations($0, $1) }
        v.should_allow_extension_point_identifier = { Trampoline.shouldAllowExtensionPointIdentifier($0, $1) }
        v.should_save_secure_application_state = {
            Trampoline.answer($0) { $0.applicationShouldSaveSecureApplicationState($1) }
        }
        v.should_restore_secure_application_state = {
            Trampoline.answer($0) { $0.applicationShouldRestoreSecureApplicationState($1) }
        }
        v.configuration_for_connecting = { Trampoline.configurationForConnecting($0, $1) }
        v.did_discard_scene_sessions = { Trampoline.didDiscardSceneSessions($0, $1) }
        v.handle_watchkit_extension_request = { Trampoline.handleWatchKitExtensionRequest($0, $1, $2) }
        return v
    }
}

/// The `@convention(c)` entries' Swift halves: decode the C payload into SubscriberKit values, call
/// the subscriber's method on the main actor, encode its answer. One function per event, grouped
/// by concept in the `Trampoline+*.swift` files.
enum Trampoline {
    typealias Me = UnsafePointer<adh_subscriber>?

    /// A notification without arguments: calls `method`.
    static func notify(_ me: Me, _ method: @MainActor (any AppDelegateSubscriber, Application) -> Void) {
        ExportedInstance.with(me, fallback: ()) { method($0.subscriber, $0.application) }
    }

    /// A `Bool?` question without arguments: calls `method`, returns its answer as a tristate.
    static func answer(_ me: Me, _ method: @MainActor (any AppDelegateSubscriber, Application) -> Bool?)
        -> adh_tristate
    {
        ExportedInstance.with(me, fallback: ABI.tristate(nil)) { ABI.tristate(method($0.subscriber, $0.application)) }
    }
}
