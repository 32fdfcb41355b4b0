import Foundation
import SubscriberHost
import SubscriberKit
import Synchronization

/// Every call any test subscriber received, in order: "name:event".
@MainActor
final class CallLog {
    var entries: [String] = []

    /// The names of the subscribers that received `event`, in call order.
    func callers(of event: LifecycleEvent) -> [String] {
        entries.compactMap { entry in
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            return parts.count == 2 && parts[1] == event.name ? parts[0] : nil
        }
    }
}

/// How a test subscriber treats a completion handler.
enum Completion<Value: Sendable>: Sendable {
    /// Declines before returning (does not respond).
    case decline
    /// Calls it synchronously, inside the method.
    case now(Value)
    /// Calls it twice, synchronously.
    case twice(Value, Value)
    /// Calls it from a global-queue thread, right away.
    case fromAnotherThread(Value)
    /// Calls it from a global-queue thread, a little later (after the method has returned).
    case later(Value)
    /// Never calls it (the handler is kept for the test to call).
    case never
    /// Declines, then calls it anyway, synchronously.
    case declineThenCall(Value)
    /// From another thread, after the method has returned: declines (too late), then calls it.
    case declineAfterReturn(Value)
}

/// A thread-safe flag set by completions to record which thread they ran on.
final class ThreadRecord: Sendable {
    private let onMain = Mutex<[Bool]>([])
    func record() { onMain.withLock { $0.append(Thread.isMainThread) } }
    var calls: [Bool] { onMain.withLock { $0 } }
}

/// Every event protocol: for the test subscribers that implement every event's method.
typealias EveryEventSubscriber = WillFinishLaunchingSubscriber & DidFinishLaunchingSubscriber & DidBecomeActiveSubscriber
    & WillResignActiveSubscriber & DidEnterBackgroundSubscriber & WillEnterForegroundSubscriber & WillTerminateSubscriber
    & DidReceiveMemoryWarningSubscriber & SignificantTimeChangeSubscriber & ProtectedDataWillBecomeUnavailableSubscriber
    & ProtectedDataDidBecomeAvailableSubscriber & DidRegisterForRemoteNotificationsSubscriber
    & DidFailToRegisterForRemoteNotificationsSubscriber & DidReceiveRemoteNotificationSubscriber & PerformFetchSubscriber
    & HandleEventsForBackgroundURLSessionSubscriber & OpenURLSubscriber & WillContinueUserActivitySubscriber
    & ContinueUserActivitySubscriber & DidUpdateUserActivitySubscriber & DidFailToContinueUserActivitySubscriber
    & PerformActionForShortcutItemSubscriber & SupportedInterfaceOrientationsSubscriber
    & ShouldAllowExtensionPointIdentifierSubscriber & ShouldSaveSecureApplicationStateSubscriber
    & ShouldRestoreSecureApplicationStateSubscriber & ConfigurationForConnectingSubscriber & DidDiscardSceneSessionsSubscriber
    & HandleWatchKitExtensionRequestSubscriber

