import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// Dispatch order (registration, then a stable sort by priority) and responding-event sets.
@MainActor
@Suite("Dispatch: order and responders")
struct DispatchOrderTests {
    @Test("the test calls cover every event of the table, once each")
    func everyEventCallsCoverTheTable() {
        #expect(oneCallPerEvent.map(\.event) == LifecycleEvent.allCases)
    }

    @Test("higher priority first; equal priorities keep registration order")
    func priorityIsStable() async {
        let log = CallLog()
        let priorities = [("A", 0), ("B", 5), ("C", 0), ("D", 5), ("E", -1), ("F", 0), ("G", 5)]
        let registrations = priorities.map { name, priority in
            TestSubscriber(name, log: log).registration(priority: priority)
        }
        let dispatcher = LifecycleDispatcher(subscribers: registrations,
                                             configuration: DispatchConfiguration(application: testApplication))
        let expected = ["B", "D", "G", "A", "C", "F", "E"]
        #expect(dispatcher.subscribers.map(\.name) == expected)
        dispatcher.launch()
        #expect(log.callers(of: .didBecomeActive) == expected)
        _ = await dispatcher.dispatch(.performFetch)
        #expect(log.callers(of: .performFetch) == expected)
    }

    // Was: a registration narrowed a TestSubscriber (which answered every event) with
    // `respondingEvents: [.didBecomeActive]`. The responding events now come from the protocols the
    // type adopts: Narrow adopts only DidBecomeActiveSubscriber and has fetch and openURL methods of
    // the right shape that are therefore never called.
    @Test("a subscriber outside its responding events is skipped: not called, no answer row")
    func respondingEvents() async {
        let log = CallLog()
        let narrow = Narrow("Narrow", log: log)
        let wide = TestSubscriber("Wide", log: log)
        wide.fetch = .now(.newData)
        let dispatcher = LifecycleDispatcher(
            subscribers: [SubscriberRegistration(name: "Narrow", subscriber: narrow), wide.registration()],
            configuration: DispatchConfiguration(application: testApplication))
        dispatcher.dispatchAtOnce(.didFinishLaunching())
        log.entries = []
        #expect(dispatcher.subscribers[0].respondingEvents == [.didBecomeActive])
        #expect(dispatcher.responderNames(for: .performFetch) == ["Wide"])
        #expect(dispatcher.responderNames(for: .didBecomeActive) == ["Narrow", "Wide"])

        let fetch = await dispatcher.dispatch(.performFetch)
        #expect(fetch.result == .newData)
        #expect(fetch.answerNames == ["Wide"])
        let open = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))
        #expect(open.result == false)
        #expect(open.answerNames == ["Wide"])
        _ = dispatcher.dispatchAtOnce(.didBecomeActive)
        #expect(log.entries == ["Wide:performFetch", "Wide:openURL", "Narrow:didBecomeActive", "Wide:didBecomeActive"])
    }

    // Was: `respondingEvents: []` on a TestSubscriber's registration. Now: a type adopting no event
    // protocol, whose methods have the shapes of willFinishLaunching and performFetch.
    @Test("a subscriber adopting no event protocol makes every event one nobody answers: its default")
    func nobodyResponds() async {
        let log = CallLog()
        let subscriber = Unadopted("A", log: log)
        let registration = SubscriberRegistration(name: "A", subscriber: subscriber)
        #expect(registration.respondingEvents.isEmpty)
        let dispatcher = LifecycleDispatcher(subscribers: [registration],
                                             configuration: DispatchConfiguration(application: testApplication))
        #expect(dispatcher.dispatchAtOnce(.willFinishLaunching()).result == true)
        dispatcher.dispatchAtOnce(.didBecomeActive)
        #expect(await dispatcher.dispatch(.performFetch).result == .noData)
        #expect(log.entries.isEmpty)
    }

    @Test("a subscriber adopting two event protocols gets only those two: no call and no answer row for the others")
    func twoProtocolsOnly() async {
        let log = CallLog()
        let pair = FetchAndOpen("Pair", log: log)
        let registration = SubscriberRegistration(name: "Pair", subscriber: pair)
        #expect(registration.respondingEvents == [.performFetch, .openURL])
        #expect(LifecycleEvent.allCases.filter { registration.responds(to: $0) } == [.performFetch, .openURL])
        let dispatcher = LifecycleDispatcher(subscribers: [registration],
                                             configuration: DispatchConfiguration(application: testApplication))
        for call in oneCallPerEvent where dispatcher.prepare(for: call.event) {
            log.entries = []
            let outcome = await dispatcher.dispatch(call)
            let adopted = call.event == .performFetch || call.event == .openURL
            #expect(outcome.answerNames == (adopted ? ["Pair"] : []), "\(call.event)")
            #expect(dispatcher.responderNames(for: call.event) == (adopted ? ["Pair"] : []), "\(call.event)")
        }
    }
}

/// Adopts only DidBecomeActiveSubscriber; its fetch and openURL methods have the protocols' shapes
/// but, with no protocol adopted for them, are never called.
@MainActor
final class Narrow: AppDelegateSubscriber, DidBecomeActiveSubscriber {
    let name: String
    let log: CallLog
    init(_ name: String, log: CallLog) { (self.name, self.log) = (name, log) }

    func applicationDidBecomeActive(_ application: Application) { log.entries.append("\(name):didBecomeActive") }
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        log.entries.append("\(name):performFetch")
        completionHandler(.failed)
    }
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        log.entries.append("\(name):openURL")
        return true
    }
}

/// Adopts no event protocol; has methods of the shapes of willFinishLaunching and performFetch.
@MainActor
final class Unadopted: AppDelegateSubscriber {
    let name: String
    let log: CallLog
    init(_ name: String, log: CallLog) { (self.name, self.log) = (name, log) }

    func application(_ application: Application, willFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        log.entries.append("\(name):willFinishLaunching")
        return false
    }
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        log.entries.append("\(name):performFetch")
    }
}

/// Adopts PerformFetchSubscriber and OpenURLSubscriber, and has methods of other events' shapes too.
@MainActor
final class FetchAndOpen: AppDelegateSubscriber, PerformFetchSubscriber, OpenURLSubscriber {
    let name: String
    let log: CallLog
    init(_ name: String, log: CallLog) { (self.name, self.log) = (name, log) }

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        log.entries.append("\(name):performFetch")
        completionHandler(.newData)
    }
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        log.entries.append("\(name):openURL")
        return true
    }
    func applicationDidBecomeActive(_ application: Application) { log.entries.append("\(name):didBecomeActive") }
    func application(_ application: Application, didFinishLaunchingWithOptions launchOptions: LaunchOptions) -> Bool? {
        log.entries.append("\(name):didFinishLaunching")
        return false
    }
    func application(_ application: Application, handleWatchKitExtensionRequest userInfo: JSONObject,
                     reply: CompletionHandler<JSONObject>) {
        log.entries.append("\(name):handleWatchKitExtensionRequest")
        reply(["k": 1])
    }
}
