import ChildProcess
import SubscriberABI
import SubscriberKit
import SubscriberEventModel

/// The messages between the host and an isolation child. Each is one frame of the child-process
/// layer (a 4-byte big-endian length, at most ``ChildChannel/frameLimit``; the child's frames start
/// with the run's secret), whose payload is a type byte and a JSON object. JSON because the event
/// table already knows every event's arguments and answers as JSON (the event-script keys, the
/// answers' output form), so nothing here lists events or shapes. The two hot messages have a
/// compact binary form besides (``IsolationWire/compactEvent`` and ``IsolationWire/compactReply``):
/// an event without arguments, and a reply of no-opinion and yes/no answers.
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
    /// The protocol's version: the setup carries it, and a child of another version refuses the
    /// setup in one line. Version 2 added the compact event and reply.
    package static let version = 2

    /// Each event's row by its name (the names the messages carry), looked up once per message.
    package static let rowByName: [String: EventRow] = Dictionary(uniqueKeysWithValues: EventTable.rows.map { ($0.name, $0) })

    /// `object` as the payload of a `type` message: the compact form when the message has one and
    /// fits it, else the type byte and the JSON object.
    package static func payload(_ type: IsolationMessage, _ object: JSONObject) -> [UInt8] {
        switch type {
        case .event: if let compact = compactEventPayload(object) { return compact }
        case .reply: if let compact = compactReplyPayload(object) { return compact }
        default: break
        }
        return [type.rawValue] + JSONValue.object(object).serializedBytes()
    }

    /// The type and object of `payload`; throws when the type is unknown or the JSON is not an object.
    /// A compact message reads as the object its JSON form would have been.
    package static func read(_ payload: ArraySlice<UInt8>) throws(IsolationWireError) -> (IsolationMessage, JSONObject) {
        guard let first = payload.first else { throw IsolationWireError("expected a message, found an empty frame") }
        if first == compactEvent { return (.event, try readCompactEvent(payload.dropFirst())) }
        if first == compactReply { return (.reply, try readCompactReply(payload.dropFirst())) }
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
        "forgedCompletion", "ignoredDecline", "invalidAnswer",
    ]

    /// The longest `problem` an `invalidAnswer` report carries, in bytes: the child cuts a longer one,
    /// the host refuses one past it (as every field of a message from a child, checked).
    package static let maximumProblemBytes = 1_024

    /// `report` as the child sends it: `{"s": subscriber index, "e": event, "k": kind, "n": count}`,
    /// and `"p"`, what was wrong, for an `invalidAnswer`; nil for a kind not forwarded or a subscriber
    /// not in `names`.
    package static func report(_ report: DispatchReport, names: [String]) -> JSONValue? {
        let (subscriber, event, count): (String, LifecycleEvent, Int)
        var problem: String?
        switch report {
        case .invalidAnswer(let name, let on, let text, let times):
            (subscriber, event, count) = (name, on, times)
            problem = cut(text, toBytes: maximumProblemBytes)
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
        var object: JSONObject = ["s": .number(Double(index)), "e": .string(event.row.name), "k": .string(report.kind),
                                  "n": .number(Double(count))]
        if let problem { object["p"] = .string(problem) }
        return .object(object)
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
            guard let eventName = object["e"]?.stringValue, let row = rowByName[eventName] else {
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
            case "invalidAnswer": .invalidAnswer(subscriber: name, event: event, problem: try problem(object, in: type), count: count)
            default: .ignoredDecline(subscriber: name, event: event)
            }
            reports.append(report)
        }
        return reports
    }

    /// `text` when it fits in `limit` UTF-8 bytes, else its longest run of whole scalars that fits
    /// with "…" after it.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= limit - 3 else { break }
            kept.append(scalar)
        }
        return String(kept) + "…"
    }

    /// An `invalidAnswer` report's `"p"`: a string of at most ``maximumProblemBytes`` bytes.
    private static func problem(_ object: JSONObject, in type: IsolationMessage) throws(IsolationWireError) -> String {
        guard let text = object["p"]?.stringValue, !text.isEmpty, text.utf8.count <= maximumProblemBytes else {
            throw IsolationWireError("expected an invalidAnswer report's p in \(type) to be a string of 1 to \(maximumProblemBytes) "
                                     + "bytes, found \(object["p"].map { "\($0.shapeDescription)" } ?? "nothing")")
        }
        return text
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

// MARK: The compact forms of the hot messages

extension IsolationWire {
    /// The type byte of an event in compact form: one with no arguments and no launch to send.
    /// After it, little-endian: `seq` (f64), the event's row index (u16), `state` (f64),
    /// `deadline` (f64), flags (u8: 1 = `stopsAtFirstYes`), the count of subscribers (u16) and
    /// each one's index (u16). 29 bytes and 2 per subscriber.
    package static let compactEvent: UInt8 = 4
    /// The type byte of a reply in compact form: one whose answers are each no opinion or a yes/no
    /// answer, with no reports. After it: `seq` (f64), the count of answers (u16), then per answer
    /// the subscriber's index (u16) and its kind (u8: 0 no opinion, 1 answered false, 2 answered true).
    package static let compactReply: UInt8 = 16

    private static let eventKeys: Set<String> = ["seq", "event", "arguments", "state", "deadline", "subscribers", "stopsAtFirstYes"]

    /// `object` (an event message) in compact form, or nil when it does not fit one.
    static func compactEventPayload(_ object: JSONObject) -> [UInt8]? {
        guard object.count <= eventKeys.count, object.members.allSatisfy({ eventKeys.contains($0.key) }),
              case .number(let seq)? = object["seq"], case .number(let state)? = object["state"],
              case .number(let deadline)? = object["deadline"],
              let name = object["event"]?.stringValue, let row = rowByName[name],
              object["arguments"]?.objectValue?.isEmpty ?? true,
              let listed = object["subscribers"]?.arrayValue, listed.count <= Int(UInt16.max)
        else { return nil }
        let stops = object["stopsAtFirstYes"]
        guard stops == nil || stops == .bool(true) else { return nil }
        var bytes: [UInt8] = [compactEvent]
        bytes.reserveCapacity(30 + 2 * listed.count)
        append(seq, to: &bytes)
        append(UInt16(row.index), to: &bytes)
        append(state, to: &bytes)
        append(deadline, to: &bytes)
        bytes.append(stops == nil ? 0 : 1)
        append(UInt16(listed.count), to: &bytes)
        for subscriber in listed {
            guard let index = subscriber.intValue, index >= 0, index <= Int(UInt16.max) else { return nil }
            append(UInt16(index), to: &bytes)
        }
        return bytes
    }

    /// The event message a compact event stands for; throws when its length or row does not read.
    static func readCompactEvent(_ body: ArraySlice<UInt8>) throws(IsolationWireError) -> JSONObject {
        var reader = CompactReader(body, message: "compact event")
        let seq = try reader.double(), row = try reader.uint16(), state = try reader.double()
        let deadline = try reader.double(), flags = try reader.byte(), count = try reader.uint16()
        guard Int(row) < EventTable.rows.count else {
            throw IsolationWireError("expected a compact event's row below \(EventTable.rows.count), found \(row)")
        }
        guard flags <= 1 else { throw IsolationWireError("expected a compact event's flags to be 0 or 1, found \(flags)") }
        var listed: [JSONValue] = []
        listed.reserveCapacity(Int(count))
        for _ in 0..<count { listed.append(.number(Double(try reader.uint16()))) }
        try reader.end()
        var members: [(key: String, value: JSONValue)] = [
            ("seq", .number(seq)), ("event", .string(EventTable.rows[Int(row)].name)), ("arguments", .object([:])),
            ("state", .number(state)), ("deadline", .number(deadline)), ("subscribers", .array(listed)),
        ]
        if flags == 1 { members.append(("stopsAtFirstYes", true)) }
        return JSONObject(uniqueMembers: members)
    }

    /// `object` (a reply) in compact form, or nil when it does not fit one.
    static func compactReplyPayload(_ object: JSONObject) -> [UInt8]? {
        guard object.count == 2, case .number(let seq)? = object["seq"], let answers = object["answers"]?.arrayValue,
              answers.count <= Int(UInt16.max)
        else { return nil }
        var bytes: [UInt8] = [compactReply]
        bytes.reserveCapacity(11 + 3 * answers.count)
        append(seq, to: &bytes)
        append(UInt16(answers.count), to: &bytes)
        for answer in answers {
            guard let answer = answer.objectValue, let index = answer["s"]?.intValue, index >= 0, index <= Int(UInt16.max)
            else { return nil }
            let kind: UInt8
            switch (answer["k"]?.stringValue, answer["v"], answer.count) {
            case ("n"?, nil, 2): kind = 0
            case ("a"?, .bool(false)?, 3): kind = 1
            case ("a"?, .bool(true)?, 3): kind = 2
            default: return nil
            }
            append(UInt16(index), to: &bytes)
            bytes.append(kind)
        }
        return bytes
    }

    /// The reply a compact reply stands for; throws when its length or an answer's kind does not read.
    static func readCompactReply(_ body: ArraySlice<UInt8>) throws(IsolationWireError) -> JSONObject {
        var reader = CompactReader(body, message: "compact reply")
        let seq = try reader.double(), count = try reader.uint16()
        var answers: [JSONValue] = []
        answers.reserveCapacity(Int(count))
        for _ in 0..<count {
            let index = JSONValue.number(Double(try reader.uint16()))
            switch try reader.byte() {
            case 0: answers.append(.object(JSONObject(uniqueMembers: [("s", index), ("k", "n")])))
            case 1: answers.append(.object(JSONObject(uniqueMembers: [("s", index), ("k", "a"), ("v", false)])))
            case 2: answers.append(.object(JSONObject(uniqueMembers: [("s", index), ("k", "a"), ("v", true)])))
            case let kind: throw IsolationWireError("expected a compact reply's answer kind 0, 1 or 2, found \(kind)")
            }
        }
        try reader.end()
        return JSONObject(uniqueMembers: [("seq", .number(seq)), ("answers", .array(answers))])
    }

    private static func append(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }

    private static func append(_ value: Double, to bytes: inout [UInt8]) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
    }
}

