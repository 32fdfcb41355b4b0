import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Pending notification responses, Expo's case: expo-notifications' `NotificationCenterManager`
/// keeps a `userNotificationCenter(_:didReceive:withCompletionHandler:)` no delegate handled in
/// `pendingResponses` and hands it to the next delegate `addDelegate(_:)` adds (a tap that
/// cold-launched the app before its module was ready).
@MainActor
@Suite("Notification responses nobody handled: kept, offered once to subscribers added later", .serialized,
       .timeLimit(.minutes(10)))
struct PendingNotificationResponseTests {
    static func response(_ identifier: String) -> NotificationResponse {
        NotificationResponse(notification: UserNotification(identifier: identifier, userInfo: ["article": .string(identifier)]))
    }

    /// The identifiers of the responses `subscriber` received, in order.
    static func received(_ subscriber: TestSubscriber) -> [String] { subscriber.arguments }

    @Test("Expo's pendingResponses: a response with no responder is kept; the first subscriber added that handles it gets it, once")
    func keptForTheFirstAddedResponder() async throws {
        let (dispatcher, _, log) = makeDispatcher([])
        let first = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("breaking-42")))
        #expect(first.answers.isEmpty)
        #expect(dispatcher.live.pendingResponses.count == 1)

        let late = TestSubscriber("Late", log: log)
        late.session = .now(())
        var outcomes: [EventOutcome<Void>] = []
        try dispatcher.add(late.registration()) { outcomes.append($0) }
        #expect(late.arguments.count == 1 && late.arguments[0].contains("breaking-42"))
        #expect(outcomes.map(\.answerNames) == [["Late"]])
        #expect(outcomes.first?.event == .didReceiveNotificationResponse)

        // Handed out: a subscriber added later gets nothing.
        let later = TestSubscriber("Later", log: log)
        later.session = .now(())
        try dispatcher.add(later.registration())
        #expect(later.arguments.isEmpty)
        #expect(dispatcher.live.pendingResponses.isEmpty)
    }

    @Test("every responder declined: kept; an added subscriber that declines too leaves it for the next one")
    func declinedIsKept() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B"])
        #expect(subscribers.allSatisfy { if case .decline = $0.session { true } else { false } })
        let outcome = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("r1")))
        #expect(outcome.answers.isEmpty)  // both declined
        let decliner = TestSubscriber("Decliner", log: log)
        try dispatcher.add(decliner.registration())
        #expect(decliner.arguments.count == 1)
        #expect(dispatcher.live.pendingResponses.count == 1)
        let taker = TestSubscriber("Taker", log: log)
        taker.session = .later(())
        let delivered: EventOutcome<Void> = await withCheckedContinuation { continuation in
            do {
                try dispatcher.add(taker.registration()) { continuation.resume(returning: $0) }
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(delivered.answerNames == ["Taker"])
        #expect(delivered.reports.isEmpty)
        #expect(dispatcher.live.pendingResponses.isEmpty)
    }

    @Test("a response some responder handled is not kept")
    func handledIsNotKept() async throws {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B"])
        subscribers[1].session = .now(())
        _ = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("r1")))
        let late = TestSubscriber("Late", log: log)
        late.session = .now(())
        try dispatcher.add(late.registration())
        #expect(late.arguments.isEmpty)
    }

    @Test("a response refused by the state machine (before launch) is not kept: it was never delivered")
    func refusedIsNotKept() async {
        let (dispatcher, _, _) = makeDispatcher([], launched: false)
        dispatcher.dispatchAtOnce(.didBecomeActive)  // refused: not launched
        let refused = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("r1")))
        #expect(refused.reports.first?.kind == "stateViolation")
        #expect(dispatcher.live.pendingResponses.isEmpty)
    }

    @Test("a subscriber added from inside an event gets the pending responses once that event's calls are over")
    func addedInsideAnEvent() async throws {
        let (dispatcher, _, log) = makeDispatcher([])
        _ = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("r1")))
        let registrar = LiveRegistrar()
        let late = TestSubscriber("Late", log: log)
        late.session = .now(())
        registrar.action = {
            try? dispatcher.add(late.registration())
            log.entries.append("LiveRegistrar:added")
            registrar.action = {}
        }
        try dispatcher.add(SubscriberRegistration(name: "LiveRegistrar", subscriber: registrar))
        log.entries = []
        dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))
        #expect(log.entries == ["LiveRegistrar:added", "Late:notifications.didReceiveResponse"])
    }

    @Test("at most 32 responses are kept, the oldest dropped first, each offered in order")
    func bounded() async throws {
        let (dispatcher, _, log) = makeDispatcher([])
        for index in 0..<40 { _ = await dispatcher.dispatch(.didReceiveNotificationResponse(Self.response("r\(index)"))) }
        let late = TestSubscriber("Late", log: log)
        late.session = .now(())
        try dispatcher.add(late.registration())
        #expect(late.arguments.count == LiveSubscribers.pendingResponseLimit)
        #expect(late.arguments.first?.contains("r8") == true)
        #expect(late.arguments.last?.contains("r39") == true)
    }

    @Test("through PluginHost: the pending response's outcome carries the logs of the subscriber added")
    func throughPluginHost() async throws {
        // The greeters answer no notification response (the News demo's NotificationFetcher does).
        let host = try PluginHost(manifestAt: IntegrationTests.packageRoot + "/manifests/greeters.json",
                                  options: HostInProcessTests.options)
        defer { host.shutDown() }
        host.launch()
        _ = await host.dispatch(.didReceiveNotificationResponse(Self.response("breaking-42")))
        var outcomes: [EventOutcome<Void>] = []
        try host.add(InProcessSubscriber(TapLogger.self)) { outcomes.append($0) }
        #expect(outcomes.count == 1)
        #expect(outcomes.first?.logs.map(\.description) == ["[TapLogger] info: tapped breaking-42"])
    }
}

/// Logs each notification response it handles (and handles it at once).
final class TapLogger: InstantiableSubscriber, DidReceiveNotificationResponseSubscriber {
    let context: SubscriberContext
    init(context: SubscriberContext) { self.context = context }

    func userNotificationCenter(_ application: Application, didReceive response: NotificationResponse,
                                withCompletionHandler completionHandler: CompletionHandler<Void>) {
        context.log("tapped \(response.notification.identifier)")
        completionHandler(())
    }
}
