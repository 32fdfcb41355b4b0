import Foundation
import SubscriberHost
import SubscriberKit
import Synchronization
import Testing

/// Counts, per name, the cleanups a subscriber registered with `onAbandon` that ran.
final class AbandonCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// A cleanup that counts one abandonment of `name`.
    func cleanup(_ name: String) -> @Sendable () -> Void {
        { [self] in counts.withLock { $0[name, default: 0] += 1 } }
    }

    /// How many of `name`'s cleanups ran.
    func count(_ name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
}

/// A subscriber that registers an abandonment cleanup inside its completion methods (as the C
/// bridge does), then calls at once or never.
@MainActor
final class AbandonProbe: AppDelegateSubscriber, PerformFetchSubscriber, ContinueUserActivitySubscriber {
    let name: String
    let counter: AbandonCounter
    /// Whether to call the completion inside the method.
    let answers: Bool
    /// What continueUserActivity returns.
    var continues: Bool? = true

    init(_ name: String, counter: AbandonCounter, answers: Bool) {
        self.name = name
        self.counter = counter
        self.answers = answers
    }

    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        completionHandler.onAbandon(counter.cleanup(name))
        if answers { completionHandler(.newData) }
    }

    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        restorationHandler.onAbandon(counter.cleanup(name))
        return continues
    }
}

/// The dispatcher stops waiting for a handler at the deadline (or when the answer says it will not
/// call) and runs what was registered with `onAbandon`, so a forwarder can free what it holds.
@MainActor
@Suite("Dispatch: abandoned completion handlers", .timeLimit(.minutes(1)))
struct DispatchAbandonTests {
    func dispatcher(_ probes: [AbandonProbe]) throws -> LifecycleDispatcher {
        let configuration = try configuration { try $0.setDefaultDeadline(.milliseconds(20)) }
        return LifecycleDispatcher(subscribers: probes.map { SubscriberRegistration(name: $0.name, subscriber: $0) },
                                   configuration: configuration)
    }

    @Test("at the deadline, only the handlers still waiting are abandoned, once each")
    func deadlineAbandonsTheWaiting() async throws {
        let counter = AbandonCounter()
        let dispatcher = try dispatcher([AbandonProbe("prompt", counter: counter, answers: true),
                                         AbandonProbe("silent", counter: counter, answers: false)])
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(outcome.reports == [.late(subscriber: "silent", event: .performFetch)])
        #expect(counter.count("silent") == 1)
        #expect(counter.count("prompt") == 0)
    }

    @Test("a cleanup registered after the handler was abandoned runs at once; after an answer, never")
    func registrationAfterDelivery() async throws {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: try configuration {
            try $0.setDefaultDeadline(.milliseconds(20))
        })
        subscribers[0].fetch = .now(.noData)
        subscribers[1].fetch = .never
        _ = await dispatcher.dispatch(.performFetch)
        let counter = AbandonCounter()
        try #require(subscribers[0].fetchHandler).onAbandon(counter.cleanup("A"))
        try #require(subscribers[1].fetchHandler).onAbandon(counter.cleanup("B"))
        #expect(counter.count("A") == 0)
        #expect(counter.count("B") == 1)
    }

    @Test("a restoration handler whose subscriber did not return true is abandoned at once")
    func notContinuingAbandons() async throws {
        let counter = AbandonCounter()
        let yes = AbandonProbe("yes", counter: counter, answers: false)
        let no = AbandonProbe("no", counter: counter, answers: false)
        no.continues = false
        let dispatcher = try dispatcher([yes, no])
        let outcome = await dispatcher.dispatch(.continueUserActivity(UserActivity(activityType: "a")))
        #expect(outcome.result.continuedActivity?.handled == true)
        #expect(counter.count("no") == 1)
        // "yes" returned true and never called: abandoned at the deadline, once.
        #expect(counter.count("yes") == 1)
    }

    @Test("a handler made by CompletionHandler(_:onDecline:) is never abandoned")
    func plainHandlersIgnoreOnAbandon() {
        let counter = AbandonCounter()
        let handler = CompletionHandler<Void>({ _ in })
        handler.onAbandon(counter.cleanup("plain"))
        #expect(counter.count("plain") == 0)
    }
}
