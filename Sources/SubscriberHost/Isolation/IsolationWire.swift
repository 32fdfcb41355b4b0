import ChildProcess
import SubscriberKit

/// The messages between the host and an isolation child. Each is one frame of the child-process
/// layer (a 4-byte big-endian length, at most ``ChildChannel/frameLimit``; the child's frames start
/// with the run's secret), whose payload is a type byte and a JSON object. JSON because the event
/// table already knows every event's arguments and answers as JSON (the event-script keys, the
/// answers' output form), so nothing here lists events or shapes.
///
/// Who waits on what: the host sends `setup` and waits for `hello`; for an event it sends `event`
/// and waits (at most the call budget) for its `reply`, which carries the answer of every responder
/// of that child; a `completion` comes later, from any plugin thread, and waits for nobody. `log`
/// and `request` come at any time. `goodbye` destroys the subscribers; `farewell` says it is done.
package enum IsolationMessage: UInt8, Sendable, CustomStringConvertible {
    // Host → child.
    case setup = 1
    case event = 2
    case goodbye = 3
    // Child → host.
    case hello = 10
    case reply = 11
    case completion = 12
    case log = 13
    case request = 14
    case farewell = 15

    package var description: String {
        switch self {
        case .setup: "setup"
        case .event: "event"
        case .goodbye: "goodbye"
        case .hello: "hello"
        case .reply: "reply"
        case .completion: "completion"
        case .log: "log"
        case .request: "request"
        case .farewell: "farewell"
        }
    }
}

/// A message that does not read: one line saying what was expected and what was found.
package struct IsolationWireError: Error, Sendable, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

/// Encoding and decoding of one message's payload.
package enum IsolationWire {
    /// `object` as the payload of a `type` message.
    package static func payload(_ type: IsolationMessage, _ object: JSONObject) -> [UInt8] {
        [type.rawValue] + JSONValue.object(object).serializedBytes()
    }

    /// The type and object of `payload`; throws when the type is unknown or the JSON is not an object.
    package static func read(_ payload: ArraySlice<UInt8>) throws(IsolationWireError) -> (IsolationMessage, JSONObject) {
        guard let first = payload.first else { throw IsolationWireError("expected a message, found an empty frame") }
        guard let type = IsolationMessage(rawValue: first) else {
            throw IsolationWireError("expected a message type, found the unknown type \(first)")
        }
        let parsed: Result<JSONValue, JSONParseError> = payload.dropFirst().withUnsafeBytes { bytes in
            do throws(JSONParseError) { return .success(try JSONValue(parsing: bytes)) } catch { return .failure(error) }
        }
        switch parsed {
        case .failure(let error):
            throw IsolationWireError("expected a \(type) message in JSON, found JSON that does not read (\(error))")
        case .success(.object(let object)):
            return (type, object)
        case .success(let other):
            throw IsolationWireError("expected a \(type) message as a JSON object, found \(other.shapeDescription)")
        }
    }

    /// Member `key` of `object` as a non-negative integer below `limit`: never trusted beyond that.
    package static func index(_ object: JSONObject, _ key: String, below limit: Int, in type: IsolationMessage)
        throws(IsolationWireError) -> Int
    {
        guard let value = object[key]?.intValue, value >= 0, value < limit else {
            throw IsolationWireError("expected \(type).\(key) to be an integer in 0..<\(limit), found \(object[key].map { "\($0)" } ?? "nothing")")
        }
        return value
    }
}
