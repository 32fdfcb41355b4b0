import SubscriberEventModel
import SubscriberValues
// The scene family's protocols: one per UIWindowSceneDelegate event, named after its method. Each
// method receives the scene (its session, activation state and application); see docs/events.md.

/// scene(_:willConnectTo:options:): a scene connects. Every scene subscriber receives the whole
/// connection options (the URLs, user activity, quick action or notification response that launched
/// or reopened the app); nothing is answered, nothing is consumed.
@MainActor
public protocol SceneWillConnectSubscriber: AppDelegateSubscriber {
    /// scene(_:willConnectTo:options:).
    func scene(_ scene: Scene, willConnectTo session: SceneSession, options connectionOptions: SceneConnectionOptions)
}

/// sceneDidDisconnect(_:): the scene was released (UIKit may connect its session again later).
@MainActor
public protocol SceneDidDisconnectSubscriber: AppDelegateSubscriber {
    /// sceneDidDisconnect(_:).
    func sceneDidDisconnect(_ scene: Scene)
}

/// sceneDidBecomeActive(_:): the scene is on screen and receives events.
@MainActor
public protocol SceneDidBecomeActiveSubscriber: AppDelegateSubscriber {
    /// sceneDidBecomeActive(_:).
    func sceneDidBecomeActive(_ scene: Scene)
}

/// sceneWillResignActive(_:): the scene stops receiving events (an interruption, going to the background).
@MainActor
public protocol SceneWillResignActiveSubscriber: AppDelegateSubscriber {
    /// sceneWillResignActive(_:).
    func sceneWillResignActive(_ scene: Scene)
}

/// sceneWillEnterForeground(_:): the scene is about to come on screen.
@MainActor
public protocol SceneWillEnterForegroundSubscriber: AppDelegateSubscriber {
    /// sceneWillEnterForeground(_:).
    func sceneWillEnterForeground(_ scene: Scene)
}

/// sceneDidEnterBackground(_:): the scene is off screen.
@MainActor
public protocol SceneDidEnterBackgroundSubscriber: AppDelegateSubscriber {
    /// sceneDidEnterBackground(_:).
    func sceneDidEnterBackground(_ scene: Scene)
}

/// scene(_:openURLContexts:): open these URLs in the scene. Answer whether you handled them (UIKit's
/// method returns nothing; the answer decides whether the scene bridge replays them to app-level
/// `OpenURLSubscriber`s). Reconciled: any true; nobody answers: false.
@MainActor
public protocol SceneOpenURLContextsSubscriber: AppDelegateSubscriber {
    /// scene(_:openURLContexts:).
    func scene(_ scene: Scene, openURLContexts urlContexts: [OpenURLContext]) -> Bool?
}

/// scene(_:willContinueUserActivityWithType:): an activity of this type is about to be continued.
/// Reconciled: any true; nobody answers: false.
@MainActor
public protocol SceneWillContinueUserActivitySubscriber: AppDelegateSubscriber {
    /// scene(_:willContinueUserActivityWithType:).
    func scene(_ scene: Scene, willContinueUserActivityWithType userActivityType: String) -> Bool?
}

/// scene(_:continue:): continue a user activity (a universal link, Handoff) in the scene. Answer
/// whether you handled it. Reconciled: any true; nobody answers: false.
@MainActor
public protocol SceneContinueUserActivitySubscriber: AppDelegateSubscriber {
    /// scene(_:continue:).
    func scene(_ scene: Scene, continue userActivity: UserActivity) -> Bool?
}

/// scene(_:didFailToContinueUserActivityWithType:error:).
@MainActor
public protocol SceneDidFailToContinueUserActivitySubscriber: AppDelegateSubscriber {
    /// scene(_:didFailToContinueUserActivityWithType:error:).
    func scene(_ scene: Scene, didFailToContinueUserActivityWithType userActivityType: String, error: LifecycleError)
}

/// scene(_:didUpdate:): a user activity of the scene was updated.
@MainActor
public protocol SceneDidUpdateUserActivitySubscriber: AppDelegateSubscriber {
    /// scene(_:didUpdate:).
    func scene(_ scene: Scene, didUpdate userActivity: UserActivity)
}

/// windowScene(_:performActionFor:completionHandler:): the user chose a home-screen quick action.
/// Call `completionHandler` exactly once with whether you handled it, or `decline()` before
/// returning when the action is not yours (then the scene bridge may replay it to app-level
/// subscribers). Reconciled: any true, once, by the deadline; nobody answers: false.
@MainActor
public protocol ScenePerformActionForShortcutItemSubscriber: AppDelegateSubscriber {
    /// windowScene(_:performActionFor:completionHandler:).
    func windowScene(_ windowScene: Scene, performActionFor shortcutItem: ShortcutItem, completionHandler: CompletionHandler<Bool>)
}

