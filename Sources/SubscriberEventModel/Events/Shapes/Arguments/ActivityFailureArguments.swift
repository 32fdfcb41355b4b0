import SubscriberABI
import SubscriberValues

/// The shape of `didFailToContinueUserActivity`: an activity type and the error it failed with,
/// both required; in C a string and an `adh_error`.
package enum ActivityFailureArguments: ArgumentShape {
    /// The activity type and the error.
    package struct Value: Sendable, Hashable {
        package var activityType: String
        package var error: LifecycleError

        package init(activityType: String, error: LifecycleError) {
            self.activityType = activityType
            self.error = error
        }
    }

    package final class Encoded: @unchecked Sendable {
        // @unchecked: immutable after init.
        let type: ABIBytes
        let error: EncodedPayload<adh_error>

        init(type: ABIBytes, error: EncodedPayload<adh_error>) {
            self.type = type
            self.error = error
        }
    }

    package static func read(_ reader: inout JSONObjectReader, spec: Void) throws(JSONShapeError) -> Value {
        Value(activityType: try reader.requiredString("activityType"), error: try reader.lifecycleError("error"))
    }

    package static func write(_ value: Value, spec: Void, into object: inout JSONObject) {
        object["activityType"] = .string(value.activityType)
        object["error"] = .object(value.error.json)
    }

    package static func summary(_ value: Value) -> String? { "\(value.activityType): \(value.error)" }

    package static func encode(_ value: Value, _ context: EncodingContext) -> Encoded {
        Encoded(type: ABIBytes(value.activityType), error: EncodedPayload { $0.error(value.error) })
    }

    package static func cArguments(_ encoded: Encoded) -> (adh_string, UnsafePointer<adh_error>?) {
        (encoded.type.string, encoded.error.pointer)
    }

    package static func decode(_ arguments: (adh_string, UnsafePointer<adh_error>?), problems: inout [String]) -> Value? {
        let type = TextArgument.decode(arguments.0, problems: &problems) ?? ""
        let error = ErrorArgument.decode(arguments.1, problems: &problems) ?? LifecycleError(domain: "", code: 0, message: "")
        return Value(activityType: type, error: error)
    }

    package static func canonical(spec: Void) -> [Value] {
        [Value(activityType: "com.example.news.reading",
               error: LifecycleError(domain: "NSCocoaErrorDomain", code: 4608, message: "the activity could not be continued"))]
    }

    package static func fuzzed(_ draw: inout some FuzzDraw, spec: Void, serial: UInt64) -> Encoded {
        let type = ABIBytes(draw.text("activityType", url: false))
        return Encoded(type: type, error: EncodedPayload { $0.fuzzedError(&draw) })
    }
}
