import ChildProcess
import SubscriberABI
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

// MARK: What a subscriber can read, and what the child's completions noticed

extension IsolationWire {
    /// The reports a child's own completion collection makes (the calls of a completion that do not
    /// count), by kind: forwarded to the host's outcome. Every other report of the child's is the
    /// host's to make (late, conflicts), or a crash the host sees itself.
    package static let forwardedReportKinds: Set<String> = [
        "duplicateCompletion", "completionAfterDelivery", "completionAfterDecline", "unexpectedRestoration",
        "forgedCompletion", "ignoredDecline",
    ]

    /// `report` as the child sends it: `{"s": subscriber index, "e": event, "k": kind, "n": count}`;
    /// nil for a kind not forwarded or a subscriber not in `names`.
    package static func report(_ report: DispatchReport, names: [String]) -> JSONValue? {
        let (subscriber, event, count): (String, LifecycleEvent, Int)
        switch report {
        case .duplicateCompletion(let name, let on, let times), .completionAfterDelivery(let name, let on, let times),
             .completionAfterDecline(let name, let on, let times), .unexpectedRestoration(let name, let on, let times),
             .forgedCompletion(let name, let on, let times):
            (subscriber, event, count) = (name, on, times)
        case .ignoredDecline(let name, let on):
            (subscriber, event, count) = (name, on, 1)
        default:
            return nil
        }
        guard let index = names.firstIndex(of: subscriber) else { return nil }
        return ["s": .number(Double(index)), "e": .string(event.row.name), "k": .string(report.kind), "n": .number(Double(count))]
    }

    /// The reports of `value` (an array of ``report(_:names:)``'s objects, or nothing), named by the
    /// host's `names`: the index, the event, the kind and the count are each checked, never trusted.
    package static func reports(_ value: JSONValue?, names: [String], in type: IsolationMessage)
        throws(IsolationWireError) -> [DispatchReport]
    {
        guard let value else { return [] }
        guard let items = value.arrayValue, items.count <= 4_096 else {
            throw IsolationWireError("expected \(type).r to be a list of at most 4096 reports, found \(value.shapeDescription)")
        }
        var reports: [DispatchReport] = []
        for item in items {
            guard let object = item.objectValue else {
                throw IsolationWireError("expected a report object in \(type).r, found \(item.shapeDescription)")
            }
            let name = names[try index(object, "s", below: names.count, in: type)]
            guard let eventName = object["e"]?.stringValue, let row = EventTable.rows.first(where: { $0.name == eventName }) else {
                throw IsolationWireError("expected a known event in a report of \(type), found \(object["e"].map { "\($0)" } ?? "nothing")")
            }
            guard let kind = object["k"]?.stringValue, forwardedReportKinds.contains(kind) else {
                throw IsolationWireError("expected a completion report kind in \(type), found \(object["k"].map { "\($0)" } ?? "nothing")")
            }
            let count = try index(object, "n", below: Int.max, in: type)
            guard count >= 1 else { throw IsolationWireError("expected a report count of at least 1 in \(type), found 0") }
            let event = row.event
            let report: DispatchReport = switch kind {
            case "duplicateCompletion": .duplicateCompletion(subscriber: name, event: event, count: count)
            case "completionAfterDelivery": .completionAfterDelivery(subscriber: name, event: event, count: count)
            case "completionAfterDecline": .completionAfterDecline(subscriber: name, event: event, count: count)
            case "unexpectedRestoration": .unexpectedRestoration(subscriber: name, event: event, count: count)
            case "forgedCompletion": .forgedCompletion(subscriber: name, event: event, count: count)
            default: .ignoredDecline(subscriber: name, event: event)
            }
            reports.append(report)
        }
        return reports
    }

    /// How the app was launched, as the host sends it with an event: the C kind and its detail.
    package static func launch(_ invocation: LaunchInvocation?) -> JSONValue {
        guard let invocation else { return .null }
        var object: JSONObject = ["k": .number(Double(ABI.invocationKind(invocation)))]
        if let detail = ABI.invocationDetail(invocation) { object["d"] = .string(detail) }
        return .object(object)
    }

    /// The launch invocation `launch(_:)` sent (nil for none); a kind or detail that does not read is
    /// `.unknown`, as the C ABI reads it.
    package static func launchInvocation(_ value: JSONValue) -> LaunchInvocation? {
        guard let object = value.objectValue else { return nil }
        let kind = adh_invocation_kind(clamping: object["k"]?.intValue ?? -1)
        return withABIString(object["d"]?.stringValue) { ABI.invocation(kind: kind, detail: $0) }
    }
}
