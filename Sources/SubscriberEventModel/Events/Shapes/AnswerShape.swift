import SubscriberABI
import SubscriberValues

/// What varies with the answer of an event, in one type per *shape*: `Bool?` at once
/// (``OptionalBoolAnswer``), a fetch result through a completion (``FetchResultAnswer``), and so on.
/// A shape owns what its answer means everywhere: the C form both ways (a return value, or a
/// completion), the reconcilers that fit it, how answers and results are written as JSON (output,
/// and anything that sends answers as JSON). What nobody answering gives and what a late responder
/// counts as are per event, so rows say them, typed by their shape.
///
/// Every shape has one of four timings, each a protocol below: a notification (nothing to answer),
/// an answer at once, an answer through a completion handler, or both (`continueUserActivity`).
package protocol AnswerShape: Sendable {
    /// One subscriber's answer as reconcilers see it (a `nil` answer is no opinion).
    associatedtype Answer: Sendable
    /// What the event's UIKit method returns at once (`Void` when it answers through a completion).
    associatedtype Immediate: Sendable
    /// What the event delivers once every answer arrived.
    associatedtype Final: Sendable

    /// The reconcilers that fit this answer, by the names manifests use.
    static var fittingReconcilers: [ReconcilerChoice] { get }
    /// The reconciler `choice` names for this answer; throws when it does not fit, saying why.
    static func reconciler(_ choice: ReconcilerChoice) throws(ReconcilerMismatch) -> Reconciler<Answer>

    /// One subscriber's answer as JSON (output rows).
    static func json(answer: Answer) -> JSONValue
    /// The event's result as JSON (`null` for none).
    static func json(final: Final) -> JSONValue
    /// One subscriber's answer read back from ``json(answer:)``.
    static func answer(json: JSONValue, path: String) throws(JSONShapeError) -> Answer

    /// Appends the compact text of ``json(answer:)`` to `bytes`, written from the typed value with no
    /// `JSONValue` built (output's hot path); byte for byte what the serializer writes.
    static func appendJSON(answer: Answer, to bytes: inout [UInt8])
    /// Appends the compact text of ``json(final:)`` to `bytes`, as ``appendJSON(answer:to:)`` does.
    static func appendJSON(final: Final, to bytes: inout [UInt8])
}

extension AnswerShape {
    /// Through the `JSONValue`: for answers that are one already (a dictionary), or rare.
    package static func appendJSON(answer: Answer, to bytes: inout [UInt8]) { json(answer: answer).appendSerialized(to: &bytes) }
    package static func appendJSON(final: Final, to bytes: inout [UInt8]) { json(final: final).appendSerialized(to: &bytes) }
}

/// A reconciler that does not fit an event's answer: what fits, and what was chosen.
package struct ReconcilerMismatch: Error, Sendable, Equatable {
    package var expected: String
    package var found: String
    /// The element of a precedence list at fault; nil when it is the choice as a whole.
    package var element: Int?

    package init(expected: String, found: String, element: Int? = nil) {
        self.expected = expected
        self.found = found
        self.element = element
    }

    /// "anyTrue, allTrue, firstAnswer, always true or always false": the reconcilers that fit.
    package static func expecting(_ fitting: [ReconcilerChoice], found choice: ReconcilerChoice) -> ReconcilerMismatch {
        let names = fitting.map { choice in
            if case .precedence = choice.form { "a precedence list such as \(choice)" } else { choice.description }
        }
        let expected = switch names.count {
        case 0: "no reconciler (every subscriber is called, nothing is combined)"
        case 1: names[0]
        default: names.dropLast().joined(separator: ", ") + " or " + names.last!
        }
        return ReconcilerMismatch(expected: expected, found: choice.json.shapeDescription)
    }
}

extension Reconciler where Answer: Sendable {
    /// The reconciler `choice` names among `named`, or a constant answer read by `constant` (nil: the
    /// answer takes no constants); a mismatch names the `fitting` ones.
    package static func pick(_ choice: ReconcilerChoice, among named: [(ReconcilerChoice, Reconciler)],
                             fitting: [ReconcilerChoice], constant: ((JSONValue) -> Answer?)? = nil)
        throws(ReconcilerMismatch) -> Reconciler
    {
        if let match = named.first(where: { $0.0 == choice }) { return match.1 }
        if case .always(let value) = choice.form, let constant, let answer = constant(value) {
            return .always(answer, as: choice)
        }
        throw .expecting(fitting, found: choice)
    }
}

/// A notification: subscribers answer nothing, every responder is called in order.
package protocol NotificationAnswerShape: AnswerShape where Answer == Void, Immediate == Void, Final == Void {}