/// A subscriber whose every answer is configurable and that records each call in a shared log.
@MainActor
final class TestSubscriber: AppDelegateSubscriber, EveryEventSubscriber {
    let name: String
    let log: CallLog
    /// Answers of the Bool? events (absent: nil, no opinion).
    var answers: [LifecycleEvent: Bool] = [:]
    var orientations: InterfaceOrientationMask?
    var sceneConfiguration: String?
    var fetch: Completion<BackgroundFetchResult> = .decline
    var session: Completion<Void> = .decline
    var shortcut: Completion<Bool> = .decline
    var restoration: Completion<[String]> = .decline
    var reply: Completion<JSONObject> = .decline
    /// Applications seen, one per call.
    var applications: [Application] = []
    /// Arguments seen by events that carry some.
    var arguments: [String] = []
    let threads = ThreadRecord()
    var fetchHandler: CompletionHandler<BackgroundFetchResult>?
    var boolHandler: CompletionHandler<Bool>?
    var restorationHandler: CompletionHandler<[String]>?

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }

    private func called(_ event: LifecycleEvent, _ application: Application) {
        log.entries.append("\(name):\(event.name)")
        applications.append(application)
    }

    private func run<Value: Sendable>(_ behaviour: Completion<Value>, _ handler: CompletionHandler<Value>) {
        let threads = threads
        switch behaviour {
        case .decline: handler.decline()
        case .now(let value): handler(value)
        case .twice(let first, let second):
            handler(first)
            handler(second)
        case .fromAnotherThread(let value):
            DispatchQueue.global().async {
                threads.record()
                handler(value)
            }
        case .later(let value):
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                threads.record()
                handler(value)
            }
        case .never: break
        case .declineThenCall(let value):
            handler.decline()
            handler(value)
        case .declineAfterReturn(let value):
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                handler.decline()
                handler(value)
            }
        }
    }

    func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        called(.willFinishLaunching, application)
        return answers[.willFinishLaunching]
    }
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        called(.didFinishLaunching, application)
        return answers[.didFinishLaunching]
    }
    func applicationDidBecomeActive(_ application: Application) { called(.didBecomeActive, application) }
    func applicationWillResignActive(_ application: Application) { called(.willResignActive, application) }
    func applicationDidEnterBackground(_ application: Application) { called(.didEnterBackground, application) }
    func applicationWillEnterForeground(_ application: Application) { called(.willEnterForeground, application) }
    func applicationWillTerminate(_ application: Application) { called(.willTerminate, application) }
    func applicationDidReceiveMemoryWarning(_ application: Application) { called(.didReceiveMemoryWarning, application) }
    func applicationSignificantTimeChange(_ application: Application) { called(.significantTimeChange, application) }
    func applicationProtectedDataWillBecomeUnavailable(_ application: Application) {
        called(.protectedDataWillBecomeUnavailable, application)
    }
    func applicationProtectedDataDidBecomeAvailable(_ application: Application) {
        called(.protectedDataDidBecomeAvailable, application)
    }
    func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        called(.didRegisterForRemoteNotifications, application)
        arguments.append(deviceToken.map { String(format: "%02x", $0) }.joined())
    }
    func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError) {
        called(.didFailToRegisterForRemoteNotifications, application)
        arguments.append(error.description)
    }
    func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                     fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        called(.didReceiveRemoteNotification, application)
        arguments.append(JSONValue.object(userInfo).serialized())
        fetchHandler = completionHandler
        run(fetch, completionHandler)
    }
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        called(.performFetch, application)
        fetchHandler = completionHandler
        run(fetch, completionHandler)
    }
    func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: CompletionHandler<Void>) {
        called(.handleEventsForBackgroundURLSession, application)
        arguments.append(identifier)
        run(session, completionHandler)
    }
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        called(.openURL, application)
        arguments.append(url.absoluteString)
        return answers[.openURL]
    }
    func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool? {
        called(.willContinueUserActivity, application)
        return answers[.willContinueUserActivity]
    }
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        called(.continueUserActivity, application)
        self.restorationHandler = restorationHandler
        run(restoration, restorationHandler)
        return answers[.continueUserActivity]
    }
    func application(_ application: Application, didUpdate userActivity: UserActivity) {
        called(.didUpdateUserActivity, application)
        arguments.append(userActivity.activityType)
    }
    func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String,
                     error: LifecycleError) {
        called(.didFailToContinueUserActivity, application)
        arguments.append(userActivityType)
    }
    func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                     completionHandler: CompletionHandler<Bool>) {
        called(.performActionForShortcutItem, application)
        arguments.append(shortcutItem.type)
        boolHandler = completionHandler
        run(shortcut, completionHandler)
    }
    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? {
        called(.supportedInterfaceOrientations, application)
        return orientations
    }
    func application(_ application: Application,
                     shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool? {
        called(.shouldAllowExtensionPointIdentifier, application)
        return answers[.shouldAllowExtensionPointIdentifier]
    }
    func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool? {
        called(.shouldSaveSecureApplicationState, application)
        return answers[.shouldSaveSecureApplicationState]
    }
    func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool? {
        called(.shouldRestoreSecureApplicationState, application)
        return answers[.shouldRestoreSecureApplicationState]
    }
    func application(_ application: Application, configurationForConnecting sceneRole: String) -> String? {
        called(.configurationForConnecting, application)
        return sceneConfiguration
    }
    func application(_ application: Application, didDiscardSceneSessions count: Int) {
        called(.didDiscardSceneSessions, application)
        arguments.append(String(count))
    }
    func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                     reply: CompletionHandler<JSONObject>) {
        called(.handleWatchKitExtensionRequest, application)
        run(self.reply, reply)
    }
}

/// The application used by dispatch tests.
let testApplication = Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0")

