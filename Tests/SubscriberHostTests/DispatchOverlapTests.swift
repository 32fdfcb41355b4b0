import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The overlap rule (LifecycleDispatcher): an event dispatched while an earlier one waits for
/// completions is delivered at once; the earlier one's completions still arrive, are delivered
/// exactly once, to the earlier event's outcome; subscribers are called in dispatch order.
@MainActor
@Suite("Dispatch: events overlapping an event that awaits completions", .timeLimit(.minutes(10)))
struct DispatchOverlapTests {
    @Test("two performFetch in flight: each gets its own result; the first's completions arrive after the second was delivered")
    func twoFetches() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B"]) { $0.fetch = .never }
        let first = Deliveries<BackgroundFetchResult>()
        let firstNow = dispatcher.dispatchAtOnce(.performFetch, whenDelivered: first.handler)
        let a1 = try #require(subscribers[0].completions[.performFetch])
        let b1 = try #require(subscribers[1].completions[.performFetch])
        let second = Deliveries<BackgroundFetchResult>()
        let secondNow = dispatcher.dispatchAtOnce(.performFetch, whenDelivered: second.handler)
        let a2 = try #require(subscribers[0].completions[.performFetch])
        let b2 = try #require(subscribers[1].completions[.performFetch])
        // The second was delivered at once, in dispatch order, although the first still waits.
        #expect(log.entries == ["A:performFetch", "B:performFetch", "A:performFetch", "B:performFetch"])
        #expect(firstNow.reports.isEmpty && secondNow.reports.isEmpty)

        a2.complete(BackgroundFetchResult.newData)
        await onAnotherThread { b2.complete(BackgroundFetchResult.noData) }
        let secondOutcome = try #require(await second.first())
        #expect(secondOutcome.result == .newData)
        #expect(secondOutcome.answers(as: BackgroundFetchResult.self) == [BackgroundFetchResult.newData, .noData])
        #expect(secondOutcome.reports.isEmpty)
        #expect(first.outcomes.isEmpty, "the first was delivered with the second's completions")

        // The first's completions, after the second was delivered: to the first, once.
        await onAnotherThread { a1.complete(BackgroundFetchResult.failed) }
        b1.complete(BackgroundFetchResult.noData)
        let firstOutcome = try #require(await first.first())
        #expect(firstOutcome.result == .failed)
        #expect(firstOutcome.answers(as: BackgroundFetchResult.self) == [BackgroundFetchResult.failed, .noData])
        #expect(firstOutcome.reports.isEmpty)

