import Foundation
import SubscriberABI
import Testing
@testable import SubscriberKit

/// The event entries of `adh_subscriber`, by name, in header order, with their offsets: written out
/// field by field so that a row whose `cSlot` or `read`/`install` names another field is caught.
enum SubscriberSlots {
    static let offsets: KeyValuePairs<String, Int?> = [
        "will_finish_launching": MemoryLayout<adh_subscriber>.offset(of: \.will_finish_launching),
        "did_finish_launching": MemoryLayout<adh_subscriber>.offset(of: \.did_finish_launching),
        "did_become_active": MemoryLayout<adh_subscriber>.offset(of: \.did_become_active),
        "will_resign_active": MemoryLayout<adh_subscriber>.offset(of: \.will_resign_active),
        "did_enter_background": MemoryLayout<adh_subscriber>.offset(of: \.did_enter_background),
        "will_enter_foreground": MemoryLayout<adh_subscriber>.offset(of: \.will_enter_foreground),
        "will_terminate": MemoryLayout<adh_subscriber>.offset(of: \.will_terminate),
        "did_receive_memory_warning": MemoryLayout<adh_subscriber>.offset(of: \.did_receive_memory_warning),
        "significant_time_change": MemoryLayout<adh_subscriber>.offset(of: \.significant_time_change),
        "protected_data_will_become_unavailable": MemoryLayout<adh_subscriber>.offset(of: \.protected_data_will_become_unavailable),
        "protected_data_did_become_available": MemoryLayout<adh_subscriber>.offset(of: \.protected_data_did_become_available),
        "did_register_for_remote_notifications": MemoryLayout<adh_subscriber>.offset(of: \.did_register_for_remote_notifications),
        "did_fail_to_register_for_remote_notifications": MemoryLayout<adh_subscriber>.offset(of: \.did_fail_to_register_for_remote_notifications),
        "did_receive_remote_notification": MemoryLayout<adh_subscriber>.offset(of: \.did_receive_remote_notification),
        "perform_fetch": MemoryLayout<adh_subscriber>.offset(of: \.perform_fetch),
        "handle_events_for_background_url_session": MemoryLayout<adh_subscriber>.offset(of: \.handle_events_for_background_url_session),
        "open_url": MemoryLayout<adh_subscriber>.offset(of: \.open_url),
        "will_continue_user_activity": MemoryLayout<adh_subscriber>.offset(of: \.will_continue_user_activity),
        "continue_user_activity": MemoryLayout<adh_subscriber>.offset(of: \.continue_user_activity),
        "did_update_user_activity": MemoryLayout<adh_subscriber>.offset(of: \.did_update_user_activity),
        "did_fail_to_continue_user_activity": MemoryLayout<adh_subscriber>.offset(of: \.did_fail_to_continue_user_activity),
        "perform_action_for_shortcut_item": MemoryLayout<adh_subscriber>.offset(of: \.perform_action_for_shortcut_item),
        "supported_interface_orientations": MemoryLayout<adh_subscriber>.offset(of: \.supported_interface_orientations),
        "should_allow_extension_point_identifier": MemoryLayout<adh_subscriber>.offset(of: \.should_allow_extension_point_identifier),
        "should_save_secure_application_state": MemoryLayout<adh_subscriber>.offset(of: \.should_save_secure_application_state),
        "should_restore_secure_application_state": MemoryLayout<adh_subscriber>.offset(of: \.should_restore_secure_application_state),
        "configuration_for_connecting": MemoryLayout<adh_subscriber>.offset(of: \.configuration_for_connecting),
        "did_discard_scene_sessions": MemoryLayout<adh_subscriber>.offset(of: \.did_discard_scene_sessions),
        "handle_watchkit_extension_request": MemoryLayout<adh_subscriber>.offset(of: \.handle_watchkit_extension_request),
    ]

    /// The names of the non-NULL event entries of `vtable`, in header order.
    static func filled(in vtable: UnsafePointer<adh_subscriber>) -> [String] {
        offsets.filter { _, offset in
            UnsafeRawPointer(vtable).load(fromByteOffset: offset!, as: UnsafeRawPointer?.self) != nil
        }.map(\.key)
    }

