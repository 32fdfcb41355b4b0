import Foundation
import Testing
import SubscriberDelivery
@testable import SubscriberHost

/// An event's answer record (its answers and times) is reused by the next event of the same row
/// once nothing holds the outcome it went out with; an outcome kept keeps its own rows.
@MainActor
@Suite("Dispatch: an event's answer record reused by the next once nothing holds it")
struct AnswerRecordReuseTests {
    /// A record, not kept alive by this.
    final class Weak {
        weak var record: AnswerRecord?
        init(_ record: AnswerRecord?) { self.record = record }
    }

    /// `openURL` dispatched with the subscribers answering `answers`, in order: its record (weakly:
    /// the outcome is released on return), its answers and number of times, read while it is held.
    private func openURL(_ dispatcher: LifecycleDispatcher, _ subscribers: [TestSubscriber], _ answers: [Bool?])
        -> (record: Weak, answers: [Bool?], times: Int)
    {
        for (subscriber, answer) in zip(subscribers, answers) { subscriber.answers[.openURL] = answer }
        let outcome = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))
        guard let record = outcome.recordedAnswers?.record, let read = record.answers(as: Bool.self) else {
            Issue.record("openURL: no typed answer record")
            return (Weak(nil), [], 0)
        }
        return (Weak(record), read, record.nanoseconds.count)
    }

    @Test("answers at once: the next event's record is the last one's, filled with its own answers and times")
    func answersReused() {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B", "C"], configure: { $0.measuresSubscribers = true })
        let first = openURL(dispatcher, subscribers, [true, nil, false])
        #expect(first.answers == [true, nil, false])
        #expect(first.times == 3)
        // Its outcome released, the record lives on (kept for the next event) and is the next one's.
        #expect(first.record.record != nil)
        let second = openURL(dispatcher, subscribers, [nil, false, true])
        #expect(second.record.record != nil && second.record.record === first.record.record)
        #expect(second.answers == [nil, false, true])
        #expect(second.times == 3)
        let third = openURL(dispatcher, subscribers, [nil, nil, nil])
        #expect(third.record.record != nil && third.record.record === first.record.record)
        #expect(third.answers == [nil, nil, nil])
    }

    @Test("an outcome still held keeps its answers and times: the next event makes a record of its own")
    func heldOutcomeKept() {
        let (dispatcher, subscribers, _) = makeDispatcher(["A", "B", "C"], configure: { $0.measuresSubscribers = true })
        for (subscriber, answer) in zip(subscribers, [true, nil, false]) { subscriber.answers[.openURL] = answer }
        let kept = dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://kept")!))
        let keptRecord = kept.recordedAnswers?.record
        let keptTimes = keptRecord?.nanoseconds
        let next = openURL(dispatcher, subscribers, [false, true, nil])
        #expect(next.answers == [false, true, nil])
        #expect(next.record.record != nil && next.record.record !== keptRecord)
        #expect(keptRecord?.answers(as: Bool.self) == [true, nil, false])
        #expect(keptRecord?.nanoseconds == keptTimes)
        #expect(keptTimes?.count == 3)
        // Released, the newest record is the one reused.
        let after = openURL(dispatcher, subscribers, [true, true, true])
        #expect(after.record.record != nil && after.record.record === next.record.record)
        #expect(after.answers == [true, true, true])
        withExtendedLifetime(kept) {}
    }

    @Test("a notification's record and times reused the same way; a held one keeps its times")
    func notificationReused() {
        let (dispatcher, _, _) = makeDispatcher(["A", "B"], configure: { $0.measuresSubscribers = true })
        func resign() -> (Weak, [UInt64]) {
            let outcome = dispatcher.dispatchAtOnce(.willResignActive)
            dispatcher.dispatchAtOnce(.didBecomeActive)
            let record = outcome.recordedAnswers?.record
            return (Weak(record), record?.nanoseconds ?? [])
        }
        let first = resign()
        #expect(first.0.record != nil)
        let second = resign()
        #expect(first.1.count == 2 && second.1.count == 2)
        #expect(second.0.record != nil && second.0.record === first.0.record)
        let held = dispatcher.dispatchAtOnce(.willResignActive)
        dispatcher.dispatchAtOnce(.didBecomeActive)
        let heldTimes = held.recordedAnswers?.record.nanoseconds
        let third = resign()
        #expect(third.0.record != nil && third.0.record !== held.recordedAnswers?.record)
        #expect(held.recordedAnswers?.record.nanoseconds == heldTimes)
        #expect(heldTimes?.count == 2)
    }
}
