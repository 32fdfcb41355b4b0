import Foundation
import SubscriberKit
import Synchronization
import Testing
@testable import SubscriberHost

/// A transport of the tests' own, neither a loaded plugin nor an in-process handler: what a child
/// process's transport will be to the dispatcher. It answers from a script, keeps every completion
/// it is handed, and records each call in the shared log.
@MainActor
final class ScriptedTransport: ResponderTransport {
    let name: String
    let log: CallLog
    /// Answers of events answered at once (and continueUserActivity's handled Bool), by event; absent: nil.
    var answers: [LifecycleEvent: any Sendable] = [:]
    /// How completions are treated: `nil` keeps them for the test, else completes with the value at once.
    var completeAtOnce: (any Sendable)?
    /// Declines every completion event.
    var declines = false
    /// The last completion of each event, erased: the value must be of the event's answer type.
    var completions: [LifecycleEvent: @Sendable (any Sendable) -> Void] = [:]
    /// The argument shapes it was called with, by event.
    var shapes: [LifecycleEvent: String] = [:]

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }

    var registration: SubscriberRegistration { SubscriberRegistration(name: name, transport: self) }

    func responds(to event: LifecycleEvent) -> Bool { true }

    private func record<A>(_ context: DeliveryContext, _: A.Type) {
        log.entries.append("\(name):\(context.event.name)")
        shapes[context.event] = "\(A.self)"
    }

    func notify<A: ArgumentShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext, _: A.Type) {
        record(context, A.self)
    }

    func answer<A: ArgumentShape, R: ImmediateAnswerShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext,
                                                           into slot: inout R.Answer?, _: A.Type, _: R.Type) {
        record(context, A.self)
        slot = answers[context.event].map { $0 as! R.Answer }
    }

    func complete<A: ArgumentShape, R: CompletionAnswerShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext,
                                                              completion: CompletionHandler<R.Answer>, _: A.Type, _: R.Type) {
        record(context, A.self)
        completions[context.event] = { completion($0 as! R.Answer) }
        if declines { return completion.decline() }
        if let value = completeAtOnce { completion(value as! R.Answer) }
    }

    func restore<A: ArgumentShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext, into slot: inout Bool?,
                                   restoration: CompletionHandler<[String]>, _: A.Type) {
        record(context, A.self)
        completions[context.event] = { restoration($0 as! [String]) }
        slot = answers[context.event] as? Bool
    }
}

/// The transport seam: a responder reached through a ``ResponderTransport`` of its own goes through
/// the same call path as loaded and in-process ones — called in dispatch order, its answers in the
/// same slots, reconciled by the same reconcilers, its completions collected and settled by the
/// same deadline, on the dispatcher's clock.
@MainActor
@Suite("Transport seam: a third kind of responder through the same slots, reconcilers and deadlines")
struct TransportSeamTests {
    /// A dispatcher over in-process subscriber A, the transport T, in-process subscriber B, on a
    /// manual clock, launched and active.
    static func make() -> (LifecycleDispatcher, ScriptedTransport, [TestSubscriber], CallLog, ManualHostClock) {
        make { _ in }
    }

    /// The same, its configuration adjusted by `configure`.
    static func make(configure: (inout DispatchConfiguration) throws -> Void) rethrows
        -> (LifecycleDispatcher, ScriptedTransport, [TestSubscriber], CallLog, ManualHostClock)
    {
        let log = CallLog()
        let clock = ManualHostClock()
        let transport = ScriptedTransport("T", log: log)
        let subscribers = [TestSubscriber("A", log: log), TestSubscriber("B", log: log)]
        var configuration = DispatchConfiguration(application: testApplication)
        configuration.clock = clock
        try configure(&configuration)
        let dispatcher = LifecycleDispatcher(
            subscribers: [subscribers[0].registration(), transport.registration, subscribers[1].registration()],
            configuration: configuration)
        dispatcher.launch()
        log.entries = []
        return (dispatcher, transport, subscribers, log, clock)
    }

    @Test("every event of the table reaches the transport, in dispatch order, with the row's argument shape")
    func everyEvent() {
        var reached = 0
        for call in oneCallPerEvent {
            // A dispatcher of its own per event: one event (willTerminate) ends what may come after.
            let (dispatcher, transport, _, log, _) = Self.make()
            guard dispatcher.prepare(for: call.event) else { continue }
            log.entries = []
            dispatcher.dispatchAtOnce(call)
            #expect(log.callers(of: call.event) == ["A", "T", "B"], "\(call.event)")
            #expect(transport.shapes[call.event] == call.event.row.argumentShape, "\(call.event)")
            reached += 1
        }
        // Every event but the launch ones (the app launched already).
        let launchEvents = EventTable.rows.filter { if case .launch = $0.state { true } else { false } }.count
        #expect(reached == EventTable.rows.count - launchEvents)
    }

