import SubscriberKit

/// What a reconciler decided: the result and anything worth reporting (conflicts, duplicate keys).
package struct Reconciled<Answer: Sendable>: Sendable {
    /// The result delivered for the event.
    package var result: Answer
    /// Reports about the answers.
    package var reports: [DispatchReport]

    /// A decision.
    package init(result: Answer, reports: [DispatchReport] = []) {
        self.result = result
        self.reports = reports
    }
}

extension Reconciled: Equatable where Answer: Equatable {}

/// Combines the answers of one event into one result (docs/events.md). Pure: it sees the non-`nil` answers
/// in subscriber order and the event's no-answer default, never the subscribers themselves, so the
/// dispatcher always calls every responder first — no reconciler can short-circuit.
package struct Reconciler<Answer: Sendable>: Sendable {
    /// Which reconciler this is.
    package let choice: ReconcilerChoice
    private let combine: @Sendable ([NamedAnswer<Answer>], LifecycleEvent, Answer) -> Reconciled<Answer>

    /// A reconciler named `choice` that decides with `combine(answers, event, noAnswerDefault)`.
    package init(choice: ReconcilerChoice,
                combine: @escaping @Sendable ([NamedAnswer<Answer>], LifecycleEvent, Answer) -> Reconciled<Answer>) {
        self.choice = choice
        self.combine = combine
    }

    /// The result for `answers` (the non-`nil` ones, in subscriber order); `noAnswer` when empty.
    package func reconcile(_ answers: [NamedAnswer<Answer>], event: LifecycleEvent, noAnswer: Answer) -> Reconciled<Answer> {
        combine(answers, event, noAnswer)
    }

    /// The first answer in subscriber order.
    package static var firstAnswer: Reconciler {
        Reconciler(choice: .firstAnswer) { answers, _, noAnswer in
            Reconciled(result: answers.first?.answer ?? noAnswer)
        }
    }
}

extension Reconciler where Answer == Bool {
    /// True if any answer is true; false if every answer is false.
    package static let anyTrue = Reconciler(choice: .anyTrue) { answers, _, noAnswer in
        Reconciled(result: answers.isEmpty ? noAnswer : answers.contains { $0.answer })
    }

    /// True only if every answer is true: one false vetoes.
    package static let allTrue = Reconciler(choice: .allTrue) { answers, _, noAnswer in
        Reconciled(result: answers.isEmpty ? noAnswer : answers.allSatisfy { $0.answer })
    }

    /// The Bool reconciler named `choice`; nil when it does not fit a Bool.
    package init?(_ choice: ReconcilerChoice) {
        switch choice {
        case .anyTrue: self = .anyTrue
        case .allTrue: self = .allTrue
        case .firstAnswer: self = .firstAnswer
        default: return nil
        }
    }
}

extension Reconciler where Answer == BackgroundFetchResult {
    /// The first result of `order` that anyone answered (by default: failed > newData > noData).
    package static func precedence(_ order: [BackgroundFetchResult]) -> Reconciler {
        Reconciler(choice: .precedence(order)) { answers, _, noAnswer in
            guard !answers.isEmpty else { return Reconciled(result: noAnswer) }
            var seen: Set<BackgroundFetchResult> = []
            for answer in answers { seen.insert(answer.answer) }
            // A result missing from `order` (only possible for an unvalidated list) ranks last.
            return Reconciled(result: order.first(where: seen.contains) ?? answers[0].answer)
        }
    }

    /// The fetch reconciler named `choice`; nil when it does not fit a fetch result.
    package init?(_ choice: ReconcilerChoice) {
        switch choice {
        case .precedence(let order): self = .precedence(order)
        case .firstAnswer: self = .firstAnswer
        default: return nil
        }
    }
}

extension Reconciler where Answer == InterfaceOrientationMask {
    /// The orientations every answer allows, starting from all. An empty intersection delivers the
    /// no-answer default (the configured mask for the idiom) and reports the conflict.
    package static let intersection = Reconciler(choice: .intersection) { answers, event, noAnswer in
        guard !answers.isEmpty else { return Reconciled(result: noAnswer) }
        let common = answers.reduce(InterfaceOrientationMask.all) { $0.intersection($1.answer) }
        guard common.isEmpty else { return Reconciled(result: common) }
        return Reconciled(result: noAnswer,
                          reports: [.orientationConflict(event: event, answers: answers, fallback: noAnswer)])
    }

    /// The orientation reconciler named `choice`; nil when it does not fit a mask.
    package init?(_ choice: ReconcilerChoice) {
        switch choice {
        case .intersection: self = .intersection
        case .firstAnswer: self = .firstAnswer
        default: return nil
        }
    }
}

extension Reconciler where Answer == String {
    /// The configuration-name reconciler named `choice`; nil when it does not fit a name.
    package init?(_ choice: ReconcilerChoice) {
        guard choice == .firstAnswer else { return nil }
        self = .firstAnswer
    }
}

extension Reconciler where Answer == JSONObject {
    /// The replies merged in subscriber order; a key replied twice keeps the first and is reported.
    package static let merge = Reconciler(choice: .merge) { answers, event, noAnswer in
        guard !answers.isEmpty else { return Reconciled(result: noAnswer) }
        var merged = JSONObject()
        var owner: [String: String] = [:]
        var reports: [DispatchReport] = []
        for reply in answers {
            for (key, value) in reply.answer.members {
                if let first = owner[key] {
                    reports.append(.duplicateKey(key: key, subscriber: reply.subscriber, keptFrom: first, event: event))
                } else {
                    owner[key] = reply.subscriber
                    merged[key] = value
                }
            }
        }
        return Reconciled(result: merged, reports: reports)
    }

    /// The dictionary reconciler named `choice`; nil when it does not fit a dictionary.
    package init?(_ choice: ReconcilerChoice) {
        switch choice {
        case .merge: self = .merge
        case .firstAnswer: self = .firstAnswer
        default: return nil
        }
    }
}
