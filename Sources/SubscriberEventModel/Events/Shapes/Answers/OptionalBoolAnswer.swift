import SubscriberABI
import SubscriberValues

/// A `Bool?` answered at once (`openURL`, the launch events, the vetoes): an `adh_tristate` in C.
package enum OptionalBoolAnswer: ImmediateAnswerShape {
    package static func encode(_ answer: Bool?, keeping kept: inout AnyObject?) -> adh_tristate { ABI.tristate(answer) }

    package static func decode(_ raw: adh_tristate, problem: inout String?) -> Bool? {
        if !ABI.isValidTristate(raw) {
            problem = "returned \(raw), expected -1 (no opinion), 0 (false) or 1 (true); read as no opinion"
        }
        return ABI.bool(fromTristate: raw)
    }
}

/// What every shape answered with a `Bool` shares (``OptionalBoolAnswer``, ``BoolCompletionAnswer``,
/// ``RestorationAnswer``): the Bool reconcilers, and answers written as JSON booleans.
extension AnswerShape where Answer == Bool {
    package static var fittingReconcilers: [ReconcilerChoice] { Reconciler<Bool>.fitting }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<Bool> {
        try Reconciler<Bool>.named(choice)
    }

    package static func json(answer: Bool) -> JSONValue { .bool(answer) }
    package static func appendJSON(answer: Bool, to bytes: inout [UInt8]) { JSONText.appendBool(answer, to: &bytes) }
    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) -> Bool { try json.bool(at: path) }
}

extension AnswerShape where Final == Bool {
    package static func json(final: Bool) -> JSONValue { .bool(final) }
    package static func appendJSON(final: Bool, to bytes: inout [UInt8]) { JSONText.appendBool(final, to: &bytes) }
}

extension Reconciler where Answer == Bool {
    /// The Bool reconcilers, by the names manifests use, and `{"always": true|false}`.
    static var fitting: [ReconcilerChoice] { [.anyTrue, .allTrue, .firstAnswer, .always(true), .always(false)] }

    /// True if any answer is true; false if every answer is false.
    package static let anyTrue = Reconciler(.anyTrue) { answers, _, nobody in
        Reconciled(result: answers.isEmpty ? nobody : answers.contains { $0.answer })
    }

    /// True only if every answer is true: one false vetoes.
    package static let allTrue = Reconciler(.allTrue) { answers, _, nobody in
        Reconciled(result: answers.isEmpty ? nobody : answers.allSatisfy { $0.answer })
    }

    /// The Bool reconciler `choice` names: every Bool answer shape has the same ones.
    static func named(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<Bool> {
        try pick(choice, among: [(.anyTrue, .anyTrue), (.allTrue, .allTrue), (.firstAnswer, .firstAnswer)],
                 fitting: fitting, constant: { if case .bool(let value) = $0 { value } else { nil } })
    }
}

extension JSONValue {
    /// This value as a Bool; an error naming `path` otherwise.
    package func bool(at path: String) throws(JSONShapeError) -> Bool {
        guard case .bool(let value) = self else { throw JSONShapeError(path: path, expected: "true or false", found: shapeDescription) }
        return value
    }
}
