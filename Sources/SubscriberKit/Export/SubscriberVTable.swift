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

        // Each entry runs its trampoline on the main actor (MainActorEntry); the closures capture
        // nothing, so no call allocates.
        v.will_finish_launching = { onMain(($0, $1)) { Trampoline.launch($0.0, $0.1, .willFinishLaunching) } }
        v.did_finish_launching = { onMain(($0, $1)) { Trampoline.launch($0.0, $0.1, .didFinishLaunching) } }

        v.did_become_active = { onMain($0) { Trampoline.notify($0) { $0.applicationDidBecomeActive($1) } } }
        v.will_resign_active = { onMain($0) { Trampoline.notify($0) { $0.applicationWillResignActive($1) } } }
        v.did_enter_background = { onMain($0) { Trampoline.notify($0) { $0.applicationDidEnterBackground($1) } } }
        v.will_enter_foreground = { onMain($0) { Trampoline.notify($0) { $0.applicationWillEnterForeground($1) } } }
        v.will_terminate = { onMain($0) { Trampoline.notify($0) { $0.applicationWillTerminate($1) } } }
        v.did_receive_memory_warning = {
            onMain($0) { Trampoline.notify($0) { $0.applicationDidReceiveMemoryWarning($1) } }
        }
        v.significant_time_change = { onMain($0) { Trampoline.notify($0) { $0.applicationSignificantTimeChange($1) } } }
        v.protected_data_will_become_unavailable = {
            onMain($0) { Trampoline.notify($0) { $0.applicationProtectedDataWillBecomeUnavailable($1) } }
        }
        v.protected_data_did_become_available = {
            onMain($0) { Trampoline.notify($0) { $0.applicationProtectedDataDidBecomeAvailable($1) } }
        }

        v.did_register_for_remote_notifications = {
            onMain(($0, $1)) { Trampoline.didRegisterForRemoteNotifications($0.0, $0.1) }
        }
        v.did_fail_to_register_for_remote_notifications = {
            onMain(($0, $1)) { Trampoline.didFailToRegisterForRemoteNotifications($0.0, $0.1) }
        }
        v.did_receive_remote_notification = {
            onMain(($0, $1, $2)) { Trampoline.didReceiveRemoteNotification($0.0, $0.1, $0.2) }
        }
        v.perform_fetch = { onMain(($0, $1)) { Trampoline.performFetch($0.0, $0.1) } }
        v.handle_events_for_background_url_session = {
            onMain(($0, $1, $2)) { Trampoline.handleEventsForBackgroundURLSession($0.0, $0.1, $0.2) }
        }

        v.open_url = { onMain(($0, $1)) { Trampoline.openURL($0.0, $0.1) } }
        v.will_continue_user_activity = { onMain(($0, $1)) { Trampoline.willContinueUserActivity($0.0, $0.1) } }
        v.continue_user_activity = { onMain(($0, $1, $2)) { Trampoline.continueUserActivity($0.0, $0.1, $0.2) } }
        v.did_update_user_activity = { onMain(($0, $1)) { Trampoline.didUpdateUserActivity($0.0, $0.1) } }
        v.did_fail_to_continue_user_activity = {
            onMain(($0, $1, $2)) { Trampoline.didFailToContinueUserActivity($0.0, $0.1, $0.2) }
        }
        v.perform_action_for_shortcut_item = {
            onMain(($0, $1, $2)) { Trampoline.performActionForShortcutItem($0.0, $0.1, $0.2) }
        }

        v.supported_interface_orientations = {
            onMain(($0, $1)) { Trampoline.supportedInterfaceOrientations($0.0, $0.1) }
        }
        v.should_allow_extension_point_identifier = {
            onMain(($0, $1)) { Trampoline.shouldAllowExtensionPointIdentifier($0.0, $0.1) }
        }
        v.should_save_secure_application_state = {
            onMain($0) { Trampoline.answer($0) { $0.applicationShouldSaveSecureApplicationState($1) } }
        }
        v.should_restore_secure_application_state = {
            onMain($0) { Trampoline.answer($0) { $0.applicationShouldRestoreSecureApplicationState($1) } }
        }
        v.configuration_for_connecting = { onMain(($0, $1)) { Trampoline.configurationForConnecting($0.0, $0.1) } }
        v.did_discard_scene_sessions = { onMain(($0, $1)) { Trampoline.didDiscardSceneSessions($0.0, $0.1) } }
        v.handle_watchkit_extension_request = {
            onMain(($0, $1, $2)) { Trampoline.handleWatchKitExtensionRequest($0.0, $0.1, $0.2) }
        }
        return v
    }
}

// The vtable closures' helpers. File-level functions: a closure that called a static method would
// capture the metatype, and a C function pointer cannot capture anything.

/// Runs `body(arguments)` on the main actor.
@inline(__always)
private func onMain<Arguments, Result>(_ arguments: Arguments,
                                       _ body: @escaping @MainActor (Arguments) -> Result) -> Result {
    MainActorEntry.run(arguments, body)
}

/// The `@convention(c)` entries' Swift halves, run on the main actor (``MainActorEntry``): decode
/// the C payload into SubscriberKit values, call the subscriber's method, encode its answer. One
/// function per event, grouped by concept in the `Trampoline+*.swift` files.
@MainActor
enum Trampoline {
    typealias Me = UnsafePointer<adh_subscriber>?

    /// A notification without arguments: calls `method`.
    static func notify(_ me: Me, _ method: (any AppDelegateSubscriber, Application) -> Void) {
        ExportedInstance.with(me, fallback: ()) { method($0.subscriber, $1) }
    }

    /// A `Bool?` question without arguments: calls `method`, returns its answer as a tristate.
    static func answer(_ me: Me, _ method: (any AppDelegateSubscriber, Application) -> Bool?) -> adh_tristate {
        ExportedInstance.with(me, fallback: ABI.tristate(nil)) { ABI.tristate(method($0.subscriber, $1)) }
    }
}
