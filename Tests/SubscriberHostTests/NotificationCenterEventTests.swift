import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The notification center's events (UNUserNotificationCenterDelegate), one by one: each event's
/// reconciler and another fitting one, what nobody answering gives, that every responder is called
/// in order after the answer is decided, completions exactly once, the deadline, declines, and
/// completions from other threads. The events are the table's notification family; each has its
/// own tests here (``familyIsCovered()`` fails when the family grows and this suite does not).
@MainActor
@Suite("Notification center: each event", .timeLimit(.minutes(10)))
struct NotificationCenterEventTests {
    static let family = LifecycleEvent.allCases.filter { $0.family == "notifications" }

    static let breaking = UserNotification(identifier: "breaking-42", userInfo: ["articles": [42]], categoryIdentifier: "article")
    static let response = NotificationResponse(notification: breaking, actionIdentifier: "reply", userText: "Thanks")

    /// A dispatcher (launched and active) whose completion events have a `milliseconds` deadline.
    static func shortDeadline(_ milliseconds: Int, for event: LifecycleEvent) throws -> DispatchConfiguration {
        try configuration { try $0.setDeadline(.milliseconds(milliseconds), for: event) }
    }

    @Test("every event of the table's notification family has its own tests here")
    func familyIsCovered() {
        // The events this suite tests one by one. A new event of the family fails this test until it has its own.
        let covered: Set<LifecycleEvent> = [.willPresentNotification, .didReceiveNotificationResponse, .openNotificationSettings]
        #expect(!Self.family.isEmpty)
        #expect(Set(Self.family) == covered)
        // Each is delivered by the rows' own kinds: two through completions, one a plain notification.
        #expect(LifecycleEvent.willPresentNotification.answersThroughCompletion)
        #expect(LifecycleEvent.didReceiveNotificationResponse.answersThroughCompletion)
        #expect(!LifecycleEvent.openNotificationSettings.answersThroughCompletion)
    }

    // MARK: notifications.willPresent

