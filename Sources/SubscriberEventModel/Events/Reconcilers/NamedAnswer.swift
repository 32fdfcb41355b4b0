import SubscriberValues
/// One subscriber's non-`nil` answer, as reconcilers see it.
public struct NamedAnswer<Answer> {
    /// The subscriber's name.
    public var subscriber: String
    /// What it answered.
    public var answer: Answer

    /// An answer by `subscriber`.
    public init(subscriber: String, answer: Answer) {
        self.subscriber = subscriber
        self.answer = answer
    }
}

extension NamedAnswer: Equatable where Answer: Equatable {}
extension NamedAnswer: Hashable where Answer: Hashable {}

extension NamedAnswer: Sendable where Answer: Sendable {}