    /// The names of the non-NULL event entries of `vtable`, in header order.
    static func filled(in vtable: adh_subscriber) -> [String] {
        withUnsafePointer(to: vtable) { filled(in: $0) }
    }
}

/// Drops everything: for subscribers made outside a host.
struct DiscardingSink: SubscriberLogSink {
    func log(subscriber: String, level: LogLevel, message: String) {}
    func logEvent(subscriber: String, name: String, attributes: JSONObject) {}
    func logError(subscriber: String, message: String, attributes: JSONObject) {}
}

extension SubscriberContext {
    /// A context that discards what the subscriber logs.
    static let forTests = SubscriberContext(
        subscriberName: "test", application: Application(name: "News", bundleIdentifier: "b", version: "1"),
        sink: DiscardingSink())
}

/// Adopts every event protocol, so that every witness of the SDK is its handler.
private final class EveryEvent: InstantiableSubscriber, WillFinishLaunchingSubscriber, DidFinishLaunchingSubscriber,
    DidBecomeActiveSubscriber, WillResignActiveSubscriber, DidEnterBackgroundSubscriber,
    WillEnterForegroundSubscriber, WillTerminateSubscriber, DidReceiveMemoryWarningSubscriber,
    SignificantTimeChangeSubscriber, ProtectedDataWillBecomeUnavailableSubscriber,
    ProtectedDataDidBecomeAvailableSubscriber, DidRegisterForRemoteNotificationsSubscriber,
    DidFailToRegisterForRemoteNotificationsSubscriber, DidReceiveRemoteNotificationSubscriber,
    PerformFetchSubscriber, HandleEventsForBackgroundURLSessionSubscriber, OpenURLSubscriber,
    WillContinueUserActivitySubscriber, ContinueUserActivitySubscriber, DidUpdateUserActivitySubscriber,
    DidFailToContinueUserActivitySubscriber, PerformActionForShortcutItemSubscriber,
    SupportedInterfaceOrientationsSubscriber, ShouldAllowExtensionPointIdentifierSubscriber,
    ShouldSaveSecureApplicationStateSubscriber, ShouldRestoreSecureApplicationStateSubscriber,
    ConfigurationForConnectingSubscriber, DidDiscardSceneSessionsSubscriber, HandleWatchKitExtensionRequestSubscriber
{
    init(context: SubscriberContext) {}
    func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? { nil }
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? { nil }
    func applicationDidBecomeActive(_ application: Application) {}
    func applicationWillResignActive(_ application: Application) {}
    func applicationDidEnterBackground(_ application: Application) {}
    func applicationWillEnterForeground(_ application: Application) {}
    func applicationWillTerminate(_ application: Application) {}
    func applicationDidReceiveMemoryWarning(_ application: Application) {}
    func applicationSignificantTimeChange(_ application: Application) {}
    func applicationProtectedDataWillBecomeUnavailable(_ application: Application) {}
    func applicationProtectedDataDidBecomeAvailable(_ application: Application) {}
    func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {}
    func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError) {}
    func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                     fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {}
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {}
    func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: CompletionHandler<Void>) {}
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { nil }
    func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool? { nil }
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? { nil }
    func application(_ application: Application, didUpdate userActivity: UserActivity) {}
    func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String,
                     error: LifecycleError) {}
    func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                     completionHandler: CompletionHandler<Bool>) {}
    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? { nil }
    func application(_ application: Application,
                     shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool? { nil }
    func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool? { nil }
    func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool? { nil }
    func application(_ application: Application, configurationForConnecting sceneRole: String) -> String? { nil }
    func application(_ application: Application, didDiscardSceneSessions count: Int) {}
    func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                     reply: CompletionHandler<JSONObject>) {}
}

/// Adopts two event protocols: every other witness must stay nil.
private final class TwoEvents: InstantiableSubscriber, PerformFetchSubscriber, SupportedInterfaceOrientationsSubscriber {
    init(context: SubscriberContext) {}
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {}
    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? { nil }
}

/// Adopts its event protocol in an extension, as Swift style often does.
private final class ExtensionAdopter: InstantiableSubscriber {
    init(context: SubscriberContext) {}
}

extension ExtensionAdopter: OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { true }
}

/// A subscriber class others subclass.
private class ActiveParent: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber {
    func applicationDidBecomeActive(_ application: Application) {}
}

