import SubscriberKit

/// A reconciler chosen by name in the manifest's `reconcilers` section. A plain value: whether it
/// suits the event's answer type is the dispatcher's decision, not the manifest's.
public enum ManifestReconciler: Sendable, Hashable, CustomStringConvertible {
    /// True when any answer is true.
    case anyTrue
    /// True unless some answer is false (one false vetoes).
    case allTrue
    /// The first answer in subscriber order.
    case firstAnswer
    /// The intersection of every answered orientation mask.
    case intersection
    /// Every answered dictionary merged; a key answered twice keeps its first value.
    case merge
    /// Fetch results by precedence: the first of the list that anyone answered wins.
    case precedence([BackgroundFetchResult])

    /// The names accepted for the named (non-list) reconcilers, in the order error messages list them.
    public static let names: [String] = ["anyTrue", "allTrue", "firstAnswer", "intersection", "merge"]

    /// The reconciler named `name` ("anyTrue", …), or nil. Precedence lists are not named.
    public init?(name: String) {
        switch name {
        case "anyTrue": self = .anyTrue
        case "allTrue": self = .allTrue
        case "firstAnswer": self = .firstAnswer
        case "intersection": self = .intersection
        case "merge": self = .merge
        default: return nil
        }
    }

    /// The manifest spelling: the name, or the precedence list as `[failed, newData, noData]`.
    public var description: String {
        switch self {
        case .anyTrue: "anyTrue"
        case .allTrue: "allTrue"
        case .firstAnswer: "firstAnswer"
        case .intersection: "intersection"
        case .merge: "merge"
        case .precedence(let order): "[" + order.map(\.name).joined(separator: ", ") + "]"
        }
    }
}
