import SubscriberDelivery
import SubscriberKit

/// A dispatch setting that cannot be honoured: a reconciler that does not fit an event's answer, a
/// bad deadline. Its description is one line naming what, expected, found.
package enum DispatchConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The chosen reconciler (`found`) does not fit `event`'s answer; `expected` names the ones that do.
    case reconcilerDoesNotFit(event: LifecycleEvent, expected: String, found: String)
    /// A deadline for an event that does not answer through a completion.
    case deadlineWithoutCompletion(event: LifecycleEvent)
    /// A deadline that is zero or negative; `event` nil for the default deadline.
    case nonPositiveDeadline(event: LifecycleEvent?, deadline: Duration)

    /// What the setting is ("reconciler for performFetch", "default deadline").
    package var subject: String {
        switch self {
        case .reconcilerDoesNotFit(let event, _, _): "reconciler for \(event)"
        case .deadlineWithoutCompletion(let event): "deadline for \(event)"
        case .nonPositiveDeadline(let event, _): event.map { "deadline for \($0)" } ?? "default deadline"
        }
    }

    /// What a valid setting would have been.
    package var expected: String {
        switch self {
        case .reconcilerDoesNotFit(_, let expected, _): expected
        case .deadlineWithoutCompletion: "an event that answers through a completion"
        case .nonPositiveDeadline: "a positive duration"
        }
    }

    /// What was found instead.
    package var found: String {
        switch self {
        case .reconcilerDoesNotFit(_, _, let found): found
        case .deadlineWithoutCompletion(let event): "\(event), which answers at once"
        case .nonPositiveDeadline(_, let deadline): "\(deadline)"
        }
    }

    /// One line: what, expected, found.
    package var description: String { "\(subject): expected \(expected), found \(found)" }
}
