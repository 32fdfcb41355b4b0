import SubscriberABI
import SubscriberValues

/// A `Bool` through a completion (`performActionForShortcutItem`): an `adh_bool_completion` in C.
package enum BoolCompletionAnswer: CompletionAnswerShape {
    package static func completion(token: UnsafeMutableRawPointer?) -> adh_bool_completion {
        adh_bool_completion(call: { HostCompletions.deliver($0, integer: Int64($1)) }, context: token)
    }

    package static var ignoringCompletion: adh_bool_completion { adh_bool_completion(call: { _, _ in }, context: nil) }

    package static func answer(_ raw: RawCompletion, problem: inout String?) -> Bool? {
        guard case .integer(let value) = raw else { return nil }
        switch value {
        case Int64(ADH_FALSE): return false
        case Int64(ADH_TRUE): return true
        default:
            problem = "completion called with \(value), expected 0 (false) or 1 (true); read as false"
            return false
        }
    }

    /// ADH_FALSE or ADH_TRUE; nil for any other value (read by ``answer(_:problem:)``).
    @inlinable package static func answer(integer: Int64) -> Bool? {
        integer == Int64(ADH_TRUE) ? true : integer == Int64(ADH_FALSE) ? false : nil
    }

    package static func call(_ completion: adh_bool_completion, with answer: Bool) {
        completion.call?(completion.context, ABI.tristate(answer))
    }
}
