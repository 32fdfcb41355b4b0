import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// The events that answer at once (docs/events.md): each row's default reconciler, its no-answer default,
/// and that every responder is called even when the answer is already decided.
@MainActor
@Suite("Dispatch: events that answer at once")
struct DispatchSyncEventTests {
    @Test("willFinishLaunching: any true; every responder called after the first true; nobody: true")
    func willFinishLaunching() {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C", "D"])
        subscribers[0].answers[.willFinishLaunching] = true
        subscribers[1].answers[.willFinishLaunching] = false
        subscribers[3].answers[.willFinishLaunching] = false
        let outcome = dispatcher.dispatchAtOnce(.willFinishLaunching())!
        #expect(outcome.result == .bool(true))
        #expect(log.callers(of: .willFinishLaunching) == ["A", "B", "C", "D"])
        #expect(outcome.answerNames == ["A", "B", "C", "D"])
        #expect(outcome.answers.map(\.answer) == [.bool(true), .bool(false), nil, .bool(false)])

        let (silent, _, _) = makeDispatcher(["A", "B"])
        #expect(silent.dispatchAtOnce(.willFinishLaunching())!.result == .bool(true))
        let allFalse = makeDispatcher(["A", "B"]) { $0.answers[.willFinishLaunching] = false }
        #expect(allFalse.dispatcher.dispatchAtOnce(.willFinishLaunching())!.result == .bool(false))
    }

    @Test("didFinishLaunching: false only if every answer is false; nobody: true")
    func didFinishLaunching() {
        let mixed = makeDispatcher(["A", "B", "C"])
        mixed.subscribers[0].answers[.didFinishLaunching] = false
        mixed.subscribers[2].answers[.didFinishLaunching] = true
        #expect(mixed.dispatcher.dispatchAtOnce(.didFinishLaunching())!.result == .bool(true))
        #expect(mixed.log.callers(of: .didFinishLaunching) == ["A", "B", "C"])

        let allFalse = makeDispatcher(["A", "B", "C"]) { $0.answers[.didFinishLaunching] = false }
        #expect(allFalse.dispatcher.dispatchAtOnce(.didFinishLaunching())!.result == .bool(false))

        let firstTrue = makeDispatcher(["A", "B", "C"])
        firstTrue.subscribers[0].answers[.didFinishLaunching] = true
        _ = firstTrue.dispatcher.dispatchAtOnce(.didFinishLaunching())!
        #expect(firstTrue.log.callers(of: .didFinishLaunching) == ["A", "B", "C"])

        #expect(makeDispatcher(["A"]).dispatcher.dispatchAtOnce(.didFinishLaunching())!.result == .bool(true))
        #expect(makeDispatcher([]).dispatcher.dispatchAtOnce(.didFinishLaunching())!.result == .bool(true))
    }

    /// Every notification event with an argument that shows it arrived.
    nonisolated static let notifications: [EventCall] = [
        .didBecomeActive, .willResignActive, .didEnterBackground, .willEnterForeground, .willTerminate,
        .didReceiveMemoryWarning, .significantTimeChange, .protectedDataWillBecomeUnavailable,
        .protectedDataDidBecomeAvailable, .didRegisterForRemoteNotifications(deviceToken: Data([0xAB, 0x01])),
        .didFailToRegisterForRemoteNotifications(error: LifecycleError(domain: "push", code: 3, message: "offline")),
        .didUpdateUserActivity(UserActivity(activityType: "reading")),
        .didFailToContinueUserActivity(activityType: "reading", error: LifecycleError(domain: "d", code: 1, message: "m")),
        .didDiscardSceneSessions(count: 2),
    ]