/// An answer returned at once, `nil` for no opinion: a vtable entry's return value in C.
package protocol ImmediateAnswerShape: AnswerShape where Immediate == Answer, Final == Answer {
    /// What the vtable entry returns.
    associatedtype CReturn
    /// A subscriber's answer as the SDK returns it. What the answer points to (bytes, a payload) is put
    /// in `kept`, which the SDK keeps until the subscriber's next call (as the header promises the host).
    static func encode(_ answer: Answer?, keeping kept: inout AnyObject?) -> CReturn
    /// The answer a plugin returned; a value the header does not allow is described in `problem` and
    /// read as no opinion.
    static func decode(_ raw: CReturn, problem: inout String?) -> Answer?
}

/// An answer handed to a completion handler, later or at once; the vtable entry returns whether it
/// responds (`adh_response`), the completion is a (callback, context) pair of its own C type.
package protocol CompletionAnswerShape: AnswerShape where Immediate == Void, Final == Answer {
    /// The completion struct the vtable entry receives.
    associatedtype CCompletion
    /// The host's completion whose calls go to ``CompletionSlots`` with `token`.
    static func completion(token: UnsafeMutableRawPointer?) -> CCompletion
    /// A completion that ignores its calls (the conformance kit's fuzzed calls).
    static var ignoringCompletion: CCompletion { get }
    /// What a plugin passed to the completion, as this answer; a value the header does not allow is
    /// described in `problem` and read as the most conservative answer.
    static func answer(_ raw: RawCompletion, problem: inout String?) -> Answer?
    /// Calls the host's `completion` with `answer` (the SDK's side). [any-thread]
    static func call(_ completion: CCompletion, with answer: Answer)
    /// The answer an integer completion (``HostCompletions/deliver(_:integer:)``) passing `integer`
    /// gives, when `integer` is one the header allows; nil for any other (and for a shape whose
    /// completion passes no integer): then the call is read by ``answer(_:problem:)``, which says
    /// what is wrong. The typed read of the common call, with no ``RawCompletion`` made.
    static func answer(integer: Int64) -> Answer?
}

extension CompletionAnswerShape {
    /// No typed read: every call is read by ``answer(_:problem:)``.
    @inlinable package static func answer(integer: Int64) -> Answer? { nil }
}

/// What a plugin passed to a completion's `call`, copied out of its borrowed memory.
package enum RawCompletion: Sendable {
    /// A completion without a value.
    case done
    /// A completion with an integer (a fetch result, a Bool, option bits).
    case integer(Int64)
    /// A completion with JSON text.
    case bytes([UInt8])
    /// JSON text that cannot be read (too long, NULL data).
    case unreadable(ABIStringProblem)
}

/// Where the host's C completions (``CompletionAnswerShape/completion(token:)``) hand what a plugin
/// passed: the delivery engine's completion tokens, which set ``receiver`` when they are first made —
/// before any token is handed out, so no completion call can come earlier. In a plugin image it is
/// never set (a plugin is handed completions, it never makes the host's).
package enum HostCompletions {
    /// The token table's receiver. Set once, when the host's token table is first used (on whichever
    /// thread), before any completion is made; it captures nothing (a context would be retained and
    /// released around every call). Read without run-time exclusivity checks: never written after
    /// the first token exists, and checked, every completion paid for the runtime's access set
    /// (callgrind: about 76 instructions a call).
    @exclusivity(unchecked)
    nonisolated(unsafe) package static var receiver: @Sendable (UnsafeMutableRawPointer?, RawCompletion) -> Void = { _, _ in }

    /// A plugin called a host completion with `token` and `raw`. [any-thread]
    @inline(__always)
    package static func deliver(_ token: UnsafeMutableRawPointer?, _ raw: RawCompletion) { receiver(token, raw) }

    /// The token table's receiver of integer completions (a fetch result, a Bool, option bits): a C
    /// function, so that a call loads one pointer and retains nothing. Set with ``receiver``; until
    /// then it hands the call to ``receiver`` as a ``RawCompletion``.
    @exclusivity(unchecked)
    nonisolated(unsafe) package static var integerReceiver: @convention(c) (UnsafeMutableRawPointer?, Int64) -> Void = {
        HostCompletions.receiver($0, .integer($1))
    }

    /// A plugin called a host integer completion with `token` and `integer`. [any-thread]
    @inline(__always)
    package static func deliver(_ token: UnsafeMutableRawPointer?, integer: Int64) { integerReceiver(token, integer) }
}