    @Test("willPresent: the union of the options, whichever thread and moment each arrives")
    func willPresentUnion() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C", "D"])
        subscribers[0].presentation = .now([.banner])
        subscribers[1].presentation = .fromAnotherThread([.sound])
        subscribers[2].presentation = .later([.badge, .banner])
        subscribers[3].presentation = .now([])
        let outcome = await dispatcher.dispatch(.willPresentNotification(Self.breaking))
        #expect(outcome.result == [.banner, .sound, .badge])
        #expect(log.callers(of: .willPresentNotification) == ["A", "B", "C", "D"])
        #expect(outcome.answers(as: NotificationPresentationOptions.self)
                    == [[.banner], [.sound], [.badge, .banner], []] as [NotificationPresentationOptions?])
        #expect(outcome.reports.isEmpty)
        #expect(subscribers[1].threads.calls == [false])
        // The notification reaches every responder as written.
        #expect(subscribers.allSatisfy { $0.arguments.count == 1 && $0.arguments[0].contains("breaking-42") })
    }

    @Test("willPresent: every responder is called, in order, after one answered every option")
    func willPresentCallsEveryone() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].presentation = .now([.badge, .sound, .list, .banner])
        subscribers[1].presentation = .now([.list])
        subscribers[2].presentation = .decline
        let outcome = await dispatcher.dispatch(.willPresentNotification(Self.breaking))
        #expect(outcome.result == [.badge, .sound, .list, .banner])
        #expect(log.callers(of: .willPresentNotification) == ["A", "B", "C"])
        #expect(outcome.answerNames == ["A", "B"])
    }

    @Test("willPresent: firstAnswer (chosen) takes the first answer in subscriber order, not the first to arrive; everyone is still called")
    func willPresentFirstAnswer() async throws {
        #expect(LifecycleEvent.willPresentNotification.defaultReconciler == .union)
        #expect(LifecycleEvent.willPresentNotification.fittingReconcilers.contains(.firstAnswer))
        let chosen = try configuration { try $0.setReconciler(.firstAnswer, for: .willPresentNotification) }
        #expect(chosen.reconciler(for: .willPresentNotification) == .firstAnswer)
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C", "D"], configuration: chosen)
        subscribers[0].presentation = .decline
        subscribers[1].presentation = .later([.sound])  // first in order, arrives last
        subscribers[2].presentation = .now([.banner])  // first to arrive
        subscribers[3].presentation = .now([.list, .badge])
        let outcome = await dispatcher.dispatch(.willPresentNotification(Self.breaking))
        #expect(outcome.result == [.sound])
        #expect(log.callers(of: .willPresentNotification) == ["A", "B", "C", "D"])
        #expect(outcome.answers(as: NotificationPresentationOptions.self)
                    == [[.sound], [.banner], [.list, .badge]] as [NotificationPresentationOptions?])

        // Nobody answering under firstAnswer is still "no options".
        let nobody = makeDispatcher(["A"], configuration: chosen)
        #expect(await nobody.dispatcher.dispatch(.willPresentNotification(Self.breaking)).result == [])
    }

    @Test("willPresent: a reconciler of another answer type is refused, saying what fits")
    func willPresentMismatch() {
        var configuration = DispatchConfiguration(application: testApplication)
        #expect(throws: DispatchConfigurationError.self) {
            try configuration.setReconciler(.anyTrue, for: .willPresentNotification)
        }
        #expect(throws: DispatchConfigurationError.self) {
            try configuration.setReconciler(.merge, for: .willPresentNotification)
        }
        #expect(configuration.reconciler(for: .willPresentNotification) == .union)
    }

    @Test("willPresent: nobody answers gives no options, at once (whenDelivered runs before dispatchAtOnce returns)")
    func willPresentNobody() async {
        let declining = makeDispatcher(["A", "B"])
        let deliveries = Deliveries<NotificationPresentationOptions>()
        declining.dispatcher.dispatchAtOnce(.willPresentNotification(Self.breaking), whenDelivered: deliveries.handler)
        #expect(deliveries.outcomes.count == 1)
        #expect(deliveries.outcomes.first?.result == [])
        #expect(deliveries.outcomes.first?.answers.isEmpty == true)
        #expect(declining.log.callers(of: .willPresentNotification) == ["A", "B"])

        let none = makeDispatcher([])
        let outcome = await none.dispatcher.dispatch(.willPresentNotification(Self.breaking))
        #expect(outcome.result == [])
        #expect(outcome.answers.isEmpty && outcome.reports.isEmpty)
    }

    @Test("willPresent: a second completion is ignored and reported, never counted, never delivered twice")
    func willPresentExactlyOnce() async throws {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"])
        // If A's second call counted, .sound would be in the result; if it delivered early, B would be missing.
        subscribers[0].presentation = .twice([.banner], [.sound])
        subscribers[1].presentation = .later([.list])
        let deliveries = Deliveries<NotificationPresentationOptions>()
        dispatcher.dispatchAtOnce(.willPresentNotification(Self.breaking), whenDelivered: deliveries.handler)
        let outcome = try #require(await deliveries.first())
        #expect(outcome.result == [.banner, .list])
        #expect(outcome.reports == [.duplicateCompletion(subscriber: "A", event: .willPresentNotification)])

        // Both handlers called again after delivery, one from another thread: reported, not delivered.
        let a = try #require(subscribers[0].completions[.willPresentNotification])
        let b = try #require(subscribers[1].completions[.willPresentNotification])
        a.complete(NotificationPresentationOptions.badge)
        await onAnotherThread { b.complete(NotificationPresentationOptions.banner) }
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
        let late = dispatcher.takeLateReports()
        #expect(late.contains(.duplicateCompletion(subscriber: "A", event: .willPresentNotification)))
        #expect(late.contains(.duplicateCompletion(subscriber: "B", event: .willPresentNotification)))
        #expect(late.count == 2)
    }

    @Test("willPresent: at the deadline, what arrived is delivered and the silent one reported late; its later call too")
    func willPresentDeadline() async throws {
        let clock = ManualHostClock()
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"], configuration: try configuration(on: clock) {
            try $0.setDeadline(.milliseconds(50), for: .willPresentNotification)
        })
        subscribers[0].presentation = .now([.banner])
        subscribers[1].presentation = .never
        subscribers[2].presentation = .fromAnotherThread([.sound])
        let deliveries = Deliveries<NotificationPresentationOptions>()
        dispatcher.dispatchAtOnce(.willPresentNotification(Self.breaking), whenDelivered: deliveries.handler)
        // C's call from its thread came before the deadline passes.
        await deliveries.wait(until: { subscribers[2].threads.calls.count == 1 })
        await clock.advance(by: .milliseconds(50), onceArmed: 1)
        let outcome = try #require(await deliveries.first())
        #expect(outcome.result == [.banner, .sound])
        #expect(outcome.reports == [.late(subscriber: "B", event: .willPresentNotification)])
        #expect(log.callers(of: .willPresentNotification) == ["A", "B", "C"])
        // B is counted as nothing: its row has no options.
        #expect(outcome.answerNames == ["A", "B", "C"])
        #expect(outcome.answers[1].answer == nil)

        let silent = try #require(subscribers[1].completions[.willPresentNotification])
        silent.complete(NotificationPresentationOptions.list)
        #expect(dispatcher.takeLateReports() == [.completionAfterDelivery(subscriber: "B", event: .willPresentNotification)])
        // A deadline set for this event does not apply to the other completion events.
        #expect(dispatcher.configuration.deadline(for: .didReceiveNotificationResponse) == DispatchConfiguration.standardDeadline)
    }

    @Test("willPresent: a decline leaves the subscriber out; a completion after it is reported, a late decline ignored")
    func willPresentDecline() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].presentation = .decline
        subscribers[1].presentation = .declineThenCall([.badge])
        subscribers[2].presentation = .declineAfterReturn([.sound])
        let outcome = await dispatcher.dispatch(.willPresentNotification(Self.breaking))
        #expect(log.callers(of: .willPresentNotification) == ["A", "B", "C"])
        // B's call after its decline does not count; C's decline after returning is too late: its answer counts.
        #expect(outcome.result == [.sound])
        #expect(outcome.answerNames == ["C"])
        #expect(Set(outcome.reports) == [.completionAfterDecline(subscriber: "B", event: .willPresentNotification),
                                         .ignoredDecline(subscriber: "C", event: .willPresentNotification)])
        #expect(outcome.reports.count == 2)
    }

    @Test("willPresent: completions from other threads are collected; the result arrives on the main actor")
    func willPresentOtherThreads() async {
        let names = (0..<40).map { "S\($0)" }
        let (dispatcher, subscribers, _) = makeDispatcher(names)
        for (index, subscriber) in subscribers.enumerated() {
            let option = NotificationPresentationOptions.named[index % NotificationPresentationOptions.named.count].option
            subscriber.presentation = index.isMultiple(of: 2) ? .fromAnotherThread(option) : .later(option)
        }
        let outcome = await dispatcher.dispatch(.willPresentNotification(Self.breaking))
        MainActor.assertIsolated()
        #expect(outcome.result == [.badge, .sound, .list, .banner])
        #expect(outcome.answers.count == names.count)
        #expect(outcome.reports.isEmpty)
        #expect(subscribers.allSatisfy { $0.threads.calls == [false] })
    }

    // MARK: notifications.didReceiveResponse

    @Test("didReceiveResponse: delivered once every responder completed, not before; exactly once")
    func didReceiveResponseWaitsForEveryone() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].session = .never
        subscribers[1].session = .decline
        subscribers[2].session = .never
        let deliveries = Deliveries<Void>()
        dispatcher.dispatchAtOnce(.didReceiveNotificationResponse(Self.response), whenDelivered: deliveries.handler)
        #expect(log.callers(of: .didReceiveNotificationResponse) == ["A", "B", "C"])
        let a = try #require(subscribers[0].completions[.didReceiveNotificationResponse])
        let c = try #require(subscribers[2].completions[.didReceiveNotificationResponse])

        await letEverythingRun(for: .milliseconds(50))
        #expect(deliveries.outcomes.isEmpty)
        await onAnotherThread { c.complete(()) }
        await letEverythingRun(for: .milliseconds(50))
        #expect(deliveries.outcomes.isEmpty, "delivered while A had not completed")

        a.complete(())
        let outcome = try #require(await deliveries.first())
        #expect(outcome.answerNames == ["A", "C"])
        #expect(outcome.reports.isEmpty)
        a.complete(())
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
        #expect(dispatcher.takeLateReports() == [.duplicateCompletion(subscriber: "A", event: .didReceiveNotificationResponse)])
        // The response reached the subscribers whole: identifier, action and typed text.
        #expect(subscribers[1].arguments.count == 1)
        #expect(subscribers[1].arguments.first.map { $0.contains("breaking-42") && $0.contains("reply") } == true)
    }

    @Test("didReceiveResponse: completions inside the call or from other threads deliver without waiting for the deadline")
    func didReceiveResponseCompletes() async {
        // The default 30 s deadline: a delivery that waited for it would hit the time limit.
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].session = .now(())
        subscribers[1].session = .fromAnotherThread(())
        subscribers[2].session = .later(())
        let outcome = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response))
        #expect(log.callers(of: .didReceiveNotificationResponse) == ["A", "B", "C"])
        #expect(outcome.answerNames == ["A", "B", "C"])
        #expect(outcome.reports.isEmpty)
        #expect(subscribers[1].threads.calls == [false] && subscribers[2].threads.calls == [false])
    }

    @Test("didReceiveResponse: at the deadline, delivered with who completed, the others reported late")
    func didReceiveResponseDeadline() async throws {
        let clock = ManualHostClock()
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B", "C"], configuration: try configuration(on: clock) {
            try $0.setDeadline(.milliseconds(50), for: .didReceiveNotificationResponse)
        })
        subscribers[0].session = .now(())
        subscribers[1].session = .never
        subscribers[2].session = .never
        let outcome = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response), advancing: clock, by: .milliseconds(50))
        #expect(outcome.reports == [.late(subscriber: "B", event: .didReceiveNotificationResponse),
                                    .late(subscriber: "C", event: .didReceiveNotificationResponse)])
        #expect(outcome.answerNames.first == "A")

        let late = try #require(subscribers[2].completions[.didReceiveNotificationResponse])
        await onAnotherThread { late.complete(()) }
        #expect(dispatcher.takeLateReports() == [.completionAfterDelivery(subscriber: "C", event: .didReceiveNotificationResponse)])
    }

    @Test("didReceiveResponse: nobody responds, or everyone declines: delivered at once, no rows")
    func didReceiveResponseNobody() async {
        let declining = makeDispatcher(["A", "B"])
        let deliveries = Deliveries<Void>()
        declining.dispatcher.dispatchAtOnce(.didReceiveNotificationResponse(Self.response), whenDelivered: deliveries.handler)
        #expect(deliveries.outcomes.count == 1)
        #expect(deliveries.outcomes.first?.answers.isEmpty == true)
        #expect(declining.log.callers(of: .didReceiveNotificationResponse) == ["A", "B"])

        let outcome = await makeDispatcher([]).dispatcher.dispatch(.didReceiveNotificationResponse(Self.response))
        #expect(outcome.answers.isEmpty && outcome.reports.isEmpty)
    }

    @Test("didReceiveResponse: a completion after a decline is reported and not awaited")
    func didReceiveResponseDecline() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"])
        subscribers[0].session = .declineThenCall(())
        subscribers[1].session = .now(())
        let outcome = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response))
        #expect(outcome.answerNames == ["B"])
        #expect(outcome.reports == [.completionAfterDecline(subscriber: "A", event: .didReceiveNotificationResponse)])
    }

    // MARK: notifications.openSettings

    @Test("openSettings: a notification: every responder called in order, with the notification or with none")
    func openSettings() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        let outcome = await dispatcher.dispatch(.openNotificationSettings(for: Self.breaking))
        #expect(log.callers(of: .openNotificationSettings) == ["A", "B", "C"])
        // A notification's rows: one per subscriber called, with no answer.
        #expect(outcome.answerNames == ["A", "B", "C"])
        #expect(outcome.answers.allSatisfy { $0.answer == nil })
        #expect(outcome.reports.isEmpty)
        #expect(subscribers.allSatisfy { $0.arguments.count == 1 && $0.arguments[0].contains("breaking-42") })

        // nil: opened from Settings, no notification. Still everyone, in order.
        log.entries = []
        let fromSettings = dispatcher.dispatchAtOnce(.openNotificationSettings())
        #expect(log.callers(of: .openNotificationSettings) == ["A", "B", "C"])
        #expect(fromSettings.reports.isEmpty)
        #expect(dispatcher.applicationState == .active)
    }

    @Test("openSettings: a Swift subscriber receives the notification, or nil, as given")
    func openSettingsTyped() async {
        final class Settings: InstantiableSubscriber, OpenNotificationSettingsSubscriber {
            var received: [UserNotification?] = []
            init(context: SubscriberContext) {}
            func userNotificationCenter(_ application: Application, openSettingsFor notification: UserNotification?) {
                received.append(notification)
            }
        }
        let settings = Settings(context: RecordingSink().context(for: "Settings", application: testApplication))
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(name: "Settings", subscriber: settings)],
                                             configuration: DispatchConfiguration(application: testApplication))
        dispatcher.launch()
        _ = await dispatcher.dispatch(.openNotificationSettings(for: Self.breaking))
        dispatcher.dispatchAtOnce(.openNotificationSettings(for: nil))
        #expect(settings.received == [Self.breaking, nil])
        #expect(dispatcher.responderNames(for: .openNotificationSettings) == ["Settings"])
        #expect(dispatcher.responderNames(for: .willPresentNotification).isEmpty)
    }
}
