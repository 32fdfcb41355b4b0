import SubscriberKit

/// One row of an event's outcome: what one responding subscriber answered and how long it took.
public struct SubscriberAnswer: Sendable, Hashable {
    /// The subscriber's name.
    public var subscriber: String
    /// Its answer; `nil` for no opinion (and for notifications, which have none). A subscriber that
    /// missed a deadline shows what it was counted as (`.fetchResult(.failed)`, `.bool(false)`).
    public var answer: EventResult?
    /// For a synchronous answer, how long the call took; for a completion, the time from the call
    /// until the completion arrived (until the deadline when it never did).
    public var duration: Duration

    /// A row.
    public init(subscriber: String, answer: EventResult?, duration: Duration) {
        self.subscriber = subscriber
        self.answer = answer
        self.duration = duration
    }

    init(subscriber: String, answer: EventResult?, nanoseconds: UInt64) {
        self.init(subscriber: subscriber, answer: answer, duration: .nanoseconds(Int64(clamping: nanoseconds)))
    }
}
