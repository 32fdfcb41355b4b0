import Foundation
import SubscriberABI

/// Every lifecycle event a subscriber can respond to, by its wire name (the name used in manifests,
/// event scripts and output; docs/events.md). The facts of each event are its row in the event table.
public enum LifecycleEvent: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// application(_:willFinishLaunchingWithOptions:).
    case willFinishLaunching
    /// application(_:didFinishLaunchingWithOptions:).
    case didFinishLaunching
    /// applicationDidBecomeActive(_:).
    case didBecomeActive
    /// applicationWillResignActive(_:).
    case willResignActive
    /// applicationDidEnterBackground(_:).
    case didEnterBackground
    /// applicationWillEnterForeground(_:).
    case willEnterForeground
    /// applicationWillTerminate(_:).
    case willTerminate
    /// applicationDidReceiveMemoryWarning(_:).
    case didReceiveMemoryWarning
    /// applicationSignificantTimeChange(_:).
    case significantTimeChange
    /// applicationProtectedDataWillBecomeUnavailable(_:).
    case protectedDataWillBecomeUnavailable
    /// applicationProtectedDataDidBecomeAvailable(_:).
    case protectedDataDidBecomeAvailable
    /// application(_:didRegisterForRemoteNotificationsWithDeviceToken:).
    case didRegisterForRemoteNotifications
    /// application(_:didFailToRegisterForRemoteNotificationsWithError:).
    case didFailToRegisterForRemoteNotifications
    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:).
    case didReceiveRemoteNotification
    /// application(_:performFetchWithCompletionHandler:).
    case performFetch
    /// application(_:handleEventsForBackgroundURLSession:completionHandler:).
    case handleEventsForBackgroundURLSession
    /// application(_:open:options:).
    case openURL
    /// application(_:willContinueUserActivityWithType:).
    case willContinueUserActivity
    /// application(_:continue:restorationHandler:).
    case continueUserActivity
    /// application(_:didUpdate:).
    case didUpdateUserActivity
    /// application(_:didFailToContinueUserActivityWithType:error:).
    case didFailToContinueUserActivity
    /// application(_:performActionFor:completionHandler:).
    case performActionForShortcutItem
    /// application(_:supportedInterfaceOrientationsFor:).
    case supportedInterfaceOrientations
    /// application(_:shouldAllowExtensionPointIdentifier:).
    case shouldAllowExtensionPointIdentifier
    /// application(_:shouldSaveSecureApplicationState:).
    case shouldSaveSecureApplicationState
    /// application(_:shouldRestoreSecureApplicationState:).
    case shouldRestoreSecureApplicationState
    /// application(_:configurationForConnecting:options:).
    case configurationForConnecting
    /// application(_:didDiscardSceneSessions:).
    case didDiscardSceneSessions
    /// application(_:handleWatchKitExtensionRequest:reply:).
    case handleWatchKitExtensionRequest

    /// The wire name.
    public var name: String { rawValue }
    /// The wire name.
    public var description: String { rawValue }
    /// Whether subscribers answer this event through a completion handler (so it has a deadline).
    public var answersThroughCompletion: Bool { row.answer.completes }
}

