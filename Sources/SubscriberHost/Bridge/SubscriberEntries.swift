import SubscriberABI
import SubscriberKit

/// Which entries of a subscriber's vtable are set: the events it responds to. One reading for the
/// host's bridge (``CSubscriber``) and the conformance kit's raw calls, so the two never disagree.
public enum SubscriberEntries {
    /// The events whose entries `v` fills, in header order (the kit's fuzzing is reproducible only
    /// in a fixed order). Pass the struct as ``ABI/readCovered(_:)`` read it: entries past the
    /// plugin's `struct_size` are then NULL and do not count.
    ///
    /// Plain field reads: the 29 key paths this used cost 2.3 million instructions to instantiate,
    /// the largest part of loading a single plugin.
    public static func respondingEvents(of v: adh_subscriber) -> [LifecycleEvent] {
        let entries: [(LifecycleEvent, Bool)] = [
            (.willFinishLaunching, v.will_finish_launching != nil),
            (.didFinishLaunching, v.did_finish_launching != nil),
            (.didBecomeActive, v.did_become_active != nil),
            (.willResignActive, v.will_resign_active != nil),
            (.didEnterBackground, v.did_enter_background != nil),
            (.willEnterForeground, v.will_enter_foreground != nil),
            (.willTerminate, v.will_terminate != nil),
            (.didReceiveMemoryWarning, v.did_receive_memory_warning != nil),
            (.significantTimeChange, v.significant_time_change != nil),
            (.protectedDataWillBecomeUnavailable, v.protected_data_will_become_unavailable != nil),
            (.protectedDataDidBecomeAvailable, v.protected_data_did_become_available != nil),
            (.didRegisterForRemoteNotifications, v.did_register_for_remote_notifications != nil),
            (.didFailToRegisterForRemoteNotifications, v.did_fail_to_register_for_remote_notifications != nil),
            (.didReceiveRemoteNotification, v.did_receive_remote_notification != nil),
            (.performFetch, v.perform_fetch != nil),
            (.handleEventsForBackgroundURLSession, v.handle_events_for_background_url_session != nil),
            (.openURL, v.open_url != nil),
            (.willContinueUserActivity, v.will_continue_user_activity != nil),
            (.continueUserActivity, v.continue_user_activity != nil),
            (.didUpdateUserActivity, v.did_update_user_activity != nil),
            (.didFailToContinueUserActivity, v.did_fail_to_continue_user_activity != nil),
            (.performActionForShortcutItem, v.perform_action_for_shortcut_item != nil),
            (.supportedInterfaceOrientations, v.supported_interface_orientations != nil),
            (.shouldAllowExtensionPointIdentifier, v.should_allow_extension_point_identifier != nil),
            (.shouldSaveSecureApplicationState, v.should_save_secure_application_state != nil),
            (.shouldRestoreSecureApplicationState, v.should_restore_secure_application_state != nil),
            (.configurationForConnecting, v.configuration_for_connecting != nil),
            (.didDiscardSceneSessions, v.did_discard_scene_sessions != nil),
            (.handleWatchKitExtensionRequest, v.handle_watchkit_extension_request != nil),
        ]
        return entries.compactMap { $0.1 ? $0.0 : nil }
    }
}
