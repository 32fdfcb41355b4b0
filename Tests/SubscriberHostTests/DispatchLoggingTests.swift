import Foundation
import SubscriberHost
import SubscriberKit
import Synchronization
import Testing

/// A subscriber made from a context: logs through it at creation and on events.
final class ChattySubscriber: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber,
    PerformFetchSubscriber {
    override class var subscriberName: String { "Chatty" }

    required init(context: SubscriberContext) {
        super.init(context: context)
        log("created with \(context.options["endpoint"]?.stringValue ?? "no endpoint")", level: .debug)
    }

    func applicationDidBecomeActive(_ application: Application) {
        logEvent("session_started", attributes: ["app": .string(application.name)])
    }

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        let context = context
        CompletionsOnTheirWay.run {
            context.logError("fetch failed", attributes: ["status": 503])
            completionHandler(.failed)
        }
    }
}

/// HostLogRecorder and registering a subscriber type with a context made by the host.
@MainActor
@Suite("Dispatch: logging and registration")
struct DispatchLoggingTests {
    @Test("registering a type builds its context: name, app info, options, and the host's sink")
    func registerType() async {
        let forwarded = Mutex<[String]>([])
        let recorder = HostLogRecorder { record in forwarded.withLock { $0.append(record.description) } }
        let registration = SubscriberRegistration(ChattySubscriber.self, application: testApplication,
                                                  options: ["endpoint": "https://collect.example.com"], sink: recorder,
                                                  priority: 3)
        #expect(registration.name == "Chatty")
        #expect(registration.priority == 3)
        let renamed = SubscriberRegistration(ChattySubscriber.self, name: "Chatty2", application: testApplication, sink: recorder)
        #expect(renamed.name == "Chatty2")

        let dispatcher = LifecycleDispatcher(subscribers: [registration],
                                             configuration: DispatchConfiguration(application: testApplication))
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        dispatcher.dispatchAtOnce(.didBecomeActive)
        let fetch = await dispatcher.dispatch(.performFetch)
        #expect(fetch.result == .failed)

        let records = recorder.drain()
        #expect(records.map(\.subscriber) == ["Chatty", "Chatty2", "Chatty", "Chatty"])
        #expect(records.map(\.kind) == [.log, .log, .event, .error])
        #expect(records.map(\.level) == [.debug, .debug, .info, .error])
        #expect(records.map(\.message) == ["created with https://collect.example.com", "created with no endpoint",
                                           "session_started", "fetch failed"])
        #expect(records.map(\.attributes) == [[:], [:], ["app": "News"], ["status": 503]])
        #expect(recorder.drain().isEmpty)
        #expect(forwarded.withLock { $0 } == [
            "[Chatty] debug: created with https://collect.example.com", "[Chatty2] debug: created with no endpoint",
            #"[Chatty] event session_started {"app":"News"}"#, #"[Chatty] error: fetch failed {"status":503}"#,
        ])
    }

    @Test("records from many threads are all kept; a forwarding-only recorder keeps none")
    func threadSafe() async {
        let recorder = HostLogRecorder()
        let counted = Mutex(0)
        let forwardOnly = HostLogRecorder(retaining: false) { _ in counted.withLock { $0 += 1 } }
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for line in 0..<250 {
                        recorder.log(subscriber: "T\(task)", level: .info, message: "\(line)")
                        forwardOnly.logEvent(subscriber: "T\(task)", name: "e", attributes: [:])
                    }
                }
            }
        }
        let records = recorder.recorded
        #expect(records.count == 2_000)
        for task in 0..<8 {
            #expect(records.filter { $0.subscriber == "T\(task)" }.map(\.message) == (0..<250).map(String.init))
        }
        #expect(forwardOnly.drain().isEmpty)
        #expect(counted.withLock { $0 } == 2_000)
    }
}
