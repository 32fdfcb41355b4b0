import Glibc
import Synchronization
import SubscriberABI
@testable import SubscriberDelivery
@testable import SubscriberEventModel
@testable import SubscriberKit
import Testing

/// A sink that reads nothing typed: every call as the raw completion it is.
private final class RawRecorder: CompletionTokenSink, @unchecked Sendable {
    var calls: [String] = []
    override func deliver(_ slot: Int, _ raw: RawCompletion) { calls.append("\(slot) \(raw)") }
}

/// Records typed integer calls and raw calls apart.
private final class TypedRecorder: CompletionTokenSink, @unchecked Sendable {
    var calls: [String] = []
    override func deliver(_ slot: Int, _ raw: RawCompletion) { calls.append("raw \(slot) \(raw)") }
    override func deliver(_ slot: Int, integer: Int64) { calls.append("typed \(slot) \(integer)") }
}

/// Integer completions (a fetch result, a Bool, presentation options) take a typed way from the C
/// call to the collector's slot; every value the header does not allow, and every sink that does not
/// read integers, takes the raw one, which says what is wrong.
@Suite("Completions: integer calls read typed, the same as read raw")
struct IntegerCompletionTests {
    /// Values around and far outside every integer shape's allowed ones.
    static let values: [Int64] = Array(-3...40) + [255, 256, 1 << 31, (1 << 32) + 1, .max, .min, -1 << 32]

    private func agrees<R: CompletionAnswerShape>(_: R.Type) where R.Answer: Equatable {
        for value in Self.values {
            var problem: String?
            let raw = R.answer(.integer(value), problem: &problem)
            if let typed = R.answer(integer: value) {
                #expect(problem == nil && raw == typed, "\(R.self) \(value): typed \(typed), raw \(String(describing: raw)), \(problem ?? "")")
            } else {
                #expect(problem != nil, "\(R.self) \(value): allowed, but not read typed")
            }
        }
    }

    @Test("each integer shape's typed read is its raw read of every value the header allows, and nil for the others")
    func typedReadsAgreeWithRawReads() {
        agrees(FetchResultAnswer.self)
        agrees(BoolCompletionAnswer.self)
        agrees(PresentationOptionsAnswer.self)
        #expect(PresentationOptionsAnswer.knownBits
                == NotificationPresentationOptions.named.reduce(into: UInt32(0)) { $0 |= $1.option.rawValue })
        // A shape whose completion passes no integer reads none typed.
        #expect(DoneAnswer.answer(integer: 0) == nil && DictionaryAnswer.answer(integer: 0) == nil)
    }

    @Test("an integer call reaches a sink that reads nothing typed as the raw call, before and after retirement")
    func integerCallsReachRawSinks() {
        let table = CompletionTokens(retiredCapacity: 8)
        let live = RawRecorder(), retired = RawRecorder()
        let run = table.issue(3, to: live)
        table.deliver(run[1], integer: 7)
        #expect(live.calls == ["1 integer(7)"])
        let subscribers = [4, 5, 6]
        let states = UnsafeMutablePointer<Atomic<UInt8>>.allocate(capacity: 3)
        defer { states.deallocate() }
        for index in 0..<3 { (states + index).initialize(to: Atomic(CompletionCollector<Int>.SlotState.answered.rawValue)) }
        subscribers.withUnsafeBufferPointer {
            table.retire(run, as: retired, numbers: RetiredNumbers(subscribers: $0, states: UnsafePointer(states), closed: false))
        }
        table.deliver(run[2], integer: -1)
        // Under its retired number: subscriber 6, answered.
        #expect(retired.calls == ["\(6 << 4 | Int(CompletionCollector<Int>.SlotState.answered.rawValue)) integer(-1)"])
        #expect(live.calls.count == 1)
        // A forged integer call: unknown, as a raw one.
        let before = table.unknownCount
        table.deliver(UnsafeMutableRawPointer(bitPattern: UInt(bitPattern: run[0]) ^ 0x1_0000_0000), integer: 1)
        #expect(table.unknownCount == before + 1)
    }

    @Test("an integer call inside its entry, on the entry's thread, reaches the sink typed; after it, raw under the lock")
    func integerCallsInsideTheEntryAreTyped() {
        let table = CompletionTokens(retiredCapacity: 8)
        let sink = TypedRecorder()
        let run = table.issue(3, to: sink)
        let token = table.enter(run, 1, thread: UInt(pthread_self()))
        #expect(token == run[1])
        // The unlocked path: typed, values the header does not allow included (the sink judges them).
        table.deliver(token, integer: 2)
        table.deliver(token, integer: 1 << 20 | 1)
        table.leave(run, 1)
        // After the entry returned: the locked path, raw.
        table.deliver(run[1], integer: 2)
        // Inside another responder's entry, a neighbour's token: not its own slot's caller, so raw.
        _ = table.enter(run, 0, thread: UInt(pthread_self()))
        table.deliver(run[2], integer: 0)
        table.leave(run, 0)
        #expect(sink.calls == ["typed 1 2", "typed 1 \(1 << 20 | 1)", "raw 1 integer(2)", "raw 2 integer(0)"])
    }
}
