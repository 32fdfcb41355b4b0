import SubscriberABI
import SubscriberValues

/// Presentation options through a completion (`notifications.willPresent`): an
/// `adh_presentation_completion` in C. Reconciled as the union: a notification is shown the way
/// any responder asked for.
package enum PresentationOptionsAnswer: CompletionAnswerShape {
    package static var fittingReconcilers: [ReconcilerChoice] { [.union, .firstAnswer] }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<NotificationPresentationOptions> {
        try .pick(choice, among: [(.union, union), (.firstAnswer, .firstAnswer)], fitting: fittingReconcilers)
    }

    /// Every option any responder asked for.
    static let union = Reconciler<NotificationPresentationOptions>(.union) { answers, _, nobody in
        guard !answers.isEmpty else { return Reconciled(result: nobody) }
        return Reconciled(result: answers.reduce(into: []) { $0.formUnion($1.answer) })
    }

    package static func json(answer: NotificationPresentationOptions) -> JSONValue { .array(answer.names.map { .string($0) }) }
    package static func json(final: NotificationPresentationOptions) -> JSONValue { json(answer: final) }
    package static func appendJSON(answer: NotificationPresentationOptions, to bytes: inout [UInt8]) {
        // A plain loop, as OrientationMaskAnswer's: no lazy sequence through generic code.
        bytes.append(UInt8(ascii: "["))
        var first = true
        for (name, option) in NotificationPresentationOptions.named where answer.contains(option) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            JSONText.appendString(name, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
    package static func appendJSON(final: NotificationPresentationOptions, to bytes: inout [UInt8]) { appendJSON(answer: final, to: &bytes) }

    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) -> NotificationPresentationOptions {
        guard case .array(let elements) = json else {
            throw JSONShapeError(path: path, expected: "a list of presentation options", found: json.shapeDescription)
        }
        var options: NotificationPresentationOptions = []
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element,
                  let option = NotificationPresentationOptions.named.first(where: { $0.name == name }) else {
                let known = NotificationPresentationOptions.named.map(\.name).joined(separator: ", ")
                throw JSONShapeError(path: "\(path)[\(index)]", expected: "one of \(known)", found: element.shapeDescription)
            }
            options.insert(option.option)
        }
        return options
    }

    package static func completion(token: UnsafeMutableRawPointer?) -> adh_presentation_completion {
        adh_presentation_completion(call: { HostCompletions.deliver($0, integer: Int64($1)) }, context: token)
    }

    package static var ignoringCompletion: adh_presentation_completion {
        adh_presentation_completion(call: { _, _ in }, context: nil)
    }

    package static func answer(_ raw: RawCompletion, problem: inout String?) -> NotificationPresentationOptions? {
        guard case .integer(let value) = raw else { return nil }
        let known = knownBits
        let bits = UInt32(truncatingIfNeeded: value)
        if Int64(bits) != value || bits & ~known != 0 {
            problem = "completion called with \(value), expected a combination of the ADH_PRESENTATION_* bits; "
                + "unknown bits ignored"
        }
        return NotificationPresentationOptions(rawValue: bits & known)
    }

    /// Every option's bit: read on every completion (a fold over the named options was about 70
    /// instructions a call, a lazy static about 10). The header's constants, folded where it is read;
    /// the options' names cover the same bits (`IntegerCompletionTests`).
    @inlinable package static var knownBits: UInt32 {
        UInt32(ADH_PRESENTATION_BADGE | ADH_PRESENTATION_SOUND | ADH_PRESENTATION_LIST | ADH_PRESENTATION_BANNER)
    }

    /// Options the header allows, as they are; nil for unknown bits (read by ``answer(_:problem:)``).
    @inlinable package static func answer(integer: Int64) -> NotificationPresentationOptions? {
        integer & ~Int64(knownBits) == 0 ? NotificationPresentationOptions(rawValue: UInt32(truncatingIfNeeded: integer)) : nil
    }

    package static func call(_ completion: adh_presentation_completion, with answer: NotificationPresentationOptions) {
        completion.call?(completion.context, answer.rawValue)
    }
}
