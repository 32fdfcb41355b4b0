import Dispatch
import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// A test subscriber the round-trip script knows how to drive.
@MainActor
protocol ScriptedSubscriber: InstantiableSubscriber {
    /// How many times it calls each completion it does not decline.
    static var callsPerCompletion: Int { get }
}

/// Answers the app delegate's events, each answer derived from the event's input, so that a value
/// lost or garbled on the way through C changes the answer. Logs through all three log calls. (That
/// every event of every family reaches a subscriber through C at all is GeneratedPluginTests'.)
final class Oracle: ScriptedSubscriber, WillFinishLaunchingSubscriber, DidFinishLaunchingSubscriber, DidBecomeActiveSubscriber,
    WillResignActiveSubscriber, DidEnterBackgroundSubscriber, WillEnterForegroundSubscriber, WillTerminateSubscriber,
    DidReceiveMemoryWarningSubscriber, SignificantTimeChangeSubscriber, ProtectedDataWillBecomeUnavailableSubscriber,
    ProtectedDataDidBecomeAvailableSubscriber, DidRegisterForRemoteNotificationsSubscriber,
    DidFailToRegisterForRemoteNotificationsSubscriber, DidReceiveRemoteNotificationSubscriber, PerformFetchSubscriber,
    HandleEventsForBackgroundURLSessionSubscriber, OpenURLSubscriber, WillContinueUserActivitySubscriber,
    ContinueUserActivitySubscriber, DidUpdateUserActivitySubscriber, DidFailToContinueUserActivitySubscriber,
    PerformActionForShortcutItemSubscriber, SupportedInterfaceOrientationsSubscriber,
    ShouldAllowExtensionPointIdentifierSubscriber, ShouldSaveSecureApplicationStateSubscriber,
    ShouldRestoreSecureApplicationStateSubscriber, ConfigurationForConnectingSubscriber, DidDiscardSceneSessionsSubscriber,
    HandleWatchKitExtensionRequestSubscriber {
    static let callsPerCompletion = 1
    let context: SubscriberContext

    init(context: SubscriberContext) {
        self.context = context
        let app = context.application
        context.log("created with options \(context.options) in \(app.name) \(app.bundleIdentifier) \(app.version)")
    }

    private func invocation(_ application: Application) -> String {
        application.launchInvocation.map(String.init(describing:)) ?? "none"
    }

    func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        context.log("willFinish \(JSONValue.object(launchOptions.json)) as \(invocation(application))")
        return launchOptions.isEmpty ? nil : launchOptions.userActivity != nil
    }
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        context.log("didFinish as \(invocation(application))", level: .notice)
        return launchOptions.remoteNotification == nil
    }
    func applicationDidBecomeActive(_ application: Application) { context.log("active as \(invocation(application))") }
    func applicationWillResignActive(_ application: Application) { context.log("resign", level: .debug) }
    func applicationDidEnterBackground(_ application: Application) { context.log("background", level: .trace) }
    func applicationWillEnterForeground(_ application: Application) { context.log("foreground", level: .warning) }
    func applicationWillTerminate(_ application: Application) { context.log("terminate", level: .critical) }
    func applicationDidReceiveMemoryWarning(_ application: Application) {
        context.logEvent("memory_warning", attributes: ["level": "critical", "count": 2])
    }
    func applicationSignificantTimeChange(_ application: Application) {
        context.logError("time jumped", attributes: ["by": 3600])
    }
    func applicationProtectedDataWillBecomeUnavailable(_ application: Application) { context.logEvent("locked") }
    func applicationProtectedDataDidBecomeAvailable(_ application: Application) { context.logError("unlocked") }
    func application(_ application: Application, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        context.log("token " + deviceToken.map { String($0, radix: 16) }.joined(separator: ":"))
    }
    func application(_ application: Application, didFailToRegisterForRemoteNotificationsWithError error: LifecycleError) {
        context.logError(error.message, attributes: ["domain": .string(error.domain), "code": .number(Double(error.code))])
    }
    func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                     fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        guard let name = userInfo["result"]?.stringValue, let result = BackgroundFetchResult(name: name) else {
            return completionHandler.decline()
        }
        completionHandler(result)
    }
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        CompletionsOnTheirWay.run { completionHandler(.newData) }
    }
    func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: CompletionHandler<Void>) {
        if identifier == "decline" { return completionHandler.decline() }
        CompletionsOnTheirWay.run { completionHandler() }
    }
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        context.log("open \(url.absoluteString) \(JSONValue.object(options.json))")
        return url.scheme == "news" ? true : (options.openInPlace ? false : nil)
    }
    func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool? {
        userActivityType.isEmpty ? nil : userActivityType.hasPrefix("com.example")
    }
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        switch userActivity.activityType {
        case UserActivity.browsingWeb:
            restorationHandler([userActivity.webpageURL?.absoluteString ?? "no url"] + userActivity.userInfo.keys)
            return true
        case "com.example.reading":
            CompletionsOnTheirWay.run { restorationHandler([]) }
            return true
        default:
            return false
        }
    }
    func application(_ application: Application, didUpdate userActivity: UserActivity) {
        context.log("updated \(JSONValue.object(userActivity.json))")
    }
    func application(_ application: Application, didFailToContinueUserActivityWithType userActivityType: String,
                     error: LifecycleError) {
        context.logError("cannot continue \(userActivityType)", attributes: ["error": .string(error.description)])
    }
    func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                     completionHandler: CompletionHandler<Bool>) {
        context.log("shortcut \(JSONValue.object(shortcutItem.json))")
        let succeeded = shortcutItem.type.hasSuffix("search")
        CompletionsOnTheirWay.run { completionHandler(succeeded) }
    }
    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? {
        switch idiom {
        case .pad: .all
        case .phone: .portrait
        case .tv: []
        default: nil
        }
    }
    func application(_ application: Application,
                     shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool? {
        extensionPointIdentifier.isEmpty ? nil : extensionPointIdentifier != "com.apple.keyboard-service"
    }
    func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool? { true }
    func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool? { false }
    func application(_ application: Application, configurationForConnecting sceneRole: String) -> String? {
        switch sceneRole {
        case "none": nil
        case "": ""
        default: "\(sceneRole)/\(context.options["flavor"]?.stringValue ?? "?")/\(invocation(application))"
        }
    }
    func application(_ application: Application, didDiscardSceneSessions count: Int) {
        context.log("discarded \(count)")
    }
    func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                     reply: CompletionHandler<JSONObject>) {
        if userInfo.isEmpty { return reply.decline() }
        reply(["echo": .object(userInfo), "app": .string(application.name)])
    }
}