        await letEverythingRun()
        #expect(first.outcomes.count == 1 && second.outcomes.count == 1)
        #expect(dispatcher.takeLateReports().isEmpty)
    }

    @Test("two awaited dispatch calls: the later one returns first when its completions come first")
    func twoAwaitedDispatches() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A"]) { $0.fetch = .never }
        let firstTask = Task { await dispatcher.dispatch(.performFetch) }
        while log.entries.count < 1 { await Task.yield() }
        let a1 = try #require(subscribers[0].completions[.performFetch])
        let secondTask = Task { await dispatcher.dispatch(.performFetch) }
        while log.entries.count < 2 { await Task.yield() }
        let a2 = try #require(subscribers[0].completions[.performFetch])

        await onAnotherThread { a2.complete(BackgroundFetchResult.newData) }
        let secondOutcome = await secondTask.value
        #expect(secondOutcome.result == .newData)
        a1.complete(BackgroundFetchResult.failed)
        let firstOutcome = await firstTask.value
        #expect(firstOutcome.result == .failed)
        #expect(firstOutcome.reports.isEmpty && secondOutcome.reports.isEmpty)
    }

    @Test("events of other kinds dispatched meanwhile are delivered at once, in order; the waiting one is delivered once, intact")
    func otherEventsMeanwhile() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B"])
        subscribers[0].fetch = .never
        subscribers[1].fetch = .now(.noData)
        subscribers[0].answers[.openURL] = true
        let fetch = Deliveries<BackgroundFetchResult>()
        dispatcher.dispatchAtOnce(.performFetch, whenDelivered: fetch.handler)
        let pending = try #require(subscribers[0].completions[.performFetch])

        let memory = dispatcher.dispatchAtOnce(.didReceiveMemoryWarning)
        let opened = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://article/1")!))
        let resigned = await dispatcher.dispatch(.willResignActive)
        #expect(memory.reports.isEmpty && opened.reports.isEmpty && resigned.reports.isEmpty)
        #expect(opened.result == true)
        #expect(resigned.applicationState == .inactive)
        #expect(log.entries == ["A:performFetch", "B:performFetch", "A:didReceiveMemoryWarning", "B:didReceiveMemoryWarning",
                                "A:openURL", "B:openURL", "A:willResignActive", "B:willResignActive"])
        #expect(fetch.outcomes.isEmpty)

        pending.complete(BackgroundFetchResult.newData)
        let delivered = try #require(await fetch.first())
        #expect(delivered.event == .performFetch)
        #expect(delivered.result == .newData)
        #expect(delivered.answerNames == ["A", "B"])
        await letEverythingRun()
        #expect(fetch.outcomes.count == 1)
    }

    @Test("two completion events of different deadlines in flight: each delivered at its own moment, its late report in its own outcome")
    func differentDeadlines() async throws {
        let clock = ManualHostClock()
        let short = try configuration(on: clock) {
            try $0.setDeadline(.milliseconds(50), for: .willPresentNotification)
            try $0.setDeadline(.seconds(20), for: .performFetch)
        }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: short)
        subscribers[0].presentation = .never
        subscribers[1].presentation = .now([.banner])
        subscribers[0].fetch = .now(.noData)
        subscribers[1].fetch = .never
        let presented = Deliveries<NotificationPresentationOptions>()
        let fetched = Deliveries<BackgroundFetchResult>()
        dispatcher.dispatchAtOnce(.performFetch, whenDelivered: fetched.handler)
        let pendingFetch = try #require(subscribers[1].completions[.performFetch])
        dispatcher.dispatchAtOnce(.willPresentNotification(UserNotification(identifier: "n")), whenDelivered: presented.handler)

        // Both deadlines armed; 50 ms passes: the presentation's, not the fetch's.
        await clock.advance(by: .milliseconds(50), onceArmed: 2)
        let presentation = try #require(await presented.first())
        #expect(presentation.result == [.banner])
        #expect(presentation.reports == [.late(subscriber: "A", event: .willPresentNotification)])
        #expect(fetched.outcomes.isEmpty, "performFetch's 20 s deadline has not passed")
        #expect(clock.armedTimerCount == 1)

        await onAnotherThread { pendingFetch.complete(BackgroundFetchResult.newData) }
        let fetch = try #require(await fetched.first())
        #expect(fetch.result == .newData)
        #expect(!fetch.reports.contains(.late(subscriber: "B", event: .performFetch)))
        #expect(!fetch.reports.contains(.late(subscriber: "A", event: .willPresentNotification)))
        await letEverythingRun()
        #expect(presented.outcomes.count == 1 && fetched.outcomes.count == 1)
    }

    @Test("the earlier event's outcome keeps its own application state, not the one later events moved to")
    func earlierOutcomeKeepsItsState() async throws {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"]) { $0.fetch = .never }
        let fetch = Deliveries<BackgroundFetchResult>()
        let now = dispatcher.dispatchAtOnce(.performFetch, whenDelivered: fetch.handler)
        #expect(now.applicationState == .active)
        let pending = try #require(subscribers[0].completions[.performFetch])
        #expect(dispatcher.dispatchAtOnce(.willResignActive).applicationState == .inactive)
        #expect(dispatcher.dispatchAtOnce(.didEnterBackground).applicationState == .background)

        pending.complete(BackgroundFetchResult.newData)
        let delivered = try #require(await fetch.first())
        #expect(delivered.result == .newData)
        #expect(delivered.applicationState == .active)
    }
}
