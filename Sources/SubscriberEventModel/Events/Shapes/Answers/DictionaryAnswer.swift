import SubscriberABI
import SubscriberValues

/// A dictionary through a completion (`handleWatchKitExtensionRequest`'s reply): an
/// `adh_json_completion` taking a JSON object in C.
package enum DictionaryAnswer: CompletionAnswerShape {
    package static var fittingReconcilers: [ReconcilerChoice] { [.merge, .firstAnswer] }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<JSONObject> {
        try .pick(choice, among: [(.merge, merge), (.firstAnswer, .firstAnswer)], fitting: fittingReconcilers)
    }

    /// The replies merged in subscriber order; a key replied twice keeps the first and is reported.
    static let merge = Reconciler<JSONObject>(.merge) { answers, event, nobody in
        guard !answers.isEmpty else { return Reconciled(result: nobody) }
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

    package static func json(answer: JSONObject) -> JSONValue { .object(answer) }
    package static func json(final: JSONObject) -> JSONValue { .object(final) }

    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) -> JSONObject {
        guard case .object(let object) = json else { throw JSONShapeError(path: path, expected: "an object", found: json.shapeDescription) }
        return object
    }

    package static func completion(token: UnsafeMutableRawPointer?) -> adh_json_completion {
        adh_json_completion(call: { HostCompletions.deliver($0, RawCompletion(json: $1)) }, context: token)
    }

    package static var ignoringCompletion: adh_json_completion { adh_json_completion(call: { _, _ in }, context: nil) }

    package static func answer(_ raw: RawCompletion, problem: inout String?) -> JSONObject? {
        switch raw {
        case .unreadable(let unreadable):
            problem = "reply: \(unreadable); read as {}"
            return [:]
        case .bytes(let bytes):
            guard case .object(let object)? = try? JSONValue(parsing: bytes) else {
                problem = "reply called with \(RawCompletion.describe(bytes)), expected a JSON object; read as {}"
                return [:]
            }
            return object
        case .done, .integer:
            return nil
        }
    }

    package static func call(_ completion: adh_json_completion, with answer: JSONObject) {
        withABIString(JSONValue.object(answer).serialized()) { completion.call?(completion.context, $0) }
    }
}

extension RawCompletion {
    /// JSON text a plugin passed, copied (the bytes are borrowed for the call only).
    package init(json: adh_string) {
        do throws(ABIStringProblem) {
            self = .bytes(Array(try json.checkedBytes() ?? UnsafeBufferPointer(start: nil, count: 0)))
        } catch {
            self = .unreadable(error)
        }
    }

    /// Up to 60 characters of what a plugin sent, for a warning.
    package static func describe(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(60), as: UTF8.self)
        return bytes.count > 60 ? "\"\(text)…\"" : "\"\(text)\""
    }
}
