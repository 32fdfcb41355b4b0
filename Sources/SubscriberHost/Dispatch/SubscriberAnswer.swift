import SubscriberDelivery
import SubscriberKit

/// One row of an event's outcome: what one responding subscriber answered and how long it took.
public struct SubscriberAnswer: Sendable {
    /// The subscriber's name.
    public var subscriber: String
    /// Its answer, of the event's answer type (`Bool` for `openURL`, `BackgroundFetchResult` for
    /// `performFetch`, ``ContinueUserActivityResult`` for `continueUserActivity`); nil for no opinion,
    /// and for notifications, which have none. A subscriber that missed a deadline shows what it was
    /// counted as (`BackgroundFetchResult.failed`, `false`), or nil.
    public var answer: (any Sendable)?
    /// For a synchronous answer, how long the call took; for a completion, the time from the call
    /// until the completion arrived (until the deadline when it never did). Zero unless the
    /// dispatcher measures subscribers (``HostOptions/measuresSubscribers``).
    public var duration: Duration

    /// A row.
    public init(subscriber: String, answer: (any Sendable)?, duration: Duration) {
        self.subscriber = subscriber
        self.answer = answer
        self.duration = duration
    }

    /// The answer as `type`, when it is one: `row.answer(as: Bool.self)`.
    public func answer<T>(as type: T.Type) -> T? { answer as? T }
}
