import Dispatch
import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Adopts the notification center's protocols; how it answers comes from its options, so that one
/// type exported through C can play several subscribers. Logs every call with what it received and
/// the application's state it saw, so that call order and arguments are visible in the sink.
///
/// Options: `present` (option names), `presentMode` and `respondMode`: "now", "thread" (from
/// another thread, right away), "twice" (two calls inside the method), "never", "decline".
final class NotificationProbe: InstantiableSubscriber, WillPresentNotificationSubscriber,
    DidReceiveNotificationResponseSubscriber, OpenNotificationSettingsSubscriber {
    let context: SubscriberContext
    let present: NotificationPresentationOptions
    let presentMode: String
    let respondMode: String

    init(context: SubscriberContext) {
        self.context = context
        let names = context.options["present"]?.arrayValue?.compactMap(\.stringValue) ?? []
        present = NotificationPresentationOptions.named.filter { names.contains($0.name) }
            .reduce(into: []) { $0.formUnion($1.option) }
        presentMode = context.options["presentMode"]?.stringValue ?? "decline"
        respondMode = context.options["respondMode"]?.stringValue ?? "decline"
    }

    private func run<Value: Sendable>(_ mode: String, _ handler: CompletionHandler<Value>, _ value: Value, _ second: Value) {
        switch mode {
        case "now": handler(value)
        case "thread": CompletionsOnTheirWay.run { handler(value) }
        case "twice":
            handler(value)
            handler(second)
        case "never": break
        default: handler.decline()
        }
    }

    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>) {
        context.log("willPresent \(notification.identifier) category \(notification.categoryIdentifier) "
                    + "\(JSONValue.object(notification.userInfo).serialized()) while \(application.applicationState)")
        run(presentMode, completionHandler, present, [.badge, .sound, .list, .banner])
    }

    func userNotificationCenter(_ application: Application, didReceive response: NotificationResponse,
                                withCompletionHandler completionHandler: CompletionHandler<Void>) {
        context.log("didReceive \(response.notification.identifier) \(response.actionIdentifier) "
                    + "\(response.userText ?? "(no text)") while \(application.applicationState)")
        run(respondMode, completionHandler, (), ())
    }

    func userNotificationCenter(_ application: Application, openSettingsFor notification: UserNotification?) {
        context.log("openSettings \(notification?.identifier ?? "(none)") while \(application.applicationState)")
    }
}

/// The notification center's events through the C ABI: the same subscriber class, registered
/// in-process and exported by SubscriberPlugin.export then wrapped back by CSubscriber (every call
/// crosses the `adh.notification-center/1` vtable), gives the same results, answers, reports, call
/// order and arguments — and both give the results the event rules say.
@MainActor
@Suite("Notification center through C: same outcomes as in-process", .timeLimit(.minutes(10)))
struct NotificationCenterBridgeTests {
    /// The dispatchers' clock: a deadline passes when ``play(bridged:)`` advances it, once every
    /// completion from a thread arrived.
    let clock = ManualHostClock()

    /// The test plugin of this suite.
    static func descriptor() -> UnsafePointer<adh_plugin_descriptor> {
        SubscriberPlugin.export(id: "com.example.notification-center-tests", name: "Notification center tests",
                                version: "1.0", subscribers: [NotificationProbe.self])
            .assumingMemoryBound(to: adh_plugin_descriptor.self)
    }

    /// The subscribers, in order, and their options.
    static let cast: [(name: String, options: JSONValue)] = [
        ("Prompt", ["present": ["banner"], "presentMode": "now", "respondMode": "now"]),
        ("Threaded", ["present": ["sound"], "presentMode": "thread", "respondMode": "thread"]),
        ("Decliner", ["present": ["badge"], "presentMode": "decline", "respondMode": "decline"]),
        ("Doubler", ["present": ["list"], "presentMode": "twice", "respondMode": "never"]),
        ("Silent", ["present": ["badge"], "presentMode": "never", "respondMode": "twice"]),
    ]

    /// A dispatcher over the cast, in-process or through C, launched and active; deadlines of 400 ms.
    func dispatcher(bridged: Bool, sink: RecordingSink) throws -> (LifecycleDispatcher, [CSubscriber]) {
        let state = ApplicationStateCell()
        var adapters: [CSubscriber] = []
        var registrations: [SubscriberRegistration] = []
        for (name, options) in Self.cast {
            let context = bridgeContext(name, sink: sink, options: options)
            if bridged {
                let adapter = try CSubscriber(creating: NotificationProbe.subscriberName, from: Self.descriptor(),
                                              context: context, state: state)
                adapters.append(adapter)
                registrations.append(SubscriberRegistration(adapter, name: name))
            } else {
                registrations.append(SubscriberRegistration(name: name, subscriber: NotificationProbe(context: context)))
            }
        }
        var configuration = DispatchConfiguration(application: bridgeTestApplication)
        configuration.clock = clock
        try configuration.setDefaultDeadline(.milliseconds(400))
        let dispatcher = LifecycleDispatcher(subscribers: registrations, configuration: configuration, state: state)
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        dispatcher.dispatchAtOnce(.didBecomeActive)
        return (dispatcher, adapters)
    }

