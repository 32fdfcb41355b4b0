import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// Dispatch order (registration, then a stable sort by priority) and responding-event sets.
@MainActor
@Suite("Dispatch: order and responders")
struct DispatchOrderTests {
    @Test("higher priority first; equal priorities keep registration order")
    func priorityIsStable() async {
        let log = CallLog()
        let priorities = [("A", 0), ("B", 5), ("C", 0), ("D", 5), ("E", -1), ("F", 0), ("G", 5)]
        let registrations = priorities.map { name, priority in
            SubscriberRegistration(name: name, subscriber: TestSubscriber(name, log: log), priority: priority)
        }
        let dispatcher = LifecycleDispatcher(subscribers: registrations,
                                             configuration: DispatchConfiguration(application: testApplication))
        let expected = ["B", "D", "G", "A", "C", "F", "E"]
        #expect(dispatcher.subscribers.map(\.name) == expected)
        _ = dispatcher.dispatchAtOnce(.didBecomeActive)!
        #expect(log.callers(of: .didBecomeActive) == expected)
        _ = await dispatcher.dispatch(.performFetch)
        #expect(log.callers(of: .performFetch) == expected)
    }

    @Test("a subscriber outside its responding events is skipped: not called, no answer row")
    func respondingEvents() async {
        let log = CallLog()
        let narrow = TestSubscriber("Narrow", log: log)
        narrow.fetch = .now(.failed)
        narrow.answers[.openURL] = true
        let wide = TestSubscriber("Wide", log: log)
        wide.fetch = .now(.newData)
        let dispatcher = LifecycleDispatcher(
            subscribers: [SubscriberRegistration(name: "Narrow", subscriber: narrow, respondingEvents: [.didBecomeActive]),
                          SubscriberRegistration(name: "Wide", subscriber: wide)],
            configuration: DispatchConfiguration(application: testApplication))
        #expect(dispatcher.responderNames(for: .performFetch) == ["Wide"])
        #expect(dispatcher.responderNames(for: .didBecomeActive) == ["Narrow", "Wide"])

        let fetch = await dispatcher.dispatch(.performFetch)
        #expect(fetch.result == .newData)
        #expect(fetch.answerNames == ["Wide"])
        let open = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))!
        #expect(open.result == false)
        #expect(open.answerNames == ["Wide"])
        _ = dispatcher.dispatchAtOnce(.didBecomeActive)!
        #expect(log.entries == ["Wide:performFetch", "Wide:openURL", "Narrow:didBecomeActive", "Wide:didBecomeActive"])
    }

    @Test("an empty responding set makes an event nobody answers: its default")
    func nobodyResponds() async {
        let log = CallLog()
        let subscriber = TestSubscriber("A", log: log)
        subscriber.answers[.willFinishLaunching] = false
        subscriber.fetch = .never
        let dispatcher = LifecycleDispatcher(
            subscribers: [SubscriberRegistration(name: "A", subscriber: subscriber, respondingEvents: [])],
            configuration: DispatchConfiguration(application: testApplication))
        #expect(dispatcher.dispatchAtOnce(.willFinishLaunching())!.result == true)
        #expect(await dispatcher.dispatch(.performFetch).result == .noData)
        #expect(log.entries.isEmpty)
    }
}
