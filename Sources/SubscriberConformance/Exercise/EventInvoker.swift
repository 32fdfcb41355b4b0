import SubscriberHost
import SubscriberKit

/// What one event call did at once: its return value, and the completion it was handed.
struct Invocation {
    /// The returned answer as JSON (`null` for no opinion); nil for events that return nothing.
    var answer: JSONValue?
    /// The completion handed to the call, for events that answer through one.
    var probe: CompletionProbe?
    /// Whether the contract obliges the subscriber to call the completion exactly once: it did not
    /// decline (continueUserActivity: it returned true). False for events without a completion.
    var owesCompletion: Bool
}

/// Calls the protocol method of an ``EventCall`` directly on one subscriber, as the dispatcher would
/// but without reconciling, deadlines or other subscribers: the checks judge one subscriber alone.
@MainActor
enum EventInvoker {
    /// Calls `call` on `subscriber`. Launch events record the launch classification in `application`,
    /// as the host does, for this and later calls.
    static func invoke(_ call: EventCall, on subscriber: any AppDelegateSubscriber,
                       application: inout Application) -> Invocation {
        let app = application
        switch call {
        case .willFinishLaunching(let options):
            application.launchInvocation = LaunchInvocation(classifying: options)
            return answer(subscriber.application(application, willFinishLaunchingWithOptions: options))
        case .didFinishLaunching(let options):
            application.launchInvocation = LaunchInvocation(classifying: options)
            return answer(subscriber.application(application, didFinishLaunchingWithOptions: options))
        case .didBecomeActive: subscriber.applicationDidBecomeActive(app)
        case .willResignActive: subscriber.applicationWillResignActive(app)
        case .didEnterBackground: subscriber.applicationDidEnterBackground(app)
        case .willEnterForeground: subscriber.applicationWillEnterForeground(app)
        case .willTerminate: subscriber.applicationWillTerminate(app)
        case .didReceiveMemoryWarning: subscriber.applicationDidReceiveMemoryWarning(app)
        case .significantTimeChange: subscriber.applicationSignificantTimeChange(app)
        case .protectedDataWillBecomeUnavailable: subscriber.applicationProtectedDataWillBecomeUnavailable(app)
        case .protectedDataDidBecomeAvailable: subscriber.applicationProtectedDataDidBecomeAvailable(app)
        case .didRegisterForRemoteNotifications(let token):
            subscriber.application(app, didRegisterForRemoteNotificationsWithDeviceToken: token)
        case .didFailToRegisterForRemoteNotifications(let error):
            subscriber.application(app, didFailToRegisterForRemoteNotificationsWithError: error)
        case .didReceiveRemoteNotification(let userInfo):
            return completing { subscriber.application(app, didReceiveRemoteNotification: userInfo, fetchCompletionHandler: $0.handler(fetch)) }
        case .performFetch:
            return completing { subscriber.application(app, performFetchWithCompletionHandler: $0.handler(fetch)) }
        case .handleEventsForBackgroundURLSession(let identifier):
            return completing { probe in
                subscriber.application(app, handleEventsForBackgroundURLSession: identifier,
                                       completionHandler: probe.handler { (_: Void) in .null })
            }
        case .openURL(let url, let options):
            return answer(subscriber.application(app, open: url, options: options))
        case .willContinueUserActivity(let type):
            return answer(subscriber.application(app, willContinueUserActivityWithType: type))
        case .continueUserActivity(let activity):
            let probe = CompletionProbe()
            let handled = subscriber.application(app, continue: activity, restorationHandler: probe.handler { (ids: [String]) in
                .array(ids.map { .string($0) })
            })
            return Invocation(answer: handled.map { .bool($0) } ?? .null, probe: probe, owesCompletion: handled == true)
        case .didUpdateUserActivity(let activity): subscriber.application(app, didUpdate: activity)
        case .didFailToContinueUserActivity(let type, let error):
            subscriber.application(app, didFailToContinueUserActivityWithType: type, error: error)
        case .performActionForShortcutItem(let item):
            return completing { subscriber.application(app, performActionFor: item, completionHandler: $0.handler { .bool($0) }) }
        case .supportedInterfaceOrientations(let idiom):
            let mask = subscriber.application(app, supportedInterfaceOrientationsFor: idiom)
            return Invocation(answer: mask.map { .number(Double($0.rawValue)) } ?? .null, probe: nil, owesCompletion: false)
        case .shouldAllowExtensionPointIdentifier(let identifier):
            return answer(subscriber.application(app, shouldAllowExtensionPointIdentifier: identifier))
        case .shouldSaveSecureApplicationState: return answer(subscriber.applicationShouldSaveSecureApplicationState(app))
        case .shouldRestoreSecureApplicationState: return answer(subscriber.applicationShouldRestoreSecureApplicationState(app))
        case .configurationForConnecting(let role):
            let name = subscriber.application(app, configurationForConnecting: role)
            return Invocation(answer: name.map { .string($0) } ?? .null, probe: nil, owesCompletion: false)
        case .didDiscardSceneSessions(let count): subscriber.application(app, didDiscardSceneSessions: count)
        case .handleWatchKitExtensionRequest(let userInfo):
            return completing { subscriber.application(app, handleWatchKitExtensionRequest: userInfo, reply: $0.handler { .object($0) }) }
        }
        return Invocation(answer: nil, probe: nil, owesCompletion: false)
    }

    private static func answer(_ value: Bool?) -> Invocation {
        Invocation(answer: value.map { .bool($0) } ?? .null, probe: nil, owesCompletion: false)
    }

    /// A completion event: hands `body` a fresh probe; owed unless declined before returning.
    private static func completing(_ body: (CompletionProbe) -> Void) -> Invocation {
        let probe = CompletionProbe()
        body(probe)
        return Invocation(answer: nil, probe: probe, owesCompletion: !probe.declined)
    }

    private static let fetch: @Sendable (BackgroundFetchResult) -> JSONValue = { .string($0.name) }
}