/// A dispatcher over test subscribers named `names`, all sharing one log; `configure` adjusts the
/// configuration (orientations; start from `configuration` for choices that throw) and `setUp` each
/// subscriber (the trailing closure).
@MainActor
func makeDispatcher(_ names: [String], configuration: DispatchConfiguration = DispatchConfiguration(application: testApplication),
                    setUp: (TestSubscriber) -> Void = { _ in },
                    configure: (inout DispatchConfiguration) -> Void = { _ in })
    -> (dispatcher: LifecycleDispatcher, subscribers: [TestSubscriber], log: CallLog)
{
    let log = CallLog()
    let subscribers = names.map { TestSubscriber($0, log: log) }
    subscribers.forEach(setUp)
    var configuration = configuration
    configure(&configuration)
    let dispatcher = LifecycleDispatcher(
        subscribers: subscribers.map { SubscriberRegistration(name: $0.name, subscriber: $0) },
        configuration: configuration)
    return (dispatcher, subscribers, log)
}

extension EventOutcome {
    /// The answer rows as (subscriber, answer) pairs, for compact expectations.
    var answerPairs: [String: EventResult?] {
        Dictionary(uniqueKeysWithValues: answers.map { ($0.subscriber, $0.answer) })
    }
    /// The names of the subscribers with an answer row, in order.
    var answerNames: [String] { answers.map(\.subscriber) }
}

/// The test application's configuration, adjusted by `change` (which may throw: reconciler choices).
func configuration(_ change: (inout DispatchConfiguration) throws -> Void) rethrows -> DispatchConfiguration {
    var configuration = DispatchConfiguration(application: testApplication)
    try change(&configuration)
    return configuration
}

/// The calls of manifests/events/every-event.jsonl, written as EventCalls (reading the script's text
/// is the command's business): every event at least once, with arguments that change the answers.
let everyEventCalls: [EventCall] = {
    let article = UserActivity(activityType: UserActivity.browsingWeb,
                               webpageURL: URL(string: "https://news.example.com/article/42")!)
    return [
        .willFinishLaunching(options: LaunchOptions(userActivity: article)),
        .didFinishLaunching(options: LaunchOptions(userActivity: article)),
        .didBecomeActive,
        .openURL(url: URL(string: "news://article/7")!, options: OpenURLOptions(sourceApplication: "com.apple.mobilesafari")),
        .openURL(url: URL(string: "https://elsewhere.example.org/page")!),
        .willContinueUserActivity(activityType: UserActivity.browsingWeb),
        .continueUserActivity(UserActivity(activityType: UserActivity.browsingWeb,
                                           webpageURL: URL(string: "https://news.example.com/article/9")!)),
        .didUpdateUserActivity(UserActivity(activityType: "com.example.news.reading")),
        .didFailToContinueUserActivity(activityType: "com.example.news.reading",
                                       error: LifecycleError(domain: "NSCocoaErrorDomain", code: 4608, message: "handoff failed")),
        .didRegisterForRemoteNotifications(deviceToken: Data([0xa1, 0xb2, 0xc3, 0xd4])),
        .didFailToRegisterForRemoteNotifications(error: LifecycleError(domain: "com.example.push", code: 3010,
                                                                      message: "no network")),
        .didReceiveRemoteNotification(userInfo: ["articles": [101, 102]]),
        .performFetch,
        .handleEventsForBackgroundURLSession(identifier: "com.example.news.downloads"),
        .performActionForShortcutItem(ShortcutItem(type: "com.example.news.search", title: "Search")),
        .supportedInterfaceOrientations(idiom: .pad),
        .shouldAllowExtensionPointIdentifier(identifier: "com.apple.keyboard-service"),
        .shouldSaveSecureApplicationState,
        .shouldRestoreSecureApplicationState,
        .configurationForConnecting(sceneRole: "UIWindowSceneSessionRoleApplication"),
        .didDiscardSceneSessions(count: 2),
        .handleWatchKitExtensionRequest(userInfo: ["request": "headlines"]),
        .willResignActive, .didEnterBackground, .willEnterForeground, .didReceiveMemoryWarning, .significantTimeChange,
        .protectedDataWillBecomeUnavailable, .protectedDataDidBecomeAvailable, .willTerminate,
    ]
}()

/// One call of each event, in table order (an event missing from `everyEventCalls` is left out, and
/// `everyEventCallsCoverTheTable` fails naming it, rather than the test process trapping).
let oneCallPerEvent: [EventCall] = LifecycleEvent.allCases.compactMap { event in everyEventCalls.first { $0.event == event } }
