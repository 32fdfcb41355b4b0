import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// Completion calls with a token the host never gave, made where no subscriber can be blamed (a
/// plugin's own thread, after its entry returned): ignored, and reported with no subscriber named.
@Suite("Bridge completions: forged tokens from a plugin's own thread", .timeLimit(.minutes(10)))
struct BridgeUnattributedForgeryTests {
    @MainActor
    @Test func anUnknownTokenOutsideAnEntryIsCountedAsUnattributedForged() async throws {
        let table = CompletionTokens(retiredCapacity: 4)
        let token = UInt(bitPattern: table.issue(1, to: CompletionTokenSink())[0])
        #expect(token != 0)
        // From another thread, with no entry running: nobody to blame.
        await Task.detached {
            table.deliver(UnsafeMutableRawPointer(bitPattern: token ^ (1 << 32)), .done)
            table.deliver(UnsafeMutableRawPointer(bitPattern: token &- 1), .done)
            table.deliver(nil, .done)
            // The token the host gives when its table is full is not forged: the host gave it.
            table.deliver(CompletionTokens.unusable, .done)
        }.value
        #expect(table.unattributedForgedCount == 3)
        #expect(table.unknownCount == 4)
        #expect(table.forgedCount == 0)
        #expect(table.mappedCount == 1)
    }

    @Test func unattributedForgeriesAreOneCountedReportWithNoSubscriberOrEvent() {
        var list = DispatchReportList()
        list.append(.unattributedForgedCompletion(count: 2))
        list.append(.forgedCompletion(subscriber: "A", event: .performFetch))
        list.append(.unattributedForgedCompletion(count: 1))
        let reports = list.removeAll()
        #expect(reports == [.unattributedForgedCompletion(count: 3), .forgedCompletion(subscriber: "A", event: .performFetch)])
        let report = reports[0]
        #expect(report.kind == "forgedCompletion")
        #expect(report.event == nil)
        #expect(report.description == "forged completion: a completion was called with a context the host never gave "
                + "(3 times); ignored (called outside any subscriber's call, so no subscriber can be named)")
    }

    /// Runs in a process of its own: the forged calls go to the process's one ticket table, which
    /// every dispatcher of C subscribers in the test process would otherwise see and report.
    @Test func forgedTokensFromAPluginsThreadAreReportedWithTheEventAndAfterTheLast() async {
        await #expect(processExitsWith: .success) {
            let (outcome, after) = await ThreadForgerScenario.play()
            // The two forged calls completed nothing; the real one answered newData.
            #expect(outcome.result == .newData)
            #expect(outcome.reports == [.unattributedForgedCompletion(count: 2)])
            #expect(after == [.unattributedForgedCompletion(count: 1)])
            guard outcome.result == .newData, outcome.reports == [.unattributedForgedCompletion(count: 2)],
                  after == [.unattributedForgedCompletion(count: 1)] else {
                ThreadForgerScenario.fail("outcome \(outcome.result) \(outcome.reports); after the last event \(after)")
            }
        }
    }
}

/// The "threadforger" hand-built subscriber (BridgeHandBuiltPlugin.swift) behind a dispatcher: one
/// performFetch, then a forged call from another thread once every event is over.
@MainActor
enum ThreadForgerScenario {
    static func play() async -> (outcome: EventOutcome<BackgroundFetchResult>, after: [DispatchReport]) {
        guard let adapter = CSubscriber(descriptor: HandBuilt.descriptor, name: "threadforger",
                                        context: bridgeContext("threadforger", sink: RecordingSink())) else {
            fail("threadforger could not be created")
        }
        defer { adapter.destroy() }
        let dispatcher = Solo(adapter).dispatcher
        let outcome = await dispatcher.dispatch(.performFetch)
        guard let kept = HandBuilt.threadforgerFetch?.call else {
            fail("threadforger kept no completion")
        }
        nonisolated(unsafe) let call = kept
        await Task.detached {
            call(UnsafeMutableRawPointer(bitPattern: 0x5EED_0000_0001), adh_fetch_result(ADH_FETCH_NEW_DATA))
        }.value
        return (outcome, dispatcher.takeLateReports())
    }

    /// Ends the exit test's process as a failure, saying why.
    nonisolated static func fail(_ why: String) -> Never {
        FileHandle.standardError.write(Data((why + "\n").utf8))
        exit(1)
    }
}
