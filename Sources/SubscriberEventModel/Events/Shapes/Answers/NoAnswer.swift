import SubscriberValues
/// The answer of a notification (`didBecomeActive`, `willTerminate`): nothing. Every responder is
/// called, in order; there is nothing to reconcile.
package enum NoAnswer: NotificationAnswerShape {
    package static var fittingReconcilers: [ReconcilerChoice] { [] }

    package static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<Void> {
        throw .expecting(fittingReconcilers, found: choice)
    }

    package static func json(answer: Void) -> JSONValue { .null }
    package static func json(final: Void) -> JSONValue { .null }
    package static func appendJSON(answer: Void, to bytes: inout [UInt8]) { JSONText.append("null", to: &bytes) }
    package static func appendJSON(final: Void, to bytes: inout [UInt8]) { JSONText.append("null", to: &bytes) }
    package static func answer(json: JSONValue, path: String) throws(JSONShapeError) {}
}
