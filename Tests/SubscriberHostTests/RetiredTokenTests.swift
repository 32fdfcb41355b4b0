import SubscriberKit
import Testing
@testable import SubscriberDelivery
@testable import SubscriberHost

/// The completion tokens of delivered events stay mapped (65,536 of them) so that a late or
/// duplicate call is still reported; what each remembers must not grow with the events.
@MainActor
@Suite("Bridge completions: retired tokens keep no collector", .timeLimit(.minutes(10)))
struct RetiredTokenTests {
    @Test("every event of the table, 500 times each through C: the token table keeps one sink per event, not one per dispatch")
    func retiredTokensKeepNoCollector() async throws {
        let adapter = try bridged(Oracle.self, sink: RecordingSink())
        defer { adapter.destroy() }
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(adapter)],
                                             configuration: DispatchConfiguration(application: bridgeTestApplication),
                                             state: ApplicationStateCell(), enforcesApplicationState: false)
        let rounds = 500
                var tokenEvents = 0
        for row in EventTable.rows {
            for call in row.canonicalCalls {
                for _ in 0..<rounds { _ = await dispatcher.dispatch(call) }
                if row.timing.completes, !dispatcher.responderNames(for: row.event).isEmpty { tokenEvents += 1 }
            }
        }
        #expect(tokenEvents >= 5, "the check needs events answered through completions by a loaded responder")
        // Each retired token used to keep its event's collector: `rounds` sinks per such event (here
        // \(tokenEvents * rounds)); now one per event, shared by all its retired tokens. Only this
        // dispatcher's are counted: other tests share the process's token table.
        let kept = CompletionTokens.shared.keptSinkCount(owner: dispatcher.lateReports)
        #expect(kept <= tokenEvents, "the token table keeps \(kept) sinks of this dispatcher after \(tokenEvents) events × \(rounds) dispatches")
    }

    @Test("the retired sinks kept by event index: one per event of the table, each kept for its own subscriber list only")
    func retiredSinkPerEventIndex() {
        let reports = LateReports()
        let events = LifecycleEvent.allCases
        let names = events.map { ["\($0.name)-a", "\($0.name)-b"] }  // one array per event, kept as the dispatcher keeps it
        var made: [CompletionTokenSink] = []
        for (position, event) in events.enumerated() {
            let sink = reports.retiredSink(for: event, names: names[position]) { CompletionTokenSink() }
            made.append(sink)
        }
        // Every event keeps its own sink: the same one again for the same list, whichever events came between.
        for (position, event) in events.enumerated() {
            let again = reports.retiredSink(for: event, names: names[position]) {
                Issue.record("\(event.name): a second sink made for the same subscriber list")
                return CompletionTokenSink()
            }
            #expect(again === made[position], "\(event.name): the kept sink is another event's")
        }
        #expect(Set(made.map(ObjectIdentifier.init)).count == events.count, "one sink per event")
        // A new list for one event replaces that event's sink alone.
        let first = events[0]
        let replaced = reports.retiredSink(for: first, names: names[0].map { $0 }) { CompletionTokenSink() }
        #expect(replaced !== made[0])
        for (position, event) in events.enumerated().dropFirst() {
            #expect(reports.retiredSink(for: event, names: names[position]) { CompletionTokenSink() } === made[position])
        }
    }
}