/// stateRestorationActivity(for:): the activity that restores the scene's state when it comes back;
/// nil for no opinion. Reconciled: the first answer in subscriber order; nobody answers: none.
@MainActor
public protocol SceneStateRestorationActivitySubscriber: AppDelegateSubscriber {
    /// stateRestorationActivity(for:).
    func stateRestorationActivity(for scene: Scene) -> UserActivity?
}

/// windowScene(_:didUpdate:interfaceOrientation:traitCollection:): the scene turned or changed its
/// traits; `geometry` is its interface orientation and idiom now.
@MainActor
public protocol SceneDidUpdateGeometrySubscriber: AppDelegateSubscriber {
    /// windowScene(_:didUpdate:interfaceOrientation:traitCollection:).
    func windowScene(_ windowScene: Scene, didUpdate geometry: SceneGeometry)
}

/// How a subscriber type's adopted scene protocols reach the SDK, one requirement per event (see
/// ``_EventWitnesses``). Never implement these yourself.
@MainActor
public protocol _SceneEventWitnesses {
    static var _sceneWillConnect: _EventWitness? { get }
    static var _sceneDidDisconnect: _EventWitness? { get }
    static var _sceneDidBecomeActive: _EventWitness? { get }
    static var _sceneWillResignActive: _EventWitness? { get }
    static var _sceneWillEnterForeground: _EventWitness? { get }
    static var _sceneDidEnterBackground: _EventWitness? { get }
    static var _sceneOpenURLContexts: _EventWitness? { get }
    static var _sceneWillContinueUserActivity: _EventWitness? { get }
    static var _sceneContinueUserActivity: _EventWitness? { get }
    static var _sceneDidFailToContinueUserActivity: _EventWitness? { get }
    static var _sceneDidUpdateUserActivity: _EventWitness? { get }
    static var _scenePerformActionForShortcutItem: _EventWitness? { get }
    static var _sceneStateRestorationActivity: _EventWitness? { get }
    static var _sceneDidUpdateGeometry: _EventWitness? { get }
}

extension _SceneEventWitnesses {
    public static var _sceneWillConnect: _EventWitness? { nil }
    public static var _sceneDidDisconnect: _EventWitness? { nil }
    public static var _sceneDidBecomeActive: _EventWitness? { nil }
    public static var _sceneWillResignActive: _EventWitness? { nil }
    public static var _sceneWillEnterForeground: _EventWitness? { nil }
    public static var _sceneDidEnterBackground: _EventWitness? { nil }
    public static var _sceneOpenURLContexts: _EventWitness? { nil }
    public static var _sceneWillContinueUserActivity: _EventWitness? { nil }
    public static var _sceneContinueUserActivity: _EventWitness? { nil }
    public static var _sceneDidFailToContinueUserActivity: _EventWitness? { nil }
    public static var _sceneDidUpdateUserActivity: _EventWitness? { nil }
    public static var _scenePerformActionForShortcutItem: _EventWitness? { nil }
    public static var _sceneStateRestorationActivity: _EventWitness? { nil }
    public static var _sceneDidUpdateGeometry: _EventWitness? { nil }

    /// The scene family's witnesses, in table order.
    static var _sceneWitnesses: [_EventWitness?] {
        [
            _sceneWillConnect,
            _sceneDidDisconnect,
            _sceneDidBecomeActive,
            _sceneWillResignActive,
            _sceneWillEnterForeground,
            _sceneDidEnterBackground,
            _sceneOpenURLContexts,
            _sceneWillContinueUserActivity,
            _sceneContinueUserActivity,
            _sceneDidFailToContinueUserActivity,
            _sceneDidUpdateUserActivity,
            _scenePerformActionForShortcutItem,
            _sceneStateRestorationActivity,
            _sceneDidUpdateGeometry,
        ]
    }
}

extension _SceneEventWitnesses where Self: SceneWillConnectSubscriber {
    public static var _sceneWillConnect: _EventWitness? {
        _EventWitness(SceneEvents.willConnect, notificationHandler(SceneConnectionArguments.self) { s, app, a in
            unsafeDowncast(s, to: Self.self).scene(a.scene.scene(in: app), willConnectTo: a.scene.session, options: a.options) })
    }
}

extension _SceneEventWitnesses where Self: SceneDidDisconnectSubscriber {
    public static var _sceneDidDisconnect: _EventWitness? {
        _EventWitness(SceneEvents.didDisconnect, notificationHandler(SceneEvents.OnlyScene.self) { s, app, a in unsafeDowncast(s, to: Self.self).sceneDidDisconnect(a.scene.scene(in: app)) })
    }
}

extension _SceneEventWitnesses where Self: SceneDidBecomeActiveSubscriber {
    public static var _sceneDidBecomeActive: _EventWitness? {
        _EventWitness(SceneEvents.didBecomeActive, notificationHandler(SceneEvents.OnlyScene.self) { s, app, a in unsafeDowncast(s, to: Self.self).sceneDidBecomeActive(a.scene.scene(in: app)) })
    }
}

