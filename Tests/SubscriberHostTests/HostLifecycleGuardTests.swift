import Foundation
import Testing
import SubscriberKit
@testable import SubscriberHost

// MARK: Subscribers of these tests

/// Dispatches willResignActive from inside its didBecomeActive (an embedding app's mistake).
final class DispatchesFromInside: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber {
    nonisolated(unsafe) static var host: PluginHost?
    nonisolated(unsafe) static var nested: EventOutcome<Void>?

    func applicationDidBecomeActive(_ application: Application) {
        MainActor.assumeIsolated {
            Self.nested = Self.host?.dispatchAtOnce(.willResignActive)
        }
    }
}

/// Called after ``DispatchesFromInside``: what it sees of the state, and willResignActive's calls.
final class SeesTheState: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber,
                          WillResignActiveSubscriber {
    nonisolated(unsafe) static var seen: [String] = []

    func applicationDidBecomeActive(_ application: Application) { Self.seen.append("didBecomeActive in \(application.applicationState)") }
    func applicationWillResignActive(_ application: Application) { Self.seen.append("willResignActive in \(application.applicationState)") }
}

/// Takes every notification response.
final class TakesResponses: AppDelegateSubscriberBase, InstantiableSubscriber, DidReceiveNotificationResponseSubscriber {
    nonisolated(unsafe) static var received = 0

    func userNotificationCenter(_ application: Application, didReceive response: NotificationResponse,
                                withCompletionHandler completionHandler: CompletionHandler<Void>) {
        Self.received += 1
        completionHandler(())
    }
}

/// Never completes a fetch.
final class NeverFetches: AppDelegateSubscriberBase, InstantiableSubscriber, PerformFetchSubscriber {
    func application(_ application: Application, performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {}
}

/// An app-level subscriber (no scene protocol) that handles every activity and never calls the
/// optional restoration handler: what the scene bridge replays scene.continueUserActivity to.
final class NeverRestoresInProcess: AppDelegateSubscriberBase, InstantiableSubscriber, ContinueUserActivitySubscriber {
    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        log("continued in the app delegate")
        return true
    }
}

// MARK: The tests

@MainActor
@Suite("Host: re-entrancy, termination, shutdown, scene memory, refusals", .serialized, .timeLimit(.minutes(10)))
struct HostLifecycleGuardTests {
    @Test("an event dispatched from inside another's calls is refused, and the state machine stays right")
    func nestedDispatchIsRefused() async throws {
        let host = try PluginHost(application: testApplication, inProcess: [
            InProcessSubscriber(DispatchesFromInside.self), InProcessSubscriber(SeesTheState.self),
        ])
        defer { host.shutDown() }
        DispatchesFromInside.host = host
        defer { DispatchesFromInside.host = nil }
        SeesTheState.seen = []
        _ = await host.dispatch(.didFinishLaunching())
        let active = await host.dispatch(.didBecomeActive)
        #expect(active.isDelivered)
        let nested = try #require(DispatchesFromInside.nested)
        #expect(!nested.isDelivered)
        #expect(nested.refusal?.kind == "stateViolation")
        #expect(nested.refusal?.description.contains("from inside the calls of another (didBecomeActive)") == true)
        // Nothing of willResignActive reached a subscriber, and the outer event went on unchanged.
        #expect(SeesTheState.seen == ["didBecomeActive in active"])
        #expect(host.applicationState == .active)
        let resign = await host.dispatch(.willResignActive)
        #expect(resign.isDelivered && host.applicationState == .inactive)
        let again = await host.dispatch(.willResignActive)
        #expect(!again.isDelivered)
        #expect(SeesTheState.seen == ["didBecomeActive in active", "willResignActive in active"])
    }

