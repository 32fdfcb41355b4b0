import Foundation
import Glibc
import Synchronization
import SubscriberABI
@testable import SubscriberDelivery
@testable import SubscriberKit
@testable import SubscriberEventModel
import Testing
@testable import SubscriberHost

/// A sink for a token table under test: each call's slot and raw value, as text, in order.
private final class TokenRecorder: CompletionTokenSink, @unchecked Sendable {
    private let calls = Mutex<[String]>([])
    private let label: String
    init(_ label: String) { self.label = label }
    var values: [String] { calls.withLock { $0 } }
    override func deliver(_ slot: Int, _ raw: RawCompletion) { calls.withLock { $0.append("\(label)\(slot) \(raw)") } }
    override func forged(_ slot: Int) { calls.withLock { $0.append("\(label)\(slot) forged") } }
}

/// A sink that counts the calls it receives into a shared counter (it may be freed once its tokens are forgotten).
private final class CountingSink: CompletionTokenSink, @unchecked Sendable {
    final class Counter: Sendable {
        let calls = Atomic<Int>(0)
        let latestToken = Atomic<UInt>(0)
    }
    private let counter: Counter
    init(_ counter: Counter) { self.counter = counter }
    override func deliver(_ slot: Int, _ raw: RawCompletion) { counter.calls.add(1, ordering: .relaxed) }
}