extension _SceneEventWitnesses where Self: SceneWillResignActiveSubscriber {
    public static var _sceneWillResignActive: _EventWitness? {
        _EventWitness(SceneEvents.willResignActive, notificationHandler(SceneEvents.OnlyScene.self) { s, app, a in unsafeDowncast(s, to: Self.self).sceneWillResignActive(a.scene.scene(in: app)) })
    }
}

extension _SceneEventWitnesses where Self: SceneWillEnterForegroundSubscriber {
    public static var _sceneWillEnterForeground: _EventWitness? {
        _EventWitness(SceneEvents.willEnterForeground, notificationHandler(SceneEvents.OnlyScene.self) { s, app, a in unsafeDowncast(s, to: Self.self).sceneWillEnterForeground(a.scene.scene(in: app)) })
    }
}

extension _SceneEventWitnesses where Self: SceneDidEnterBackgroundSubscriber {
    public static var _sceneDidEnterBackground: _EventWitness? {
        _EventWitness(SceneEvents.didEnterBackground, notificationHandler(SceneEvents.OnlyScene.self) { s, app, a in unsafeDowncast(s, to: Self.self).sceneDidEnterBackground(a.scene.scene(in: app)) })
    }
}

extension _SceneEventWitnesses where Self: SceneOpenURLContextsSubscriber {
    public static var _sceneOpenURLContexts: _EventWitness? {
        _EventWitness(SceneEvents.openURLContexts, immediateHandler(SceneEvents.URLContexts.self, OptionalBoolAnswer.self) { s, app, a in
            unsafeDowncast(s, to: Self.self).scene(a.scene.scene(in: app), openURLContexts: a.inner) })
    }
}

extension _SceneEventWitnesses where Self: SceneWillContinueUserActivitySubscriber {
    public static var _sceneWillContinueUserActivity: _EventWitness? {
        _EventWitness(SceneEvents.willContinueUserActivity, immediateHandler(SceneEvents.ActivityType.self, OptionalBoolAnswer.self) { s, app, a in
            unsafeDowncast(s, to: Self.self).scene(a.scene.scene(in: app), willContinueUserActivityWithType: a.inner) })
    }
}

extension _SceneEventWitnesses where Self: SceneContinueUserActivitySubscriber {
    public static var _sceneContinueUserActivity: _EventWitness? {
        _EventWitness(SceneEvents.continueUserActivity, immediateHandler(SceneEvents.Activity.self, OptionalBoolAnswer.self) { s, app, a in
            unsafeDowncast(s, to: Self.self).scene(a.scene.scene(in: app), continue: a.inner) })
    }
}

extension _SceneEventWitnesses where Self: SceneDidFailToContinueUserActivitySubscriber {
    public static var _sceneDidFailToContinueUserActivity: _EventWitness? {
        _EventWitness(SceneEvents.didFailToContinueUserActivity, notificationHandler(SceneEvents.ActivityFailure.self) { s, app, a in
            unsafeDowncast(s, to: Self.self).scene(a.scene.scene(in: app), didFailToContinueUserActivityWithType: a.inner.activityType,
                                                   error: a.inner.error) })
    }
}

extension _SceneEventWitnesses where Self: SceneDidUpdateUserActivitySubscriber {
    public static var _sceneDidUpdateUserActivity: _EventWitness? {
        _EventWitness(SceneEvents.didUpdateUserActivity, notificationHandler(SceneEvents.Activity.self) { s, app, a in unsafeDowncast(s, to: Self.self).scene(a.scene.scene(in: app), didUpdate: a.inner) })
    }
}

extension _SceneEventWitnesses where Self: ScenePerformActionForShortcutItemSubscriber {
    public static var _scenePerformActionForShortcutItem: _EventWitness? {
        _EventWitness(SceneEvents.performActionForShortcutItem, completionEventHandler(SceneEvents.Shortcut.self, BoolCompletionAnswer.self) { s, app, a, h in
            unsafeDowncast(s, to: Self.self).windowScene(a.scene.scene(in: app), performActionFor: a.inner, completionHandler: h) })
    }
}

extension _SceneEventWitnesses where Self: SceneStateRestorationActivitySubscriber {
    public static var _sceneStateRestorationActivity: _EventWitness? {
        _EventWitness(SceneEvents.stateRestorationActivity, immediateHandler(SceneEvents.OnlyScene.self, UserActivityAnswer.self) { s, app, a in
            unsafeDowncast(s, to: Self.self).stateRestorationActivity(for: a.scene.scene(in: app)).map { .some($0) } })
    }
}

extension _SceneEventWitnesses where Self: SceneDidUpdateGeometrySubscriber {
    public static var _sceneDidUpdateGeometry: _EventWitness? {
        _EventWitness(SceneEvents.didUpdateGeometry, notificationHandler(SceneEvents.Geometry.self) { s, app, a in unsafeDowncast(s, to: Self.self).windowScene(a.scene.scene(in: app), didUpdate: a.inner) })
    }
}
