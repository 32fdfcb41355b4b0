import Foundation
import SubscriberKit

// The typed entry points of the events that answer at once (docs/events.md), one per wire name.
extension LifecycleDispatcher {
    // MARK: Launch

    /// willFinishLaunching: classifies the launch (``Application/launchInvocation`` is set before any
    /// subscriber is called), then any true; nobody answers: true.
    public func willFinishLaunching(options: LaunchOptions = LaunchOptions()) -> EventOutcome<Bool> {
        let invocation = classifyLaunch(options)
        let application = application
        return ask(.willFinishLaunching, reconciler: boolReconciler(.willFinishLaunching), noAnswer: true,
                   encode: \.json, invocation: invocation) {
            $0.application(application, willFinishLaunchingWithOptions: options)
        }
    }

    /// didFinishLaunching: classifies the launch again, then any true (false only if every answer is
    /// false); nobody answers: true.
    public func didFinishLaunching(options: LaunchOptions = LaunchOptions()) -> EventOutcome<Bool> {
        let invocation = classifyLaunch(options)
        let application = application
        return ask(.didFinishLaunching, reconciler: boolReconciler(.didFinishLaunching), noAnswer: true,
                   encode: \.json, invocation: invocation) {
            $0.application(application, didFinishLaunchingWithOptions: options)
        }
    }

    // MARK: Notifications: every responder, in order

    /// applicationDidBecomeActive.
    public func didBecomeActive() -> EventOutcome<Void> {
        let application = application
        return notify(.didBecomeActive) { $0.applicationDidBecomeActive(application) }
    }

    /// applicationWillResignActive.
    public func willResignActive() -> EventOutcome<Void> {
        let application = application
        return notify(.willResignActive) { $0.applicationWillResignActive(application) }
    }

    /// applicationDidEnterBackground.
    public func didEnterBackground() -> EventOutcome<Void> {
        let application = application
        return notify(.didEnterBackground) { $0.applicationDidEnterBackground(application) }
    }

    /// applicationWillEnterForeground.
    public func willEnterForeground() -> EventOutcome<Void> {
        let application = application
        return notify(.willEnterForeground) { $0.applicationWillEnterForeground(application) }
    }

    /// applicationWillTerminate.
    public func willTerminate() -> EventOutcome<Void> {
        let application = application
        return notify(.willTerminate) { $0.applicationWillTerminate(application) }
    }

    /// applicationDidReceiveMemoryWarning.
    public func didReceiveMemoryWarning() -> EventOutcome<Void> {
        let application = application
        return notify(.didReceiveMemoryWarning) { $0.applicationDidReceiveMemoryWarning(application) }
    }

    /// applicationSignificantTimeChange.
    public func significantTimeChange() -> EventOutcome<Void> {
        let application = application
        return notify(.significantTimeChange) { $0.applicationSignificantTimeChange(application) }
    }

    /// applicationProtectedDataWillBecomeUnavailable.
    public func protectedDataWillBecomeUnavailable() -> EventOutcome<Void> {
        let application = application
        return notify(.protectedDataWillBecomeUnavailable) { $0.applicationProtectedDataWillBecomeUnavailable(application) }
    }

    /// applicationProtectedDataDidBecomeAvailable.
    public func protectedDataDidBecomeAvailable() -> EventOutcome<Void> {
        let application = application
        return notify(.protectedDataDidBecomeAvailable) { $0.applicationProtectedDataDidBecomeAvailable(application) }
    }

    /// didRegisterForRemoteNotifications with `deviceToken`.
    public func didRegisterForRemoteNotifications(deviceToken: Data) -> EventOutcome<Void> {
        let application = application
        return notify(.didRegisterForRemoteNotifications) {
            $0.application(application, didRegisterForRemoteNotificationsWithDeviceToken: deviceToken)
        }
    }

    /// didFailToRegisterForRemoteNotifications with `error`.
    public func didFailToRegisterForRemoteNotifications(error: LifecycleError) -> EventOutcome<Void> {
        let application = application
        return notify(.didFailToRegisterForRemoteNotifications) {
            $0.application(application, didFailToRegisterForRemoteNotificationsWithError: error)
        }
    }

    /// didUpdateUserActivity.
    public func didUpdateUserActivity(_ activity: UserActivity) -> EventOutcome<Void> {
        let application = application
        return notify(.didUpdateUserActivity) { $0.application(application, didUpdate: activity) }
    }

