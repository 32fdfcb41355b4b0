import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The same subscriber classes through the dispatcher twice: registered in-process, and exported to
/// the C vtable by SubscriberPlugin.export and wrapped back by CSubscriber (no dlopen). Every event
/// of the every-event script must give identical results, answers and reports both ways.
@MainActor
@Suite("Dispatch through C: in-process and exported subscribers reconcile identically", .timeLimit(.minutes(1)))
struct DispatchThroughCTests {
    static let types: [any InstantiableSubscriber.Type] = [Oracle.self, Contrarian.self, Bystander.self, DoubleCaller.self]

    /// Every call of manifests/events/every-event.jsonl, plus launches the script does not cover.
    static func calls() throws -> [EventCall] {
        var calls = everyEventCalls
        calls.append(.didFinishLaunching(options: LaunchOptions(remoteNotification: ["id": 7])))
        calls.append(.openURL(url: URL(string: "news://article/1")!, options: OpenURLOptions(sourceApplication: "com.x")))
        calls.append(.didReceiveRemoteNotification(userInfo: ["aps": ["alert": "Breaking"]]))
        return calls
    }

    func dispatcher(bridged: Bool, sink: RecordingSink) throws -> (LifecycleDispatcher, [CSubscriber]) {
        var adapters: [CSubscriber] = []
        var registrations: [SubscriberRegistration] = []
        for type in Self.types {
            if bridged {
                let adapter = try SubscriberHostTests.bridged(type, sink: sink)
                adapters.append(adapter)
                registrations.append(SubscriberRegistration(adapter))
            } else {
                let subscriber = type.init(context: bridgeContext(type.subscriberName, sink: sink))
                registrations.append(SubscriberRegistration(name: type.subscriberName, subscriber: subscriber))
            }
        }
        var configuration = DispatchConfiguration(application: bridgeContext("app", sink: sink).application)
        try configuration.setDefaultDeadline(.seconds(5))
        return (LifecycleDispatcher(subscribers: registrations, configuration: configuration), adapters)
    }

    /// The outcome without timings, which differ from run to run, and without reports:
    /// DoubleCaller's second call comes from another thread, so whether its duplicate is reported
    /// with this event or the next one is a race; reports are compared over the whole run.
    func comparable(_ outcome: EventOutcome) -> EventOutcome {
        var outcome = outcome
        outcome.reports = []
        outcome.answers = outcome.answers.map { SubscriberAnswer(subscriber: $0.subscriber, answer: $0.answer, duration: .zero) }
        return outcome
    }

    @Test func identicalReportsForEveryEvent() async throws {
        let calls = try Self.calls()
        #expect(Set(calls.map(\.event)) == Set(LifecycleEvent.allCases))
        let directSink = RecordingSink(), bridgedSink = RecordingSink()
        let (direct, _) = try dispatcher(bridged: false, sink: directSink)
        let (bridged, adapters) = try dispatcher(bridged: true, sink: bridgedSink)
        defer { adapters.forEach { $0.destroy() } }
        var answered = 0
        var directReports: [String] = [], bridgedReports: [String] = []
        for call in calls {
            let expected = await direct.dispatch(call)
            let actual = await bridged.dispatch(call)
            #expect(comparable(actual) == comparable(expected), "\(call.event)")
            directReports += expected.reports.map(\.description)
            bridgedReports += actual.reports.map(\.description)
            answered += expected.answers.filter { $0.answer != nil && $0.answer != EventResult.none }.count
        }
        try await Task.sleep(for: .milliseconds(100))
        directReports += direct.takeLateReports().map(\.description)
        bridgedReports += bridged.takeLateReports().map(\.description)
        #expect(bridgedReports.sorted() == directReports.sorted())
        #expect(directReports.contains { $0.contains("DoubleCaller completed performFetch more than once") })
        // Guards against a vacuous pass: the subscribers really answered.
        #expect(answered > 30)
        #expect(bridgedSink.lines.sorted() == directSink.lines.sorted())
    }
}
