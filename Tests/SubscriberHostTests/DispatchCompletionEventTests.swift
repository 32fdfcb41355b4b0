import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// The six events that answer through completion handlers: each row's default reconciler,
/// its no-answer default (at once), and that every responder is called when the answer is decided.
@MainActor
@Suite("Dispatch: completion events")
struct DispatchCompletionEventTests {
    @Test("performFetch: failed > newData > noData, every responder called after a failed")
    func performFetchPrecedence() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].fetch = .now(.failed)
        subscribers[1].fetch = .fromAnotherThread(.newData)
        subscribers[2].fetch = .later(.noData)
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(outcome.result == .failed)
        #expect(log.callers(of: .performFetch) == ["A", "B", "C"])
        #expect(outcome.answers(as: BackgroundFetchResult.self) == [BackgroundFetchResult.failed, BackgroundFetchResult.newData, BackgroundFetchResult.noData])
        #expect(outcome.reports.isEmpty)

        let newData = makeDispatcher(["A", "B"])
        newData.subscribers[0].fetch = .now(.noData)
        newData.subscribers[1].fetch = .now(.newData)
        #expect(await newData.dispatcher.dispatch(.performFetch).result == .newData)

        let noData = makeDispatcher(["A"]) { $0.fetch = .now(.noData) }
        #expect(await noData.dispatcher.dispatch(.performFetch).result == .noData)
    }

    @Test("performFetch: nobody answers gives noData at once, without answer rows")
    func performFetchNobody() async {
        let declining = makeDispatcher(["A", "B"])
        let outcome = await declining.dispatcher.dispatch(.performFetch)
        #expect(outcome.result == .noData)
        #expect(outcome.answers.isEmpty)
        #expect(declining.log.callers(of: .performFetch) == ["A", "B"])
        #expect(await makeDispatcher([]).dispatcher.dispatch(.performFetch).result == .noData)
    }

    @Test("didReceiveRemoteNotification: failed > newData > noData; nobody: noData")
    func remoteNotification() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].fetch = .now(.newData)
        subscribers[1].fetch = .later(.failed)
        subscribers[2].fetch = .now(.noData)
        let outcome = await dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: ["aps": ["badge": 1]]))
        #expect(outcome.result == .failed)
        #expect(log.callers(of: .didReceiveRemoteNotification) == ["A", "B", "C"])
        #expect(subscribers[2].arguments == ["{aps: {badge: 1}}"])
        #expect(await makeDispatcher(["A"]).dispatcher.dispatch(.didReceiveRemoteNotification(userInfo: [:])).result == .noData)
    }

    @Test("handleEventsForBackgroundURLSession: done once every responder is done; nobody: at once")
    func backgroundSession() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].session = .later(())
        subscribers[2].session = .now(())
        let outcome = await dispatcher.dispatch(.handleEventsForBackgroundURLSession(identifier: "com.example.session"))
        #expect(log.callers(of: .handleEventsForBackgroundURLSession) == ["A", "B", "C"])
        // A finished later and still has its row: the delivery waited for it. B declined: no row.
        #expect(outcome.answerNames == ["A", "C"])
        #expect(outcome.answers.map { $0.answer is Void } == [true, true])
        #expect(outcome.reports.isEmpty)
        #expect(subscribers[1].arguments == ["com.example.session"])

        let nobody = await makeDispatcher(["A"]).dispatcher.dispatch(.handleEventsForBackgroundURLSession(identifier: "s"))
        #expect(nobody.answers.isEmpty)
    }

    @Test("continueUserActivity: any true; restoration lists of the true responders, in subscriber order")
    func continueUserActivity() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C", "D"])
        subscribers[0].answers[.continueUserActivity] = true
        subscribers[0].restoration = .later(["article-42"])
        subscribers[1].answers[.continueUserActivity] = false
        subscribers[2].answers[.continueUserActivity] = true
        subscribers[2].restoration = .now(["reader", "toolbar"])
        subscribers[3].answers[.continueUserActivity] = true
        subscribers[3].restoration = .fromAnotherThread([])
        let activity = UserActivity(activityType: UserActivity.browsingWeb,
                                    webpageURL: URL(string: "https://news.example.com/a/42")!)
        let outcome = await dispatcher.dispatch(.continueUserActivity(activity))
        #expect(log.callers(of: .continueUserActivity) == ["A", "B", "C", "D"])
        #expect(outcome.result == ContinueUserActivityResult(handled: true,
                                                             restorableObjects: ["article-42", "reader", "toolbar"]))
        #expect(outcome.answers(as: ContinueUserActivityResult.self) == [
            ContinueUserActivityResult(handled: true, restorableObjects: ["article-42"]),
            ContinueUserActivityResult(handled: false, restorableObjects: nil),
            ContinueUserActivityResult(handled: true, restorableObjects: ["reader", "toolbar"]),
            ContinueUserActivityResult(handled: true, restorableObjects: []),
        ])
        #expect(outcome.reports.isEmpty)
    }

    @Test("continueUserActivity: nobody answers or all false gives false and the handler is not called")
    func continueUserActivityFalse() async {
        let activity = UserActivity(activityType: "reading")
        let nobody = await makeDispatcher(["A", "B"]).dispatcher.dispatch(.continueUserActivity(activity))
        #expect(nobody.result == ContinueUserActivityResult(handled: false, restorableObjects: nil))
        #expect(nobody.answers.map { $0.answer == nil } == [true, true])

        let allFalse = makeDispatcher(["A", "B"]) { $0.answers[.continueUserActivity] = false }
        let outcome = await allFalse.dispatcher.dispatch(.continueUserActivity(activity))
        #expect(outcome.result == ContinueUserActivityResult(handled: false, restorableObjects: nil))
    }

    @Test("continueUserActivity: a restoration from a subscriber that did not return true is ignored and reported")
    func unexpectedRestoration() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"])
        subscribers[0].answers[.continueUserActivity] = false
        subscribers[0].restoration = .now(["sneaky"])
        subscribers[1].answers[.continueUserActivity] = true
        subscribers[1].restoration = .now(["ok"])
        let outcome = await dispatcher.dispatch(.continueUserActivity(UserActivity(activityType: "reading")))
        #expect(outcome.result == ContinueUserActivityResult(handled: true, restorableObjects: ["ok"]))
        #expect(outcome.reports == [.unexpectedRestoration(subscriber: "A", event: .continueUserActivity)])
    }

    @Test("performActionForShortcutItem: any true, every responder called; nobody: false at once")
    func shortcut() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].shortcut = .now(true)
        subscribers[1].shortcut = .later(false)
        let outcome = await dispatcher.dispatch(.performActionForShortcutItem(ShortcutItem(type: "com.example.search")))
        #expect(outcome.result == true)
        #expect(log.callers(of: .performActionForShortcutItem) == ["A", "B", "C"])
        #expect(outcome.answers(as: Bool.self) == [true, false])
        #expect(subscribers[2].arguments == ["com.example.search"])

        let nobody = await makeDispatcher(["A"]).dispatcher.dispatch(.performActionForShortcutItem(ShortcutItem(type: "x")))
        #expect(nobody.result == false)
        let allFalse = makeDispatcher(["A", "B"]) { $0.shortcut = .now(false) }
        #expect(await allFalse.dispatcher.dispatch(.performActionForShortcutItem(ShortcutItem(type: "x"))).result == false)
    }

    @Test("handleWatchKitExtensionRequest: replies merged, a duplicate key keeps the first and is reported")
    func watchKitMerge() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].reply = .later(["score": 3, "team": "home"])
        subscribers[1].reply = .now(["score": 5, "time": "90:00"])
        let outcome = await dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: ["request": "score"]))
        #expect(log.callers(of: .handleWatchKitExtensionRequest) == ["A", "B", "C"])
        #expect(outcome.result == ["score": 3, "team": "home", "time": "90:00"])
        #expect(outcome.reports == [.duplicateKey(key: "score", subscriber: "B", keptFrom: "A",
                                                  event: .handleWatchKitExtensionRequest)])
        #expect(await makeDispatcher(["A"]).dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: [:])).result == [:])
    }
}