    @Test("notifications reach every responder, in order, with no result", arguments: notifications)
    func notification(_ call: EventCall) async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        let report = await dispatcher.dispatch(call)
        #expect(report.event == call.event)
        #expect(report.result == .none)
        #expect(log.callers(of: call.event) == ["A", "B", "C"])
        #expect(report.answers.map(\.subscriber) == ["A", "B", "C"])
        #expect(report.answers.allSatisfy { $0.answer == nil })
        #expect(report.reports.isEmpty)
        switch call.event {
        case .didRegisterForRemoteNotifications: #expect(subscribers[2].arguments == ["ab01"])
        case .didFailToRegisterForRemoteNotifications: #expect(subscribers[0].arguments == ["push 3: offline"])
        case .didUpdateUserActivity, .didFailToContinueUserActivity: #expect(subscribers[1].arguments == ["reading"])
        case .didDiscardSceneSessions: #expect(subscribers[0].arguments == ["2"])
        default: #expect(subscribers[0].arguments.isEmpty)
        }
    }

    @Test("openURL: any true, every responder called; nobody: false")
    func openURL() {
        let url = URL(string: "news://article/42")!
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].answers[.openURL] = true
        subscribers[2].answers[.openURL] = false
        let outcome = dispatcher.dispatchAtOnce(.openURL(url: url, options: OpenURLOptions(sourceApplication: "com.example.mail")))!
        #expect(outcome.result == .bool(true))
        #expect(log.callers(of: .openURL) == ["A", "B", "C"])
        #expect(subscribers[2].arguments == ["news://article/42"])
        #expect(makeDispatcher(["A", "B"]).dispatcher.dispatchAtOnce(.openURL(url: url))!.result == .bool(false))
        let allFalse = makeDispatcher(["A", "B"]) { $0.answers[.openURL] = false }
        #expect(allFalse.dispatcher.dispatchAtOnce(.openURL(url: url))!.result == .bool(false))
    }

    @Test("willContinueUserActivity: any true, every responder called; nobody: false")
    func willContinueUserActivity() {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B"])
        subscribers[0].answers[.willContinueUserActivity] = true
        subscribers[1].answers[.willContinueUserActivity] = false
        #expect(dispatcher.dispatchAtOnce(.willContinueUserActivity(activityType: "reading"))!.result == .bool(true))
        #expect(log.callers(of: .willContinueUserActivity) == ["A", "B"])
        #expect(makeDispatcher(["A"]).dispatcher.dispatchAtOnce(.willContinueUserActivity(activityType: "x"))!.result == .bool(false))
    }

    @Test("supportedInterfaceOrientations: intersection from all, every responder called")
    func orientationsIntersect() {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].orientations = .allButUpsideDown
        subscribers[2].orientations = [.portrait, .portraitUpsideDown, .landscapeLeft]
        let outcome = dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone))!
        #expect(outcome.result == .orientationMask([.portrait, .landscapeLeft]))
        #expect(log.callers(of: .supportedInterfaceOrientations) == ["A", "B", "C"])
        #expect(outcome.answers[0].answer == .orientationMask(.allButUpsideDown))
        #expect(outcome.answers[1].answer == nil)
        #expect(outcome.reports.isEmpty)
    }

    @Test("supportedInterfaceOrientations: nobody answers gives the default per idiom, configurable")
    func orientationDefaults() {
        let standard = makeDispatcher(["A"]).dispatcher
        #expect(standard.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone))!.result == .orientationMask(.allButUpsideDown))
        #expect(standard.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .pad))!.result == .orientationMask(.all))
        #expect(standard.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .tv))!.result == .orientationMask(.allButUpsideDown))

        let configured = makeDispatcher(["A"], configure: {
            $0.defaultOrientations = [.phone: .portrait, .pad: .landscape]
        }).dispatcher
        #expect(configured.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone))!.result == .orientationMask(.portrait))
        #expect(configured.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .pad))!.result == .orientationMask(.landscape))
        #expect(configured.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .mac))!.result == .orientationMask(.portrait))
    }

    @Test("supportedInterfaceOrientations: an empty intersection falls back to the default and reports a conflict")
    func orientationConflict() {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configure: { $0.defaultOrientations[.pad] = .portrait })
        subscribers[0].orientations = .portrait
        subscribers[1].orientations = .landscape
        let outcome = dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .pad))!
        #expect(outcome.result == .orientationMask(.portrait))
        #expect(outcome.reports == [.orientationConflict(
            event: .supportedInterfaceOrientations,
            answers: [NamedAnswer(subscriber: "A", answer: .portrait), NamedAnswer(subscriber: "B", answer: .landscape)],
            fallback: .portrait)])
    }

    @Test("shouldAllowExtensionPointIdentifier: one false vetoes, every responder still called; nobody: true")
    func shouldAllowExtensionPoint() {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].answers[.shouldAllowExtensionPointIdentifier] = false
        subscribers[1].answers[.shouldAllowExtensionPointIdentifier] = true
        #expect(dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "com.apple.keyboard-service"))!.result == .bool(false))
        #expect(log.callers(of: .shouldAllowExtensionPointIdentifier) == ["A", "B", "C"])
        #expect(makeDispatcher(["A"]).dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "x"))!.result == .bool(true))
        let allAllow = makeDispatcher(["A", "B"]) { $0.answers[.shouldAllowExtensionPointIdentifier] = true }
        #expect(allAllow.dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "x"))!.result == .bool(true))
    }

    @Test("secure state events: all must agree, every responder called; nobody: false")
    func secureState() {
        for event in [LifecycleEvent.shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState] {
            func dispatch(_ dispatcher: LifecycleDispatcher) -> Bool {
                event == .shouldSaveSecureApplicationState
                    ? dispatcher.dispatchAtOnce(.shouldSaveSecureApplicationState)!.result.bool!
                    : dispatcher.dispatchAtOnce(.shouldRestoreSecureApplicationState)!.result.bool!
            }
            let vetoed = makeDispatcher(["A", "B", "C"])
            vetoed.subscribers[0].answers[event] = false
            vetoed.subscribers[2].answers[event] = true
            #expect(dispatch(vetoed.dispatcher) == false)
            #expect(vetoed.log.callers(of: event) == ["A", "B", "C"])

            let agreed = makeDispatcher(["A", "B"]) { $0.answers[event] = true }
            #expect(dispatch(agreed.dispatcher) == true)
            #expect(dispatch(makeDispatcher(["A", "B"]).dispatcher) == false)
            #expect(dispatch(makeDispatcher([]).dispatcher) == false)
        }
    }

    @Test("configurationForConnecting: first answer in order, every responder called; nobody: Default Configuration")
    func configurationForConnecting() {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[1].sceneConfiguration = "Reader"
        subscribers[2].sceneConfiguration = "Editor"
        let outcome = dispatcher.dispatchAtOnce(.configurationForConnecting(sceneRole: "UIWindowSceneSessionRoleApplication"))!
        #expect(outcome.result == .configurationName("Reader"))
        #expect(log.callers(of: .configurationForConnecting) == ["A", "B", "C"])
        #expect(outcome.answers.map(\.answer) == [nil, .configurationName("Reader"), .configurationName("Editor")])
        #expect(makeDispatcher(["A"]).dispatcher.dispatchAtOnce(.configurationForConnecting(sceneRole: "x"))!.result
                    == .configurationName("Default Configuration"))
    }
}
