import SubscriberKit

/// One row of an event's output: what one responding subscriber answered and how long it took.
public struct SubscriberAnswer: Sendable, Hashable {
    /// The subscriber's name.
    public var subscriber: String
    /// Its answer as output shows it; `nil` for no opinion (and for notifications, which have none).
    /// A subscriber that missed a deadline shows what it was counted as (`"failed"`, `false`).
    public var answer: JSONValue?
    /// For a synchronous answer, how long the call took; for a completion, the time from the call
    /// until the completion arrived (until the deadline when it never did).
    public var duration: Duration

    /// A row.
    public init(subscriber: String, answer: JSONValue?, duration: Duration) {
        self.subscriber = subscriber
        self.answer = answer
        self.duration = duration
    }

    init(subscriber: String, answer: JSONValue?, nanoseconds: UInt64) {
        self.init(subscriber: subscriber, answer: answer,
                  duration: .nanoseconds(Int64(clamping: nanoseconds)))
    }

    /// As JSON: {"subscriber", "answer" (null for none), "ms"}.
    public var json: JSONObject {
        ["subscriber": .string(subscriber), "answer": answer ?? .null, "ms": .milliseconds(duration.nanosecondsSaturating)]
    }
}