/// The facts of one event: everything that varies from one event to another. Script reading,
/// dispatch, reconciler checks, the C glue on both sides, the conformance kit's inputs and the
/// output all read these rows, so an event is added here, in the header, and in its protocol
/// (Subscriber/EventProtocols.swift) — nowhere else.
///
/// A class so that reading a row on the dispatch path shares it instead of copying its strings and
/// closures.
package final class EventRow: Sendable {
    /// The event.
    package let event: LifecycleEvent
    /// The UIKit method it stands for.
    package let uikit: String
    /// The protocol a Swift subscriber adopts to receive it, and that protocol's one requirement.
    package let swiftProtocol: String
    package let swiftRequirement: String
    /// What an event script line may give (docs/cli.md).
    package let arguments: ArgumentSchema
    /// What subscribers answer, and how.
    package let answer: AnswerKind
    /// The reconciler used unless the manifest chooses another; nil for events without answers.
    package let reconciler: DefaultReconciler?
    /// What is delivered when nobody answers.
    package let nobodyAnswers: NobodyAnswers
    /// What a responder that misses the deadline counts as.
    package let late: LateCountsAs
    /// The vtable entry's name in adh/subscriber.h.
    package let cSlot: String
    /// The plugin's entry for this event, typed by its signature; nil when it is NULL.
    package let read: @Sendable (borrowing adh_subscriber) -> CEntry?
    /// Sets this event's entry of a Swift plugin's vtable to the SDK's function for it.
    package let install: @Sendable (inout adh_subscriber) -> Void

    init(event: LifecycleEvent, uikit: String, swiftProtocol: String, swiftRequirement: String,
         arguments: ArgumentSchema, answer: AnswerKind, reconciler: DefaultReconciler?, nobodyAnswers: NobodyAnswers,
         late: LateCountsAs, cSlot: String, read: @escaping @Sendable (borrowing adh_subscriber) -> CEntry?,
         install: @escaping @Sendable (inout adh_subscriber) -> Void) {
        self.event = event
        self.uikit = uikit
        self.swiftProtocol = swiftProtocol
        self.swiftRequirement = swiftRequirement
        self.arguments = arguments
        self.answer = answer
        self.reconciler = reconciler
        self.nobodyAnswers = nobodyAnswers
        self.late = late
        self.cSlot = cSlot
        self.read = read
        self.install = install
    }
}

extension LifecycleEvent {
    /// This event's row of the event table.
    package var row: EventRow { EventTable.rows[index] }
}

