import Foundation
import SubscriberABI
import SubscriberValues

/// The app delegate's events (UIApplicationDelegate): the core family, one entry each in
/// `adh_subscriber` (adh/subscriber.h, frozen at ABI 1.0), in the header's order.
///
/// To add an event to this family: its row here (and in ``rows``, in header order), its
/// ``LifecycleEvent`` and its ``EventCall`` constructor below; its entry in the header; its protocol
/// in Subscriber/EventProtocols.swift. Everything else — scripts, dispatch, reconciler checks, the C
/// glue, the conformance kit's inputs, output — reads the row.
package enum ApplicationEvents {
    /// The family's rows, in header order.
    package static let rows: [EventRow] = [
        willFinishLaunching,
        didFinishLaunching,
        didBecomeActive,
        willResignActive,
        didEnterBackground,
        willEnterForeground,
        willTerminate,
        didReceiveMemoryWarning,
        significantTimeChange,
        protectedDataWillBecomeUnavailable,
        protectedDataDidBecomeAvailable,
        didRegisterForRemoteNotifications,
        didFailToRegisterForRemoteNotifications,
        didReceiveRemoteNotification,
        performFetch,
        handleEventsForBackgroundURLSession,
        openURL,
        willContinueUserActivity,
        continueUserActivity,
        didUpdateUserActivity,
        didFailToContinueUserActivity,
        performActionForShortcutItem,
        supportedInterfaceOrientations,
        shouldAllowExtensionPointIdentifier,
        shouldSaveSecureApplicationState,
        shouldRestoreSecureApplicationState,
        configurationForConnecting,
        didDiscardSceneSessions,
        handleWatchKitExtensionRequest,
    ]

    package static let willFinishLaunching: EventRow = EventRow.immediate(
        "willFinishLaunching", family: .application, uikit: "application(_:willFinishLaunchingWithOptions:)",
        swift: ("WillFinishLaunchingSubscriber",
                "func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool?"),
        state: .launch,
        arguments: LaunchArguments.self, answer: OptionalBoolAnswer.self, reconciler: .anyTrue, nobody: .constant(true),
        slot: "will_finish_launching", read: { $0.will_finish_launching },
        install: { $0.will_finish_launching = { SDKEntry.answer($0, $1, .willFinishLaunching, LaunchArguments.self, OptionalBoolAnswer.self) } },
        call: { $0($1, $2) })

    package static let didFinishLaunching: EventRow = EventRow.immediate(
        "didFinishLaunching", family: .application, uikit: "application(_:didFinishLaunchingWithOptions:)",
        swift: ("DidFinishLaunchingSubscriber",
                "func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool?"),
        state: .launch,
        arguments: LaunchArguments.self, answer: OptionalBoolAnswer.self, reconciler: .anyTrue, nobody: .constant(true),
        slot: "did_finish_launching", read: { $0.did_finish_launching },
        install: { $0.did_finish_launching = { SDKEntry.answer($0, $1, .didFinishLaunching, LaunchArguments.self, OptionalBoolAnswer.self) } },
        call: { $0($1, $2) })

    package static let didBecomeActive: EventRow = EventRow.notification(
        "didBecomeActive", family: .application, uikit: "applicationDidBecomeActive(_:)",
        swift: ("DidBecomeActiveSubscriber",
                "func applicationDidBecomeActive(_ application: Application)"),
        state: .transition(from: [.inactive], to: .active, deliveredIn: .entering),
        arguments: NoArguments.self, slot: "did_become_active", read: { $0.did_become_active },
        install: { $0.did_become_active = { SDKEntry.notify($0, (), .didBecomeActive, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let willResignActive: EventRow = EventRow.notification(
        "willResignActive", family: .application, uikit: "applicationWillResignActive(_:)",
        swift: ("WillResignActiveSubscriber",
                "func applicationWillResignActive(_ application: Application)"),
        state: .transition(from: [.active], to: .inactive, deliveredIn: .leaving),
        arguments: NoArguments.self, slot: "will_resign_active", read: { $0.will_resign_active },
        install: { $0.will_resign_active = { SDKEntry.notify($0, (), .willResignActive, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let didEnterBackground: EventRow = EventRow.notification(
        "didEnterBackground", family: .application, uikit: "applicationDidEnterBackground(_:)",
        swift: ("DidEnterBackgroundSubscriber",
                "func applicationDidEnterBackground(_ application: Application)"),
        state: .transition(from: [.inactive], to: .background, deliveredIn: .entering),
        arguments: NoArguments.self, slot: "did_enter_background", read: { $0.did_enter_background },
        install: { $0.did_enter_background = { SDKEntry.notify($0, (), .didEnterBackground, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let willEnterForeground: EventRow = EventRow.notification(
        "willEnterForeground", family: .application, uikit: "applicationWillEnterForeground(_:)",
        swift: ("WillEnterForegroundSubscriber",
                "func applicationWillEnterForeground(_ application: Application)"),
        state: .transition(from: [.background], to: .inactive, deliveredIn: .leaving),
        arguments: NoArguments.self, slot: "will_enter_foreground", read: { $0.will_enter_foreground },
        install: { $0.will_enter_foreground = { SDKEntry.notify($0, (), .willEnterForeground, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let willTerminate: EventRow = EventRow.notification(
        "willTerminate", family: .application, uikit: "applicationWillTerminate(_:)",
        swift: ("WillTerminateSubscriber",
                "func applicationWillTerminate(_ application: Application)"),
        state: .transition(from: [.inactive, .active, .background], to: .terminated, deliveredIn: .leaving),
        arguments: NoArguments.self, slot: "will_terminate", read: { $0.will_terminate },
        install: { $0.will_terminate = { SDKEntry.notify($0, (), .willTerminate, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let didReceiveMemoryWarning: EventRow = EventRow.notification(
        "didReceiveMemoryWarning", family: .application, uikit: "applicationDidReceiveMemoryWarning(_:)",
        swift: ("DidReceiveMemoryWarningSubscriber",
                "func applicationDidReceiveMemoryWarning(_ application: Application)"),
        arguments: NoArguments.self, slot: "did_receive_memory_warning", read: { $0.did_receive_memory_warning },
        install: { $0.did_receive_memory_warning = { SDKEntry.notify($0, (), .didReceiveMemoryWarning, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let significantTimeChange: EventRow = EventRow.notification(
        "significantTimeChange", family: .application, uikit: "applicationSignificantTimeChange(_:)",
        swift: ("SignificantTimeChangeSubscriber",
                "func applicationSignificantTimeChange(_ application: Application)"),
        arguments: NoArguments.self, slot: "significant_time_change", read: { $0.significant_time_change },
        install: { $0.significant_time_change = { SDKEntry.notify($0, (), .significantTimeChange, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let protectedDataWillBecomeUnavailable: EventRow = EventRow.notification(
        "protectedDataWillBecomeUnavailable", family: .application, uikit: "applicationProtectedDataWillBecomeUnavailable(_:)",
        swift: ("ProtectedDataWillBecomeUnavailableSubscriber",
                "func applicationProtectedDataWillBecomeUnavailable(_ application: Application)"),
        arguments: NoArguments.self, slot: "protected_data_will_become_unavailable", read: { $0.protected_data_will_become_unavailable },
        install: { $0.protected_data_will_become_unavailable = { SDKEntry.notify($0, (), .protectedDataWillBecomeUnavailable, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let protectedDataDidBecomeAvailable: EventRow = EventRow.notification(
        "protectedDataDidBecomeAvailable", family: .application, uikit: "applicationProtectedDataDidBecomeAvailable(_:)",
        swift: ("ProtectedDataDidBecomeAvailableSubscriber",
                "func applicationProtectedDataDidBecomeAvailable(_ application: Application)"),
        arguments: NoArguments.self, slot: "protected_data_did_become_available", read: { $0.protected_data_did_become_available },
        install: { $0.protected_data_did_become_available = { SDKEntry.notify($0, (), .protectedDataDidBecomeAvailable, NoArguments.self) } },
        call: { f, me, _ in f(me) })

    package static let didRegisterForRemoteNotifications: EventRow = EventRow.notification(
        "didRegisterForRemoteNotifications", family: .application, uikit: "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)",
        swift: ("DidRegisterForRemoteNotificationsSubscriber",
                "func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)"),
        arguments: DeviceTokenArgument.self, slot: "did_register_for_remote_notifications", read: { $0.did_register_for_remote_notifications },
        install: { $0.did_register_for_remote_notifications = { SDKEntry.notify($0, $1, .didRegisterForRemoteNotifications, DeviceTokenArgument.self) } },
        call: { $0($1, $2) })

    package static let didFailToRegisterForRemoteNotifications: EventRow = EventRow.notification(
        "didFailToRegisterForRemoteNotifications", family: .application, uikit: "application(_:didFailToRegisterForRemoteNotificationsWithError:)",
        swift: ("DidFailToRegisterForRemoteNotificationsSubscriber",
                "func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError)"),
        arguments: ErrorArgument.self, slot: "did_fail_to_register_for_remote_notifications", read: { $0.did_fail_to_register_for_remote_notifications },
        install: { $0.did_fail_to_register_for_remote_notifications = { SDKEntry.notify($0, $1, .didFailToRegisterForRemoteNotifications, ErrorArgument.self) } },
        call: { $0($1, $2) })

    package static let didReceiveRemoteNotification: EventRow = EventRow.completion(
        "didReceiveRemoteNotification", family: .application, uikit: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)",
        swift: ("DidReceiveRemoteNotificationSubscriber",
                "func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject, fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>)"),
        arguments: UserInfoArgument.self, answer: FetchResultAnswer.self, reconciler: .precedence(ReconcilerChoice.defaultFetchPrecedence), nobody: .constant(.noData), late: .failed,
        slot: "did_receive_remote_notification", read: { $0.did_receive_remote_notification },
        install: { $0.did_receive_remote_notification = { SDKEntry.complete($0, $1, $2, .didReceiveRemoteNotification, UserInfoArgument.self, FetchResultAnswer.self) } },
        call: { $0($1, $2, $3) })

    package static let performFetch: EventRow = EventRow.completion(
        "performFetch", family: .application, uikit: "application(_:performFetchWithCompletionHandler:)",
        swift: ("PerformFetchSubscriber",
                "func application(_ application: Application, performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>)"),
        arguments: NoArguments.self, answer: FetchResultAnswer.self, reconciler: .precedence(ReconcilerChoice.defaultFetchPrecedence), nobody: .constant(.noData), late: .failed,
        slot: "perform_fetch", read: { $0.perform_fetch },
        install: { $0.perform_fetch = { SDKEntry.complete($0, (), $1, .performFetch, NoArguments.self, FetchResultAnswer.self) } },
        call: { f, me, _, completion in f(me, completion) })

    package static let handleEventsForBackgroundURLSession: EventRow = EventRow.completion(
        "handleEventsForBackgroundURLSession", family: .application, uikit: "application(_:handleEventsForBackgroundURLSession:completionHandler:)",
        swift: ("HandleEventsForBackgroundURLSessionSubscriber",
                "func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String, completionHandler: CompletionHandler<Void>)"),
        arguments: TextArgument.self, spec: TextArgument.Spec(key: "identifier", example: "com.example.news.background-download"), answer: DoneAnswer.self, reconciler: nil, nobody: .constant(()), late: nil,
        slot: "handle_events_for_background_url_session", read: { $0.handle_events_for_background_url_session },
        install: { $0.handle_events_for_background_url_session = { SDKEntry.complete($0, $1, $2, .handleEventsForBackgroundURLSession, TextArgument.self, DoneAnswer.self) } },
        call: { $0($1, $2, $3) })

    package static let openURL: EventRow = EventRow.immediate(
        "openURL", family: .application, uikit: "application(_:open:options:)",
        swift: ("OpenURLSubscriber",
                "func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool?"),
        arguments: OpenURLArguments.self, answer: OptionalBoolAnswer.self, reconciler: .anyTrue, nobody: .constant(false),
        slot: "open_url", read: { $0.open_url },
        install: { $0.open_url = { SDKEntry.answer($0, $1, .openURL, OpenURLArguments.self, OptionalBoolAnswer.self) } },
        call: { $0($1, $2) })

    package static let willContinueUserActivity: EventRow = EventRow.immediate(
        "willContinueUserActivity", family: .application, uikit: "application(_:willContinueUserActivityWithType:)",
        swift: ("WillContinueUserActivitySubscriber",
                "func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool?"),
        arguments: TextArgument.self, spec: TextArgument.Spec(key: "activityType", example: UserActivity.browsingWeb), answer: OptionalBoolAnswer.self, reconciler: .anyTrue, nobody: .constant(false),
        slot: "will_continue_user_activity", read: { $0.will_continue_user_activity },
        install: { $0.will_continue_user_activity = { SDKEntry.answer($0, $1, .willContinueUserActivity, TextArgument.self, OptionalBoolAnswer.self) } },
        call: { $0($1, $2) })

    package static let continueUserActivity: EventRow = EventRow.restoration(
        "continueUserActivity", family: .application, uikit: "application(_:continue:restorationHandler:)",
        swift: ("ContinueUserActivitySubscriber",
                "func application(_ application: Application, continue userActivity: UserActivity, restorationHandler: CompletionHandler<[String]>) -> Bool?"),
        arguments: UserActivityArguments.self, reconciler: .anyTrue, nobody: .constant(false),
        slot: "continue_user_activity", read: { $0.continue_user_activity },
        install: { $0.continue_user_activity = { SDKEntry.restore($0, $1, $2, .continueUserActivity, UserActivityArguments.self) } },
        call: { $0($1, $2, $3) })

    package static let didUpdateUserActivity: EventRow = EventRow.notification(
        "didUpdateUserActivity", family: .application, uikit: "application(_:didUpdate:)",
        swift: ("DidUpdateUserActivitySubscriber",
                "func application(_ application: Application, didUpdate userActivity: UserActivity)"),
        arguments: UserActivityArguments.self, slot: "did_update_user_activity", read: { $0.did_update_user_activity },
        install: { $0.did_update_user_activity = { SDKEntry.notify($0, $1, .didUpdateUserActivity, UserActivityArguments.self) } },
        call: { $0($1, $2) })

    package static let didFailToContinueUserActivity: EventRow = EventRow.notification(
        "didFailToContinueUserActivity", family: .application, uikit: "application(_:didFailToContinueUserActivityWithType:error:)",
        swift: ("DidFailToContinueUserActivitySubscriber",
                "func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String, error: LifecycleError)"),
        arguments: ActivityFailureArguments.self, slot: "did_fail_to_continue_user_activity", read: { $0.did_fail_to_continue_user_activity },
        install: { $0.did_fail_to_continue_user_activity = { SDKEntry.notify($0, ($1, $2), .didFailToContinueUserActivity, ActivityFailureArguments.self) } },
        call: { $0($1, $2.0, $2.1) })

    package static let performActionForShortcutItem: EventRow = EventRow.completion(
        "performActionForShortcutItem", family: .application, uikit: "application(_:performActionFor:completionHandler:)",
        swift: ("PerformActionForShortcutItemSubscriber",
                "func application(_ application: Application, performActionFor shortcutItem: ShortcutItem, completionHandler: CompletionHandler<Bool>)"),
        arguments: ShortcutItemArguments.self, answer: BoolCompletionAnswer.self, reconciler: .anyTrue, nobody: .constant(false), late: false,
        slot: "perform_action_for_shortcut_item", read: { $0.perform_action_for_shortcut_item },
        install: { $0.perform_action_for_shortcut_item = { SDKEntry.complete($0, $1, $2, .performActionForShortcutItem, ShortcutItemArguments.self, BoolCompletionAnswer.self) } },
        call: { $0($1, $2, $3) })

    package static let supportedInterfaceOrientations: EventRow = EventRow.immediate(
        "supportedInterfaceOrientations", family: .application, uikit: "application(_:supportedInterfaceOrientationsFor:)",
        swift: ("SupportedInterfaceOrientationsSubscriber",
                "func application(_ application: Application, supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask?"),
        arguments: IdiomArgument.self, answer: OrientationMaskAnswer.self, reconciler: .intersection, nobody: .computed(description: "the manifest's default orientations for the idiom") { $1.defaultOrientation(for: $0) },
        slot: "supported_interface_orientations", read: { $0.supported_interface_orientations },
        install: { $0.supported_interface_orientations = { SDKEntry.answer($0, $1, .supportedInterfaceOrientations, IdiomArgument.self, OrientationMaskAnswer.self) } },
        call: { $0($1, $2) })

    package static let shouldAllowExtensionPointIdentifier: EventRow = EventRow.immediate(
        "shouldAllowExtensionPointIdentifier", family: .application, uikit: "application(_:shouldAllowExtensionPointIdentifier:)",
        swift: ("ShouldAllowExtensionPointIdentifierSubscriber",
                "func application(_ application: Application, shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool?"),
        arguments: TextArgument.self, spec: TextArgument.Spec(key: "identifier", example: "com.apple.keyboard-service"), answer: OptionalBoolAnswer.self, reconciler: .allTrue, nobody: .constant(true),
        slot: "should_allow_extension_point_identifier", read: { $0.should_allow_extension_point_identifier },
        install: { $0.should_allow_extension_point_identifier = { SDKEntry.answer($0, $1, .shouldAllowExtensionPointIdentifier, TextArgument.self, OptionalBoolAnswer.self) } },
        call: { $0($1, $2) })

    package static let shouldSaveSecureApplicationState: EventRow = EventRow.immediate(
        "shouldSaveSecureApplicationState", family: .application, uikit: "application(_:shouldSaveSecureApplicationState:)",
        swift: ("ShouldSaveSecureApplicationStateSubscriber",
                "func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool?"),
        arguments: NoArguments.self, answer: OptionalBoolAnswer.self, reconciler: .allTrue, nobody: .constant(false),
        slot: "should_save_secure_application_state", read: { $0.should_save_secure_application_state },
        install: { $0.should_save_secure_application_state = { SDKEntry.answer($0, (), .shouldSaveSecureApplicationState, NoArguments.self, OptionalBoolAnswer.self) } },
        call: { f, me, _ in f(me) })

    package static let shouldRestoreSecureApplicationState: EventRow = EventRow.immediate(
        "shouldRestoreSecureApplicationState", family: .application, uikit: "application(_:shouldRestoreSecureApplicationState:)",
        swift: ("ShouldRestoreSecureApplicationStateSubscriber",
                "func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool?"),
        arguments: NoArguments.self, answer: OptionalBoolAnswer.self, reconciler: .allTrue, nobody: .constant(false),
        slot: "should_restore_secure_application_state", read: { $0.should_restore_secure_application_state },
        install: { $0.should_restore_secure_application_state = { SDKEntry.answer($0, (), .shouldRestoreSecureApplicationState, NoArguments.self, OptionalBoolAnswer.self) } },
        call: { f, me, _ in f(me) })

    package static let configurationForConnecting: EventRow = EventRow.immediate(
        "configurationForConnecting", family: .application, uikit: "application(_:configurationForConnecting:options:)",
        swift: ("ConfigurationForConnectingSubscriber",
                "func application(_ application: Application, configurationForConnecting sceneRole: String) -> String?"),
        arguments: TextArgument.self, spec: TextArgument.Spec(key: "sceneRole", defaultValue: "UIWindowSceneSessionRoleApplication", example: "UIWindowSceneSessionRoleApplication"), answer: ConfigurationNameAnswer.self, reconciler: .firstAnswer, nobody: .constant("Default Configuration"),
        slot: "configuration_for_connecting", read: { $0.configuration_for_connecting },
        install: { $0.configuration_for_connecting = { SDKEntry.answer($0, $1, .configurationForConnecting, TextArgument.self, ConfigurationNameAnswer.self) } },
        call: { $0($1, $2) })

    package static let didDiscardSceneSessions: EventRow = EventRow.notification(
        "didDiscardSceneSessions", family: .application, uikit: "application(_:didDiscardSceneSessions:)",
        swift: ("DidDiscardSceneSessionsSubscriber",
                "func application(_ application: Application, didDiscardSceneSessions count: Int)"),
        arguments: CountArgument.self, slot: "did_discard_scene_sessions", read: { $0.did_discard_scene_sessions },
        install: { $0.did_discard_scene_sessions = { SDKEntry.notify($0, $1, .didDiscardSceneSessions, CountArgument.self) } },
        call: { $0($1, $2) })

    package static let handleWatchKitExtensionRequest: EventRow = EventRow.completion(
        "handleWatchKitExtensionRequest", family: .application, uikit: "application(_:handleWatchKitExtensionRequest:reply:)",
        swift: ("HandleWatchKitExtensionRequestSubscriber",
                "func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject, reply: CompletionHandler<JSONObject>)"),
        arguments: UserInfoArgument.self, answer: DictionaryAnswer.self, reconciler: .merge, nobody: .constant([:]), late: nil,
        slot: "handle_watchkit_extension_request", read: { $0.handle_watchkit_extension_request },
        install: { $0.handle_watchkit_extension_request = { SDKEntry.complete($0, $1, $2, .handleWatchKitExtensionRequest, UserInfoArgument.self, DictionaryAnswer.self) } },
        call: { $0($1, $2, $3) })
}

// The family's events.
extension LifecycleEvent {
    /// application(_:willFinishLaunchingWithOptions:).
    public static let willFinishLaunching = LifecycleEvent(row: ApplicationEvents.willFinishLaunching)
    /// application(_:didFinishLaunchingWithOptions:).
    public static let didFinishLaunching = LifecycleEvent(row: ApplicationEvents.didFinishLaunching)
    /// applicationDidBecomeActive(_:).
    public static let didBecomeActive = LifecycleEvent(row: ApplicationEvents.didBecomeActive)
    /// applicationWillResignActive(_:).
    public static let willResignActive = LifecycleEvent(row: ApplicationEvents.willResignActive)
    /// applicationDidEnterBackground(_:).
    public static let didEnterBackground = LifecycleEvent(row: ApplicationEvents.didEnterBackground)
    /// applicationWillEnterForeground(_:).
    public static let willEnterForeground = LifecycleEvent(row: ApplicationEvents.willEnterForeground)
    /// applicationWillTerminate(_:).
    public static let willTerminate = LifecycleEvent(row: ApplicationEvents.willTerminate)
    /// applicationDidReceiveMemoryWarning(_:).
    public static let didReceiveMemoryWarning = LifecycleEvent(row: ApplicationEvents.didReceiveMemoryWarning)
    /// applicationSignificantTimeChange(_:).
    public static let significantTimeChange = LifecycleEvent(row: ApplicationEvents.significantTimeChange)
    /// applicationProtectedDataWillBecomeUnavailable(_:).
    public static let protectedDataWillBecomeUnavailable = LifecycleEvent(row: ApplicationEvents.protectedDataWillBecomeUnavailable)
    /// applicationProtectedDataDidBecomeAvailable(_:).
    public static let protectedDataDidBecomeAvailable = LifecycleEvent(row: ApplicationEvents.protectedDataDidBecomeAvailable)
    /// application(_:didRegisterForRemoteNotificationsWithDeviceToken:).
    public static let didRegisterForRemoteNotifications = LifecycleEvent(row: ApplicationEvents.didRegisterForRemoteNotifications)
    /// application(_:didFailToRegisterForRemoteNotificationsWithError:).
    public static let didFailToRegisterForRemoteNotifications = LifecycleEvent(row: ApplicationEvents.didFailToRegisterForRemoteNotifications)
    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:).
    public static let didReceiveRemoteNotification = LifecycleEvent(row: ApplicationEvents.didReceiveRemoteNotification)
    /// application(_:performFetchWithCompletionHandler:).
    public static let performFetch = LifecycleEvent(row: ApplicationEvents.performFetch)
    /// application(_:handleEventsForBackgroundURLSession:completionHandler:).
    public static let handleEventsForBackgroundURLSession = LifecycleEvent(row: ApplicationEvents.handleEventsForBackgroundURLSession)
    /// application(_:open:options:).
    public static let openURL = LifecycleEvent(row: ApplicationEvents.openURL)
    /// application(_:willContinueUserActivityWithType:).
    public static let willContinueUserActivity = LifecycleEvent(row: ApplicationEvents.willContinueUserActivity)
    /// application(_:continue:restorationHandler:).
    public static let continueUserActivity = LifecycleEvent(row: ApplicationEvents.continueUserActivity)
    /// application(_:didUpdate:).
    public static let didUpdateUserActivity = LifecycleEvent(row: ApplicationEvents.didUpdateUserActivity)
    /// application(_:didFailToContinueUserActivityWithType:error:).
    public static let didFailToContinueUserActivity = LifecycleEvent(row: ApplicationEvents.didFailToContinueUserActivity)
    /// application(_:performActionFor:completionHandler:).
    public static let performActionForShortcutItem = LifecycleEvent(row: ApplicationEvents.performActionForShortcutItem)
    /// application(_:supportedInterfaceOrientationsFor:).
    public static let supportedInterfaceOrientations = LifecycleEvent(row: ApplicationEvents.supportedInterfaceOrientations)
    /// application(_:shouldAllowExtensionPointIdentifier:).
    public static let shouldAllowExtensionPointIdentifier = LifecycleEvent(row: ApplicationEvents.shouldAllowExtensionPointIdentifier)
    /// application(_:shouldSaveSecureApplicationState:).
    public static let shouldSaveSecureApplicationState = LifecycleEvent(row: ApplicationEvents.shouldSaveSecureApplicationState)
    /// application(_:shouldRestoreSecureApplicationState:).
    public static let shouldRestoreSecureApplicationState = LifecycleEvent(row: ApplicationEvents.shouldRestoreSecureApplicationState)
    /// application(_:configurationForConnecting:options:).
    public static let configurationForConnecting = LifecycleEvent(row: ApplicationEvents.configurationForConnecting)
    /// application(_:didDiscardSceneSessions:).
    public static let didDiscardSceneSessions = LifecycleEvent(row: ApplicationEvents.didDiscardSceneSessions)
    /// application(_:handleWatchKitExtensionRequest:reply:).
    public static let handleWatchKitExtensionRequest = LifecycleEvent(row: ApplicationEvents.handleWatchKitExtensionRequest)
}

// The family's calls: each event paired with the arguments it takes, typed by what its UIKit method
// returns at once and delivers in the end.

extension EventCall where Immediate == Bool, Final == Bool {
    /// application(_:willFinishLaunchingWithOptions:); no options is a launch from the icon.
    public static func willFinishLaunching(options: LaunchOptions = LaunchOptions()) -> EventCall {
        EventCall(.willFinishLaunching, value: options)
    }
    /// application(_:didFinishLaunchingWithOptions:); no options is a launch from the icon.
    public static func didFinishLaunching(options: LaunchOptions = LaunchOptions()) -> EventCall {
        EventCall(.didFinishLaunching, value: options)
    }
    /// application(_:open:options:).
    public static func openURL(url: URL, options: OpenURLOptions = OpenURLOptions()) -> EventCall {
        EventCall(.openURL, value: OpenURLArguments.Value(url: url, options: options))
    }
    /// application(_:willContinueUserActivityWithType:).
    public static func willContinueUserActivity(activityType: String) -> EventCall {
        EventCall(.willContinueUserActivity, value: activityType)
    }
    /// application(_:shouldAllowExtensionPointIdentifier:).
    public static func shouldAllowExtensionPointIdentifier(identifier: String) -> EventCall {
        EventCall(.shouldAllowExtensionPointIdentifier, value: identifier)
    }
    /// application(_:shouldSaveSecureApplicationState:).
    public static var shouldSaveSecureApplicationState: EventCall { EventCall(.shouldSaveSecureApplicationState, .none) }
    /// application(_:shouldRestoreSecureApplicationState:).
    public static var shouldRestoreSecureApplicationState: EventCall { EventCall(.shouldRestoreSecureApplicationState, .none) }
}

extension EventCall where Immediate == Void, Final == Void {
    /// applicationDidBecomeActive(_:).
    public static var didBecomeActive: EventCall { EventCall(.didBecomeActive, .none) }
    /// applicationWillResignActive(_:).
    public static var willResignActive: EventCall { EventCall(.willResignActive, .none) }
    /// applicationDidEnterBackground(_:).
    public static var didEnterBackground: EventCall { EventCall(.didEnterBackground, .none) }
    /// applicationWillEnterForeground(_:).
    public static var willEnterForeground: EventCall { EventCall(.willEnterForeground, .none) }
    /// applicationWillTerminate(_:).
    public static var willTerminate: EventCall { EventCall(.willTerminate, .none) }
    /// applicationDidReceiveMemoryWarning(_:).
    public static var didReceiveMemoryWarning: EventCall { EventCall(.didReceiveMemoryWarning, .none) }
    /// applicationSignificantTimeChange(_:).
    public static var significantTimeChange: EventCall { EventCall(.significantTimeChange, .none) }
    /// applicationProtectedDataWillBecomeUnavailable(_:).
    public static var protectedDataWillBecomeUnavailable: EventCall { EventCall(.protectedDataWillBecomeUnavailable, .none) }
    /// applicationProtectedDataDidBecomeAvailable(_:).
    public static var protectedDataDidBecomeAvailable: EventCall { EventCall(.protectedDataDidBecomeAvailable, .none) }
    /// application(_:didRegisterForRemoteNotificationsWithDeviceToken:).
    public static func didRegisterForRemoteNotifications(deviceToken: Data) -> EventCall {
        EventCall(.didRegisterForRemoteNotifications, value: deviceToken)
    }
    /// application(_:didFailToRegisterForRemoteNotificationsWithError:).
    public static func didFailToRegisterForRemoteNotifications(error: LifecycleError) -> EventCall {
        EventCall(.didFailToRegisterForRemoteNotifications, value: error)
    }
    /// application(_:handleEventsForBackgroundURLSession:completionHandler:): done when every
    /// responder is done.
    public static func handleEventsForBackgroundURLSession(identifier: String) -> EventCall {
        EventCall(.handleEventsForBackgroundURLSession, value: identifier)
    }
    /// application(_:didUpdate:).
    public static func didUpdateUserActivity(_ activity: UserActivity) -> EventCall {
        EventCall(.didUpdateUserActivity, value: activity)
    }
    /// application(_:didFailToContinueUserActivityWithType:error:).
    public static func didFailToContinueUserActivity(activityType: String, error: LifecycleError) -> EventCall {
        EventCall(.didFailToContinueUserActivity, value: ActivityFailureArguments.Value(activityType: activityType, error: error))
    }
    /// application(_:didDiscardSceneSessions:), with the number of sessions.
    public static func didDiscardSceneSessions(count: Int) -> EventCall {
        EventCall(.didDiscardSceneSessions, value: count)
    }
}

extension EventCall where Immediate == Void, Final == BackgroundFetchResult {
    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:).
    public static func didReceiveRemoteNotification(userInfo: JSONObject) -> EventCall {
        EventCall(.didReceiveRemoteNotification, value: userInfo)
    }
    /// application(_:performFetchWithCompletionHandler:).
    public static var performFetch: EventCall { EventCall(.performFetch, .none) }
}

extension EventCall where Immediate == Bool, Final == ContinueUserActivityResult {
    /// application(_:continue:restorationHandler:): handled at once, the restoration lists later.
    public static func continueUserActivity(_ activity: UserActivity) -> EventCall {
        EventCall(.continueUserActivity, value: activity)
    }
}

extension EventCall where Immediate == Void, Final == Bool {
    /// application(_:performActionFor:completionHandler:).
    public static func performActionForShortcutItem(_ item: ShortcutItem) -> EventCall {
        EventCall(.performActionForShortcutItem, value: item)
    }
}

extension EventCall where Immediate == InterfaceOrientationMask, Final == InterfaceOrientationMask {
    /// application(_:supportedInterfaceOrientationsFor:).
    public static func supportedInterfaceOrientations(idiom: UserInterfaceIdiom) -> EventCall {
        EventCall(.supportedInterfaceOrientations, value: idiom)
    }
}

extension EventCall where Immediate == String, Final == String {
    /// application(_:configurationForConnecting:options:), for a session of `sceneRole`.
    public static func configurationForConnecting(sceneRole: String = "UIWindowSceneSessionRoleApplication") -> EventCall {
        EventCall(.configurationForConnecting, value: sceneRole)
    }
}

extension EventCall where Immediate == Void, Final == JSONObject {
    /// application(_:handleWatchKitExtensionRequest:reply:).
    public static func handleWatchKitExtensionRequest(userInfo: JSONObject) -> EventCall {
        EventCall(.handleWatchKitExtensionRequest, value: userInfo)
    }
}
