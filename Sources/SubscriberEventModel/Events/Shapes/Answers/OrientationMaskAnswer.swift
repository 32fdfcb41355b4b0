import SubscriberABI
import SubscriberValues

/// An `InterfaceOrientationMask?` answered at once (`supportedInterfaceOrientations`): an `int64_t`
/// in C, the mask's bits or negative for no opinion.
package enum OrientationMaskAnswer: ImmediateAnswerShape {
    package static var fittingReconcilers: [ReconcilerChoice] { [.intersection, .intersectionAllowingEmpty, .firstAnswer] }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<InterfaceOrientationMask> {
        try .pick(choice, among: [(.intersection, intersection(allowingEmpty: false)),
                                  (.intersectionAllowingEmpty, intersection(allowingEmpty: true)),
                                  (.firstAnswer, .firstAnswer)], fitting: fittingReconcilers)
    }

    /// The orientations every answer allows, starting from all. An empty intersection is a conflict,
    /// reported; it delivers what nobody answering delivers (the default for the idiom), or, when
    /// `allowingEmpty` (Expo), the empty mask.
    static func intersection(allowingEmpty: Bool) -> Reconciler<InterfaceOrientationMask> {
        Reconciler(allowingEmpty ? .intersectionAllowingEmpty : .intersection) { answers, event, nobody in
            guard !answers.isEmpty else { return Reconciled(result: nobody) }
            let common = answers.reduce(InterfaceOrientationMask.all) { $0.intersection($1.answer) }
            guard common.isEmpty else { return Reconciled(result: common) }
            let delivered = allowingEmpty ? [] : nobody
            return Reconciled(result: delivered,
                              reports: [.orientationConflict(event: event, answers: answers, fallback: delivered)])
        }
    }

    package static func json(answer: InterfaceOrientationMask) -> JSONValue { .array(answer.names.map { .string($0) }) }
    package static func json(final: InterfaceOrientationMask) -> JSONValue { json(answer: final) }
    package static func appendJSON(answer: InterfaceOrientationMask, to bytes: inout [UInt8]) {
        // A plain loop, not a lazy sequence handed to generic code (not specialised across
        // modules: about 11,000 instructions a mask, output's hot path).
        bytes.append(UInt8(ascii: "["))
        var first = true
        for (name, mask) in InterfaceOrientationMask.named where answer.contains(mask) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            JSONText.appendString(name, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
    package static func appendJSON(final: InterfaceOrientationMask, to bytes: inout [UInt8]) { appendJSON(answer: final, to: &bytes) }

    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) -> InterfaceOrientationMask {
        guard case .array(let elements) = json else {
            throw JSONShapeError(path: path, expected: "a list of orientation names", found: json.shapeDescription)
        }
        var names: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element else {
                throw JSONShapeError(path: "\(path)[\(index)]", expected: "an orientation name", found: element.shapeDescription)
            }
            names.append(name)
        }
        var unknown = ""
        guard let mask = InterfaceOrientationMask(names: names, unknown: { unknown = $0 }) else {
            let known = InterfaceOrientationMask.named.map(\.name).joined(separator: ", ")
            throw JSONShapeError(path: path, expected: "orientation names (\(known))", found: "\"\(unknown)\"")
        }
        return mask
    }

    package static func encode(_ answer: InterfaceOrientationMask?, keeping kept: inout AnyObject?) -> Int64 {
        ABI.orientationAnswer(answer)
    }

    package static func decode(_ raw: Int64, problem: inout String?) -> InterfaceOrientationMask? {
        if raw >= 0 && ABI.orientationMask(fromAnswer: raw) == nil {
            problem = "returned \(raw), expected a 32-bit mask or a negative value (no opinion); read as no opinion"
        }
        return ABI.orientationMask(fromAnswer: raw)
    }
}
