import SubscriberKit

extension LifecycleDispatcher {
    /// Delivers `call` through its typed entry point and returns the outcome with its result as JSON.
    /// Completion events return once, like their typed entry points.
    public func dispatch(_ call: EventCall) async -> EventReport {
        let none: (()) -> JSONValue = { _ in .null }
        switch call {
        case .willFinishLaunching(let options): return EventReport(willFinishLaunching(options: options), result: \.json)
        case .didFinishLaunching(let options): return EventReport(didFinishLaunching(options: options), result: \.json)
        case .didBecomeActive: return EventReport(didBecomeActive(), result: none)
        case .willResignActive: return EventReport(willResignActive(), result: none)
        case .didEnterBackground: return EventReport(didEnterBackground(), result: none)
        case .willEnterForeground: return EventReport(willEnterForeground(), result: none)
        case .willTerminate: return EventReport(willTerminate(), result: none)
        case .didReceiveMemoryWarning: return EventReport(didReceiveMemoryWarning(), result: none)
        case .significantTimeChange: return EventReport(significantTimeChange(), result: none)
        case .protectedDataWillBecomeUnavailable: return EventReport(protectedDataWillBecomeUnavailable(), result: none)
        case .protectedDataDidBecomeAvailable: return EventReport(protectedDataDidBecomeAvailable(), result: none)
        case .didRegisterForRemoteNotifications(let deviceToken):
            return EventReport(didRegisterForRemoteNotifications(deviceToken: deviceToken), result: none)
        case .didFailToRegisterForRemoteNotifications(let error):
            return EventReport(didFailToRegisterForRemoteNotifications(error: error), result: none)
        case .didReceiveRemoteNotification(let userInfo):
            return EventReport(await didReceiveRemoteNotification(userInfo: userInfo), result: \.json)
        case .performFetch: return EventReport(await performFetch(), result: \.json)
        case .handleEventsForBackgroundURLSession(let identifier):
            return EventReport(await handleEventsForBackgroundURLSession(identifier: identifier), result: none)
        case .openURL(let url, let options): return EventReport(openURL(url, options: options), result: \.json)
        case .willContinueUserActivity(let activityType):
            return EventReport(willContinueUserActivity(activityType: activityType), result: \.json)
        case .continueUserActivity(let activity): return EventReport(await continueUserActivity(activity), result: \.json)
        case .didUpdateUserActivity(let activity): return EventReport(didUpdateUserActivity(activity), result: none)
        case .didFailToContinueUserActivity(let activityType, let error):
            return EventReport(didFailToContinueUserActivity(activityType: activityType, error: error), result: none)
        case .performActionForShortcutItem(let item):
            return EventReport(await performActionForShortcutItem(item), result: \.json)
        case .supportedInterfaceOrientations(let idiom):
            return EventReport(supportedInterfaceOrientations(for: idiom), result: \.json)
        case .shouldAllowExtensionPointIdentifier(let identifier):
            return EventReport(shouldAllowExtensionPointIdentifier(identifier), result: \.json)
        case .shouldSaveSecureApplicationState: return EventReport(shouldSaveSecureApplicationState(), result: \.json)
        case .shouldRestoreSecureApplicationState: return EventReport(shouldRestoreSecureApplicationState(), result: \.json)
        case .configurationForConnecting(let sceneRole):
            return EventReport(configurationForConnecting(sceneRole: sceneRole), result: { .string($0) })
        case .didDiscardSceneSessions(let count): return EventReport(didDiscardSceneSessions(count: count), result: none)
        case .handleWatchKitExtensionRequest(let userInfo):
            return EventReport(await handleWatchKitExtensionRequest(userInfo: userInfo), result: { .object($0) })
        }
    }
}
