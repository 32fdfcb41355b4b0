import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// continueUserActivity through the embedding API: `dispatchAtOnce` returns the reconciled handled
/// `Bool` at once, as UIKit's `application(_:continue:restorationHandler:)` does; the restoration
/// lists come later through `whenDelivered`, exactly once. The restoration handler is optional: a
/// subscriber that returns true and never calls it is not late and holds nothing up.
@MainActor
@Suite("continueUserActivity: handled at once, the restoration lists later", .timeLimit(.minutes(10)))
struct ContinueUserActivityAtOnceTests {
    static let activity = UserActivity(activityType: UserActivity.browsingWeb,
                                       webpageURL: URL(string: "https://news.example.com/article/42")!)

    @Test("handled is returned at once, before any list arrived; the lists come later, concatenated in subscriber order, once")
    func handledAtOnceListsLater() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].answers[.continueUserActivity] = true
        subscribers[0].restoration = .never  // called below, after dispatchAtOnce returned
        subscribers[1].answers[.continueUserActivity] = false
        subscribers[2].answers[.continueUserActivity] = true
        subscribers[2].restoration = .fromAnotherThread(["reader", "toolbar"])
        let deliveries = Deliveries<ContinueUserActivityResult>()
        let now = dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity), whenDelivered: deliveries.handler)
        #expect(now.result == true)
        #expect(now.reports.isEmpty)
        #expect(log.callers(of: .continueUserActivity) == ["A", "B", "C"])
        #expect(deliveries.outcomes.isEmpty, "the lists cannot have arrived: A has not called its handler yet")

        let handlerOfA = try #require(subscribers[0].completions[.continueUserActivity])
        await onAnotherThread { handlerOfA.complete(["article-42"]) }
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
        let clock = ManualHostClock()
        let short = try configuration(on: clock) { try $0.setDeadline(.milliseconds(100), for: .continueUserActivity) }
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

        await clock.advance(by: .milliseconds(100) - .nanoseconds(1), onceArmed: 1)
        #expect(clock.armedTimerCount == 1, "delivered at the deadline, not before")
        clock.advance(by: .nanoseconds(1))
        let delivered = try #require(await deliveries.first())
        #expect(delivered.result == ContinueUserActivityResult(handled: true, restorableObjects: ["b"]))
        #expect(delivered.reports.isEmpty, "an optional handler never called is not late")
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
        #expect(dispatcher.takeLateReports().isEmpty)
    }

    @Test("only a true responder that never calls: at once true; at the deadline handled with no lists, unreported")
    func onlySilent() async throws {
        let clock = ManualHostClock()
        let (dispatcher, subscribers, _) = makeDispatcher(["Silent"], configuration: configuration(on: clock))
        subscribers[0].answers[.continueUserActivity] = true
        subscribers[0].restoration = .never
        let deliveries = Deliveries<ContinueUserActivityResult>()
        #expect(dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity), whenDelivered: deliveries.handler).result == true)
        await clock.advance(by: DispatchConfiguration.standardDeadline, onceArmed: 1)
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
            /// The restoration handler it was given, called by the test once dispatchAtOnce returned.
            @MainActor static var kept: CompletionHandler<[String]>?
            init(context: SubscriberContext) {}
            func application(_ application: Application, continue userActivity: UserActivity,
                             restorationHandler: CompletionHandler<[String]>) -> Bool? {
                Self.kept = restorationHandler
                return true
            }
        }
        let manifest = Manifest(file: "continue.json", directory: "/", app: testApplication)
        // An embedding app's own clock: nothing here waits for a deadline, so it never moves.
        let host = try PluginHost(manifest: manifest, inProcess: [InProcessSubscriber(Continuer.self)],
                                  options: HostOptions(clock: ManualHostClock()))
        defer { host.shutDown() }
        host.launch()
        let deliveries = Deliveries<ContinueUserActivityResult>()
        let handled: Bool = host.dispatchAtOnce(.continueUserActivity(Self.activity), whenDelivered: deliveries.handler).result
        #expect(handled)
        #expect(deliveries.outcomes.isEmpty)
        let kept = try #require(Continuer.kept)
        await onAnotherThread { kept(["article"]) }
        let delivered = try #require(await deliveries.first())
        #expect(delivered.result == ContinueUserActivityResult(handled: true, restorableObjects: ["article"]))
        await letEverythingRun()
        #expect(deliveries.outcomes.count == 1)
    }
}
