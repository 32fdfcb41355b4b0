import SubscriberABI
import SubscriberValues

/// `continueUserActivity`'s answer: a `Bool?` at once (handled), and, from a subscriber that
/// returned true, the identifiers of the objects to restore through the restoration handler, which
/// is optional (UIKit's is). In C: an `adh_tristate` return value and an `adh_json_completion` taking
/// a JSON array of strings.
package enum RestorationAnswer: AnswerShape {
    package typealias Answer = Bool
    package typealias Immediate = Bool
    package typealias Final = ContinueUserActivityResult

    package static func json(final: ContinueUserActivityResult) -> JSONValue {
        guard let restorable = final.restorableObjects else { return .object(["handled": .bool(final.handled)]) }
        return .object(["handled": .bool(final.handled), "restorableObjects": .array(restorable.map { .string($0) })])
    }

    package static func appendJSON(final: ContinueUserActivityResult, to bytes: inout [UInt8]) {
        JSONText.append(#"{"handled":"#, to: &bytes)
        JSONText.appendBool(final.handled, to: &bytes)
        if let restorable = final.restorableObjects {
            JSONText.append(#","restorableObjects":"#, to: &bytes)
            JSONText.appendStrings(restorable, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The handled answer as the SDK returns it.
    package static func encode(_ answer: Bool?) -> adh_tristate { ABI.tristate(answer) }

    /// The restoration handler of the host whose calls go to ``CompletionSlots`` with `token`.
    package static func completion(token: UnsafeMutableRawPointer?) -> adh_json_completion {
        adh_json_completion(call: { HostCompletions.deliver($0, RawCompletion(json: $1)) }, context: token)
    }

    /// What a plugin passed to the restoration handler: a JSON array of strings; anything else is
    /// described in `problem` and read as [].
    package static func identifiers(_ raw: RawCompletion, problem: inout String?) -> [String]? {
        switch raw {
        case .unreadable(let unreadable):
            problem = "restoration handler: \(unreadable); read as []"
            return []
        case .bytes(let bytes):
            // The bytes' buffer, not the array: the generic parse, unspecialized from here, looks up the
            // collection's associated types by name (a conformance scan at the first restoration).
            let value = bytes.withUnsafeBytes { try? JSONValue(parsing: $0) }
            let strings = value?.arrayValue?.compactMap(\.stringValue)
            guard let strings, strings.count == value?.arrayValue?.count else {
                problem = "restoration handler called with \(RawCompletion.describe(bytes)), expected a JSON array of strings; read as []"
                return []
            }
            return strings
        case .done, .integer:
            return nil
        }
    }

    /// Calls the host's restoration handler with `identifiers` (the SDK's side). [any-thread]
    /// The list is written as JSON bytes at once, escaped as the serializer escapes strings (no
    /// array of values, no String made of the text, no UTF-8 check of it).
    package static func call(_ completion: adh_json_completion, with identifiers: [String]) {
        var json: [UInt8] = []
        json.reserveCapacity(64)
        JSONText.appendStrings(identifiers, to: &json)
        json.withUnsafeBufferPointer { bytes in
            let chars = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            completion.call?(completion.context, adh_string(data: chars, length: bytes.count))
        }
    }
}

/// The result of `continueUserActivity`: whether it was handled, and what the restoration handler
/// received.
public struct ContinueUserActivityResult: Sendable, Hashable {
    /// The reconciled Bool (any true by default; false when nobody answers).
    public var handled: Bool
    /// The identifiers handed to the app's restoration handler: by default the lists of the
    /// subscribers that returned true, concatenated in subscriber order. `nil` means the handler is
    /// not called.
    public var restorableObjects: [String]?

    /// A result.
    public init(handled: Bool, restorableObjects: [String]?) {
        self.handled = handled
        self.restorableObjects = restorableObjects
    }
}
