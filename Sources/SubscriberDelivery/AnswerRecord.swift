import SubscriberKit
import SubscriberEventModel

/// What each responder of one event answered, in call order, typed inside: the rows an outcome
/// shows. Read only when output asks (``row(_:)``), so a dispatch whose rows nobody reads never
/// builds them.
package class AnswerRecord: @unchecked Sendable {
    // @unchecked: not changed once handed out; refilled only by the call path that made it, when
    // it holds the one reference left (``AnswerRecordSpare``), so that no reader sees it change:
    // no run-time exclusivity checks (one per read from another module, about 150 instructions).
    /// The responders' indices among the dispatcher's subscribers, one per row.
    @exclusivity(unchecked) package final fileprivate(set) var subscribers: [Int]
    /// Each row's time in nanoseconds when timed; empty otherwise.
    @exclusivity(unchecked) package final fileprivate(set) var nanoseconds: [UInt64]
    /// Reads row `index`'s answer of this record, erased: made where the answer type is concrete
    /// (``TypedAnswerRecord``'s initializer, called from the call paths compiled per shape), so that
    /// reading costs no generic metadata lookup (an override in the generic subclass would run as
    /// generic code: two lookups a row). Nil: no answers (notifications).
    private let read: (@Sendable (AnswerRecord, Int) -> (any Sendable)?)?
    /// The answers' type (``TypedAnswerRecord``'s `Answer`); nil for a record without answers
    /// (notifications: every row's answer is nil).
    package let answerType: Any.Type?

    /// A record without answers (a notification's, or none yet).
    package convenience init(subscribers: [Int], nanoseconds: [UInt64]) {
        self.init(subscribers: subscribers, nanoseconds: nanoseconds, answerType: nil, read: nil)
    }

    /// Internal: `answerType` and `read` must agree (``answers(as:)`` trusts `answerType` to name
    /// the subclass's answers), which only ``TypedAnswerRecord`` guarantees.
    init(subscribers: [Int], nanoseconds: [UInt64], answerType: Any.Type?,
         read: (@Sendable (AnswerRecord, Int) -> (any Sendable)?)?) {
        self.subscribers = subscribers
        self.nanoseconds = nanoseconds
        self.answerType = answerType
        self.read = read
    }

    /// The number of rows.
    package var count: Int { subscribers.count }

    /// ``subscribers``, read through a call into this module: a read of the stored property from
    /// another module makes a run-time exclusivity check (about 75 instructions), which
    /// `@exclusivity(unchecked)` stops only in this module. What the JSON output's rows read.
    package final var subscriberIndices: [Int] { subscribers }

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
    @exclusivity(unchecked) package fileprivate(set) var answers: [Answer?]

    package init(subscribers: [Int], answers: [Answer?], nanoseconds: [UInt64]) {
        self.answers = answers
        super.init(subscribers: subscribers, nanoseconds: nanoseconds, answerType: Answer.self) { record, index in
            unsafeDowncast(record, to: TypedAnswerRecord<Answer>.self).answers[index]
        }
    }
}

/// The answer record an event's last delivery made, kept to be filled again by the next delivery
/// of that event (its record and its arrays reused: three allocations an event fewer, and as many
/// frees) once nothing else holds it — the outcome it went out with was freed. A record still held
/// (an outcome kept) is left to its holder and a new one made. One per event of a long-lived
/// ``DeliveryList`` (the dispatcher's); only the call paths touch it, on the main actor, and every
/// row of a reused record is written again (subscribers, answers, times).
package final class AnswerRecordSpare: @unchecked Sendable {  // main actor only (Deliver)
    @exclusivity(unchecked) private var record: AnswerRecord?

    package init() {}

    /// The kept record when nothing else holds it and its answers are `Answer`s, with its answers and
    /// times handed out as they were (their storage kept) for the caller to fill again: the record's
    /// own are left empty until ``refill(_:subscribers:answers:nanoseconds:)``.
    @inline(__always)
    func take<Answer>(_: Answer.Type, answers: inout [Answer?], nanoseconds: inout [UInt64]) -> TypedAnswerRecord<Answer>? {
        guard record != nil, isKnownUniquelyReferenced(&record), let kept = record, kept.answerType == Answer.self else { return nil }
        let typed = unsafeDowncast(kept, to: TypedAnswerRecord<Answer>.self)
        swap(&answers, &typed.answers)
        swap(&nanoseconds, &typed.nanoseconds)
        return typed
    }

    /// The kept record without answers (a notification's), as ``take(_:answers:nanoseconds:)``.
    @inline(__always)
    func take(nanoseconds: inout [UInt64]) -> AnswerRecord? {
        guard record != nil, isKnownUniquelyReferenced(&record), let kept = record, kept.answerType == nil else { return nil }
        swap(&nanoseconds, &kept.nanoseconds)
        return kept
    }

    /// `record` (taken from here) filled again: the record an event goes out with.
    @inline(__always)
    func refill<Answer>(_ record: TypedAnswerRecord<Answer>, subscribers: [Int], answers: inout [Answer?],
                        nanoseconds: inout [UInt64]) -> TypedAnswerRecord<Answer> {
        record.subscribers = subscribers
        swap(&record.answers, &answers)
        swap(&record.nanoseconds, &nanoseconds)
        return record
    }

    /// A notification's `record` (taken from here) filled again.
    @inline(__always)
    func refill(_ record: AnswerRecord, subscribers: [Int], nanoseconds: inout [UInt64]) -> AnswerRecord {
        record.subscribers = subscribers
        swap(&record.nanoseconds, &nanoseconds)
        return record
    }

    /// Keeps `record`, new, for the next delivery.
    func keep(_ record: AnswerRecord) { self.record = record }
}

/// Times a run of calls with one clock read per call and one before the first: each call's time is
/// the span from the previous read. Nothing at all when not timed.
struct CallClock {
    /// The spans so far: the first `filled` (storage reused from an earlier event may hold more,
    /// written over one by one: emptying it first cost more than its allocation saved).
    private var storage: [UInt64] = []
    private var filled = 0
    private var last: UInt64 = 0
    let on: Bool

    init(timed: Bool, count: Int) {
        var none: [UInt64] = []
        self.init(timed: timed, count: count, reusing: &none)
    }

    /// `spans`: an array whose storage is reused (an answer record's, ``AnswerRecordSpare``), taken
    /// (left empty: the clock holds the one reference, and writes over its values).
    @inline(__always)
    init(timed: Bool, count: Int, reusing spans: inout [UInt64]) {
        on = timed
        guard timed else { return }
        swap(&storage, &spans)
        if storage.capacity < count { storage.reserveCapacity(count) }
        last = MonotonicClock.now()
    }

    /// The call just made ended now.
    @inline(__always)
    mutating func mark() {
        guard on else { return }
        let now = MonotonicClock.now()
        if filled < storage.count { storage[filled] = now &- last } else { storage.append(now &- last) }
        filled += 1
        last = now
    }

    /// Each call's time, in call order; empty when not timed.
    var spans: [UInt64] { filled == storage.count ? storage : Array(storage.prefix(filled)) }

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
