import SubscriberABI
import SubscriberValues

/// The notification center's events (UNUserNotificationCenterDelegate): a system delegate with a
/// single slot, fanned out here to every subscriber that implements the family's extension,
/// `adh.notification-center/1` (adh/ext/notification_center.h).
///
/// To add an event to this family: its row here (and in ``rows``, in header order), its
/// ``LifecycleEvent`` and its ``EventCall`` constructor below; its entry in the header; its protocol
/// in Subscriber/NotificationCenterProtocols.swift.
package enum NotificationCenterEvents {
    /// The family's rows, in header order.
    package static let rows: [EventRow] = [willPresent, didReceiveResponse, openSettings]

    package static let willPresent: EventRow = EventRow.completion(
        "notifications.willPresent", family: .notificationCenter, uikit: "userNotificationCenter(_:willPresent:withCompletionHandler:)",
        swift: ("WillPresentNotificationSubscriber",
                "func userNotificationCenter(_ application: Application, willPresent notification: UserNotification, withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>)"),
        arguments: NotificationArguments.self, answer: PresentationOptionsAnswer.self, reconciler: .union, nobody: .constant([]),
        late: nil, slot: "will_present", read: { $0.will_present },
        install: { $0.will_present = { SDKEntry.complete($0, $1, $2, .willPresentNotification, NotificationArguments.self, PresentationOptionsAnswer.self) } },
        call: { $0($1, $2, $3) })

    package static let didReceiveResponse: EventRow = EventRow.completion(
        "notifications.didReceiveResponse", family: .notificationCenter, uikit: "userNotificationCenter(_:didReceive:withCompletionHandler:)",
        swift: ("DidReceiveNotificationResponseSubscriber",
                "func userNotificationCenter(_ application: Application, didReceive response: NotificationResponse, withCompletionHandler completionHandler: CompletionHandler<Void>)"),
        arguments: NotificationResponseArguments.self, answer: DoneAnswer.self, reconciler: nil, nobody: .constant(()),
        late: nil, slot: "did_receive_response", read: { $0.did_receive_response },
        install: { $0.did_receive_response = { SDKEntry.complete($0, $1, $2, .didReceiveNotificationResponse, NotificationResponseArguments.self, DoneAnswer.self) } },
        call: { $0($1, $2, $3) })

    package static let openSettings: EventRow = EventRow.notification(
        "notifications.openSettings", family: .notificationCenter, uikit: "userNotificationCenter(_:openSettingsFor:)",
        swift: ("OpenNotificationSettingsSubscriber",
                "func userNotificationCenter(_ application: Application, openSettingsFor notification: UserNotification?)"),
        arguments: OptionalNotificationArgument.self, slot: "open_settings", read: { $0.open_settings },
        install: { $0.open_settings = { SDKEntry.notify($0, $1, .openNotificationSettings, OptionalNotificationArgument.self) } },
        call: { $0($1, $2) })
}

// The family's events.
extension LifecycleEvent {
    /// userNotificationCenter(_:willPresent:withCompletionHandler:).
    public static let willPresentNotification = LifecycleEvent(row: NotificationCenterEvents.willPresent)
    /// userNotificationCenter(_:didReceive:withCompletionHandler:).
    public static let didReceiveNotificationResponse = LifecycleEvent(row: NotificationCenterEvents.didReceiveResponse)
    /// userNotificationCenter(_:openSettingsFor:).
    public static let openNotificationSettings = LifecycleEvent(row: NotificationCenterEvents.openSettings)
}

// The family's calls.

extension EventCall where Immediate == Void, Final == NotificationPresentationOptions {
    /// userNotificationCenter(_:willPresent:withCompletionHandler:): how to present a notification that
    /// arrives in the foreground; the union of the answers.
    public static func willPresentNotification(_ notification: UserNotification) -> EventCall {
        EventCall(.willPresentNotification, value: notification)
    }
}

extension EventCall where Immediate == Void, Final == Void {
    /// userNotificationCenter(_:didReceive:withCompletionHandler:): done when every responder is done.
    public static func didReceiveNotificationResponse(_ response: NotificationResponse) -> EventCall {
        EventCall(.didReceiveNotificationResponse, value: response)
    }

    /// userNotificationCenter(_:openSettingsFor:); nil when opened from Settings.
    public static func openNotificationSettings(for notification: UserNotification? = nil) -> EventCall {
        EventCall(.openNotificationSettings, value: notification)
    }
}