    /// didFailToContinueUserActivity of `activityType` with `error`.
    public func didFailToContinueUserActivity(activityType: String, error: LifecycleError) -> EventOutcome<Void> {
        let application = application
        return notify(.didFailToContinueUserActivity) {
            $0.application(application, didFailToContinueUserActivityWithType: activityType, error: error)
        }
    }

    /// didDiscardSceneSessions (`count` sessions).
    public func didDiscardSceneSessions(count: Int) -> EventOutcome<Void> {
        let application = application
        return notify(.didDiscardSceneSessions) { $0.application(application, didDiscardSceneSessions: count) }
    }

    // MARK: Answers

    /// openURL: any true; nobody answers: false.
    public func openURL(_ url: URL, options: OpenURLOptions = OpenURLOptions()) -> EventOutcome<Bool> {
        let application = application
        return ask(.openURL, reconciler: boolReconciler(.openURL), noAnswer: false, encode: \.json) {
            $0.application(application, open: url, options: options)
        }
    }

    /// willContinueUserActivity: any true; nobody answers: false.
    public func willContinueUserActivity(activityType: String) -> EventOutcome<Bool> {
        let application = application
        return ask(.willContinueUserActivity, reconciler: boolReconciler(.willContinueUserActivity),
                   noAnswer: false, encode: \.json) {
            $0.application(application, willContinueUserActivityWithType: activityType)
        }
    }

    /// supportedInterfaceOrientations: the intersection, starting from all; nobody answers (or an
    /// empty intersection, reported as a conflict): the configured default for `idiom`.
    public func supportedInterfaceOrientations(for idiom: UserInterfaceIdiom) -> EventOutcome<InterfaceOrientationMask> {
        let application = application
        let event = LifecycleEvent.supportedInterfaceOrientations
        let reconciler = configuration.reconciler(for: event).flatMap { Reconciler<InterfaceOrientationMask>($0) }
        return ask(event, reconciler: reconciler ?? .intersection,
                   noAnswer: configuration.defaultOrientation(for: idiom), encode: \.json) {
            $0.application(application, supportedInterfaceOrientationsFor: idiom)
        }
    }

    /// shouldAllowExtensionPointIdentifier: one false vetoes; nobody answers: true.
    public func shouldAllowExtensionPointIdentifier(_ identifier: String) -> EventOutcome<Bool> {
        let application = application
        return ask(.shouldAllowExtensionPointIdentifier, reconciler: boolReconciler(.shouldAllowExtensionPointIdentifier),
                   noAnswer: true, encode: \.json) {
            $0.application(application, shouldAllowExtensionPointIdentifier: identifier)
        }
    }

    /// shouldSaveSecureApplicationState: one false vetoes; nobody answers: false.
    public func shouldSaveSecureApplicationState() -> EventOutcome<Bool> {
        let application = application
        return ask(.shouldSaveSecureApplicationState, reconciler: boolReconciler(.shouldSaveSecureApplicationState),
                   noAnswer: false, encode: \.json) {
            $0.applicationShouldSaveSecureApplicationState(application)
        }
    }

    /// shouldRestoreSecureApplicationState: one false vetoes; nobody answers: false.
    public func shouldRestoreSecureApplicationState() -> EventOutcome<Bool> {
        let application = application
        return ask(.shouldRestoreSecureApplicationState, reconciler: boolReconciler(.shouldRestoreSecureApplicationState),
                   noAnswer: false, encode: \.json) {
            $0.applicationShouldRestoreSecureApplicationState(application)
        }
    }

    /// configurationForConnecting: the first answer in order; nobody answers: "Default Configuration".
    public func configurationForConnecting(sceneRole: String) -> EventOutcome<String> {
        let application = application
        let event = LifecycleEvent.configurationForConnecting
        let reconciler = configuration.reconciler(for: event).flatMap { Reconciler<String>($0) }
        return ask(event, reconciler: reconciler ?? .firstAnswer, noAnswer: Self.defaultSceneConfiguration,
                   encode: { .string($0) }) {
            $0.application(application, configurationForConnecting: sceneRole)
        }
    }

    /// The scene configuration delivered when nobody answers configurationForConnecting.
    public nonisolated static let defaultSceneConfiguration = "Default Configuration"

    /// The Bool reconciler configured for `event` (validated when it was chosen).
    func boolReconciler(_ event: LifecycleEvent) -> Reconciler<Bool> {
        configuration.reconciler(for: event).flatMap { Reconciler<Bool>($0) } ?? .anyTrue
    }
}
