import SubscriberEventModel
import SubscriberValues
/// userNotificationCenter(_:willPresent:withCompletionHandler:): how to present a notification that
/// arrives while the app is in the foreground. Reconciled: the union of the options (a notification
/// is shown the way any responder asked for); nobody answers: none. Call `completionHandler` exactly
/// once, or `decline()` before returning when the notification is not yours.
@MainActor
public protocol WillPresentNotificationSubscriber: AppDelegateSubscriber {
    /// userNotificationCenter(_:willPresent:withCompletionHandler:).
    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>)
}

/// userNotificationCenter(_:didReceive:withCompletionHandler:): the user responded to a notification
/// (tapped it, chose an action, typed a reply). Done when every responder called its completion
/// handler, or at the deadline.
@MainActor
public protocol DidReceiveNotificationResponseSubscriber: AppDelegateSubscriber {
    /// userNotificationCenter(_:didReceive:withCompletionHandler:).
    func userNotificationCenter(_ application: Application, didReceive response: NotificationResponse,
                                withCompletionHandler completionHandler: CompletionHandler<Void>)
}

/// userNotificationCenter(_:openSettingsFor:): show the app's notification settings; `notification`
/// is nil when they were opened from Settings.
@MainActor
public protocol OpenNotificationSettingsSubscriber: AppDelegateSubscriber {
    /// userNotificationCenter(_:openSettingsFor:).
    func userNotificationCenter(_ application: Application, openSettingsFor notification: UserNotification?)
}

/// How a subscriber type's adopted notification-center protocols reach the SDK, one requirement per
/// event (see ``_EventWitnesses``). Never implement these yourself.
@MainActor
public protocol _NotificationCenterEventWitnesses {
    static var _willPresentNotification: _EventWitness? { get }
    static var _didReceiveNotificationResponse: _EventWitness? { get }
    static var _openNotificationSettings: _EventWitness? { get }
}

extension _NotificationCenterEventWitnesses {
    public static var _willPresentNotification: _EventWitness? { nil }
    public static var _didReceiveNotificationResponse: _EventWitness? { nil }
    public static var _openNotificationSettings: _EventWitness? { nil }

    /// The notification-center family's witnesses, in table order.
    static var _notificationCenterWitnesses: [_EventWitness?] {
        [_willPresentNotification, _didReceiveNotificationResponse, _openNotificationSettings]
    }
}

extension _NotificationCenterEventWitnesses where Self: WillPresentNotificationSubscriber {
    public static var _willPresentNotification: _EventWitness? {
        _EventWitness(NotificationCenterEvents.willPresent, completionEventHandler(NotificationArguments.self, PresentationOptionsAnswer.self) { s, app, a, h in
            unsafeDowncast(s, to: Self.self).userNotificationCenter(app, willPresent: a, withCompletionHandler: h)
        })
    }
}

extension _NotificationCenterEventWitnesses where Self: DidReceiveNotificationResponseSubscriber {
    public static var _didReceiveNotificationResponse: _EventWitness? {
        _EventWitness(NotificationCenterEvents.didReceiveResponse, completionEventHandler(NotificationResponseArguments.self, DoneAnswer.self) { s, app, a, h in
            unsafeDowncast(s, to: Self.self).userNotificationCenter(app, didReceive: a, withCompletionHandler: h)
        })
    }
}

extension _NotificationCenterEventWitnesses where Self: OpenNotificationSettingsSubscriber {
    public static var _openNotificationSettings: _EventWitness? {
        _EventWitness(NotificationCenterEvents.openSettings, notificationHandler(OptionalNotificationArgument.self) { s, app, a in
            unsafeDowncast(s, to: Self.self).userNotificationCenter(app, openSettingsFor: a)
        })
    }
}
