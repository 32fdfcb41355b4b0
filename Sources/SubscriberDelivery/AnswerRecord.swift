import SubscriberKit
import SubscriberEventModel

/// What each responder of one event answered, in call order, typed inside: the rows an outcome
/// shows. Read only when output asks (``row(_:)``), so a dispatch whose rows nobody reads never
/// builds them.
package class AnswerRecord: @unchecked Sendable {
    // @unchecked: immutable once made.
    /// The responders' indices among the dispatcher's subscribers, one per row.
    package let subscribers: [Int]
    /// Each row's time in nanoseconds when timed; empty otherwise.
    package let nanoseconds: [UInt64]
    /// Reads row `index`'s answer of this record, erased: made where the answer type is concrete
    /// (``TypedAnswerRecord``'s initializer, called from the call paths compiled per shape), so that
    /// reading costs no generic metadata lookup (an override in the generic subclass would run as
    /// generic code: two lookups a row). Nil: no answers (notifications).
    private let read: (@Sendable (AnswerRecord, Int) -> (any Sendable)?)?
    /// The answers' type (``TypedAnswerRecord``'s `Answer`); nil for a record without answers
    /// (notifications: every row's answer is nil).
    package let answerType: Any.Type?

    package init(subscribers: [Int], nanoseconds: [UInt64], answerType: Any.Type? = nil,
         read: (@Sendable (AnswerRecord, Int) -> (any Sendable)?)? = nil) {
        self.subscribers = subscribers
        self.nanoseconds = nanoseconds
        self.answerType = answerType
        self.read = read
    }

    /// The number of rows.
    package var count: Int { subscribers.count }

    /// Row `index`'s answer, erased; nil for no opinion (and for notifications, which have none).
    package func answer(_ index: Int) -> (any Sendable)? { read?(self, index) }

    /// Every row's answer as `T`, when the answers are `T`s (``answerType`` is `T`); nil otherwise.
    /// Read typed: no existential made, copied and asked its type per row (the JSON output's
    /// hot path, about 400 instructions a row that way).
    @inline(__always)
    package func answers<T: Sendable>(as type: T.Type) -> [T?]? {
        guard let answerType, answerType == type else { return nil }
        return unsafeDowncast(self, to: TypedAnswerRecord<T>.self).answers
    }

    /// Row `index`'s time; 0 when not timed.
    package func time(_ index: Int) -> UInt64 { nanoseconds.isEmpty ? 0 : nanoseconds[index] }

    /// No rows.
    package static let empty = AnswerRecord(subscribers: [], nanoseconds: [])
}

/// A record of answers of type `Answer`.
package final class TypedAnswerRecord<Answer: Sendable>: AnswerRecord, @unchecked Sendable {
    package let answers: [Answer?]

    package init(subscribers: [Int], answers: [Answer?], nanoseconds: [UInt64]) {
        self.answers = answers
        super.init(subscribers: subscribers, nanoseconds: nanoseconds, answerType: Answer.self) { record, index in
            unsafeDowncast(record, to: TypedAnswerRecord<Answer>.self).answers[index]
        }
    }
}

/// Times a run of calls with one clock read per call and one before the first: each call's time is
/// the span from the previous read. Nothing at all when not timed.
struct CallClock {
    private(set) var spans: [UInt64] = []
    private var last: UInt64 = 0
    let on: Bool

    init(timed: Bool, count: Int) {
        on = timed
        guard timed else { return }
        spans.reserveCapacity(count)
        last = MonotonicClock.now()
    }

    /// The call just made ended now.
    @inline(__always)
    mutating func mark() {
        guard on else { return }
        let now = MonotonicClock.now()
        spans.append(now &- last)
        last = now
    }

    /// When each call started (the previous call's end), in call order; empty when not timed.
    var starts: [UInt64] {
        guard on else { return [] }
        var starts: [UInt64] = []
        starts.reserveCapacity(spans.count)
        var end = last
        for span in spans.reversed() {
            end &-= span
            starts.append(end)
        }
        return starts.reversed()
    }
}
