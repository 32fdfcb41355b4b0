import Foundation
import SubscriberABI
import SubscriberValues

/// The scenes' events (UIWindowSceneDelegate): every scene event names its scene and goes to every
/// subscriber that implements the family's extension, `adh.scene/1` (adh/ext/scene.h). Each row also
/// says what the scene bridge replays to app-level subscribers (``EventRow/bridge``).
///
/// To add an event to this family: its row here (and in ``rows``, in header order), its
/// ``LifecycleEvent`` and its ``EventCall`` constructor below; its entry in the header; its protocol
/// in Subscriber/SceneProtocols.swift.
package enum SceneEvents {
    /// The family's rows, in header order.
    package static let rows: [EventRow] = [
        willConnect, didDisconnect, didBecomeActive, willResignActive, willEnterForeground, didEnterBackground,
        openURLContexts, willContinueUserActivity, continueUserActivity, didFailToContinueUserActivity,
        didUpdateUserActivity, performActionForShortcutItem, stateRestorationActivity, didUpdateGeometry,
    ]

    /// A scene event that carries nothing but its scene.
    package typealias OnlyScene = SceneScoped<NoArguments>
    package typealias URLContexts = SceneScoped<URLContextsArgument>
    package typealias ActivityType = SceneScoped<TextArgument>
    package typealias Activity = SceneScoped<UserActivityArguments>
    package typealias ActivityFailure = SceneScoped<ActivityFailureArguments>
    package typealias Shortcut = SceneScoped<ShortcutItemArguments>
    package typealias Geometry = SceneScoped<GeometryArgument>

    // MARK: Connecting and disconnecting

    package static let willConnect: EventRow = EventRow.notification(
        "scene.willConnect", family: .scene, uikit: "scene(_:willConnectTo:options:)",
        swift: ("SceneWillConnectSubscriber",
                "func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions)"),
        state: .sceneConnect,
        arguments: SceneConnectionArguments.self, slot: "will_connect", read: { $0.will_connect },
        install: { $0.will_connect = { SDKEntry.notify($0, ($1, $2), .sceneWillConnect, SceneConnectionArguments.self) } },
        call: { f, me, a in f(me, a.0, a.1) })

    package static let didDisconnect: EventRow = EventRow.notification(
        "scene.didDisconnect", family: .scene, uikit: "sceneDidDisconnect(_:)",
        swift: ("SceneDidDisconnectSubscriber", "func sceneDidDisconnect(_ scene: Scene)"),
        state: .sceneTransition(from: [.unattached, .background], to: nil, deliveredIn: .leaving),
        arguments: OnlyScene.self, slot: "did_disconnect", read: { $0.did_disconnect },
        install: { $0.did_disconnect = { SDKEntry.notify($0, ($1, ()), .sceneDidDisconnect, OnlyScene.self) } },
        call: { f, me, a in f(me, a.0) })

    // MARK: Transitions

    package static let didBecomeActive: EventRow = EventRow.notification(
        "scene.didBecomeActive", family: .scene, uikit: "sceneDidBecomeActive(_:)",
        swift: ("SceneDidBecomeActiveSubscriber", "func sceneDidBecomeActive(_ scene: Scene)"),
        state: .sceneTransition(from: [.foregroundInactive], to: .foregroundActive, deliveredIn: .entering),
        arguments: OnlyScene.self, slot: "did_become_active", read: { $0.did_become_active },
        install: { $0.did_become_active = { SDKEntry.notify($0, ($1, ()), .sceneDidBecomeActive, OnlyScene.self) } },
        call: { f, me, a in f(me, a.0) })
        .bridging(OnlyScene.self, to: ApplicationEvents.didBecomeActive, followsApplicationState: true) { _ in [NoValue()] }

    package static let willResignActive: EventRow = EventRow.notification(
        "scene.willResignActive", family: .scene, uikit: "sceneWillResignActive(_:)",
        swift: ("SceneWillResignActiveSubscriber", "func sceneWillResignActive(_ scene: Scene)"),
        state: .sceneTransition(from: [.foregroundActive], to: .foregroundInactive, deliveredIn: .leaving),
        arguments: OnlyScene.self, slot: "will_resign_active", read: { $0.will_resign_active },
        install: { $0.will_resign_active = { SDKEntry.notify($0, ($1, ()), .sceneWillResignActive, OnlyScene.self) } },
        call: { f, me, a in f(me, a.0) })
        .bridging(OnlyScene.self, to: ApplicationEvents.willResignActive, followsApplicationState: true) { _ in [NoValue()] }

    package static let willEnterForeground: EventRow = EventRow.notification(
        "scene.willEnterForeground", family: .scene, uikit: "sceneWillEnterForeground(_:)",
        swift: ("SceneWillEnterForegroundSubscriber", "func sceneWillEnterForeground(_ scene: Scene)"),
        state: .sceneTransition(from: [.unattached, .background], to: .foregroundInactive, deliveredIn: .leaving),
        arguments: OnlyScene.self, slot: "will_enter_foreground", read: { $0.will_enter_foreground },
        install: { $0.will_enter_foreground = { SDKEntry.notify($0, ($1, ()), .sceneWillEnterForeground, OnlyScene.self) } },
        call: { f, me, a in f(me, a.0) })
        .bridging(OnlyScene.self, to: ApplicationEvents.willEnterForeground, followsApplicationState: true) { _ in [NoValue()] }

    package static let didEnterBackground: EventRow = EventRow.notification(
        "scene.didEnterBackground", family: .scene, uikit: "sceneDidEnterBackground(_:)",
        swift: ("SceneDidEnterBackgroundSubscriber", "func sceneDidEnterBackground(_ scene: Scene)"),
        state: .sceneTransition(from: [.unattached, .foregroundInactive], to: .background, deliveredIn: .entering),
        arguments: OnlyScene.self, slot: "did_enter_background", read: { $0.did_enter_background },
        install: { $0.did_enter_background = { SDKEntry.notify($0, ($1, ()), .sceneDidEnterBackground, OnlyScene.self) } },
        call: { f, me, a in f(me, a.0) })
        .bridging(OnlyScene.self, to: ApplicationEvents.didEnterBackground, followsApplicationState: true) { _ in [NoValue()] }

    // MARK: URLs and user activities

    package static let openURLContexts: EventRow = EventRow.immediate(
        "scene.openURLContexts", family: .scene, uikit: "scene(_:openURLContexts:)",
        swift: ("SceneOpenURLContextsSubscriber",
                "func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool?"),
        state: .scene,
        arguments: URLContexts.self, answer: OptionalBoolAnswer.self, reconciler: .anyTrue, nobody: .constant(false),
        slot: "open_url_contexts", read: { $0.open_url_contexts },
        install: { $0.open_url_contexts = { SDKEntry.answer($0, ($1, ($2, $3)), .sceneOpenURLContexts, URLContexts.self, OptionalBoolAnswer.self) } },
        call: { f, me, a in f(me, a.0, a.1.0, a.1.1) })
        .bridging(URLContexts.self, to: ApplicationEvents.openURL) { value in
            value.inner.map { OpenURLArguments.Value(url: $0.url, options: $0.options) }
        }

    package static let willContinueUserActivity: EventRow = EventRow.immediate(
        "scene.willContinueUserActivity", family: .scene, uikit: "scene(_:willContinueUserActivityWithType:)",
        swift: ("SceneWillContinueUserActivitySubscriber",
                "func scene(_ scene: Scene, willContinueUserActivityWithType userActivityType: String) -> Bool?"),
        state: .scene,
        arguments: ActivityType.self, spec: TextArgument.Spec(key: "activityType", example: UserActivity.browsingWeb),
        answer: OptionalBoolAnswer.self, reconciler: .anyTrue, nobody: .constant(false),
        slot: "will_continue_user_activity", read: { $0.will_continue_user_activity },
        install: { $0.will_continue_user_activity = { SDKEntry.answer($0, ($1, $2), .sceneWillContinueUserActivity, ActivityType.self, OptionalBoolAnswer.self) } },
        call: { f, me, a in f(me, a.0, a.1) })
        .bridging(ActivityType.self, to: ApplicationEvents.willContinueUserActivity) { [$0.inner] }

    package static let continueUserActivity: EventRow = EventRow.immediate(
        "scene.continueUserActivity", family: .scene, uikit: "scene(_:continue:)",
        swift: ("SceneContinueUserActivitySubscriber",
                "func scene(_ scene: Scene, continue userActivity: UserActivity) -> Bool?"),
        state: .scene,
        arguments: Activity.self, answer: OptionalBoolAnswer.self, reconciler: .anyTrue, nobody: .constant(false),
        slot: "continue_user_activity", read: { $0.continue_user_activity },
        install: { $0.continue_user_activity = { SDKEntry.answer($0, ($1, $2), .sceneContinueUserActivity, Activity.self, OptionalBoolAnswer.self) } },
        call: { f, me, a in f(me, a.0, a.1) })
        .bridging(Activity.self, to: ApplicationEvents.continueUserActivity) { [$0.inner] }

    package static let didFailToContinueUserActivity: EventRow = EventRow.notification(
        "scene.didFailToContinueUserActivity", family: .scene, uikit: "scene(_:didFailToContinueUserActivityWithType:error:)",
        swift: ("SceneDidFailToContinueUserActivitySubscriber",
                "func scene(_ scene: Scene, didFailToContinueUserActivityWithType userActivityType: String, error: LifecycleError)"),
        state: .scene,
        arguments: ActivityFailure.self, slot: "did_fail_to_continue_user_activity", read: { $0.did_fail_to_continue_user_activity },
        install: { $0.did_fail_to_continue_user_activity = { SDKEntry.notify($0, ($1, ($2, $3)), .sceneDidFailToContinueUserActivity, ActivityFailure.self) } },
        call: { f, me, a in f(me, a.0, a.1.0, a.1.1) })
        .bridging(ActivityFailure.self, to: ApplicationEvents.didFailToContinueUserActivity) { [$0.inner] }

    package static let didUpdateUserActivity: EventRow = EventRow.notification(
        "scene.didUpdateUserActivity", family: .scene, uikit: "scene(_:didUpdate:)",
        swift: ("SceneDidUpdateUserActivitySubscriber",
                "func scene(_ scene: Scene, didUpdate userActivity: UserActivity)"),
        state: .scene,
        arguments: Activity.self, slot: "did_update_user_activity", read: { $0.did_update_user_activity },
        install: { $0.did_update_user_activity = { SDKEntry.notify($0, ($1, $2), .sceneDidUpdateUserActivity, Activity.self) } },
        call: { f, me, a in f(me, a.0, a.1) })
        .bridging(Activity.self, to: ApplicationEvents.didUpdateUserActivity) { [$0.inner] }

    // MARK: Quick actions, state restoration, geometry

    package static let performActionForShortcutItem: EventRow = EventRow.completion(
        "scene.performActionForShortcutItem", family: .scene, uikit: "windowScene(_:performActionFor:completionHandler:)",
        swift: ("ScenePerformActionForShortcutItemSubscriber",
                "func windowScene(_ windowScene: Scene, performActionFor shortcutItem: ShortcutItem, completionHandler: CompletionHandler<Bool>)"),
        state: .scene,
        arguments: Shortcut.self, answer: BoolCompletionAnswer.self, reconciler: .anyTrue, nobody: .constant(false), late: false,
        slot: "perform_action_for_shortcut_item", read: { $0.perform_action_for_shortcut_item },
        install: { $0.perform_action_for_shortcut_item = { SDKEntry.complete($0, ($1, $2), $3, .scenePerformActionForShortcutItem, Shortcut.self, BoolCompletionAnswer.self) } },
        call: { f, me, a, completion in f(me, a.0, a.1, completion) })
        .bridging(Shortcut.self, to: ApplicationEvents.performActionForShortcutItem) { [$0.inner] }

    package static let stateRestorationActivity: EventRow = EventRow.immediate(
        "scene.stateRestorationActivity", family: .scene, uikit: "stateRestorationActivity(for:)",
        swift: ("SceneStateRestorationActivitySubscriber",
                "func stateRestorationActivity(for scene: Scene) -> UserActivity?"),
        state: .scene,
        arguments: OnlyScene.self, answer: UserActivityAnswer.self, reconciler: .firstAnswer, nobody: .constant(nil),
        slot: "state_restoration_activity", read: { $0.state_restoration_activity },
        install: { $0.state_restoration_activity = { SDKEntry.answer($0, ($1, ()), .sceneStateRestorationActivity, OnlyScene.self, UserActivityAnswer.self) } },
        call: { f, me, a in f(me, a.0) })

    package static let didUpdateGeometry: EventRow = EventRow.notification(
        "scene.didUpdateGeometry", family: .scene, uikit: "windowScene(_:didUpdate:interfaceOrientation:traitCollection:)",
        swift: ("SceneDidUpdateGeometrySubscriber",
                "func windowScene(_ windowScene: Scene, didUpdate geometry: SceneGeometry)"),
        state: .scene,
        arguments: Geometry.self, slot: "did_update_geometry", read: { $0.did_update_geometry },
        install: { $0.did_update_geometry = { SDKEntry.notify($0, ($1, $2), .sceneDidUpdateGeometry, Geometry.self) } },
        call: { f, me, a in f(me, a.0, a.1) })
}

