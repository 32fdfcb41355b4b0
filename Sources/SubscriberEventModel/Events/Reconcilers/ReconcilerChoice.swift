import SubscriberValues
/// A reconciler a manifest (or an embedding app) chooses for an event instead of its default
/// (docs/events.md), to reproduce Expo's, Flutter's or GoogleUtilities' behaviour on purpose. Which
/// ones fit an event depends on its answer: each answer shape lists its own, and
/// ``LifecycleEvent/fittingReconcilers`` says them.
///
/// As JSON, the way a manifest writes it: a name (`"anyTrue"`), a precedence list of fetch results
/// (`["newData", "failed", "noData"]`), or a constant answer (`{"always": true}`).
public struct ReconcilerChoice: Sendable, Hashable, CustomStringConvertible {
    /// How the choice is written.
    package enum Form: Sendable, Hashable {
        /// A reconciler by name.
        case named(String)
        /// An order of answers: the first one anyone gave wins.
        case precedence([String])
        /// The same answer whatever subscribers say (they are still all called).
        case always(JSONValue)
    }

    package let form: Form

    package init(_ form: Form) { self.form = form }

    /// Bool: true if any answer is true (false if every answer is false).
    public static let anyTrue = ReconcilerChoice(.named("anyTrue"))
    /// Bool: true only if every answer is true (one false vetoes).
    public static let allTrue = ReconcilerChoice(.named("allTrue"))
    /// Any answer: the first one in subscriber order.
    public static let firstAnswer = ReconcilerChoice(.named("firstAnswer"))
    /// Orientation mask: the orientations every answer allows; an empty intersection delivers the
    /// default for the idiom and is reported as a conflict.
    public static let intersection = ReconcilerChoice(.named("intersection"))
    /// Orientation mask: the intersection, an empty one delivered as it is (Expo) and reported.
    public static let intersectionAllowingEmpty = ReconcilerChoice(.named("intersectionAllowingEmpty"))
    /// Dictionary: the replies merged; a key answered twice keeps the first and is reported.
    public static let merge = ReconcilerChoice(.named("merge"))
    /// Option set: the union of the answers.
    public static let union = ReconcilerChoice(.named("union"))

    /// Fetch result: the first result of `order` that anyone answered. Lists each result once.
    public static func precedence(_ order: [BackgroundFetchResult]) -> ReconcilerChoice {
        ReconcilerChoice(.precedence(order.map(\.name)))
    }

    /// The default fetch precedence: failed > newData > noData.
    public static let defaultFetchPrecedence: [BackgroundFetchResult] = [.failed, .newData, .noData]

    /// Always `value`, whatever the subscribers answer (every responder is still called): Expo's
    /// `didFinishLaunching`, which returns true whatever its subscribers say.
    public static func always(_ value: Bool) -> ReconcilerChoice { ReconcilerChoice(.always(.bool(value))) }

    /// As JSON, the way a manifest writes it.
    package var json: JSONValue {
        switch form {
        case .named(let name): .string(name)
        case .precedence(let order): .array(order.map { .string($0) })
        case .always(let value): .object(["always": value])
        }
    }

    /// The name as manifests write it: "anyTrue", "[failed, newData, noData]", "always true".
    public var description: String {
        switch form {
        case .named(let name): name
        case .precedence(let order): "[" + order.joined(separator: ", ") + "]"
        case .always(let value): "always \(value.serialized())"
        }
    }

    /// Reads a manifest's choice: a name, a precedence list of names, or `{"always": value}`.
    /// Whether it fits the event is checked against the event's answer
    /// (``LifecycleEvent/fittingReconcilers``), which also reads what a name or list means.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        switch json {
        case .string(let name):
            self.init(.named(name))
        case .array(let elements):
            var names: [String] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let name) = element else {
                    throw JSONShapeError(path: "\(path)[\(index)]", expected: "an answer's name", found: element.shapeDescription)
                }
                names.append(name)
            }
            self.init(.precedence(names))
        case .object(let object) where object.count == 1 && object["always"] != nil:
            self.init(.always(object["always"]!))
        default:
            throw JSONShapeError(path: path, expected: "a reconciler's name, a precedence list or {\"always\": answer}",
                                 found: json.shapeDescription)
        }
    }
}
