import SubscriberABI
import SubscriberValues

/// A scene configuration's name answered at once (`configurationForConnecting`), `String?`: an
/// `adh_string` in C, `data == NULL` for no opinion, owned by the plugin until its next call.
package enum ConfigurationNameAnswer: ImmediateAnswerShape {
    package static var fittingReconcilers: [ReconcilerChoice] { [.firstAnswer] }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<String> {
        try .pick(choice, among: [(.firstAnswer, .firstAnswer)], fitting: fittingReconcilers,
                  constant: { if case .string(let name) = $0 { name } else { nil } })
    }

    package static func json(answer: String) -> JSONValue { .string(answer) }
    package static func json(final: String) -> JSONValue { .string(final) }
    package static func appendJSON(answer: String, to bytes: inout [UInt8]) { JSONText.appendString(answer, to: &bytes) }
    package static func appendJSON(final: String, to bytes: inout [UInt8]) { JSONText.appendString(final, to: &bytes) }

    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) -> String {
        guard case .string(let name) = json else { throw JSONShapeError(path: path, expected: "a string", found: json.shapeDescription) }
        return name
    }

    package static func encode(_ answer: String?, keeping kept: inout AnyObject?) -> adh_string {
        let bytes = answer.map { ABIBytes($0) }
        kept = bytes
        return bytes?.string ?? .absent
    }

    package static func decode(_ raw: adh_string, problem: inout String?) -> String? {
        do throws(ABIStringProblem) {
            return try raw.checkedString()
        } catch {
            problem = "\(error); read as no opinion"
            return nil
        }
    }
}
