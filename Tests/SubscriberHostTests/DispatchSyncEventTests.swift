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
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C", "D"], launched: false)
        subscribers[0].answers[.willFinishLaunching] = true
        subscribers[1].answers[.willFinishLaunching] = false
        subscribers[3].answers[.willFinishLaunching] = false
        let outcome = dispatcher.dispatchAtOnce(.willFinishLaunching())
        #expect(outcome.result == true)
        #expect(log.callers(of: .willFinishLaunching) == ["A", "B", "C", "D"])
        #expect(outcome.answerNames == ["A", "B", "C", "D"])
        #expect(outcome.answers(as: Bool.self) == [true, false, nil, false])

        let (silent, _, _) = makeDispatcher(["A", "B"], launched: false)
        #expect(silent.dispatchAtOnce(.willFinishLaunching()).result == true)
        let allFalse = makeDispatcher(["A", "B"], launched: false) { $0.answers[.willFinishLaunching] = false }
        #expect(allFalse.dispatcher.dispatchAtOnce(.willFinishLaunching()).result == false)
    }

    @Test("didFinishLaunching: false only if every answer is false; nobody: true")
    func didFinishLaunching() {
        let mixed = makeDispatcher(["A", "B", "C"], launched: false)
        mixed.subscribers[0].answers[.didFinishLaunching] = false
        mixed.subscribers[2].answers[.didFinishLaunching] = true
        #expect(mixed.dispatcher.dispatchAtOnce(.didFinishLaunching()).result == true)
        #expect(mixed.log.callers(of: .didFinishLaunching) == ["A", "B", "C"])

        let allFalse = makeDispatcher(["A", "B", "C"], launched: false) { $0.answers[.didFinishLaunching] = false }
        #expect(allFalse.dispatcher.dispatchAtOnce(.didFinishLaunching()).result == false)

        let firstTrue = makeDispatcher(["A", "B", "C"], launched: false)
        firstTrue.subscribers[0].answers[.didFinishLaunching] = true
        _ = firstTrue.dispatcher.dispatchAtOnce(.didFinishLaunching())
        #expect(firstTrue.log.callers(of: .didFinishLaunching) == ["A", "B", "C"])

        #expect(makeDispatcher(["A"], launched: false).dispatcher.dispatchAtOnce(.didFinishLaunching()).result == true)
        #expect(makeDispatcher([], launched: false).dispatcher.dispatchAtOnce(.didFinishLaunching()).result == true)
    }

    /// Every notification event with an argument that shows it arrived.
    /// Every notification of the table, with its ordinary arguments.
    nonisolated static let notifications: [AnyEventCall] = EventTable.rows.filter { $0.timing == .notification }
        .flatMap(\.canonicalCalls)

    @Test("notifications reach every responder, in order, with their arguments and no result", arguments: notifications)
    func notification(_ call: AnyEventCall) async {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        dispatcher.prepare(for: call.event)
        log.entries = []
        let report = await dispatcher.dispatch(call)
        #expect(report.event == call.event)
        #expect(report.reports.isEmpty)
        #expect(log.callers(of: call.event) == ["A", "B", "C"])
        #expect(report.answers.map(\.subscriber) == ["A", "B", "C"])
        #expect(report.answers.allSatisfy { $0.answer == nil })
        #expect(call.event.row.json(result: report.result) == .null)
        // Each subscriber received the call's own arguments (its row's summary of them).
        if let summary = call.event.row.summary(of: call) {
            for subscriber in subscribers { #expect(subscriber.arguments.last == summary, "\(call.event)") }
        }
    }

    @Test("openURL: any true, every responder called; nobody: false")
    func openURL() {
        let url = URL(string: "news://article/42")!
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].answers[.openURL] = true
        subscribers[2].answers[.openURL] = false
        let outcome = dispatcher.dispatchAtOnce(.openURL(url: url, options: OpenURLOptions(sourceApplication: "com.example.mail")))
        #expect(outcome.result == true)
        #expect(log.callers(of: .openURL) == ["A", "B", "C"])
        #expect(subscribers[2].arguments == ["news://article/42"])
        #expect(makeDispatcher(["A", "B"]).dispatcher.dispatchAtOnce(.openURL(url: url)).result == false)
        let allFalse = makeDispatcher(["A", "B"]) { $0.answers[.openURL] = false }
        #expect(allFalse.dispatcher.dispatchAtOnce(.openURL(url: url)).result == false)
    }

    @Test("willContinueUserActivity: any true, every responder called; nobody: false")
    func willContinueUserActivity() {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B"])
        subscribers[0].answers[.willContinueUserActivity] = true
        subscribers[1].answers[.willContinueUserActivity] = false
        #expect(dispatcher.dispatchAtOnce(.willContinueUserActivity(activityType: "reading")).result == true)
        #expect(log.callers(of: .willContinueUserActivity) == ["A", "B"])
        #expect(makeDispatcher(["A"]).dispatcher.dispatchAtOnce(.willContinueUserActivity(activityType: "x")).result == false)
    }

    @Test("supportedInterfaceOrientations: intersection from all, every responder called")
    func orientationsIntersect() {
        let (dispatcher, subscribers, log) = makeDispatcher(["A", "B", "C"])
        subscribers[0].orientations = .allButUpsideDown
        subscribers[2].orientations = [.portrait, .portraitUpsideDown, .landscapeLeft]
        let outcome = dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone))
        #expect(outcome.result == [.portrait, .landscapeLeft])
        #expect(log.callers(of: .supportedInterfaceOrientations) == ["A", "B", "C"])
        #expect(outcome.answers(as: InterfaceOrientationMask.self) == [.allButUpsideDown, nil, [.portrait, .portraitUpsideDown, .landscapeLeft]])
        #expect(outcome.reports.isEmpty)
    }

    @Test("supportedInterfaceOrientations: nobody answers gives the default per idiom, configurable")
    func orientationDefaults() {
        let standard = makeDispatcher(["A"]).dispatcher
        #expect(standard.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone)).result == .allButUpsideDown)
        #expect(standard.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .pad)).result == .all)
        #expect(standard.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .tv)).result == .allButUpsideDown)

        let configured = makeDispatcher(["A"], configure: {
            $0.defaultOrientations = [.phone: .portrait, .pad: .landscape]
        }).dispatcher
        #expect(configured.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .phone)).result == .portrait)
        #expect(configured.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .pad)).result == .landscape)
        #expect(configured.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .mac)).result == .portrait)
    }

    @Test("supportedInterfaceOrientations: an empty intersection falls back to the default and reports a conflict")
    func orientationConflict() {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configure: { $0.defaultOrientations[.pad] = .portrait })
        subscribers[0].orientations = .portrait
        subscribers[1].orientations = .landscape
        let outcome = dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .pad))
        #expect(outcome.result == .portrait)
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
        #expect(dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "com.apple.keyboard-service")).result == false)
        #expect(log.callers(of: .shouldAllowExtensionPointIdentifier) == ["A", "B", "C"])
        #expect(makeDispatcher(["A"]).dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "x")).result == true)
        let allAllow = makeDispatcher(["A", "B"]) { $0.answers[.shouldAllowExtensionPointIdentifier] = true }
        #expect(allAllow.dispatcher.dispatchAtOnce(.shouldAllowExtensionPointIdentifier(identifier: "x")).result == true)
    }

    @Test("secure state events: all must agree, every responder called; nobody: false")
    func secureState() {
        for event in [LifecycleEvent.shouldSaveSecureApplicationState, .shouldRestoreSecureApplicationState] {
            func dispatch(_ dispatcher: LifecycleDispatcher) -> Bool {
                event == .shouldSaveSecureApplicationState
                    ? dispatcher.dispatchAtOnce(.shouldSaveSecureApplicationState).result
                    : dispatcher.dispatchAtOnce(.shouldRestoreSecureApplicationState).result
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
        let outcome = dispatcher.dispatchAtOnce(.configurationForConnecting(sceneRole: "UIWindowSceneSessionRoleApplication"))
        #expect(outcome.result == "Reader")
        #expect(log.callers(of: .configurationForConnecting) == ["A", "B", "C"])
        #expect(outcome.answers(as: String.self) == [nil, "Reader", "Editor"])
        #expect(makeDispatcher(["A"]).dispatcher.dispatchAtOnce(.configurationForConnecting(sceneRole: "x")).result
                    == "Default Configuration")
    }
}
