import SubscriberABI
import SubscriberValues

/// A `BackgroundFetchResult` through a completion (`performFetch`, `didReceiveRemoteNotification`):
/// an `adh_fetch_completion` in C.
package enum FetchResultAnswer: CompletionAnswerShape {
    package static var fittingReconcilers: [ReconcilerChoice] {
        [.precedence(ReconcilerChoice.defaultFetchPrecedence), .firstAnswer]
    }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<BackgroundFetchResult> {
        guard case .precedence(let names) = choice.form else {
            return try .pick(choice, among: [(.firstAnswer, .firstAnswer)], fitting: fittingReconcilers,
                             constant: { if case .string(let name) = $0 { BackgroundFetchResult(name: name) } else { nil } })
        }
        return precedence(try order(names), as: choice)
    }

    /// The first result of `order` that anyone answered (by default: failed > newData > noData).
    static func precedence(_ order: [BackgroundFetchResult], as choice: ReconcilerChoice) -> Reconciler<BackgroundFetchResult> {
        Reconciler(choice) { answers, _, nobody in
            guard !answers.isEmpty else { return Reconciled(result: nobody) }
            // The results answered, one bit each: a set would hash every answer.
            var seen: UInt32 = 0
            for answer in answers { seen |= 1 << UInt32(answer.answer.rawValue) }
            for result in order where seen & (1 << UInt32(result.rawValue)) != 0 { return Reconciled(result: result) }
            return Reconciled(result: answers[0].answer)
        }
    }

    /// A precedence list: every fetch result exactly once.
    private static func order(_ names: [String]) throws(ReconcilerMismatch) -> [BackgroundFetchResult] {
        let all = BackgroundFetchResult.allCases.map(\.name)
        var order: [BackgroundFetchResult] = []
        for (index, name) in names.enumerated() {
            guard let result = BackgroundFetchResult(name: name) else {
                throw ReconcilerMismatch(expected: "one of " + all.joined(separator: ", "),
                                         found: JSONValue.string(name).shapeDescription, element: index)
            }
            guard !order.contains(result) else {
                throw ReconcilerMismatch(expected: "a fetch result not listed before", found: "\"\(name)\" again", element: index)
            }
            order.append(result)
        }
        if let missing = BackgroundFetchResult.allCases.first(where: { !order.contains($0) }) {
            throw ReconcilerMismatch(expected: "every fetch result (\(all.joined(separator: ", "))) once",
                                     found: "a list without \(missing.name)")
        }
        return order
    }

    package static func json(answer: BackgroundFetchResult) -> JSONValue { .string(answer.name) }
    package static func json(final: BackgroundFetchResult) -> JSONValue { .string(final.name) }
    package static func appendJSON(answer: BackgroundFetchResult, to bytes: inout [UInt8]) { JSONText.appendString(answer.name, to: &bytes) }
    package static func appendJSON(final: BackgroundFetchResult, to bytes: inout [UInt8]) { JSONText.appendString(final.name, to: &bytes) }

    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) -> BackgroundFetchResult {
        guard case .string(let name) = json, let result = BackgroundFetchResult(name: name) else {
            throw JSONShapeError(path: path, expected: "one of newData, noData, failed", found: json.shapeDescription)
        }
        return result
    }

    package static func completion(token: UnsafeMutableRawPointer?) -> adh_fetch_completion {
        adh_fetch_completion(call: { HostCompletions.deliver($0, integer: Int64($1)) }, context: token)
    }

    package static var ignoringCompletion: adh_fetch_completion { adh_fetch_completion(call: { _, _ in }, context: nil) }

    package static func answer(_ raw: RawCompletion, problem: inout String?) -> BackgroundFetchResult? {
        guard case .integer(let value) = raw else { return nil }
        guard let result = Int32(exactly: value).flatMap(BackgroundFetchResult.init(rawValue:)) else {
            problem = "completion called with \(value), expected 0 (newData), 1 (noData) or 2 (failed); read as failed"
            return .failed
        }
        return result
    }

    /// A fetch result the header allows; nil for any other value (read by ``answer(_:problem:)``).
    @inlinable package static func answer(integer: Int64) -> BackgroundFetchResult? {
        Int32(exactly: integer).flatMap(BackgroundFetchResult.init(rawValue:))
    }

    package static func call(_ completion: adh_fetch_completion, with answer: BackgroundFetchResult) {
        completion.call?(completion.context, answer.rawValue)
    }
}