// The family's events.
extension LifecycleEvent {
    /// scene(_:willConnectTo:options:).
    public static let sceneWillConnect = LifecycleEvent(row: SceneEvents.willConnect)
    /// sceneDidDisconnect(_:).
    public static let sceneDidDisconnect = LifecycleEvent(row: SceneEvents.didDisconnect)
    /// sceneDidBecomeActive(_:).
    public static let sceneDidBecomeActive = LifecycleEvent(row: SceneEvents.didBecomeActive)
    /// sceneWillResignActive(_:).
    public static let sceneWillResignActive = LifecycleEvent(row: SceneEvents.willResignActive)
    /// sceneWillEnterForeground(_:).
    public static let sceneWillEnterForeground = LifecycleEvent(row: SceneEvents.willEnterForeground)
    /// sceneDidEnterBackground(_:).
    public static let sceneDidEnterBackground = LifecycleEvent(row: SceneEvents.didEnterBackground)
    /// scene(_:openURLContexts:).
    public static let sceneOpenURLContexts = LifecycleEvent(row: SceneEvents.openURLContexts)
    /// scene(_:willContinueUserActivityWithType:).
    public static let sceneWillContinueUserActivity = LifecycleEvent(row: SceneEvents.willContinueUserActivity)
    /// scene(_:continue:).
    public static let sceneContinueUserActivity = LifecycleEvent(row: SceneEvents.continueUserActivity)
    /// scene(_:didFailToContinueUserActivityWithType:error:).
    public static let sceneDidFailToContinueUserActivity = LifecycleEvent(row: SceneEvents.didFailToContinueUserActivity)
    /// scene(_:didUpdate:).
    public static let sceneDidUpdateUserActivity = LifecycleEvent(row: SceneEvents.didUpdateUserActivity)
    /// windowScene(_:performActionFor:completionHandler:).
    public static let scenePerformActionForShortcutItem = LifecycleEvent(row: SceneEvents.performActionForShortcutItem)
    /// stateRestorationActivity(for:).
    public static let sceneStateRestorationActivity = LifecycleEvent(row: SceneEvents.stateRestorationActivity)
    /// windowScene(_:didUpdate:interfaceOrientation:traitCollection:).
    public static let sceneDidUpdateGeometry = LifecycleEvent(row: SceneEvents.didUpdateGeometry)
}