    @Test("an answer at once goes into its slot: reconciled with the others, named in the rows")
    func answerAtOnce() {
        let (dispatcher, transport, subscribers, _, _) = Self.make()
        transport.answers[.openURL] = true
        let opened = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://1")!))
        #expect(opened.result == true)
        #expect(opened.answerPairs == ["A": nil, "T": true, "B": nil])
        subscribers[1].answers[.openURL] = false
        #expect(dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://2")!)).answers(as: Bool.self) == [nil, true, false])
        // Reconciled by the row's reconciler with the others: the intersection of the masks.
        subscribers[0].orientations = .allButUpsideDown
        transport.answers[.supportedInterfaceOrientations] = ([.portrait, .portraitUpsideDown] as InterfaceOrientationMask)
        let masks = dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone))
        #expect(masks.result == .portrait)
        #expect(masks.answerNames == ["A", "T", "B"])
    }

    @Test("a completion answered inside the call settles at once; one kept settles when it arrives, once")
    func completions() async throws {
        let (dispatcher, transport, subscribers, _, _) = Self.make()
        subscribers.forEach { $0.fetch = .now(.noData) }
        transport.completeAtOnce = BackgroundFetchResult.newData
        let atOnce = Deliveries<BackgroundFetchResult>()
        dispatcher.dispatchAtOnce(.performFetch, whenDelivered: atOnce.handler)
        #expect(atOnce.outcomes.count == 1, "every slot filled before the calls returned: delivered at once")
        #expect(atOnce.outcomes.first?.result == .newData)
        #expect(atOnce.outcomes.first?.answerNames == ["A", "T", "B"])

        transport.completeAtOnce = nil
        let later = Deliveries<BackgroundFetchResult>()
        dispatcher.dispatchAtOnce(.performFetch, whenDelivered: later.handler)
        #expect(later.outcomes.isEmpty)
        let complete = try #require(transport.completions[.performFetch])
        await onAnotherThread { complete(BackgroundFetchResult.failed) }
        let delivered = try #require(await later.first())
        #expect(delivered.result == .failed)
        #expect(delivered.reports.isEmpty)
        complete(BackgroundFetchResult.newData)
        #expect(dispatcher.takeLateReports() == [.duplicateCompletion(subscriber: "T", event: .performFetch)])
        #expect(later.outcomes.count == 1)
    }

    @Test("a kept completion is late exactly at the deadline on the dispatcher's clock, not a nanosecond before")
    func deadline() async throws {
        let (dispatcher, transport, subscribers, _, clock) = try Self.make {
            try $0.setDeadline(.seconds(30), for: .performFetch)
        }
        subscribers.forEach { $0.fetch = .now(.noData) }
        let fetched = Deliveries<BackgroundFetchResult>()
        dispatcher.dispatchAtOnce(.performFetch, whenDelivered: fetched.handler)
        #expect(clock.armedTimerCount == 0, "nothing armed until the dispatcher waits")
        await fetched.wait(until: { clock.armedTimerCount == 1 })
        clock.advance(by: .seconds(30) - .nanoseconds(1))
        #expect(clock.armedTimerCount == 1, "the deadline has not passed")
        await settle()
        #expect(fetched.outcomes.isEmpty)
        clock.advance(by: .nanoseconds(1))
        let delivered = try #require(await fetched.first())
        #expect(delivered.reports == [.late(subscriber: "T", event: .performFetch)])
        #expect(delivered.answerNames == ["A", "T", "B"])
        #expect(delivered.result == .failed, "late counts as the row's late value")
        #expect(delivered.answers(as: BackgroundFetchResult.self) == [BackgroundFetchResult.noData, .failed, .noData])
        _ = transport
    }

    @Test("a decline settles its slot before the call returns: not awaited, no row")
    func decline() {
        let (dispatcher, transport, subscribers, _, _) = Self.make()
        subscribers.forEach { $0.fetch = .now(.newData) }
        transport.declines = true
        let fetched = Deliveries<BackgroundFetchResult>()
        dispatcher.dispatchAtOnce(.performFetch, whenDelivered: fetched.handler)
        #expect(fetched.outcomes.count == 1)
        #expect(fetched.outcomes.first?.answerNames == ["A", "B"])
    }

    @Test("continueUserActivity: the handled Bool into its slot at once, the restoration lists later through the collector")
    func restoration() async throws {
        let (dispatcher, transport, subscribers, _, _) = Self.make()
        subscribers[0].answers[.continueUserActivity] = false
        transport.answers[.continueUserActivity] = true
        let deliveries = Deliveries<ContinueUserActivityResult>()
        let activity = UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/a"))
        let now = dispatcher.dispatchAtOnce(.continueUserActivity(activity), whenDelivered: deliveries.handler)
        #expect(now.result == true)
        #expect(deliveries.outcomes.isEmpty)
        let restore = try #require(transport.completions[.continueUserActivity])
        await onAnotherThread { restore(["article"]) }
        let delivered = try #require(await deliveries.first())
        #expect(delivered.result == ContinueUserActivityResult(handled: true, restorableObjects: ["article"]))
    }
}

/// Lets tasks already enqueued on the main actor run (a delivery the clock just made possible).
@MainActor
func settle() async {
    for _ in 0..<20 { await Task.yield() }
}
