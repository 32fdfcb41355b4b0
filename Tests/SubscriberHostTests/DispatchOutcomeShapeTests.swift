import Foundation
import SubscriberHost
import SubscriberKit
import Testing

/// What an outcome carries, typed: event, result, invocation, answer rows, reports. (How `apphost
/// --json` renders them is the command's business and its tests'.)
@MainActor
@Suite("Dispatch: outcome shape")
struct DispatchOutcomeShapeTests {
    @Test("a launch event: event, result, invocation, one row per responder with its answer and duration, reports")
    func launchShape() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], launched: false)
        subscribers[0].answers[.willFinishLaunching] = true
        let url = URL(string: "news://article/42")!
        let outcome = await dispatcher.dispatch(.willFinishLaunching(options: LaunchOptions(url: url)))
        #expect(outcome.event == .willFinishLaunching)
        #expect(outcome.result == true)
        #expect(outcome.invocation == .urlScheme(url))
        #expect(outcome.answers.map(\.subscriber) == ["A", "B"])
        #expect(outcome.answers(as: Bool.self) == [true, nil])
        #expect(outcome.answers.allSatisfy { $0.duration >= .zero })
        #expect(outcome.reports == [])
        #expect(outcome.logs == [])  // a bare dispatcher records no logs; PluginHost fills them
    }

    @Test("a completion event with reports: no invocation, reports with kind, event, subscriber and message")
    func reportsShape() async throws {
        let clock = ManualHostClock()
        let configuration = try configuration(on: clock) { try $0.setDeadline(.milliseconds(50), for: .performFetch) }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: configuration)
        subscribers[0].fetch = .twice(.newData, .newData)
        subscribers[1].fetch = .never
        let outcome = await dispatcher.dispatch(.performFetch, advancing: clock, by: .milliseconds(50))
        #expect(outcome.invocation == nil)
        #expect(outcome.result == .failed)
        #expect(outcome.answers(as: BackgroundFetchResult.self) == [BackgroundFetchResult.newData, BackgroundFetchResult.failed])
        #expect(outcome.reports == [.duplicateCompletion(subscriber: "A", event: .performFetch),
                                    .late(subscriber: "B", event: .performFetch)])
        #expect(outcome.reports.map(\.kind) == ["duplicateCompletion", "late"])
        #expect(outcome.reports.allSatisfy { $0.event == .performFetch })
        #expect(outcome.reports[1].description == "late: B did not complete performFetch before its deadline")
    }

    @Test("results, typed: orientations, configuration, merge, restoration, notifications")
    func resultEncodings() async {
        let (dispatcher, subscribers, _) = makeDispatcher(["A"])
        subscribers[0].orientations = [.portrait, .landscapeRight]
        subscribers[0].reply = .now(["k": "v"])
        subscribers[0].answers[.continueUserActivity] = true
        subscribers[0].restoration = .now(["r"])
        #expect(await dispatcher.dispatch(.supportedInterfaceOrientations(idiom: .phone)).result
                    == [.portrait, .landscapeRight])
        #expect(await dispatcher.dispatch(.configurationForConnecting(sceneRole: "x")).result == "Default Configuration")
        #expect(await dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: [:])).result == ["k": "v"])
        #expect(await dispatcher.dispatch(.continueUserActivity(UserActivity(activityType: "t"))).result
                    == ContinueUserActivityResult(handled: true, restorableObjects: ["r"]))
        #expect(await dispatcher.dispatch(.shouldSaveSecureApplicationState).result == false)
        subscribers[0].presentation = .now([.banner, .list])
        let notification = UserNotification(identifier: "n1", userInfo: ["aps": ["alert": "Hello"]])
        #expect(await dispatcher.dispatch(.willPresentNotification(notification)).result == [.banner, .list])
        let resigned = await dispatcher.dispatch(.willResignActive)
        #expect(resigned.applicationState == .inactive)
    }

    @Test("an orientation conflict report carries the answers and the fallback")
    func conflictReport() {
        let report = DispatchReport.orientationConflict(
            event: .supportedInterfaceOrientations,
            answers: [NamedAnswer(subscriber: "A", answer: .portrait), NamedAnswer(subscriber: "B", answer: .landscapeLeft)],
            fallback: .all)
        guard case .orientationConflict(_, let answers, let fallback) = report else { Issue.record("\(report)"); return }
        #expect(answers.map(\.subscriber) == ["A", "B"])
        #expect(answers.map(\.answer) == [.portrait, .landscapeLeft])
        #expect(fallback == [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight])
        #expect(report.description == "orientation conflict: supportedInterfaceOrientations answers have no orientation in common (A [portrait], B [landscapeLeft]); delivered the default [portrait, portraitUpsideDown, landscapeLeft, landscapeRight]")
    }

    @Test("every event's EventCall is delivered to that event, in a state it may come in")
    func everyEventDispatches() async throws {
        var seen: [LifecycleEvent] = []
        for call in oneCallPerEvent {
            // A fresh app for each: the launch events come once, willTerminate ends the app.
            let (dispatcher, _, log) = makeDispatcher(["A"], launched: false)
            #expect(dispatcher.prepare(for: call.event), "\(call.event)")
            log.entries = []
            let outcome = await dispatcher.dispatch(call)
            #expect(outcome.event == call.event)
            #expect(outcome.reports == [], "\(call.event)")
            #expect(log.entries == ["A:\(call.event.name)"])
            seen.append(outcome.event)
        }
        #expect(seen == LifecycleEvent.allCases)
    }
}