@MainActor
@Suite("Bridge completions: tokens, duplicates, unknown tokens", .timeLimit(.minutes(10)))
struct BridgeCompletionTests {
    @Test func aSecondCallThroughCIsReportedAndALaterOneToo() async throws {
        let adapter = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "sparse",
                                               context: bridgeContext("sparse", sink: RecordingSink())))
        defer { adapter.destroy() }
        let solo = Solo(adapter)
        // "sparse" calls its completion twice inside the entry: the first counts, the second is reported.
        let outcome = await solo.deliver(.performFetch)
        #expect(outcome.result == .newData)
        #expect(outcome.reports == [.duplicateCompletion(subscriber: "sparse", event: .performFetch)])

        // A third call, long after the event was delivered: its token is still mapped, so it is reported.
        let kept = try #require(HandBuilt.keptFetch)
        kept.call(kept.context, adh_fetch_result(ADH_FETCH_NO_DATA))
        #expect(solo.dispatcher.takeLateReports() == [.duplicateCompletion(subscriber: "sparse", event: .performFetch)])
    }

    @Test func unknownTokensInsideAnEntryAreIgnoredAndReportedAsForged() async throws {
        let adapter = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "forger",
                                               context: bridgeContext("forger", sink: RecordingSink())))
        defer { adapter.destroy() }
        let before = CompletionTokens.shared.forgedCount
        let outcome = await Solo(adapter).deliver(.performFetch)
        // The forger called with a made-up token and with NULL inside its entry, then declined.
        #expect(CompletionTokens.shared.forgedCount == before + 2)
        #expect(outcome.answers.isEmpty)
        #expect(outcome.reports == [.forgedCompletion(subscriber: "forger", event: .performFetch, count: 2)])
    }

    @Test func retiredTokensStayMappedUntilTheFIFOForgetsThem() {
        let table = CompletionTokens(retiredCapacity: 2)
        let sinks = (0..<3).map { TokenRecorder("t\($0).") }
        let runs = sinks.map { table.issue(1, to: $0) }
        let tokens = runs.map { $0[0] }
        for token in tokens { table.deliver(token, .done) }
        for run in runs { table.retire(run) }
        // Token 0 was forgotten when token 2 retired; 1 and 2 still reach their sinks.
        table.deliver(tokens[0], .integer(1))
        table.deliver(tokens[1], .integer(1))
        table.deliver(tokens[2], .integer(2))
        #expect(sinks.map(\.values) == [["t0.0 done"], ["t1.0 done", "t1.0 integer(1)"], ["t2.0 done", "t2.0 integer(2)"]])
        #expect(table.unknownCount == 1)
    }

    @Test func tokensAreNeverNullAndNeverRepeatAndANeighboursIsUnknown() {
        let table = CompletionTokens()
        let sink = TokenRecorder("")
        let tokens = table.issue(1000, to: sink).map { UInt(bitPattern: $0) }
        #expect(!tokens.contains(0))
        #expect(Set(tokens).count == tokens.count)
        // The slot next to a token, with the token's own tag: not a token the table gave.
        table.deliver(UnsafeMutableRawPointer(bitPattern: tokens[0] &+ 1), .done)
        #expect(sink.values.isEmpty)
        #expect(table.unknownCount == 1)
        table.deliver(UnsafeMutableRawPointer(bitPattern: tokens[5]), .done)
        #expect(sink.values == ["5 done"])
    }

    @Test func aForgottenTokensSlotIsReusedUnderANewTag() {
        let table = CompletionTokens(retiredCapacity: 1)
        let first = TokenRecorder("first "), second = TokenRecorder("second "), third = TokenRecorder("third ")
        let firstRun = table.issue(1, to: first), firstToken = firstRun[0]
        table.retire(firstRun)
        let secondRun = table.issue(1, to: second), secondToken = secondRun[0]
        table.retire(secondRun)  // the FIFO holds one: the first slot is forgotten and reused
        let thirdToken = table.issue(1, to: third)[0]
        #expect(Set([firstToken, secondToken, thirdToken].map { UInt(bitPattern: $0) }).count == 3)
        table.deliver(firstToken, .done)  // its slot now belongs to the third token, under another tag
        #expect(table.unknownCount == 1)
        table.deliver(thirdToken, .integer(0))
        #expect(first.values.isEmpty && second.values.isEmpty && third.values == ["third 0 integer(0)"])
    }

    @Test func aTokenRetiredTwiceNeverFreesTheSlotAnotherEventReusedFromIt() {
        let table = CompletionTokens(retiredCapacity: 1)
        let first = TokenRecorder("first "), second = TokenRecorder("second "), third = TokenRecorder("third ")
        let firstRun = table.issue(1, to: first)
        table.retire(firstRun)
        table.retire(firstRun)  // twice: the FIFO forgets it (its slot is freed) and holds it again
        let secondToken = table.issue(1, to: second)[0]  // reuses the freed slot, under a new tag
        let thirdRun = table.issue(1, to: third)
        table.retire(thirdRun)  // forgets the first run again: its slot is the second's now
        table.deliver(secondToken, .done)
        #expect(second.values == ["second 0 done"], "a live token's slot was freed by a stale retirement")
        #expect(table.mappedCount == 2)
        // The freed slot is handed out once: a new token never shares the second's slot.
        let fourthToken = table.issue(1, to: first)[0]
        #expect(UInt(bitPattern: fourthToken) & 0xFFFF_FFFF != UInt(bitPattern: secondToken) & 0xFFFF_FFFF)
    }

    /// Calls the latest token of the runs another thread issues and retires meanwhile (20,000 runs of
    /// two, the FIFO of 2 forgetting each previous round's, whose sink is then freed), on this thread,
    /// until that thread is done: how many calls it made. Suspends every 1,000 calls (on the main actor,
    /// so on the same thread).
    private static func callTokensRetiredMeanwhile(_ table: CompletionTokens, _ counter: CountingSink.Counter) async -> Int {
        let retiring = Thread {
            for _ in 0..<20_000 {
                let tokens = table.issue(2, to: CountingSink(counter))
                counter.latestToken.store(UInt(bitPattern: tokens[1]), ordering: .releasing)
                table.retire(tokens)
            }
        }
        retiring.start()
        var calls = 0
        while !retiring.isFinished || calls == 0 {
            let token = counter.latestToken.load(ordering: .acquiring)
            guard token != 0 else { continue }
            table.deliver(UnsafeMutableRawPointer(bitPattern: token), .done)
            calls += 1
            if calls % 1_000 == 0 { await Task.yield() }
        }
        return calls
    }

    @Test("calls on the thread that issued first, while another thread issues, retires and frees slots: none reaches a freed sink")
    func callsRaceRetirementsOnAnotherThread() async {
        let table = CompletionTokens(retiredCapacity: 2)
        // The first issue is on this thread: the table once read slots here without its lock, so a
        // sink the other thread's retirement freed could still be called.
        table.retire(table.issue(1, to: CompletionTokenSink()))
        let counter = CountingSink.Counter()
        let calls = await Self.callTokensRetiredMeanwhile(table, counter)
        // Each call reached its live sink or was counted unknown (its slot forgotten): none lost.
        #expect(counter.calls.load(ordering: .acquiring) + table.unknownCount == calls)
    }

    @Test func aCallInsideItsOwnEntryReachesItsSlotAndEveryOtherCallStillDoes() {
        let table = CompletionTokens(retiredCapacity: 4)
        let sink = TokenRecorder("")
        let run = table.issue(3, to: sink)
        let thread = UInt(pthread_self())
        // Inside slot 1's entry, on its thread: its own token (the unlocked path), a sibling's (locked).
        let token = table.enter(run, 1, thread: thread)
        #expect(token == run[1])
        table.deliver(run[1], .integer(7))
        table.deliver(run[0], .integer(8))
        // A neighbour of the running token, with its tag: unknown, and blamed on the running entry.
        table.deliver(UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: run[1]) &+ 1), .done)
        table.leave(run, 1)
        // After the entry returned: the same token again, from the same thread (locked).
        table.deliver(run[1], .integer(9))
        #expect(sink.values == ["1 integer(7)", "0 integer(8)", "1 forged", "1 integer(9)"])
        table.retire(run)
        #expect(table.unknownCount == 0 && table.forgedCount == 1)
    }

    @Test("a thread inside an entry of its own calls the tokens of runs another thread issues, retires and frees: none reaches a freed sink")
    func callsInsideAnotherEntryRaceRetirementsOnAnotherThread() async {
        let table = CompletionTokens(retiredCapacity: 2)
        let counter = CountingSink.Counter()
        // This thread runs an entry of a run of its own: only a call of that entry's own token may
        // skip the lock, never a call of another run's token made meanwhile on this thread.
        let own = table.issue(1, to: CountingSink(counter))
        _ = table.enter(own, 0, thread: UInt(pthread_self()))
        let calls = await Self.callTokensRetiredMeanwhile(table, counter)
        table.leave(own, 0)
        table.retire(own)
        // Each call reached its live sink, or its slot was forgotten: unknown, and blamed on the
        // entry running here (forged).
        #expect(counter.calls.load(ordering: .acquiring) + table.unknownCount + table.forgedCount == calls)
    }

    @Test func aFullTableGivesTheUnusableTokenAndCounts() {
        let table = CompletionTokens(retiredCapacity: 1, slotLimit: 2)
        let sink = TokenRecorder("")
        let first = table.issue(1, to: sink)
        let tokens = table.issue(2, to: sink)
        #expect(first[0] != CompletionTokens.unusable && tokens[0] != CompletionTokens.unusable)
        #expect(tokens[1] == CompletionTokens.unusable)
        #expect(table.refusedCount == 1)
        table.deliver(CompletionTokens.unusable, .done)
        #expect(sink.values.isEmpty)
        #expect(table.unattributedForgedCount == 0, "the host gave the unusable token: its calls are not forged")
        // A retired token keeps its slot while the FIFO remembers it…
        table.retire(first)
        #expect(table.issue(1, to: sink)[0] == CompletionTokens.unusable)
        // …and frees it when the FIFO forgets it.
        table.retire(tokens)
        #expect(table.issue(1, to: sink)[0] != CompletionTokens.unusable)
    }
}

