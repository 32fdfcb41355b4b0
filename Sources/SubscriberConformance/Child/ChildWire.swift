#if canImport(Glibc)
import Glibc
#endif
import ConformanceChildEntry
import SubscriberKit

/// The kit's messages on a child's private channel (framed by ``ChildChannel``), each a JSON object
/// with a `kind`: from the worker `hello` (protocol version and its process id), `progress` (what is
/// running, so that a crash or hang can be pinned to it) and `verdict`; from the reaper (see
/// ConformanceChildEntry.h) `ended` (how the worker ended, and the processes it left behind).
/// The parent's one message to the child is the ``ChildRequest``.
///
/// Plugin code shares the worker's standard output and error, never this channel: nothing a plugin
/// prints can pass for a verdict or break the protocol.
enum ChildWire {
    /// The protocol version in the handshake.
    static let version = 2
    /// The environment variable that makes an executable a conformance child.
    static let channelVariable = ADH_CONFORMANCE_CHILD_VARIABLE
    /// Texts in a message (evidence, plugin names) are cut to this many bytes, so that every
    /// message stays far below the frame limit whatever a plugin declares.
    static let textLimit = 16 << 10

    /// One message, as read by the parent.
    enum Message: Equatable {
        case hello(version: Int, pid: Int32)
        case progress(String)
        case verdict(Verdict, PluginIdentity?)
        case ended(WorkerEnding)
    }

    /// How the worker ended, as its reaper saw it, and what it left running.
    struct WorkerEnding: Equatable {
        var ending: ChildOutcome.Ending
        /// How many processes were still running after the worker ended (all killed).
        var leftovers: Int
        /// The first of their process ids.
        var leftoverPIDs: [Int]
    }

    static func hello() -> [UInt8] {
        encode(["kind": "hello", "version": .number(Double(version)), "pid": .number(Double(getpid()))])
    }

    static func progress(_ step: String) -> [UInt8] {
        encode(["kind": "progress", "step": .string(cut(step.replacing("\n", with: " "), to: 1_024))])
    }

    static func verdict(_ verdict: Verdict, identity: PluginIdentity?) -> [UInt8] {
        var object: JSONObject = [
            "kind": "verdict",
            "status": .string(verdict.status.rawValue),
            "expected": .string(cut(verdict.evidence.expected)),
            "found": .string(cut(verdict.evidence.found)),
        ]
        if let identity {
            // A descriptor may hold megabytes in a name: the report shows the start.
            let subscribers = identity.subscribers.prefix(256).map { JSONValue.string(cut($0, to: 256)) }
            object["identity"] = .object([
                "id": .string(cut(identity.id, to: 256)), "name": .string(cut(identity.name, to: 256)),
                "version": .string(cut(identity.version, to: 256)), "subscribers": .array(subscribers),
            ])
        }
        return encode(object)
    }

    /// Reads one message; nil for anything else.
    static func parse(_ payload: [UInt8]) -> Message? {
        guard let json = try? payload.withUnsafeBytes({ try JSONValue(parsing: $0) }) else { return nil }
        switch json["kind"]?.stringValue {
        case "hello":
            guard let version = json["version"]?.intValue, let pid = json["pid"]?.intValue else { return nil }
            return .hello(version: version, pid: Int32(clamping: pid))
        case "progress":
            return json["step"]?.stringValue.map { .progress($0) }
        case "verdict":
            guard let status = json["status"]?.stringValue.flatMap(VerdictStatus.init(rawValue:)),
                  let expected = json["expected"]?.stringValue, let found = json["found"]?.stringValue
            else { return nil }
            var identity: PluginIdentity?
            if let object = json["identity"], let id = object["id"]?.stringValue, let name = object["name"]?.stringValue,
               let version = object["version"]?.stringValue, let subscribers = object["subscribers"]?.arrayValue {
                identity = PluginIdentity(id: id, name: name, version: version, subscribers: subscribers.compactMap(\.stringValue))
            }
            return .verdict(Verdict(status, expected: expected, found: found), identity)
        case "ended":
            let ending: ChildOutcome.Ending
            if let signal = json["signal"]?.intValue {
                ending = .signaled(Int32(clamping: signal))
            } else if let status = json["exit"]?.intValue {
                ending = .exited(Int32(clamping: status))
            } else {
                return nil
            }
            return .ended(WorkerEnding(ending: ending, leftovers: json["leftovers"]?.intValue ?? 0,
                                       leftoverPIDs: json["pids"]?.arrayValue?.compactMap(\.intValue) ?? []))
        default:
            return nil
        }
    }

    /// `text`, or its first `limit` bytes (whole characters) and "… (N bytes)".
    static func cut(_ text: String, to limit: Int = textLimit) -> String {
        let length = text.utf8.count
        guard length > limit else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            kept.append(character)
            used += size
        }
        return kept + "… (\(length) bytes)"
    }

    private static func encode(_ object: JSONObject) -> [UInt8] {
        Array(JSONValue.object(object).serialized().utf8)
    }
}

/// Tells the parent what the child is doing, one message per step, so that a crash or a hang names it.
struct ProgressWriter: Sendable {
    let channel: ChildChannelWriter

    /// Announces `step`.
    func step(_ step: String) {
        channel.send(ChildWire.progress(step))
    }
}
