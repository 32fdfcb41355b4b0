import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// continueUserActivity through the embedding API: `dispatchAtOnce` returns the reconciled handled
/// `Bool` at once, as UIKit's `application(_:continue:restorationHandler:)` does; the restoration
/// lists come later through `whenDelivered`, exactly once. The restoration handler is optional: a
/// subscriber that returns true and never calls it is not late and holds nothing up.
@MainActor
@Suite("continueUserActivity: handled at once, the restoration lists later", .timeLimit(.minutes(1)))
struct ContinueUserActivityAtOnceTests {
    static let activity = UserActivity(activityType: UserActivity.browsingWeb,
                                       webpageURL: URL(string: "https://news.example.com/article/42")!)

    @Test("handled is returned at once, before any list arrived; the lists come later, concatenated in subscriber order, once")
    func handledAtOnceListsLater() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].answers[.continueUserActivity] = true
        subscribers[0].restoration = .later(["article-42"])
        subscribers[1].answers[.continueUserActivity] = false
        subscribers[2].answers[.continueUserActivity] = true
        subscribers[2].restoration = .fromAnotherThread(["reader", "toolbar"])
        let deliveries = Deliveries<ContinueUserActivityResult>()
        let now = dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity), whenDelivered: deliveries.handler)
        #expect(now.result == true)
        #expect(now.reports.isEmpty)
        #expect(log.callers(of: .continueUserActivity) == ["A", "B", "C"])
        #expect(deliveries.outcomes.isEmpty, "the lists cannot have arrived: A calls its handler 20 ms later")

        let delivered = try #require(await deliveries.first())
        #expect(delivered.result == ContinueUserActivityResult(handled: true, restorableObjects: ["article-42", "reader", "toolbar"]))
        #expect(delivered.reports.isEmpty)
        // Called again after delivery: reported, never delivered twice.
        let again = try #require(subscribers[0].completions[.continueUserActivity])
        again.complete(["again"])
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
        #expect(dispatcher.takeLateReports() == [.duplicateCompletion(subscriber: "A", event: .continueUserActivity)])
    }

    @Test("a true responder that never calls the handler: at once true, the next event goes through, the lists at the deadline, nobody late")
    func optionalHandler() async throws {
        let short = try configuration { try $0.setDeadline(.milliseconds(100), for: .continueUserActivity) }
        let (dispatcher, subscribers, log) = makeDispatcher(["Silent", "Caller"], configuration: short)
        subscribers[0].answers[.continueUserActivity] = true
        subscribers[0].restoration = .never
        subscribers[1].answers[.continueUserActivity] = true
        subscribers[1].restoration = .now(["b"])
        let deliveries = Deliveries<ContinueUserActivityResult>()
        let now = dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity), whenDelivered: deliveries.handler)
        #expect(now.result == true)
        #expect(deliveries.outcomes.isEmpty)

        // Nothing waits for Silent's handler: the next event is delivered at once, with no report about it.
        log.entries = []
        let next = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://article/7")!))
        #expect(log.callers(of: .openURL) == ["Silent", "Caller"])
        #expect(next.reports.isEmpty)

        let delivered = try #require(await deliveries.first())
        #expect(delivered.result == ContinueUserActivityResult(handled: true, restorableObjects: ["b"]))
        #expect(delivered.reports.isEmpty, "an optional handler never called is not late")
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
        #expect(dispatcher.takeLateReports().isEmpty)
    }

    @Test("only a true responder that never calls: at once true; at the deadline handled with no lists, unreported")
    func onlySilent() async throws {
        let short = try configuration { try $0.setDeadline(.milliseconds(50), for: .continueUserActivity) }
        let (dispatcher, subscribers, _) = makeDispatcher(["Silent"], configuration: short)
        subscribers[0].answers[.continueUserActivity] = true
        subscribers[0].restoration = .never
        let deliveries = Deliveries<ContinueUserActivityResult>()
        #expect(dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity), whenDelivered: deliveries.handler).result == true)
        let delivered = try #require(await deliveries.first())
        #expect(delivered.result.handled == true)
        #expect((delivered.result.restorableObjects ?? []).isEmpty)
        #expect(delivered.reports.isEmpty)
        #expect(dispatcher.takeLateReports().isEmpty)
    }

    @Test("nobody returns true: false at once, whenDelivered called before dispatchAtOnce returns, once, without lists")
    func notHandled() async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B"])
        subscribers[0].answers[.continueUserActivity] = false
        subscribers[1].restoration = .never  // no opinion, so not awaited
        let deliveries = Deliveries<ContinueUserActivityResult>()
        let now = dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity), whenDelivered: deliveries.handler)
        #expect(now.result == false)
        #expect(log.callers(of: .continueUserActivity) == ["A", "B"])
        #expect(deliveries.outcomes.count == 1)
        #expect(deliveries.outcomes.first?.result == ContinueUserActivityResult(handled: false, restorableObjects: nil))
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
    }

    @Test("through PluginHost as an embedding app calls it: the same at-once Bool and one later delivery")
    func throughPluginHost() async throws {
        final class Continuer: InstantiableSubscriber, ContinueUserActivitySubscriber {
            init(context: SubscriberContext) {}
            func application(_ application: Application, continue userActivity: UserActivity,
                             restorationHandler: CompletionHandler<[String]>) -> Bool? {
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { restorationHandler(["article"]) }
                return true
            }
        }
        let manifest = Manifest(file: "continue.json", directory: "/", app: testApplication)
        let host = try PluginHost(manifest: manifest, inProcess: [InProcessSubscriber(Continuer.self)])
        defer { host.shutDown() }
        host.launch()
        let deliveries = Deliveries<ContinueUserActivityResult>()
        let handled: Bool = host.dispatchAtOnce(.continueUserActivity(Self.activity), whenDelivered: deliveries.handler).result
        #expect(handled)
        #expect(deliveries.outcomes.isEmpty)
        let delivered = try #require(await deliveries.first())
        #expect(delivered.result == ContinueUserActivityResult(handled: true, restorableObjects: ["article"]))
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
    }
}