/// A C subscriber that never calls its completion: the event is delivered at its deadline, the
/// subscriber reported late, and a later call still reported.
@MainActor
@Suite("Bridge completions: a completion never called", .timeLimit(.minutes(10)))
struct BridgeAbandonTests {
    @Test func aNeverCalledCompletionIsLateAtTheDeadlineAndALateCallIsReported() async throws {
        let sink = RecordingSink()
        let adapter = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "silent",
                                               context: bridgeContext("silent", sink: sink)))
        defer { adapter.destroy() }
        let clock = ManualHostClock()
        var configuration = DispatchConfiguration(application: bridgeTestApplication)
        configuration.clock = clock
        try configuration.setDeadline(.milliseconds(20), for: .performFetch)
        let dispatcher = LifecycleDispatcher(subscribers: [SubscriberRegistration(adapter)], configuration: configuration,
                                             state: ApplicationStateCell(), enforcesApplicationState: false)
        let outcome = await dispatcher.dispatch(.performFetch, advancing: clock, by: .milliseconds(20))
        #expect(outcome.result == .failed)
        #expect(outcome.reports == [.late(subscriber: "silent", event: .performFetch)])

        let kept = try #require(HandBuilt.silentFetch)
        let unknown = CompletionTokens.shared.unknownCount
        kept.call(kept.context, adh_fetch_result(ADH_FETCH_NEW_DATA))
        #expect(dispatcher.takeLateReports() == [.completionAfterDelivery(subscriber: "silent", event: .performFetch)])
        #expect(CompletionTokens.shared.unknownCount == unknown)
    }
}