    @Test("after willTerminate: a kept notification response is dropped, and adding a subscriber says the app terminated")
    func nothingAfterTermination() async throws {
        TakesResponses.received = 0
        let host = try PluginHost(application: testApplication, inProcess: [])
        defer { host.shutDown() }
        _ = await host.dispatch(.didFinishLaunching())
        let response = NotificationResponse(notification: UserNotification(identifier: "n1", userInfo: [:]))
        _ = await host.dispatch(.didReceiveNotificationResponse(response))
        #expect(host.dispatcher.live.pendingResponses.count == 1)
        _ = await host.dispatch(.willTerminate)
        #expect(host.dispatcher.live.pendingResponses.isEmpty)
        #expect(throws: SubscriberChangeError.appTerminated("TakesResponses")) {
            try host.add(InProcessSubscriber(TakesResponses.self))
        }
        #expect(TakesResponses.received == 0)
        #expect(SubscriberChangeError.appTerminated("X").description
                == "adding \"X\": expected an app that has not terminated, found willTerminate delivered (no event is delivered after it)")
    }

    @Test("a whenDelivered handler owed at shutDown() has run when shutDown() returns")
    func owedHandlerRunsBeforeShutDownReturns() async throws {
        let host = try PluginHost(application: testApplication, inProcess: [InProcessSubscriber(NeverFetches.self)])
        _ = await host.dispatch(.didFinishLaunching())
        var delivered: EventOutcome<BackgroundFetchResult>?
        host.dispatchAtOnce(.performFetch) { delivered = $0 }
        // Let the waiting task start: the handler is then owed by a parked wait.
        await Task.yield()
        #expect(delivered == nil)
        host.shutDown()
        let outcome = try #require(delivered)
        #expect(outcome.result == .failed)  // the deadline's value for a subscriber that never called
    }

    @Test("scene memory is bounded: disconnected scenes are forgotten beyond a limit, connections beyond one are refused")
    func sceneMemoryIsBounded() async throws {
        let host = try PluginHost(application: testApplication, inProcess: [])
        defer { host.shutDown() }
        _ = await host.dispatch(.didFinishLaunching())
        let count = SceneStates.disconnectedLimit * 3
        for index in 0..<count {
            host.dispatchAtOnce(.sceneWillConnect(scene: "s\(index)"))
            host.dispatchAtOnce(.sceneDidDisconnect(scene: "s\(index)"))
        }
        #expect(host.dispatcher.sceneIdentifiersKept <= SceneStates.disconnectedLimit)
        // The most recent is remembered as disconnected; the oldest reads as never connected.
        let recent = host.dispatchAtOnce(.sceneDidBecomeActive(scene: "s\(count - 1)"))
        #expect(recent.refusal?.description.contains("after scene.didDisconnect") == true)
        let oldest = host.dispatchAtOnce(.sceneDidBecomeActive(scene: "s0"))
        #expect(oldest.refusal?.description.contains("no scene of that identifier connected") == true)
        // One scene may connect again after disconnecting; connections beyond the limit are refused.
        for index in 0..<SceneStates.connectedLimit {
            #expect(host.dispatchAtOnce(.sceneWillConnect(scene: "c\(index)")).isDelivered)
        }
        let beyond = host.dispatchAtOnce(.sceneWillConnect(scene: "one too many"))
        #expect(beyond.refusal?.description.contains("at most \(SceneStates.connectedLimit) scenes connected at once") == true)
        #expect(host.dispatcher.sceneIdentifiersKept <= SceneStates.connectedLimit + SceneStates.disconnectedLimit)
    }

    @Test("a bridged scene.continueUserActivity whose replayed responder never calls the optional handler stalls nothing")
    func bridgedRestorationStallsNothing() async throws {
        let manifest = Manifest(file: "(test)", directory: "/", app: testApplication, defaultDeadline: 600_000, sceneBridge: true)
        let host = try PluginHost(manifest: manifest, inProcess: [InProcessSubscriber(NeverRestoresInProcess.self)])
        defer { host.shutDown() }
        _ = await host.dispatch(.didFinishLaunching())
        _ = await host.dispatch(.sceneWillConnect(scene: "main"))
        // With a 600 s deadline, waiting for the handler would run past the suite's time limit.
        let outcome = await host.dispatch(.sceneContinueUserActivity(scene: "main", UserActivity(activityType: "com.example.reading")))
        #expect(outcome.result == true)
        #expect(outcome.reports.isEmpty)
        #expect(outcome.bridged.map(\.event) == [.continueUserActivity])
        #expect(outcome.logs.map(\.message) == ["continued in the app delegate"])
    }

    @Test("an event the host refuses says so in its outcome: not delivered, and why")
    func refusedEventIsDistinguishable() async throws {
        let host = try PluginHost(application: testApplication, inProcess: [InProcessSubscriber(OpensEverything.self)])
        defer { host.shutDown() }
        let refused = host.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))
        #expect(!refused.isDelivered)
        #expect(refused.refusal == .stateViolation(event: .openURL, state: .notRunning,
                                                    expected: "the app launched first (willFinishLaunching or didFinishLaunching)"))
        _ = await host.dispatch(.didFinishLaunching())
        let opened = host.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))
        #expect(opened.isDelivered && opened.refusal == nil && opened.result == true)
    }
}
