import ChildProcess
import SubscriberKit
import SubscriberEventModel

/// The kit's messages on a check's worker channel (framed and signed with the run's secret by
/// ``ChildEndpoint``), each a JSON object with a `kind`: `hello` (the protocol version), `progress`
/// (what is running, so that a crash or hang can be pinned to it) and `verdict` — exactly one hello
/// first and exactly one verdict. How the worker ended and what it left running come from its reaper
/// (``ReaperReport``), on a channel no plugin code holds. The parent's one message to the child is the
/// ``ChildRequest``.
///
/// Plugin code shares the worker's standard output and error, never this protocol: nothing a plugin
/// prints can pass for a verdict, and what it writes to the channel itself lacks the secret and
/// fails the check (``PluginRunner``).
enum ChildWire {
    /// The protocol version in the handshake.
    static let version = 3
    /// The child-process role of a check's child (ChildProcessEntry.c).
    static let role = "conformance"
    /// The worker's exit status when a plugin closed the kit's channel, so that no verdict could be
    /// sent (``KitChannel``); it says so on stderr first.
    static let channelLostStatus: Int32 = 87
    /// Texts in a message (evidence, plugin names) are cut to this many bytes, so that every
    /// message stays far below the frame limit whatever a plugin declares.
    static let textLimit = 16 << 10

    /// One message, as read by the parent.
    enum Message: Equatable {
        case hello(version: Int)
        case progress(String)
        case verdict(Verdict, PluginIdentity?)
    }

    static func hello() -> [UInt8] {
        encode(["kind": "hello", "version": .number(Double(version))])
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
            return json["version"]?.intValue.map { .hello(version: $0) }
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
/// Each step first makes sure the plugin closed none of the kit's descriptors (``KitChannel``).
struct ProgressWriter: Sendable {
    let channel: KitChannel

    /// Announces `step`.
    func step(_ step: String) {
        channel.announce(step)
    }

    /// Ends the check (a failing verdict) if the plugin closed the kit's descriptors since the last step.
    func verifyDescriptors() {
        channel.verify()
    }
}