    struct Run {
        var presented: EventOutcome<NotificationPresentationOptions>
        var responded: EventOutcome<Void>
        var settings: [EventOutcome<Void>]
        var lateReports: [DispatchReport]
        var lines: [String]
    }

    static let notification = UserNotification(identifier: "breaking-42", userInfo: ["articles": [42], "aps": ["badge": 1]],
                                               categoryIdentifier: "article")

    func play(bridged: Bool) async throws -> Run {
        let sink = RecordingSink()
        let (dispatcher, adapters) = try dispatcher(bridged: bridged, sink: sink)
        defer { adapters.forEach { $0.destroy() } }
        let deadline = Duration.milliseconds(400)
        let presented = await dispatcher.dispatch(.willPresentNotification(Self.notification), advancing: clock, by: deadline)
        let responded = await dispatcher.dispatch(.didReceiveNotificationResponse(
            NotificationResponse(notification: Self.notification, actionIdentifier: "reply", userText: "Merci")), advancing: clock, by: deadline)
        // A response without typed text, and one with empty text, a notification without userInfo or category.
        let bare = UserNotification(identifier: "quiet")
        _ = await dispatcher.dispatch(.didReceiveNotificationResponse(NotificationResponse(notification: bare)), advancing: clock, by: deadline)
        _ = await dispatcher.dispatch(.didReceiveNotificationResponse(
            NotificationResponse(notification: bare, actionIdentifier: NotificationResponse.dismissActionIdentifier, userText: "")),
            advancing: clock, by: deadline)
        let settings = [await dispatcher.dispatch(.openNotificationSettings(for: Self.notification)),
                        await dispatcher.dispatch(.openNotificationSettings(for: nil))]
        return Run(presented: presented, responded: responded, settings: settings,
                   lateReports: dispatcher.takeLateReports(), lines: sink.lines)
    }

    @Test("willPresent, didReceiveResponse and openSettings through C match in-process, and the rules")
    func sameOutcomes() async throws {
        let direct = try await play(bridged: false)
        let bridged = try await play(bridged: true)
        for run in [direct, bridged] {
            // willPresent: the union of what arrived (Doubler's second call and Silent ignored).
            #expect(run.presented.result == [.banner, .sound, .list])
            #expect(run.presented.answerNames == ["Prompt", "Threaded", "Doubler", "Silent"])
            #expect(run.presented.answers(as: NotificationPresentationOptions.self)
                        == [[.banner], [.sound], [.list], nil] as [NotificationPresentationOptions?])
            #expect(Set(run.presented.reports) == [.duplicateCompletion(subscriber: "Doubler", event: .willPresentNotification),
                                                   .late(subscriber: "Silent", event: .willPresentNotification)])
            #expect(run.presented.reports.count == 2)
            // didReceiveResponse: done at the deadline, since Doubler never completes.
            #expect(run.responded.answerNames == ["Prompt", "Threaded", "Doubler", "Silent"])
            #expect(Set(run.responded.reports) == [.late(subscriber: "Doubler", event: .didReceiveNotificationResponse),
                                                   .duplicateCompletion(subscriber: "Silent", event: .didReceiveNotificationResponse)])
            #expect(run.responded.reports.count == 2)
            // openSettings: every subscriber, no reports.
            #expect(run.settings.allSatisfy { $0.answerNames == Self.cast.map(\.name) && $0.reports.isEmpty })
            #expect(run.lateReports.isEmpty)
        }
        #expect(bridged.lines == direct.lines)
        // Every call in order, with its arguments and the state the subscriber saw.
        let names = Self.cast.map(\.name)
        let userInfo = JSONValue.object(Self.notification.userInfo).serialized()
        #expect(direct.lines == names.map { "[\($0)] info: willPresent breaking-42 category article \(userInfo) while active" }
                    + names.map { "[\($0)] info: didReceive breaking-42 reply Merci while active" }
                    + names.map { "[\($0)] info: didReceive quiet \(NotificationResponse.defaultActionIdentifier) (no text) while active" }
                    + names.map { "[\($0)] info: didReceive quiet \(NotificationResponse.dismissActionIdentifier)  while active" }
                    + names.map { "[\($0)] info: openSettings breaking-42 while active" }
                    + names.map { "[\($0)] info: openSettings (none) while active" })
    }
}
