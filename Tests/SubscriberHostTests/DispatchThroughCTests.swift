import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The same subscriber classes through the dispatcher twice: registered in-process, and exported to
/// the C vtable by SubscriberPlugin.export and wrapped back by CSubscriber (no dlopen). Every event
/// of the every-event script must give identical results, answers and reports both ways.
@MainActor
@Suite("Dispatch through C: in-process and exported subscribers reconcile identically", .timeLimit(.minutes(10)))
struct DispatchThroughCTests {
    /// The dispatchers' clock: a deadline passes only when a dispatch below advances it, once every
    /// completion from a thread arrived.
    let clock = ManualHostClock()

    static let types: [any InstantiableSubscriber.Type] = [Oracle.self, Contrarian.self, Bystander.self, DoubleCaller.self]

    /// Every event's ordinary calls, from the table, plus a few more whose answers differ.
    static func calls() throws -> [AnyEventCall] {
        var calls = EventTable.rows.flatMap(\.canonicalCalls)
        calls.append(EventCall.didFinishLaunching(options: LaunchOptions(remoteNotification: ["id": 7])).erased)
        calls.append(EventCall.openURL(url: URL(string: "news://article/1")!, options: OpenURLOptions(sourceApplication: "com.x")).erased)
        calls.append(EventCall.didReceiveRemoteNotification(userInfo: ["aps": ["alert": "Breaking"]]).erased)
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
        configuration.clock = clock
        try configuration.setDefaultDeadline(.seconds(5))
        // Every event in the table's order, whatever the application's state: the state machine is not
        // what is compared here.
        return (LifecycleDispatcher(subscribers: registrations, configuration: configuration, state: ApplicationStateCell(),
                                    enforcesApplicationState: false), adapters)
    }

    /// The outcome as its event's rows write it, without timings, which differ from run to run, and
    /// without reports: DoubleCaller's second call comes from another thread, so whether its duplicate
    /// is reported with this event or the next one is a race; reports are compared over the whole run.
    func comparable(_ outcome: AnyEventOutcome) -> String {
        let row = outcome.event.row
        let answers = outcome.answers.map { "\($0.subscriber)=\($0.answer.map { row.json(answer: $0).serialized() } ?? "nil")" }
        return "\(outcome.event) → \(row.json(result: outcome.result).serialized()) [\(answers.joined(separator: ", "))]"
            + (outcome.invocation.map { " \($0)" } ?? "")
    }

    /// Reports as (report without its count → calls it counts), duplicate completions summed.
    static func tally(_ reports: [String]) -> [String: Int] {
        var tally: [String: Int] = [:]
        for report in reports {
            if let match = report.firstMatch(of: /^(duplicate completion: .*) (\d+) times; the \d+ extra calls were ignored$/) {
                tally[String(match.1), default: 0] += Int(match.2)! - 1
            } else if let match = report.firstMatch(of: /^(duplicate completion: .*) more than once; the extra call was ignored$/) {
                tally[String(match.1), default: 0] += 1
            } else {
                tally[report, default: 0] += 1
            }
        }
        return tally
    }

    @Test func identicalReportsForEveryEvent() async throws {
        let calls = try Self.calls()
        #expect(Set(calls.map(\.event)) == Set(LifecycleEvent.allCases))  // from the table: a guard for the helper
        let directSink = RecordingSink(), bridgedSink = RecordingSink()
        let (direct, _) = try dispatcher(bridged: false, sink: directSink)
        let (bridged, adapters) = try dispatcher(bridged: true, sink: bridgedSink)
        defer { adapters.forEach { $0.destroy() } }
        var answered = 0
        var directReports: [String] = [], bridgedReports: [String] = []
        for call in calls {
            let expected = await direct.dispatch(call, advancing: clock, by: .seconds(5))
            let actual = await bridged.dispatch(call, advancing: clock, by: .seconds(5))
            #expect(comparable(actual) == comparable(expected), "\(call.event)")
            directReports += expected.reports.map(\.description)
            bridgedReports += actual.reports.map(\.description)
            answered += expected.answers.filter { $0.answer != nil }.count
        }
        // Every call from a thread made (DoubleCaller's second ones may come after delivery).
        #expect(await waitPatiently { CompletionsOnTheirWay.none })
        directReports += direct.takeLateReports().map(\.description)
        bridgedReports += bridged.takeLateReports().map(\.description)
        // Duplicates of one event that arrive together are one report with a count, whose grouping
        // races with DoubleCaller's thread: compare the extra calls per subscriber and event.
        #expect(Self.tally(bridgedReports) == Self.tally(directReports))
        #expect(directReports.contains { $0.contains("DoubleCaller completed performFetch more than once") })
        // Guards against a vacuous pass: the subscribers really answered.
        #expect(answered > 30)
        #expect(bridgedSink.lines.sorted() == directSink.lines.sorted())
    }
}