/// Adds an event protocol below the class that declared the subscriber protocol: the limit of the
/// design (the compiler chose the witnesses at `ActiveParent`).
private final class OpenURLChild: ActiveParent, OpenURLSubscriber {
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { true }
}

@MainActor
@Suite("Event table: rows, header order, C glue and the compiler-chosen handlers")
struct EventTableTests {
    @Test func anEventsIndexIsItsPositionAndItsRowsPosition() {
        #expect(EventTable.rows.count == LifecycleEvent.allCases.count)
        for (position, event) in LifecycleEvent.allCases.enumerated() {
            #expect(event.index == position, "\(event)")
            #expect(EventTable.rows[position].event == event, "row \(position)")
            #expect(event.row.event == event)
        }
    }

    @Test func theRowsAreInHeaderOrderAndNameEveryEntry() {
        #expect(EventTable.rows.map(\.cSlot) == SubscriberSlots.offsets.map(\.key))
        let offsets = SubscriberSlots.offsets.map { $0.value! }
        // Header order: consecutive pointers from the first event entry to the end of the struct.
        let pointer = MemoryLayout<UnsafeRawPointer>.size
        #expect(offsets == Array(stride(from: offsets[0], to: MemoryLayout<adh_subscriber>.size, by: pointer)))
        #expect(offsets[0] == MemoryLayout<adh_subscriber>.offset(of: \.destroy)! + pointer)
    }

    @Test func eachRowInstallsTheEntryItReadsAndNoOther() {
        for row in EventTable.rows {
            var vtable = adh_subscriber()
            row.install(&vtable)
            #expect(SubscriberSlots.filled(in: vtable) == [row.cSlot], "\(row.event)")
            let read = EventTable.rows.filter { $0.read(vtable) != nil }.map(\.event)
            #expect(read == [row.event], "\(row.event)")
        }
        let empty = adh_subscriber()
        #expect(EventTable.rows.allSatisfy { $0.read(empty) == nil })
    }

    @Test func aTypeAdoptingEveryProtocolHandlesEveryEventWithItsRowsAnswerKind() {
        let handlers = EveryEvent(context: .forTests).eventHandlers()
        #expect(handlers.count == EventTable.rows.count)
        for (row, handler) in zip(EventTable.rows, handlers) {
            #expect(handler?.answerKind == row.answer, "\(row.event)")
        }
    }

    @Test func aTypeAdoptingTwoProtocolsHandlesThoseTwoWithTheirAnswerKinds() {
        let handlers = TwoEvents(context: .forTests).eventHandlers()
        let handled = LifecycleEvent.allCases.filter { handlers[$0.index] != nil }
        #expect(handled == [.performFetch, .supportedInterfaceOrientations])
        for event in handled {
            #expect(handlers[event.index]?.answerKind == event.row.answer, "\(event)")
        }
    }

    @Test func aProtocolAdoptedInAnExtensionCounts() {
        let handlers = ExtensionAdopter(context: .forTests).eventHandlers()
        #expect(LifecycleEvent.allCases.filter { handlers[$0.index] != nil } == [.openURL])
    }

    @Test func aSubclassKeepsItsParentsEventsAndCannotAddOne() {
        // Documents the limit stated on AppDelegateSubscriber: the child's openURL is not a handler.
        let handlers = OpenURLChild(context: .forTests).eventHandlers()
        #expect(LifecycleEvent.allCases.filter { handlers[$0.index] != nil } == [.didBecomeActive])
    }

    @Test func aSubscriberTypesVTableHasAnEntryForEachHandledEvent() {
        let instance = UnsafeMutableRawPointer(bitPattern: 0x10)!  // never dereferenced: no event is called
        let every = SubscriberVTable.make(instance: instance, handlers: EveryEvent(context: .forTests).eventHandlers())
        #expect(SubscriberSlots.filled(in: every) == SubscriberSlots.offsets.map(\.key))
        let two = SubscriberVTable.make(instance: instance, handlers: TwoEvents(context: .forTests).eventHandlers())
        #expect(SubscriberSlots.filled(in: two) == ["perform_fetch", "supported_interface_orientations"])
        #expect(two.destroy != nil && two.struct_size == UInt32(MemoryLayout<adh_subscriber>.size))
    }
}
