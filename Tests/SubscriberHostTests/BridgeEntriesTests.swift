import SubscriberABI
import SubscriberKit
import Testing
import SubscriberHost

/// Each event's entry offset, from key paths: an independent table to hold the event
/// table's C entry reads (what ``CSubscriber`` makes its handlers from) to.
private let entryOffsets: [(LifecycleEvent, Int)] = {
    let paths: [(LifecycleEvent, PartialKeyPath<adh_subscriber>)] = [
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
    return paths.map { ($0, MemoryLayout<adh_subscriber>.offset(of: $1)!) }
}()

/// A full-size vtable with the entries of `events` set to a non-NULL (never called) address.
private func vtable(setting events: [LifecycleEvent]) -> adh_subscriber {
    var v = adh_subscriber()
    v.struct_size = UInt32(MemoryLayout<adh_subscriber>.size)
    withUnsafeMutableBytes(of: &v) { raw in
        for (event, offset) in entryOffsets where events.contains(event) {
            raw.storeBytes(of: UnsafeRawPointer(bitPattern: 0x1000), toByteOffset: offset, as: UnsafeRawPointer?.self)
        }
    }
    return v
}

/// The events whose entries the event table reads as set in `vtable`, in table order: what a
/// ``CSubscriber`` over it responds to.
private func respondingEvents(of vtable: adh_subscriber) -> [LifecycleEvent] {
    EventTable.rows.filter { $0.read(vtable) != nil }.map(\.event)
}

@Suite("Bridge: which vtable entries are set")
struct BridgeEntriesTests {
    @Test("each entry alone gives exactly its event", arguments: LifecycleEvent.allCases)
    func oneEntry(event: LifecycleEvent) {
        #expect(respondingEvents(of: vtable(setting: [event])) == [event])
    }

    @Test("every entry set gives every event once, in header (offset) order; none set gives none")
    func allAndNone() {
        let inHeaderOrder = entryOffsets.sorted { $0.1 < $1.1 }.map(\.0)
        #expect(Set(inHeaderOrder) == Set(LifecycleEvent.allCases) && inHeaderOrder.count == LifecycleEvent.allCases.count)
        #expect(respondingEvents(of: vtable(setting: LifecycleEvent.allCases)) == inHeaderOrder)
        #expect(respondingEvents(of: vtable(setting: [])) == [])
    }

    @Test("read through ABI.readCovered, entries past struct_size do not count")
    func structSizeCoverage() {
        var full = vtable(setting: LifecycleEvent.allCases)
        full.struct_size = UInt32(MemoryLayout<adh_subscriber>.offset(of: \.did_become_active)! + 8)
        let covered = withUnsafePointer(to: &full) { ABI.readCovered($0) }
        #expect(respondingEvents(of: covered) == [.willFinishLaunching, .didFinishLaunching, .didBecomeActive])
    }
}
