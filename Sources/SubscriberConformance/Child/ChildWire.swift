#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberKit

/// The lines a child writes on its standard output, each starting with a marker that a plugin's own
/// output will not: a handshake, progress (so that a crash or hang can be pinned to what was
/// running), and the verdict.
enum ChildWire {
    static let marker = "@@adh-conformance"
    /// The protocol version in the handshake.
    static let version = 1

    static let helloLine = "\(marker) hello \(version)"
    static let progressPrefix = "\(marker) progress "
    static let verdictPrefix = "\(marker) verdict "

    /// Writes one line to the real standard output at once (write(2), not stdio: nothing may sit in a
    /// buffer when the plugin crashes).
    static func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    /// The verdict line's JSON.
    static func verdictJSON(_ verdict: Verdict, identity: PluginIdentity?) -> JSONValue {
        var object: JSONObject = [
            "status": .string(verdict.status.rawValue),
            "expected": .string(verdict.evidence.expected),
            "found": .string(verdict.evidence.found),
        ]
        if let identity {
            object["identity"] = .object([
                "id": .string(identity.id), "name": .string(identity.name), "version": .string(identity.version),
                "subscribers": .array(identity.subscribers.map { .string($0) }),
            ])
        }
        return .object(object)
    }

    /// Reads a verdict line's JSON.
    static func parseVerdict(_ json: JSONValue) -> (Verdict, PluginIdentity?)? {
        guard let status = json["status"]?.stringValue.flatMap(VerdictStatus.init(rawValue:)),
              let expected = json["expected"]?.stringValue, let found = json["found"]?.stringValue
        else { return nil }
        var identity: PluginIdentity?
        if let object = json["identity"], let id = object["id"]?.stringValue, let name = object["name"]?.stringValue,
           let version = object["version"]?.stringValue, let subscribers = object["subscribers"]?.arrayValue {
            identity = PluginIdentity(id: id, name: name, version: version, subscribers: subscribers.compactMap(\.stringValue))
        }
        return (Verdict(status, expected: expected, found: found), identity)
    }
}

/// Tells the parent what the child is doing, one line per step, so that a crash or a hang names it.
struct ProgressWriter: Sendable {
    /// Announces `step` (one line; line breaks become spaces).
    func step(_ step: String) {
        ChildWire.write(ChildWire.progressPrefix + step.replacing("\n", with: " "))
    }
}
