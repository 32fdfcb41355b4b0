import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

@MainActor
@Suite("Bridge completions: tokens, duplicates, unknown tokens", .timeLimit(.minutes(1)))
struct BridgeCompletionTests {
    @Test func aDuplicateCallThroughCReachesTheHandlerTwice() async throws {
        let adapter = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "sparse",
                                               context: bridgeContext("sparse", sink: RecordingSink())))
        defer { adapter.destroy() }
        let fetch = Recorder<BackgroundFetchResult>()
        SubscriberHandlers(adapter).fetch(.performFetch, completion: fetch.handler)
        #expect(await fetch.values(count: 2) == [.newData, .failed])

        // A third call, long after the entry returned: the retired ticket still forwards it.
        let kept = try #require(HandBuilt.keptFetch)
        kept.call(kept.context, adh_fetch_result(ADH_FETCH_NO_DATA))
        #expect(await fetch.values(count: 3) == [.newData, .failed, .noData])
    }

    @Test func unknownTokensInsideAnEntryAreIgnoredAndCountedAsForged() throws {
        let adapter = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "forger",
                                               context: bridgeContext("forger", sink: RecordingSink())))
        defer { adapter.destroy() }
        let before = CompletionTickets.shared.forgedCount
        let fetch = Recorder<BackgroundFetchResult>()
        SubscriberHandlers(adapter).fetch(.performFetch, completion: fetch.handler)
        // The forger called with a made-up token and with NULL inside its entry, then declined.
        #expect(CompletionTickets.shared.forgedCount == before + 2)
        #expect(fetch.values.isEmpty)
        #expect(fetch.declined)
    }

    @Test func retiredTicketsForwardUntilTheFIFOForgetsThem() {
        let tickets = CompletionTickets(retiredCapacity: 2)
        let calls = Recorder<String>()
        let handler = calls.handler
        let tokens = (0..<3).map { index in
            tickets.issue { answer in handler("\(index) \(answer)") }
        }
        #expect(tickets.liveCount == 3)
        for token in tokens { tickets.deliver(token, .done) }
        #expect(tickets.liveCount == 0)
        // Ticket 0 was forgotten when ticket 2 retired; 1 and 2 still forward duplicates.
        tickets.deliver(tokens[0], .fetch(1))
        tickets.deliver(tokens[1], .fetch(1))
        tickets.deliver(tokens[2], .bool(1))
        #expect(calls.values == ["0 done", "1 done", "2 done", "1 fetch(1)", "2 bool(1)"])
        #expect(tickets.unknownTokenCount == 1)
    }

    @Test func aDeclinedTicketIsRetiredAndStillForwards() throws {
        let tickets = CompletionTickets(retiredCapacity: 4)
        let calls = Recorder<String>()
        let handler = calls.handler
        let token = try #require(tickets.issue { answer in handler("\(answer)") })
        tickets.retire(token)
        #expect(tickets.liveCount == 0)
        tickets.deliver(token, .done)
        #expect(calls.values == ["done"])
        #expect(tickets.unknownTokenCount == 0)
    }

    @Test func tokensAreNeverNullAndNeverRepeat() {
        let tickets = CompletionTickets()
        let tokens = (0..<1000).map { _ in UInt(bitPattern: tickets.issue { _ in }) }
        #expect(!tokens.contains(0))
        #expect(Set(tokens).count == tokens.count)
    }

    @Test func aForgottenTicketsSlotIsReusedUnderANewToken() {
        let tickets = CompletionTickets(retiredCapacity: 1)
        let calls = Recorder<String>()
        let handler = calls.handler
        let first = tickets.issue { answer in handler("first \(answer)") }
        tickets.deliver(first, .done)
        let second = tickets.issue { answer in handler("second \(answer)") }
        tickets.deliver(second, .done)  // the FIFO holds one: the first ticket is forgotten
        let third = tickets.issue { answer in handler("third \(answer)") }
        #expect(Set([first, second, third].map { UInt(bitPattern: $0) }).count == 3)
        tickets.deliver(first, .bool(1))  // its slot now belongs to the third ticket
        #expect(tickets.unknownTokenCount == 1)
        tickets.deliver(third, .fetch(0))
        #expect(calls.values == ["first done", "second done", "third fetch(0)"])
        #expect(tickets.liveCount == 0)
    }
}

/// A C subscriber that never calls its completion: its ticket is retired when the dispatcher stops
/// waiting (so the table does not grow with every event), and a late call is still reported.
@MainActor
@Suite("Bridge completions: abandoned tickets and a full table", .timeLimit(.minutes(1)))
struct BridgeAbandonTests {
    @Test func aNeverCalledTicketIsRetiredAtTheDeadlineAndALateCallIsReported() async throws {
        let sink = RecordingSink()
        let adapter = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "silent",
                                               context: bridgeContext("silent", sink: sink)))
        defer { adapter.destroy() }
        var configuration = DispatchConfiguration(application: bridgeTestApplication)
        try configuration.setDeadline(.milliseconds(20), for: .performFetch)
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(adapter)],
                                             configuration: configuration)
        let outcome = await dispatcher.dispatch(.performFetch)
        #expect(outcome.result == .fetchResult(.failed))
        #expect(outcome.reports == [.late(subscriber: "silent", event: .performFetch)])

        let kept = try #require(HandBuilt.silentFetch)
        let token = try #require(kept.context)
        // Per token, not the shared liveCount: other suites issue tickets concurrently.
        #expect(!CompletionTickets.shared.isLive(token))
        let unknown = CompletionTickets.shared.unknownTokenCount
        kept.call(token, adh_fetch_result(ADH_FETCH_NEW_DATA))
        #expect(dispatcher.takeLateReports() == [.completionAfterDelivery(subscriber: "silent", event: .performFetch)])
        #expect(CompletionTickets.shared.unknownTokenCount == unknown)
    }

    @Test func liveCountReturnsToItsStartAfterAbandonment() {
        let tickets = CompletionTickets(retiredCapacity: 8)
        let calls = Recorder<String>()
        let handler = calls.handler
        let start = tickets.liveCount
        let tokens = (0..<3).compactMap { index in tickets.issue { answer in handler("\(index) \(answer)") } }
        #expect(tickets.liveCount == start + 3)
        for token in tokens { tickets.retire(token: UInt(bitPattern: token)) }
        #expect(tickets.liveCount == start)
        tickets.deliver(tokens[1], .done)
        #expect(calls.values == ["1 done"])
    }

    @Test func aFullTableRefusesInsteadOfTrapping() throws {
        let tickets = CompletionTickets(retiredCapacity: 1, slotLimit: 2)
        let first = try #require(tickets.issue { _ in })
        let second = try #require(tickets.issue { _ in })
        #expect(tickets.issue { _ in } == nil)
        #expect(tickets.refusedCount == 1)
        // A retired ticket keeps its slot while the FIFO remembers it…
        tickets.deliver(first, .done)
        #expect(tickets.issue { _ in } == nil)
        // …and frees it when the FIFO forgets it.
        tickets.deliver(second, .done)
        #expect(tickets.issue { _ in } != nil)
        #expect(tickets.refusedCount == 2)
    }

    @Test func theUnusableTokenIsNeverAnyTickets() {
        let tickets = CompletionTickets()
        let calls = Recorder<String>()
        let handler = calls.handler
        for _ in 0..<4 { _ = tickets.issue { answer in handler("\(answer)") } }
        tickets.deliver(CompletionTickets.unusableToken, .done)
        #expect(calls.values.isEmpty)
        #expect(tickets.unknownTokenCount == 1)
    }
}