/// Reads the fields of a compact message in order, never past its end.
private struct CompactReader {
    private let bytes: ArraySlice<UInt8>
    private var offset: Int
    private let message: String

    init(_ bytes: ArraySlice<UInt8>, message: String) {
        self.bytes = bytes
        offset = bytes.startIndex
        self.message = message
    }

    private mutating func take(_ count: Int) throws(IsolationWireError) -> ArraySlice<UInt8> {
        guard bytes.endIndex - offset >= count else {
            throw IsolationWireError("expected \(count) more bytes in a \(message) at byte \(offset - bytes.startIndex + 1), found \(bytes.endIndex - offset)")
        }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func byte() throws(IsolationWireError) -> UInt8 { try take(1).first! }

    mutating func uint16() throws(IsolationWireError) -> UInt16 {
        let field = try take(2)
        return UInt16(field[field.startIndex]) | UInt16(field[field.startIndex + 1]) << 8
    }

    mutating func double() throws(IsolationWireError) -> Double {
        var bits: UInt64 = 0
        for (shift, byte) in try take(8).enumerated() { bits |= UInt64(byte) << UInt64(8 * shift) }
        return Double(bitPattern: bits)
    }

    /// Throws when bytes are left over.
    func end() throws(IsolationWireError) {
        guard offset == bytes.endIndex else {
            throw IsolationWireError("expected the end of a \(message) after \(offset - bytes.startIndex) bytes, found \(bytes.endIndex - offset) more")
        }
    }
}
