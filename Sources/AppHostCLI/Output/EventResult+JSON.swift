import SubscriberHost
import SubscriberKit

// How results and answers appear in output (JSON lines, the human blocks, reports): the CLI's
// output conventions, not a general JSON mapping of the values.

extension EventResult {
    /// As a subscriber's answer row shows it: Bool → true/false, fetch → "newData", masks →
    /// ["portrait", …], configuration → its name, dictionary → the object, `.done` → "done",
    /// continueUserActivity → {"handled", "restorableObjects"?}; `.none` → null.
    var answerJSON: JSONValue {
        switch self {
        case .none: .null
        case .done: .string("done")
        case .bool(let value): .bool(value)
        case .fetchResult(let value): .string(value.name)
        case .orientationMask(let mask): mask.json
        case .configurationName(let name): .string(name)
        case .dictionary(let object): .object(object)
        case .continuedActivity(let result):
            if let restorable = result.restorableObjects {
                .object(["handled": .bool(result.handled), "restorableObjects": .array(restorable.map { .string($0) })])
            } else {
                .object(["handled": .bool(result.handled)])
            }
        }
    }

    /// As an event's result shows it: like ``answerJSON``, except that a completion without a value
    /// (`.done`, handleEventsForBackgroundURLSession) delivers nothing: null.
    var resultJSON: JSONValue {
        self == .done ? .null : answerJSON
    }
}

extension InterfaceOrientationMask {
    /// The orientation names: ["portrait", "landscapeLeft"].
    var json: JSONValue { .array(names.map { .string($0) }) }
}
