import SubscriberValues
/// What a reconciler decided: the result and anything worth reporting (conflicts, duplicate keys).
package struct Reconciled<Answer> {
    /// The result delivered for the event.
    package var result: Answer
    /// Reports about the answers.
    package var reports: [DispatchReport]

    package init(result: Answer, reports: [DispatchReport] = []) {
        self.result = result
        self.reports = reports
    }
}

extension Reconciled: Equatable where Answer: Equatable {}
extension Reconciled: Sendable where Answer: Sendable {}

/// Combines the answers of one event into one result (docs/events.md). Pure: it sees the non-`nil`
/// answers in subscriber order and what nobody answering delivers, never the subscribers
/// themselves, so every responder has been called first — no reconciler can short-circuit.
///
/// The reconcilers that fit an answer are its shape's (``AnswerShape/reconciler(_:)``).
package struct Reconciler<Answer>: Sendable {
    /// Which reconciler this is.
    package let choice: ReconcilerChoice
    private let combine: @Sendable ([NamedAnswer<Answer>], LifecycleEvent, Answer) -> Reconciled<Answer>

    /// A reconciler named `choice` that decides with `combine(answers, event, nobodyAnswers)`.
    package init(_ choice: ReconcilerChoice,
                 combine: @escaping @Sendable ([NamedAnswer<Answer>], LifecycleEvent, Answer) -> Reconciled<Answer>) {
        self.choice = choice
        self.combine = combine
    }

    /// The result for `answers` (the non-`nil` ones, in subscriber order); `nobody` when empty.
    package func reconcile(_ answers: [NamedAnswer<Answer>], event: LifecycleEvent, nobody: Answer) -> Reconciled<Answer> {
        combine(answers, event, nobody)
    }

    /// The first answer in subscriber order: fits every answer.
    package static var firstAnswer: Reconciler {
        Reconciler(.firstAnswer) { answers, _, nobody in Reconciled(result: answers.first?.answer ?? nobody) }
    }

}

extension Reconciler where Answer: Sendable {
    /// `value` whatever the answers: `choice`, an `{"always": …}`.
    package static func always(_ value: Answer, as choice: ReconcilerChoice) -> Reconciler {
        Reconciler(choice) { _, _, _ in Reconciled(result: value) }
    }
}
