import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Returns true and declines the restoration handler before returning: "nothing to restore".
final class NothingToRestore: InstantiableSubscriber, ContinueUserActivitySubscriber {
    init(context: SubscriberContext) {}
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        restorationHandler.decline()
        return true
    }
}

/// Returns true and never calls the restoration handler: Expo's subscribers that have nothing to
/// restore do exactly this, as UIKit allows.
final class NeverRestoresSwift: InstantiableSubscriber, ContinueUserActivitySubscriber {
    init(context: SubscriberContext) {}
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? { true }
}

/// The restoration handler is optional, as in UIKit: never calling it is not late, not reported, and
/// stalls nothing; declining it before returning true means "nothing to restore", honoured at once.
/// Both the same in-process and loaded through C.
@MainActor
@Suite("continueUserActivity: the restoration handler is optional", .timeLimit(.minutes(10)))
struct OptionalRestorationTests {
    /// `type`, in-process or made through the C ABI (exported by this test image as a plugin would).
    static func registration(_ type: any InstantiableSubscriber.Type, loaded: Bool) throws -> SubscriberRegistration {
        let name = type.subscriberName
        guard loaded else { return SubscriberRegistration(name: name, subscriber: type.init(context: bridgeContext(name, sink: RecordingSink()))) }
        let descriptor = SubscriberPlugin.export(id: "com.example.restoration-tests", name: "Restoration tests", version: "1.0",
                                                 subscribers: [NothingToRestore.self, NeverRestoresSwift.self])
            .assumingMemoryBound(to: adh_plugin_descriptor.self)
        return SubscriberRegistration(try #require(CSubscriber(descriptor: descriptor, name: name,
                                                               context: bridgeContext(name, sink: RecordingSink()))))
    }

    static let activity = UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/article/42"))

    @Test("declined before returning true: nothing to restore, delivered at once, no report (in-process and through C)",
          arguments: [false, true])
    func declinedMeansNothingToRestore(loaded: Bool) throws {
        let log = CallLog()
        let other = TestSubscriber("Reader", log: log)
        other.answers[.continueUserActivity] = true
        other.restoration = .now(["article-42"])
        let dispatcher = LifecycleDispatcher(subscribers: [try Self.registration(NothingToRestore.self, loaded: loaded),
                                                           other.registration()],
                                             configuration: DispatchConfiguration(application: testApplication))
        dispatcher.launch()
        var delivered: EventOutcome<ContinueUserActivityResult>?
        let handled = dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity)) { delivered = $0 }
        #expect(handled.result == true)
        // Nothing awaited: the lists were delivered before dispatchAtOnce returned.
        let outcome = try #require(delivered)
        #expect(outcome.result == ContinueUserActivityResult(handled: true, restorableObjects: ["article-42"]))
        #expect(outcome.reports.isEmpty)
        #expect(outcome.answers(as: ContinueUserActivityResult.self) == [
            ContinueUserActivityResult(handled: true, restorableObjects: []),
            ContinueUserActivityResult(handled: true, restorableObjects: ["article-42"]),
        ])
    }

    @Test("returned true and never called: the answer at once, the lists at the deadline, neither late nor reported (in-process and through C)",
          arguments: [false, true])
    func neverCalledIsNotLate(loaded: Bool) async throws {
        let clock = ManualHostClock()
        var configuration = DispatchConfiguration(application: testApplication)
        configuration.clock = clock
        try configuration.setDeadline(.milliseconds(50), for: .continueUserActivity)
        let dispatcher = LifecycleDispatcher(subscribers: [try Self.registration(NeverRestoresSwift.self, loaded: loaded)],
                                             configuration: configuration)
        dispatcher.launch()
        #expect(dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity)).result == true)
        let outcome = await dispatcher.dispatch(.continueUserActivity(Self.activity), advancing: clock, by: .milliseconds(50))
        #expect(outcome.result == ContinueUserActivityResult(handled: true, restorableObjects: []))
        #expect(outcome.reports.isEmpty)
        #expect(dispatcher.takeLateReports().isEmpty)
    }

    @Test("shut down before its delivery started waiting: the lists are delivered at once, not at the deadline")
    func shutDownBeforeWaiting() async throws {
        var configuration = DispatchConfiguration(application: testApplication)
        try configuration.setDeadline(.seconds(90), for: .continueUserActivity)  // past the time limit
        let dispatcher = LifecycleDispatcher(subscribers: [try Self.registration(NeverRestoresSwift.self, loaded: false)],
                                             configuration: configuration)
        dispatcher.launch()
        let outcome: EventOutcome<ContinueUserActivityResult> = await withCheckedContinuation { continuation in
            dispatcher.dispatchAtOnce(.continueUserActivity(Self.activity)) { continuation.resume(returning: $0) }
            dispatcher.shutDown()  // before the task that waits for the lists ran
        }
        #expect(outcome.result == ContinueUserActivityResult(handled: true, restorableObjects: []))
        #expect(outcome.reports.isEmpty)
    }
}
