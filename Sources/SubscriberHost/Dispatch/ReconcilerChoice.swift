import SubscriberKit

/// A reconciler a manifest can choose for an event instead of its default (docs/events.md), to reproduce
/// Expo's, Flutter's or GoogleUtilities' behaviour on purpose.
public enum ReconcilerChoice: Sendable, Hashable, CustomStringConvertible {
    /// Bool: true if any answer is true (false if every answer is false).
    case anyTrue
    /// Bool: true only if every answer is true (one false vetoes).
    case allTrue
    /// Any type: the first answer in subscriber order.
    case firstAnswer
    /// Fetch result: the first result of this list that anyone answered. Lists each result once.
    case precedence([BackgroundFetchResult])
    /// Orientation mask: the orientations every answer allows.
    case intersection
    /// Dictionary: the replies merged; a key answered twice keeps the first.
    case merge

    /// The default fetch precedence: failed > newData > noData.
    public static let defaultFetchPrecedence: [BackgroundFetchResult] = [.failed, .newData, .noData]

    /// The name as manifests write it: "anyTrue", …; a precedence is its list of result names.
    public var description: String {
        switch self {
        case .anyTrue: "anyTrue"
        case .allTrue: "allTrue"
        case .firstAnswer: "firstAnswer"
        case .precedence(let order): "[" + order.map(\.name).joined(separator: ", ") + "]"
        case .intersection: "intersection"
        case .merge: "merge"
        }
    }

    /// As JSON, the way a manifest writes it: "anyTrue", or ["newData", "failed", "noData"].
    public var json: JSONValue {
        if case .precedence(let order) = self { return .array(order.map { .string($0.name) }) }
        return .string(description)
    }

    /// Reads a manifest's choice: one of the names, or an array of fetch result names (a precedence).
    /// Whether it fits the event is checked by ``validate(for:)``.
    public init(json: JSONValue, path: String) throws(JSONShapeError) {
        let named: [ReconcilerChoice] = [.anyTrue, .allTrue, .firstAnswer, .intersection, .merge]
        switch json {
        case .string(let name):
            guard let match = named.first(where: { $0.description == name }) else { break }
            self = match
            return
        case .array(let elements):
            self = .precedence(try Self.precedence(elements, path: path))
            return
        default:
            break
        }
        let names = named.map(\.description).joined(separator: ", ")
        throw JSONShapeError(path: path, expected: "one of \(names) or a precedence list of fetch results",
                             found: json.shapeDescription)
    }

    /// Reads a precedence list: each fetch result exactly once, errors naming the element.
    private static func precedence(_ elements: [JSONValue], path: String) throws(JSONShapeError) -> [BackgroundFetchResult] {
        let all = BackgroundFetchResult.allCases.map(\.name)
        var order: [BackgroundFetchResult] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element, let result = BackgroundFetchResult(name: name) else {
                throw JSONShapeError(path: "\(path)[\(index)]", expected: "one of \(all.joined(separator: ", "))",
                                     found: element.shapeDescription)
            }
            guard !order.contains(result) else {
                throw JSONShapeError(path: "\(path)[\(index)]", expected: "a fetch result not listed before",
                                     found: "\"\(name)\" again")
            }
            order.append(result)
        }
        guard order.count == all.count else {
            let missing = BackgroundFetchResult.allCases.filter { !order.contains($0) }.map(\.name)
            throw JSONShapeError(path: path, expected: "every fetch result (\(all.joined(separator: ", "))) once",
                                 found: "a list without \(missing.joined(separator: ", "))")
        }
        return order
    }

    /// Checks that this reconciler fits `event`'s answer type; throws a clear error otherwise.
    public func validate(for event: LifecycleEvent) throws(DispatchConfigurationError) {
        let fits = fits(event.row.answer)
        guard fits else { throw .reconcilerDoesNotFit(event: event, choice: self) }
        if case .precedence(let order) = self,
           order.count != BackgroundFetchResult.allCases.count || Set(order).count != order.count {
            throw .invalidPrecedence(event: event, order: order)
        }
    }
}
