import SubscriberABI
import SubscriberValues

/// "Done", through a completion without a value (`handleEventsForBackgroundURLSession`,
/// `notifications.didReceiveResponse`): an `adh_void_completion` in C. The event is done when every
/// responder is done, or at its deadline.
package enum DoneAnswer: CompletionAnswerShape {
    package static var fittingReconcilers: [ReconcilerChoice] { [] }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<Void> {
        throw .expecting(fittingReconcilers, found: choice)
    }

    /// Done when every responder is done: there is nothing to combine.
    package static let everyoneDone = Reconciler<Void>(ReconcilerChoice(.named("done"))) { _, _, _ in Reconciled(result: ()) }

    package static func json(answer: Void) -> JSONValue { .string("done") }
    // A completion without a value delivers nothing.
    package static func json(final: Void) -> JSONValue { .null }
    package static func appendJSON(answer: Void, to bytes: inout [UInt8]) { JSONText.append(#""done""#, to: &bytes) }
    package static func appendJSON(final: Void, to bytes: inout [UInt8]) { JSONText.append("null", to: &bytes) }
    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) {}

    package static func completion(token: UnsafeMutableRawPointer?) -> adh_void_completion {
        adh_void_completion(call: { HostCompletions.deliver($0, .done) }, context: token)
    }

    package static var ignoringCompletion: adh_void_completion { adh_void_completion(call: { _ in }, context: nil) }

    package static func answer(_ raw: RawCompletion, problem: inout String?) -> Void? {
        guard case .done = raw else { return nil }
        return ()
    }

    package static func call(_ completion: adh_void_completion, with answer: Void) {
        completion.call?(completion.context)
    }
}
