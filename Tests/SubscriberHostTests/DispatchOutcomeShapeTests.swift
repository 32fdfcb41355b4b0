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
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"])
        subscribers[0].answers[.willFinishLaunching] = true
        let url = URL(string: "news://article/42")!
        let outcome = await dispatcher.dispatch(.willFinishLaunching(options: LaunchOptions(url: url)))
        #expect(outcome.event == .willFinishLaunching)
        #expect(outcome.result == .bool(true))
        #expect(outcome.invocation == .urlScheme(url))
        #expect(outcome.answers.map(\.subscriber) == ["A", "B"])
        #expect(outcome.answers.map(\.answer) == [.bool(true), nil])
        #expect(outcome.answers.allSatisfy { $0.duration >= .zero })
        #expect(outcome.reports == [])
        #expect(outcome.logs == [])  // a bare dispatcher records no logs; PluginHost fills them
    }

    @Test("a completion event with reports: no invocation, reports with kind, event, subscriber and message")
    func reportsShape() async throws {
        let configuration = try configuration { try $0.setDeadline(.milliseconds(50), for: .performFetch) }
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B"], configuration: configuration)
        subscribers[0].fetch = .twice(.newData, .newData)
        subscribers[1].fetch = .never
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(outcome.invocation == nil)
        #expect(outcome.result == .fetchResult(.failed))
        #expect(outcome.answers.map(\.answer) == [.fetchResult(.newData), .fetchResult(.failed)])
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
                    == .orientationMask([.portrait, .landscapeRight]))
        #expect(await dispatcher.dispatch(.configurationForConnecting(sceneRole: "x")).result == .configurationName("Default Configuration"))
        #expect(await dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: [:])).result == .dictionary(["k": "v"]))
        #expect(await dispatcher.dispatch(.continueUserActivity(UserActivity(activityType: "t"))).result
                    == .continuedActivity(ContinueUserActivityResult(handled: true, restorableObjects: ["r"])))
        #expect(await dispatcher.dispatch(.didEnterBackground).result == .none)
        #expect(await dispatcher.dispatch(.shouldSaveSecureApplicationState).result == .bool(false))
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

    @Test("every event's EventCall is delivered to that event")
    func everyEventDispatches() async throws {
        let (dispatcher, _, log) = makeDispatcher(["A"])
        var seen: [LifecycleEvent] = []
        for call in oneCallPerEvent {
            let outcome = await dispatcher.dispatch(call)
            #expect(outcome.event == call.event)
            seen.append(outcome.event)
        }
        #expect(seen == LifecycleEvent.allCases)
        #expect(log.entries == LifecycleEvent.allCases.map { "A:\($0.name)" })
    }
}