/// Answers the other way round from ``Oracle``, and completes from other threads.
final class Contrarian: ScriptedSubscriber, WillFinishLaunchingSubscriber, DidFinishLaunchingSubscriber,
    DidReceiveRemoteNotificationSubscriber, PerformFetchSubscriber, HandleEventsForBackgroundURLSessionSubscriber,
    OpenURLSubscriber, WillContinueUserActivitySubscriber, PerformActionForShortcutItemSubscriber,
    SupportedInterfaceOrientationsSubscriber, ShouldAllowExtensionPointIdentifierSubscriber,
    ShouldSaveSecureApplicationStateSubscriber, ShouldRestoreSecureApplicationStateSubscriber,
    HandleWatchKitExtensionRequestSubscriber {
    static let callsPerCompletion = 1
    let context: SubscriberContext
    init(context: SubscriberContext) { self.context = context }

    func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? { false }
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? { nil }
    func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                     fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        CompletionsOnTheirWay.run { completionHandler(.failed) }
    }
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        completionHandler(.noData)
    }
    func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: CompletionHandler<Void>) {
        completionHandler()
    }
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { false }
    func application(_ application: Application, willContinueUserActivityWithType userActivityType: String) -> Bool? { false }
    func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                     completionHandler: CompletionHandler<Bool>) {
        completionHandler(false)
    }
    func application(_ application: Application,
                     supportedInterfaceOrientationsFor idiom: UserInterfaceIdiom) -> InterfaceOrientationMask? {
        .landscapeLeft
    }
    func application(_ application: Application,
                     shouldAllowExtensionPointIdentifier extensionPointIdentifier: String) -> Bool? { false }
    func applicationShouldSaveSecureApplicationState(_ application: Application) -> Bool? { false }
    func applicationShouldRestoreSecureApplicationState(_ application: Application) -> Bool? { true }
    func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                     reply: CompletionHandler<JSONObject>) {
        CompletionsOnTheirWay.run { reply(["contrarian": true]) }
    }
}