// The family's calls. Each names its scene by identifier; the host completes the role it connected
// with and the activation state during the call.

extension EventCall where Immediate == Void, Final == Void {
    /// scene(_:willConnectTo:options:): scene `scene` connects, of `role` (nil: UIWindowSceneSessionRoleApplication).
    public static func sceneWillConnect(scene: String, role: String? = nil,
                                        options: SceneConnectionOptions = SceneConnectionOptions()) -> EventCall {
        EventCall(.sceneWillConnect, value: SceneConnectionArguments.Value(scene: SceneReference(identifier: scene, role: role),
                                                                          options: options))
    }
    /// sceneDidDisconnect(_:).
    public static func sceneDidDisconnect(scene: String) -> EventCall { onlyScene(.sceneDidDisconnect, scene) }
    /// sceneDidBecomeActive(_:).
    public static func sceneDidBecomeActive(scene: String) -> EventCall { onlyScene(.sceneDidBecomeActive, scene) }
    /// sceneWillResignActive(_:).
    public static func sceneWillResignActive(scene: String) -> EventCall { onlyScene(.sceneWillResignActive, scene) }
    /// sceneWillEnterForeground(_:).
    public static func sceneWillEnterForeground(scene: String) -> EventCall { onlyScene(.sceneWillEnterForeground, scene) }
    /// sceneDidEnterBackground(_:).
    public static func sceneDidEnterBackground(scene: String) -> EventCall { onlyScene(.sceneDidEnterBackground, scene) }
    /// scene(_:didFailToContinueUserActivityWithType:error:).
    public static func sceneDidFailToContinueUserActivity(scene: String, activityType: String, error: LifecycleError) -> EventCall {
        EventCall(.sceneDidFailToContinueUserActivity, value: SceneEvents.ActivityFailure.Value(
            scene: SceneReference(identifier: scene), inner: ActivityFailureArguments.Value(activityType: activityType, error: error)))
    }
    /// scene(_:didUpdate:).
    public static func sceneDidUpdateUserActivity(scene: String, _ activity: UserActivity) -> EventCall {
        EventCall(.sceneDidUpdateUserActivity, value: SceneEvents.Activity.Value(scene: SceneReference(identifier: scene), inner: activity))
    }
    /// windowScene(_:didUpdate:interfaceOrientation:traitCollection:), with the geometry now.
    public static func sceneDidUpdateGeometry(scene: String, _ geometry: SceneGeometry) -> EventCall {
        EventCall(.sceneDidUpdateGeometry, value: SceneEvents.Geometry.Value(scene: SceneReference(identifier: scene), inner: geometry))
    }

