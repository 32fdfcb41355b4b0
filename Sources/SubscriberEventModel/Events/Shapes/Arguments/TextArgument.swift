import SubscriberABI
import SubscriberValues

/// The shape of an event that carries one string: a background session's identifier, an extension
/// point, an activity type, a scene role. The row says under which script key and with which default.
package enum TextArgument: ArgumentShape {
    /// The script key, and the value when a line omits it (nil: required).
    package struct Spec: Sendable {
        package var key: String
        package var defaultValue: String?
        /// An ordinary value for the conformance kit, when there is no default.
        package var example: String

        package init(key: String, defaultValue: String? = nil, example: String) {
            self.key = key
            self.defaultValue = defaultValue
            self.example = example
        }
    }

    package static func read(_ reader: inout JSONObjectReader, spec: Spec) throws(JSONShapeError) -> String {
        if let defaultValue = spec.defaultValue { return try reader.string(spec.key) ?? defaultValue }
        return try reader.requiredString(spec.key)
    }

    package static func write(_ value: String, spec: Spec, into object: inout JSONObject) {
        object[spec.key] = .string(value)
    }

    package static func summary(_ value: String) -> String? { value }

    package static func encode(_ value: String, _ context: EncodingContext) -> ABIBytes { ABIBytes(value) }
    package static func cArguments(_ encoded: ABIBytes) -> adh_string { encoded.string }

    package static func decode(_ arguments: adh_string, problems: inout [String]) -> String? {
        do throws(ABIStringProblem) {
            return try arguments.checkedString() ?? ""
        } catch {
            problems.append("text argument: \(error); read as \"\"")
            return ""
        }
    }

    package static func canonical(spec: Spec) -> [String] { [spec.defaultValue ?? spec.example] }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Spec, serial: UInt64) -> ABIBytes {
        ABIBytes(draw.text(spec.key, url: false))
    }
}