/// The event table: one row per event, in the order of `LifecycleEvent` and of adh/subscriber.h.
package enum EventTable {
    package static let rows: [EventRow] = [
        EventRow(event: .willFinishLaunching, uikit: "application(_:willFinishLaunchingWithOptions:)",
                 swiftProtocol: "WillFinishLaunchingSubscriber",
                 swiftRequirement: "func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool?",
                 arguments: .launchOptions, answer: .bool, reconciler: .anyTrue, nobodyAnswers: .bool(true),
                 late: .notApplicable, cSlot: "will_finish_launching",
                 read: { $0.will_finish_launching.map(CEntry.askLaunch) },
                 install: { $0.will_finish_launching = { SDKEntry.askLaunch($0, $1, .willFinishLaunching) } }),
        EventRow(event: .didFinishLaunching, uikit: "application(_:didFinishLaunchingWithOptions:)",
                 swiftProtocol: "DidFinishLaunchingSubscriber",
                 swiftRequirement: "func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool?",
                 arguments: .launchOptions, answer: .bool, reconciler: .anyTrue, nobodyAnswers: .bool(true),
                 late: .notApplicable, cSlot: "did_finish_launching",
                 read: { $0.did_finish_launching.map(CEntry.askLaunch) },
                 install: { $0.did_finish_launching = { SDKEntry.askLaunch($0, $1, .didFinishLaunching) } }),
        EventRow(event: .didBecomeActive, uikit: "applicationDidBecomeActive(_:)",
                 swiftProtocol: "DidBecomeActiveSubscriber",
                 swiftRequirement: "func applicationDidBecomeActive(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "did_become_active",
                 read: { $0.did_become_active.map(CEntry.notify) },
                 install: { $0.did_become_active = { SDKEntry.notify($0, .didBecomeActive) } }),
        EventRow(event: .willResignActive, uikit: "applicationWillResignActive(_:)",
                 swiftProtocol: "WillResignActiveSubscriber",
                 swiftRequirement: "func applicationWillResignActive(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "will_resign_active",
                 read: { $0.will_resign_active.map(CEntry.notify) },
                 install: { $0.will_resign_active = { SDKEntry.notify($0, .willResignActive) } }),
        EventRow(event: .didEnterBackground, uikit: "applicationDidEnterBackground(_:)",
                 swiftProtocol: "DidEnterBackgroundSubscriber",
                 swiftRequirement: "func applicationDidEnterBackground(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "did_enter_background",
                 read: { $0.did_enter_background.map(CEntry.notify) },
                 install: { $0.did_enter_background = { SDKEntry.notify($0, .didEnterBackground) } }),
        EventRow(event: .willEnterForeground, uikit: "applicationWillEnterForeground(_:)",
                 swiftProtocol: "WillEnterForegroundSubscriber",
                 swiftRequirement: "func applicationWillEnterForeground(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "will_enter_foreground",
                 read: { $0.will_enter_foreground.map(CEntry.notify) },
                 install: { $0.will_enter_foreground = { SDKEntry.notify($0, .willEnterForeground) } }),
        EventRow(event: .willTerminate, uikit: "applicationWillTerminate(_:)",
                 swiftProtocol: "WillTerminateSubscriber",
                 swiftRequirement: "func applicationWillTerminate(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "will_terminate",
                 read: { $0.will_terminate.map(CEntry.notify) },
                 install: { $0.will_terminate = { SDKEntry.notify($0, .willTerminate) } }),
        EventRow(event: .didReceiveMemoryWarning, uikit: "applicationDidReceiveMemoryWarning(_:)",
                 swiftProtocol: "DidReceiveMemoryWarningSubscriber",
                 swiftRequirement: "func applicationDidReceiveMemoryWarning(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "did_receive_memory_warning",
                 read: { $0.did_receive_memory_warning.map(CEntry.notify) },
                 install: { $0.did_receive_memory_warning = { SDKEntry.notify($0, .didReceiveMemoryWarning) } }),
        EventRow(event: .significantTimeChange, uikit: "applicationSignificantTimeChange(_:)",
                 swiftProtocol: "SignificantTimeChangeSubscriber",
                 swiftRequirement: "func applicationSignificantTimeChange(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "significant_time_change",
                 read: { $0.significant_time_change.map(CEntry.notify) },
                 install: { $0.significant_time_change = { SDKEntry.notify($0, .significantTimeChange) } }),
        EventRow(event: .protectedDataWillBecomeUnavailable, uikit: "applicationProtectedDataWillBecomeUnavailable(_:)",
                 swiftProtocol: "ProtectedDataWillBecomeUnavailableSubscriber",
                 swiftRequirement: "func applicationProtectedDataWillBecomeUnavailable(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "protected_data_will_become_unavailable",
                 read: { $0.protected_data_will_become_unavailable.map(CEntry.notify) },
                 install: { $0.protected_data_will_become_unavailable = { SDKEntry.notify($0, .protectedDataWillBecomeUnavailable) } }),
        EventRow(event: .protectedDataDidBecomeAvailable, uikit: "applicationProtectedDataDidBecomeAvailable(_:)",
                 swiftProtocol: "ProtectedDataDidBecomeAvailableSubscriber",
                 swiftRequirement: "func applicationProtectedDataDidBecomeAvailable(_ application: Application)",
                 arguments: .none, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "protected_data_did_become_available",
                 read: { $0.protected_data_did_become_available.map(CEntry.notify) },
                 install: { $0.protected_data_did_become_available = { SDKEntry.notify($0, .protectedDataDidBecomeAvailable) } }),
        EventRow(event: .didRegisterForRemoteNotifications,
                 uikit: "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)",
                 swiftProtocol: "DidRegisterForRemoteNotificationsSubscriber",
                 swiftRequirement: "func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data)",
                 arguments: .deviceToken, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "did_register_for_remote_notifications",
                 read: { $0.did_register_for_remote_notifications.map(CEntry.notifyBytes) },
                 install: { $0.did_register_for_remote_notifications = { SDKEntry.notifyBytes($0, $1, .didRegisterForRemoteNotifications) } }),
        EventRow(event: .didFailToRegisterForRemoteNotifications,
                 uikit: "application(_:didFailToRegisterForRemoteNotificationsWithError:)",
                 swiftProtocol: "DidFailToRegisterForRemoteNotificationsSubscriber",
                 swiftRequirement: "func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError)",
                 arguments: .error, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "did_fail_to_register_for_remote_notifications",
                 read: { $0.did_fail_to_register_for_remote_notifications.map(CEntry.notifyError) },
                 install: { $0.did_fail_to_register_for_remote_notifications = { SDKEntry.notifyError($0, $1, .didFailToRegisterForRemoteNotifications) } }),
        EventRow(event: .didReceiveRemoteNotification,
                 uikit: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)",
                 swiftProtocol: "DidReceiveRemoteNotificationSubscriber",
                 swiftRequirement: "func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject, fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>)",
                 arguments: .userInfo, answer: .fetchResult, reconciler: .fetchPrecedence,
                 nobodyAnswers: .fetchResult(.noData), late: .fetchResult(.failed), cSlot: "did_receive_remote_notification",
                 read: { $0.did_receive_remote_notification.map(CEntry.fetchUserInfo) },
                 install: { $0.did_receive_remote_notification = { SDKEntry.fetchUserInfo($0, $1, $2, .didReceiveRemoteNotification) } }),
        EventRow(event: .performFetch, uikit: "application(_:performFetchWithCompletionHandler:)",
                 swiftProtocol: "PerformFetchSubscriber",
                 swiftRequirement: "func application(_ application: Application, performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>)",
                 arguments: .none, answer: .fetchResult, reconciler: .fetchPrecedence,
                 nobodyAnswers: .fetchResult(.noData), late: .fetchResult(.failed), cSlot: "perform_fetch",
                 read: { $0.perform_fetch.map(CEntry.fetch) },
                 install: { $0.perform_fetch = { SDKEntry.fetch($0, $1, .performFetch) } }),
        EventRow(event: .handleEventsForBackgroundURLSession,
                 uikit: "application(_:handleEventsForBackgroundURLSession:completionHandler:)",
                 swiftProtocol: "HandleEventsForBackgroundURLSessionSubscriber",
                 swiftRequirement: "func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String, completionHandler: CompletionHandler<Void>)",
                 arguments: .text(key: "identifier", defaultValue: nil), answer: .done, reconciler: nil,
                 nobodyAnswers: .nothing, late: .nothing, cSlot: "handle_events_for_background_url_session",
                 read: { $0.handle_events_for_background_url_session.map(CEntry.doneText) },
                 install: { $0.handle_events_for_background_url_session = { SDKEntry.doneText($0, $1, $2, .handleEventsForBackgroundURLSession) } }),
        EventRow(event: .openURL, uikit: "application(_:open:options:)",
                 swiftProtocol: "OpenURLSubscriber",
                 swiftRequirement: "func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool?",
                 arguments: .openURL, answer: .bool, reconciler: .anyTrue, nobodyAnswers: .bool(false),
                 late: .notApplicable, cSlot: "open_url",
                 read: { $0.open_url.map(CEntry.askOpenURL) },
                 install: { $0.open_url = { SDKEntry.askOpenURL($0, $1, .openURL) } }),
        EventRow(event: .willContinueUserActivity, uikit: "application(_:willContinueUserActivityWithType:)",
                 swiftProtocol: "WillContinueUserActivitySubscriber",
                 swiftRequirement: "func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool?",
                 arguments: .text(key: "activityType", defaultValue: nil), answer: .bool, reconciler: .anyTrue,
                 nobodyAnswers: .bool(false), late: .notApplicable, cSlot: "will_continue_user_activity",
                 read: { $0.will_continue_user_activity.map(CEntry.askText) },
                 install: { $0.will_continue_user_activity = { SDKEntry.askText($0, $1, .willContinueUserActivity) } }),
        EventRow(event: .continueUserActivity, uikit: "application(_:continue:restorationHandler:)",
                 swiftProtocol: "ContinueUserActivitySubscriber",
                 swiftRequirement: "func application(_ application: Application, continue userActivity: UserActivity, restorationHandler: CompletionHandler<[String]>) -> Bool?",
                 arguments: .userActivity, answer: .restoration, reconciler: .anyTrue, nobodyAnswers: .bool(false),
                 late: .nothing, cSlot: "continue_user_activity",
                 read: { $0.continue_user_activity.map(CEntry.restoration) },
                 install: { $0.continue_user_activity = { SDKEntry.restoration($0, $1, $2, .continueUserActivity) } }),
        EventRow(event: .didUpdateUserActivity, uikit: "application(_:didUpdate:)",
                 swiftProtocol: "DidUpdateUserActivitySubscriber",
                 swiftRequirement: "func application(_ application: Application, didUpdate userActivity: UserActivity)",
                 arguments: .userActivity, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "did_update_user_activity",
                 read: { $0.did_update_user_activity.map(CEntry.notifyActivity) },
                 install: { $0.did_update_user_activity = { SDKEntry.notifyActivity($0, $1, .didUpdateUserActivity) } }),
        EventRow(event: .didFailToContinueUserActivity, uikit: "application(_:didFailToContinueUserActivityWithType:error:)",
                 swiftProtocol: "DidFailToContinueUserActivitySubscriber",
                 swiftRequirement: "func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String, error: LifecycleError)",
                 arguments: .activityFailure, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "did_fail_to_continue_user_activity",
                 read: { $0.did_fail_to_continue_user_activity.map(CEntry.notifyTextError) },
                 install: { $0.did_fail_to_continue_user_activity = { SDKEntry.notifyTextError($0, $1, $2, .didFailToContinueUserActivity) } }),
        EventRow(event: .performActionForShortcutItem, uikit: "application(_:performActionFor:completionHandler:)",
                 swiftProtocol: "PerformActionForShortcutItemSubscriber",
                 swiftRequirement: "func application(_ application: Application, performActionFor shortcutItem: ShortcutItem, completionHandler: CompletionHandler<Bool>)",
                 arguments: .shortcutItem, answer: .boolCompletion, reconciler: .anyTrue, nobodyAnswers: .bool(false),
                 late: .bool(false), cSlot: "perform_action_for_shortcut_item",
                 read: { $0.perform_action_for_shortcut_item.map(CEntry.shortcut) },
                 install: { $0.perform_action_for_shortcut_item = { SDKEntry.shortcut($0, $1, $2, .performActionForShortcutItem) } }),
        EventRow(event: .supportedInterfaceOrientations, uikit: "application(_:supportedInterfaceOrientationsFor:)",
                 swiftProtocol: "SupportedInterfaceOrientationsSubscriber",
                 swiftRequirement: "func application(_ application: Application, supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask?",
                 arguments: .idiom, answer: .orientationMask, reconciler: .intersection,
                 nobodyAnswers: .defaultOrientations, late: .notApplicable, cSlot: "supported_interface_orientations",
                 read: { $0.supported_interface_orientations.map(CEntry.askOrientations) },
                 install: { $0.supported_interface_orientations = { SDKEntry.askOrientations($0, $1, .supportedInterfaceOrientations) } }),
        EventRow(event: .shouldAllowExtensionPointIdentifier, uikit: "application(_:shouldAllowExtensionPointIdentifier:)",
                 swiftProtocol: "ShouldAllowExtensionPointIdentifierSubscriber",
                 swiftRequirement: "func application(_ application: Application, shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool?",
                 arguments: .text(key: "identifier", defaultValue: nil), answer: .bool, reconciler: .allTrue,
                 nobodyAnswers: .bool(true), late: .notApplicable, cSlot: "should_allow_extension_point_identifier",
                 read: { $0.should_allow_extension_point_identifier.map(CEntry.askText) },
                 install: { $0.should_allow_extension_point_identifier = { SDKEntry.askText($0, $1, .shouldAllowExtensionPointIdentifier) } }),
        EventRow(event: .shouldSaveSecureApplicationState, uikit: "application(_:shouldSaveSecureApplicationState:)",
                 swiftProtocol: "ShouldSaveSecureApplicationStateSubscriber",
                 swiftRequirement: "func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool?",
                 arguments: .none, answer: .bool, reconciler: .allTrue, nobodyAnswers: .bool(false),
                 late: .notApplicable, cSlot: "should_save_secure_application_state",
                 read: { $0.should_save_secure_application_state.map(CEntry.ask) },
                 install: { $0.should_save_secure_application_state = { SDKEntry.ask($0, .shouldSaveSecureApplicationState) } }),
        EventRow(event: .shouldRestoreSecureApplicationState, uikit: "application(_:shouldRestoreSecureApplicationState:)",
                 swiftProtocol: "ShouldRestoreSecureApplicationStateSubscriber",
                 swiftRequirement: "func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool?",
                 arguments: .none, answer: .bool, reconciler: .allTrue, nobodyAnswers: .bool(false),
                 late: .notApplicable, cSlot: "should_restore_secure_application_state",
                 read: { $0.should_restore_secure_application_state.map(CEntry.ask) },
                 install: { $0.should_restore_secure_application_state = { SDKEntry.ask($0, .shouldRestoreSecureApplicationState) } }),
        EventRow(event: .configurationForConnecting, uikit: "application(_:configurationForConnecting:options:)",
                 swiftProtocol: "ConfigurationForConnectingSubscriber",
                 swiftRequirement: "func application(_ application: Application, configurationForConnecting sceneRole: String) -> String?",
                 arguments: .text(key: "sceneRole", defaultValue: "UIWindowSceneSessionRoleApplication"),
                 answer: .configurationName, reconciler: .firstAnswer,
                 nobodyAnswers: .configurationName("Default Configuration"), late: .notApplicable,
                 cSlot: "configuration_for_connecting",
                 read: { $0.configuration_for_connecting.map(CEntry.askConfiguration) },
                 install: { $0.configuration_for_connecting = { SDKEntry.askConfiguration($0, $1, .configurationForConnecting) } }),
        EventRow(event: .didDiscardSceneSessions, uikit: "application(_:didDiscardSceneSessions:)",
                 swiftProtocol: "DidDiscardSceneSessionsSubscriber",
                 swiftRequirement: "func application(_ application: Application, didDiscardSceneSessions count: Int)",
                 arguments: .count, answer: .none, reconciler: nil, nobodyAnswers: .nothing,
                 late: .notApplicable, cSlot: "did_discard_scene_sessions",
                 read: { $0.did_discard_scene_sessions.map(CEntry.notifyCount) },
                 install: { $0.did_discard_scene_sessions = { SDKEntry.notifyCount($0, $1, .didDiscardSceneSessions) } }),
        EventRow(event: .handleWatchKitExtensionRequest, uikit: "application(_:handleWatchKitExtensionRequest:reply:)",
                 swiftProtocol: "HandleWatchKitExtensionRequestSubscriber",
                 swiftRequirement: "func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject, reply: CompletionHandler<JSONObject>)",
                 arguments: .userInfo, answer: .dictionary, reconciler: .merge, nobodyAnswers: .emptyDictionary,
                 late: .nothing, cSlot: "handle_watchkit_extension_request",
                 read: { $0.handle_watchkit_extension_request.map(CEntry.replyUserInfo) },
                 install: { $0.handle_watchkit_extension_request = { SDKEntry.replyUserInfo($0, $1, $2, .handleWatchKitExtensionRequest) } }),
    ]
}