    private static func onlyScene(_ event: LifecycleEvent, _ scene: String) -> EventCall {
        EventCall(event, value: SceneEvents.OnlyScene.Value(scene: SceneReference(identifier: scene), inner: NoValue()))
    }
}

extension EventCall where Immediate == Bool, Final == Bool {
    /// scene(_:openURLContexts:): whether a scene subscriber handled the URLs (any true).
    public static func sceneOpenURLContexts(scene: String, urlContexts: [OpenURLContext]) -> EventCall {
        EventCall(.sceneOpenURLContexts, value: SceneEvents.URLContexts.Value(scene: SceneReference(identifier: scene), inner: urlContexts))
    }
    /// scene(_:willContinueUserActivityWithType:).
    public static func sceneWillContinueUserActivity(scene: String, activityType: String) -> EventCall {
        EventCall(.sceneWillContinueUserActivity, value: SceneEvents.ActivityType.Value(scene: SceneReference(identifier: scene),
                                                                                      inner: activityType))
    }
    /// scene(_:continue:).
    public static func sceneContinueUserActivity(scene: String, _ activity: UserActivity) -> EventCall {
        EventCall(.sceneContinueUserActivity, value: SceneEvents.Activity.Value(scene: SceneReference(identifier: scene), inner: activity))
    }
}

extension EventCall where Immediate == Void, Final == Bool {
    /// windowScene(_:performActionFor:completionHandler:): any true, once, by the deadline.
    public static func scenePerformActionForShortcutItem(scene: String, _ item: ShortcutItem) -> EventCall {
        EventCall(.scenePerformActionForShortcutItem, value: SceneEvents.Shortcut.Value(scene: SceneReference(identifier: scene), inner: item))
    }
}

extension EventCall where Immediate == UserActivity?, Final == UserActivity? {
    /// stateRestorationActivity(for:): the first activity answered in subscriber order; nil when none.
    public static func sceneStateRestorationActivity(scene: String) -> EventCall {
        EventCall(.sceneStateRestorationActivity, value: SceneEvents.OnlyScene.Value(scene: SceneReference(identifier: scene),
                                                                                   inner: NoValue()))
    }
}
