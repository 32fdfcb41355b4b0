import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// The completion rules (docs/events.md): delivered exactly once, duplicates ignored and reported, a deadline
/// with late subscribers counted, any thread, declines, zero responders, calls after delivery.
@MainActor
@Suite("Dispatch: completion rules")
struct DispatchCompletionRuleTests {
    /// The clock the deadlines of ``shortDeadlines()`` are on: they pass when a test advances it.
    let clock = ManualHostClock()

    /// A configuration whose completion events all have a 50 ms deadline, on ``clock``.
    func shortDeadlines() throws -> DispatchConfiguration {
        try configuration(on: clock) { try $0.setDefaultDeadline(.milliseconds(50)) }
    }

    @Test("a completion never called: at the deadline the fetch is delivered, counted as failed, reported late")
    func neverCalled() async throws {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: try shortDeadlines())
        subscribers[0].fetch = .now(.newData)
        subscribers[1].fetch = .never
        let outcome = await dispatcher.dispatch(.performFetch, advancing: clock, by: .milliseconds(50))
        #expect(outcome.result == .failed)
        #expect(outcome.answers(as: BackgroundFetchResult.self) == [BackgroundFetchResult.newData, BackgroundFetchResult.failed])
        #expect(outcome.reports == [.late(subscriber: "B", event: .performFetch)])
    }

    @Test("a deadline set for one event applies to it only")
    func perEventDeadline() async throws {
        let configuration = try configuration(on: clock) { try $0.setDeadline(.milliseconds(50), for: .didReceiveRemoteNotification) }
        #expect(configuration.deadline(for: .didReceiveRemoteNotification) == .milliseconds(50))
        #expect(configuration.deadline(for: .performFetch) == .seconds(30))
        let (dispatcher, _, _) = makeDispatcher(["A"], configuration: configuration) { $0.fetch = .never }
        let outcome = await dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: [:]), advancing: clock, by: .milliseconds(50))
        #expect(outcome.result == .failed)
        #expect(outcome.reports == [.late(subscriber: "A", event: .didReceiveRemoteNotification)])
    }

    @Test("late counts as false for a Bool completion (visible with allTrue)")
    func lateShortcutCountsFalse() async throws {
        var configuration = try shortDeadlines()
        let anyTrue = makeDispatcher(["A", "B"], configuration: configuration)
        anyTrue.subscribers[0].shortcut = .now(true)
        anyTrue.subscribers[1].shortcut = .never
        let first = await anyTrue.dispatcher.dispatch(.performActionForShortcutItem(ShortcutItem(type: "x")), advancing: clock,
                                                      by: .milliseconds(50))
        #expect(first.result == true)
        #expect(first.answers(as: Bool.self) == [true, false])
        #expect(first.reports == [.late(subscriber: "B", event: .performActionForShortcutItem)])

        try configuration.setReconciler(.allTrue, for: .performActionForShortcutItem)
        let allTrue = makeDispatcher(["A", "B"], configuration: configuration)
        allTrue.subscribers[0].shortcut = .now(true)
        allTrue.subscribers[1].shortcut = .never
        #expect(await allTrue.dispatcher.dispatch(.performActionForShortcutItem(ShortcutItem(type: "x")), advancing: clock,
                                                  by: .milliseconds(50)).result == false)
    }

    @Test("late counts as nothing for restoration (never reported: the handler is optional), WatchKit replies and background sessions")
    func lateCountsAsNothing() async throws {
        let configuration = try shortDeadlines()
        let restoring = makeDispatcher(["A", "B"], configuration: configuration) { $0.answers[.continueUserActivity] = true }
        restoring.subscribers[0].restoration = .never
        restoring.subscribers[1].restoration = .now(["b"])
        let continued = await restoring.dispatcher.dispatch(.continueUserActivity(UserActivity(activityType: "reading")),
                                                            advancing: clock, by: .milliseconds(50))
        #expect(continued.result == ContinueUserActivityResult(handled: true, restorableObjects: ["b"]))
        // The restoration handler is optional (UIKit's is): not calling it by the deadline is not late.
        #expect(continued.reports == [])
        #expect(continued.answers(as: ContinueUserActivityResult.self)[0] == ContinueUserActivityResult(handled: true, restorableObjects: nil))

        let replying = makeDispatcher(["A", "B"], configuration: configuration)
        replying.subscribers[0].reply = .never
        replying.subscribers[1].reply = .now(["k": 1])
        let replied = await replying.dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: [:]), advancing: clock,
                                                         by: .milliseconds(50))
        #expect(replied.result == ["k": 1])
        #expect(replied.answers(as: JSONObject.self) == [nil, ["k": 1]])
        #expect(replied.reports == [.late(subscriber: "A", event: .handleWatchKitExtensionRequest)])

        let session = makeDispatcher(["A"], configuration: configuration) { $0.session = .never }
        let done = await session.dispatcher.dispatch(.handleEventsForBackgroundURLSession(identifier: "s"), advancing: clock,
                                                     by: .milliseconds(50))
        #expect(done.answers.map { $0.answer == nil } == [true])
        #expect(done.reports == [.late(subscriber: "A", event: .handleEventsForBackgroundURLSession)])
    }

    @Test("a second call is ignored, reported, and does not deliver early")
    func calledTwice() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"])
        // If A's second call counted, failed would win; if it delivered early, B would be late.
        subscribers[0].fetch = .twice(.noData, .failed)
        subscribers[1].fetch = .later(.newData)
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(outcome.result == .newData)
        #expect(outcome.answers(as: BackgroundFetchResult.self) == [BackgroundFetchResult.noData, BackgroundFetchResult.newData])
        #expect(outcome.reports == [.duplicateCompletion(subscriber: "A", event: .performFetch)])
    }

    @Test("completions from other threads are collected and the result arrives on the main actor")
    func otherThreads() async {
        let (dispatcher, subscribers, _) = makeDispatcher((0..<200).map { "S\($0)" })
        for (index, subscriber) in subscribers.enumerated() {
            subscriber.fetch = index == 137 ? .fromAnotherThread(.failed)
                : index.isMultiple(of: 2) ? .fromAnotherThread(.noData) : .later(.newData)
        }
        let outcome = await dispatcher.dispatch(.performFetch)
        MainActor.assertIsolated()
        #expect(outcome.result == .failed)
        #expect(outcome.answers.count == 200)
        #expect(outcome.reports.isEmpty)
        #expect(subscribers.allSatisfy { $0.threads.calls == [false] })
    }

    @Test("completions called synchronously inside the method deliver at once")
    func synchronous() async {
        let (dispatcher, _, _) = makeDispatcher(["A", "B"]) { $0.fetch = .now(.newData) }
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(outcome.result == .newData)
        #expect(outcome.answers.count == 2)
    }

    @Test("zero responders: every completion event gives its no-answer default at once")
    func zeroResponders() async {
        let none = makeDispatcher([]).dispatcher
        #expect(await none.dispatch(.performFetch).result == .noData)
        #expect(await none.dispatch(.didReceiveRemoteNotification(userInfo: [:])).result == .noData)
        #expect(await none.dispatch(.performActionForShortcutItem(ShortcutItem(type: "x"))).result == false)
        #expect(await none.dispatch(.handleWatchKitExtensionRequest(userInfo: [:])).result == [:])
        #expect(await none.dispatch(.continueUserActivity(UserActivity(activityType: "x"))).result
                    == ContinueUserActivityResult(handled: false, restorableObjects: nil))
        let session = await none.dispatch(.handleEventsForBackgroundURLSession(identifier: "s"))
        #expect(session.answers.isEmpty && session.reports.isEmpty)
    }

    @Test("a decline before returning leaves the subscriber out: not awaited, no answer row")
    func declined() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B"])
        subscribers[0].fetch = .decline
        subscribers[1].fetch = .later(.noData)
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(log.callers(of: .performFetch) == ["A", "B"])
        #expect(outcome.answerNames == ["B"])
        #expect(outcome.result == .noData)
        #expect(outcome.reports.isEmpty)
    }

    @Test("a decline after returning is ignored and reported; the answer still counts")
    func declineAfterReturn() async {
        let (dispatcher, _, _) = makeDispatcher(["A"]) { $0.fetch = .declineAfterReturn(.newData) }
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(outcome.result == .newData)
        #expect(outcome.reports == [.ignoredDecline(subscriber: "A", event: .performFetch)])
    }

    @Test("a completion after declining is ignored and reported")
    func completionAfterDecline() async {
        let (dispatcher, _, _) = makeDispatcher(["A"]) { $0.fetch = .declineThenCall(.failed) }
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(outcome.result == .noData)
        #expect(outcome.answers.isEmpty)
        #expect(outcome.reports == [.completionAfterDecline(subscriber: "A", event: .performFetch)])
    }

    @Test("calls after delivery neither crash nor deliver again; they are reported in the next outcome")
    func callsAfterDelivery() async throws {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: try shortDeadlines())
        subscribers[0].fetch = .now(.noData)
        subscribers[1].fetch = .never
        let outcome = await dispatcher.dispatch(.performFetch, advancing: clock, by: .milliseconds(50))
        #expect(outcome.result == .failed)

        let lateHandler = try #require(subscribers[1].completions[.performFetch])
        let answeredHandler = try #require(subscribers[0].completions[.performFetch])
        lateHandler.complete(BackgroundFetchResult.newData)
        answeredHandler.complete(BackgroundFetchResult.newData)
        lateHandler.decline()
        // From another thread too.
        await withCheckedContinuation { continuation in
            CompletionsOnTheirWay.run {
                lateHandler.complete(BackgroundFetchResult.failed)
                continuation.resume()
            }
        }
        let next = dispatcher.dispatchAtOnce(.didReceiveMemoryWarning)
        // B's two late calls are one report with a count, in the place of the first.
        #expect(next.reports == [
            .completionAfterDelivery(subscriber: "B", event: .performFetch, count: 2),
            .duplicateCompletion(subscriber: "A", event: .performFetch),
            .ignoredDecline(subscriber: "B", event: .performFetch),
        ])
        #expect(dispatcher.takeLateReports().isEmpty)

        lateHandler.complete(BackgroundFetchResult.noData)
        #expect(dispatcher.takeLateReports() == [.completionAfterDelivery(subscriber: "B", event: .performFetch)])
        #expect(dispatcher.dispatchAtOnce(.didReceiveMemoryWarning).reports.isEmpty)
    }
}