// The constructors of each event's call: the event paired with the arguments it takes.
extension EventCall {
    /// application(_:willFinishLaunchingWithOptions:); no options is a launch from the icon.
    public static func willFinishLaunching(options: LaunchOptions = LaunchOptions()) -> EventCall {
        EventCall(.willFinishLaunching, .launch(options))
    }
    /// application(_:didFinishLaunchingWithOptions:); no options is a launch from the icon.
    public static func didFinishLaunching(options: LaunchOptions = LaunchOptions()) -> EventCall {
        EventCall(.didFinishLaunching, .launch(options))
    }
    /// applicationDidBecomeActive(_:).
    public static let didBecomeActive = EventCall(.didBecomeActive, .none)
    /// applicationWillResignActive(_:).
    public static let willResignActive = EventCall(.willResignActive, .none)
    /// applicationDidEnterBackground(_:).
    public static let didEnterBackground = EventCall(.didEnterBackground, .none)
    /// applicationWillEnterForeground(_:).
    public static let willEnterForeground = EventCall(.willEnterForeground, .none)
    /// applicationWillTerminate(_:).
    public static let willTerminate = EventCall(.willTerminate, .none)
    /// applicationDidReceiveMemoryWarning(_:).
    public static let didReceiveMemoryWarning = EventCall(.didReceiveMemoryWarning, .none)
    /// applicationSignificantTimeChange(_:).
    public static let significantTimeChange = EventCall(.significantTimeChange, .none)
    /// applicationProtectedDataWillBecomeUnavailable(_:).
    public static let protectedDataWillBecomeUnavailable = EventCall(.protectedDataWillBecomeUnavailable, .none)
    /// applicationProtectedDataDidBecomeAvailable(_:).
    public static let protectedDataDidBecomeAvailable = EventCall(.protectedDataDidBecomeAvailable, .none)
    /// application(_:didRegisterForRemoteNotificationsWithDeviceToken:).
    public static func didRegisterForRemoteNotifications(deviceToken: Data) -> EventCall {
        EventCall(.didRegisterForRemoteNotifications, .deviceToken(deviceToken))
    }
    /// application(_:didFailToRegisterForRemoteNotificationsWithError:).
    public static func didFailToRegisterForRemoteNotifications(error: LifecycleError) -> EventCall {
        EventCall(.didFailToRegisterForRemoteNotifications, .error(error))
    }
    /// application(_:didReceiveRemoteNotification:fetchCompletionHandler:).
    public static func didReceiveRemoteNotification(userInfo: JSONObject) -> EventCall {
        EventCall(.didReceiveRemoteNotification, .userInfo(userInfo))
    }
    /// application(_:performFetchWithCompletionHandler:).
    public static let performFetch = EventCall(.performFetch, .none)
    /// application(_:handleEventsForBackgroundURLSession:completionHandler:).
    public static func handleEventsForBackgroundURLSession(identifier: String) -> EventCall {
        EventCall(.handleEventsForBackgroundURLSession, .text(identifier))
    }
    /// application(_:open:options:).
    public static func openURL(url: URL, options: OpenURLOptions = OpenURLOptions()) -> EventCall {
        EventCall(.openURL, .openURL(url, options))
    }
    /// application(_:willContinueUserActivityWithType:).
    public static func willContinueUserActivity(activityType: String) -> EventCall {
        EventCall(.willContinueUserActivity, .text(activityType))
    }
    /// application(_:continue:restorationHandler:).
    public static func continueUserActivity(_ activity: UserActivity) -> EventCall {
        EventCall(.continueUserActivity, .userActivity(activity))
    }
    /// application(_:didUpdate:).
    public static func didUpdateUserActivity(_ activity: UserActivity) -> EventCall {
        EventCall(.didUpdateUserActivity, .userActivity(activity))
    }
    /// application(_:didFailToContinueUserActivityWithType:error:).
    public static func didFailToContinueUserActivity(activityType: String, error: LifecycleError) -> EventCall {
        EventCall(.didFailToContinueUserActivity, .activityFailure(activityType: activityType, error: error))
    }
    /// application(_:performActionFor:completionHandler:).
    public static func performActionForShortcutItem(_ item: ShortcutItem) -> EventCall {
        EventCall(.performActionForShortcutItem, .shortcutItem(item))
    }
    /// application(_:supportedInterfaceOrientationsFor:).
    public static func supportedInterfaceOrientations(idiom: UserInterfaceIdiom) -> EventCall {
        EventCall(.supportedInterfaceOrientations, .idiom(idiom))
    }
    /// application(_:shouldAllowExtensionPointIdentifier:).
    public static func shouldAllowExtensionPointIdentifier(identifier: String) -> EventCall {
        EventCall(.shouldAllowExtensionPointIdentifier, .text(identifier))
    }
    /// application(_:shouldSaveSecureApplicationState:).
    public static let shouldSaveSecureApplicationState = EventCall(.shouldSaveSecureApplicationState, .none)
    /// application(_:shouldRestoreSecureApplicationState:).
    public static let shouldRestoreSecureApplicationState = EventCall(.shouldRestoreSecureApplicationState, .none)
    /// application(_:configurationForConnecting:options:), for a session of `sceneRole`.
    public static func configurationForConnecting(sceneRole: String = "UIWindowSceneSessionRoleApplication") -> EventCall {
        EventCall(.configurationForConnecting, .text(sceneRole))
    }
    /// application(_:didDiscardSceneSessions:), with the number of sessions.
    public static func didDiscardSceneSessions(count: Int) -> EventCall {
        EventCall(.didDiscardSceneSessions, .count(count))
    }
    /// application(_:handleWatchKitExtensionRequest:reply:).
    public static func handleWatchKitExtensionRequest(userInfo: JSONObject) -> EventCall {
        EventCall(.handleWatchKitExtensionRequest, .userInfo(userInfo))
    }
}