/// Adopts no event protocol: it responds to no event (an empty vtable through C).
final class Bystander: AppDelegateSubscriberBase, ScriptedSubscriber {
    static let callsPerCompletion = 1
}

/// Calls every completion twice, once at once and once from another thread.
final class DoubleCaller: ScriptedSubscriber, DidReceiveRemoteNotificationSubscriber, PerformFetchSubscriber,
    HandleEventsForBackgroundURLSessionSubscriber, ContinueUserActivitySubscriber, PerformActionForShortcutItemSubscriber,
    HandleWatchKitExtensionRequestSubscriber {
    static let callsPerCompletion = 2
    init(context: SubscriberContext) {}

    private func twice<Value: Sendable>(_ handler: CompletionHandler<Value>, _ first: Value, _ second: Value) {
        handler(first)
        CompletionsOnTheirWay.run { handler(second) }
    }
    func application(_ application: Application, didReceiveRemoteNotification userInfo: JSONObject,
                     fetchCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        twice(completionHandler, .newData, .failed)
    }
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        twice(completionHandler, .noData, .newData)
    }
    func application(_ application: Application, handleEventsForBackgroundURLSession identifier: String,
                     completionHandler: CompletionHandler<Void>) {
        twice(completionHandler, (), ())
    }
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        twice(restorationHandler, ["first"], ["second"])
        return true
    }
    func application(_ application: Application, performActionFor shortcutItem: ShortcutItem,
                     completionHandler: CompletionHandler<Bool>) {
        twice(completionHandler, true, false)
    }
    func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                     reply: CompletionHandler<JSONObject>) {
        twice(reply, ["n": 1], ["n": 2])
    }
}

/// Keeps its fetch completion handler and declines it only when the test says so, after returning.
final class LateDecliner: InstantiableSubscriber, PerformFetchSubscriber {
    /// The handler of the last performFetch.
    static var kept: CompletionHandler<BackgroundFetchResult>?
    init(context: SubscriberContext) {}
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        Self.kept = completionHandler
    }
}

/// The subscribers of the test plugin exported through SubscriberPlugin.export.
@MainActor let bridgeTestSubscriberTypes: [any InstantiableSubscriber.Type] = [
    Oracle.self, Contrarian.self, Bystander.self, DoubleCaller.self, LateDecliner.self, Nester.self,
]

/// Opens a URL, runs ``during`` (a test's nested dispatch), then reads its URL again.
@MainActor
final class Nester: InstantiableSubscriber, OpenURLSubscriber {
    static var during: (@MainActor () -> Void)?
    let context: SubscriberContext

    init(context: SubscriberContext) { self.context = context }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        context.log("open \(url.absoluteString)")
        Self.during?()
        context.log("still \(url.absoluteString)")
        return true
    }
}

/// The test doubles that adopt the app delegate's protocols by hand, and the script that drives
/// them, against the event table: an app delegate event added to the table and not to them fails here.
@MainActor
@Suite("Bridge test doubles cover every app delegate event of the table")
struct BridgeTestDoublesCoverTheTable {
    @Test func oracleRespondsToEveryAppDelegateEvent() {
        let oracle = Solo(Oracle(context: bridgeContext("Oracle", sink: RecordingSink())), name: "Oracle")
        #expect(oracle.respondingEvents == EventFamily.application.events)
    }

    @Test func theScriptDrivesEveryAppDelegateEvent() async {
        let oracle = Solo(Oracle(context: bridgeContext("Oracle", sink: RecordingSink())), name: "Oracle")
        _ = await BridgeScript.run(oracle, calls: Oracle.callsPerCompletion)
        #expect(Set(BridgeScript.driven) == Set(EventFamily.application.events),
                "not driven: \(EventFamily.application.events.filter { !BridgeScript.driven.contains($0) })")
        // The doubles' events are all the family's: those of the answering doubles are among them.
        for type in bridgeTestSubscriberTypes {
            let solo = Solo(type.init(context: bridgeContext(type.subscriberName, sink: RecordingSink())), name: type.subscriberName)
            #expect(solo.respondingEvents.allSatisfy(BridgeScript.driven.contains), "\(type.subscriberName)")
        }
    }
}
