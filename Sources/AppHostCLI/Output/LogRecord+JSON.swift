import Foundation
import SubscriberHost
import SubscriberKit

extension LogRecord {
    /// As JSON: {"time" (seconds since 1970), "subscriber", "kind", "level", "message", "attributes"?}.
    package var json: JSONObject {
        var object: JSONObject = [
            "time": .number(time.timeIntervalSince1970), "subscriber": .string(subscriber),
            "kind": .string(kind.rawValue), "level": .string(level.name), "message": .string(message),
        ]
        if !attributes.isEmpty { object["attributes"] = .object(attributes) }
        return object
    }
}
