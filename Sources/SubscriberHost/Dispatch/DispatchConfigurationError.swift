import SubscriberKit

/// A dispatch setting that cannot be honoured: a reconciler that does not fit an event's answer type,
/// a malformed precedence, a bad deadline. Its description is one line naming what, expected, found.
public enum DispatchConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `choice` does not work on `event`'s answer type.
    case reconcilerDoesNotFit(event: LifecycleEvent, choice: ReconcilerChoice)
    /// A precedence that does not list newData, noData and failed exactly once each.
    case invalidPrecedence(event: LifecycleEvent, order: [BackgroundFetchResult])
    /// A deadline for an event that does not answer through a completion.
    case deadlineWithoutCompletion(event: LifecycleEvent)
    /// A deadline that is zero or negative; `event` nil for the default deadline.
    case nonPositiveDeadline(event: LifecycleEvent?, deadline: Duration)

    /// One line: what, expected, found.
    public var description: String {
        switch self {
        case .reconcilerDoesNotFit(let event, let choice):
            let type = event.answerType
            if type == .none {
                return "reconciler \(choice) for \(event): expected no reconciler (\(event) has no answer to reconcile), found \(choice)"
            }
            let fitting = type.fittingReconcilers.map { choice -> String in
                if case .precedence = choice { return "a precedence list such as \(choice)" }
                return choice.description
            }
            return "reconciler for \(event): expected one that fits \(type) (\(fitting.joined(separator: ", "))), found \(choice)"
        case .invalidPrecedence(let event, let order):
            let found = "[" + order.map(\.name).joined(separator: ", ") + "]"
            return "precedence for \(event): expected newData, noData and failed each exactly once, found \(found)"
        case .deadlineWithoutCompletion(let event):
            return "deadline for \(event): expected an event that answers through a completion, found \(event), which answers at once"
        case .nonPositiveDeadline(let event, let deadline):
            let what = event.map { "deadline for \($0)" } ?? "default deadline"
            return "\(what): expected a positive duration, found \(deadline)"
        }
    }
}
