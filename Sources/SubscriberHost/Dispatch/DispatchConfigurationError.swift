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

    /// What the setting is ("reconciler for performFetch", "default deadline").
    public var subject: String {
        switch self {
        case .reconcilerDoesNotFit(let event, _): "reconciler for \(event)"
        case .invalidPrecedence(let event, _): "precedence for \(event)"
        case .deadlineWithoutCompletion(let event): "deadline for \(event)"
        case .nonPositiveDeadline(let event, _): event.map { "deadline for \($0)" } ?? "default deadline"
        }
    }

    /// What a valid setting would have been.
    public var expected: String {
        switch self {
        case .reconcilerDoesNotFit(let event, _):
            let type = event.row.answer
            if type.fittingReconcilers.isEmpty { return "no reconciler (\(event) has no answer to reconcile)" }
            let fitting = type.fittingReconcilers.map { choice -> String in
                if case .precedence = choice { return "a precedence list such as \(choice)" }
                return choice.description
            }
            return "one that fits \(type) (\(fitting.joined(separator: ", ")))"
        case .invalidPrecedence: return "newData, noData and failed each exactly once"
        case .deadlineWithoutCompletion: return "an event that answers through a completion"
        case .nonPositiveDeadline: return "a positive duration"
        }
    }

    /// What was found instead.
    public var found: String {
        switch self {
        case .reconcilerDoesNotFit(_, let choice): choice.description
        case .invalidPrecedence(_, let order): "[" + order.map(\.name).joined(separator: ", ") + "]"
        case .deadlineWithoutCompletion(let event): "\(event), which answers at once"
        case .nonPositiveDeadline(_, let deadline): "\(deadline)"
        }
    }

    /// One line: what, expected, found.
    public var description: String { "\(subject): expected \(expected), found \(found)" }
}
