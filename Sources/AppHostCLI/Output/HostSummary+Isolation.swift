import SubscriberHost
import SubscriberKit

extension PluginIsolation {
    /// How the header names it: `in process`, `process`, `process · group acme` (the name escaped).
    var headerText: String {
        switch mode {
        case .inProcess: "in process"
        case .process: group.map { "process · group \(TerminalText.escaped($0))" } ?? "process"
        }
    }

    /// `{"isolation": "process", "group": "acme"}` (`group` null without one).
    var json: JSONObject {
        ["isolation": .string(mode.rawValue), "group": group.map { .string($0) } ?? .null]
    }
}

extension HostSummary {
    /// The plugins `host` runs in children, each as its entry and file (the host never reads an
    /// isolated plugin's descriptor: no version, ABI or Swift version) with the subscribers its child made.
    @MainActor
    static func isolatedPlugins(of host: PluginHost) -> [PluginSummary] {
        host.isolationGroups.flatMap { group in
            group.plugins.enumerated().map { position, plugin in
                let subscribers = zip(group.names, group.pluginOf).filter { $0.1 == position }.map(\.0)
                var summary = PluginSummary(index: plugin.entry.index, source: plugin.entry.source.description, name: plugin.name,
                                            id: "", version: "", abi: "", swiftVersion: "", path: plugin.path,
                                            subscribers: subscribers)
                summary.isolation = plugin.entry.isolation
                return summary
            }
        }
    }

    /// The header of a `--json` run, one line, when a plugin runs in a child: `{"plugins": [{"plugin":
    /// "plugins[1]", "name", "version", "subscribers", "isolation": "process", "group"}]}`, every loaded
    /// plugin in manifest order (a plugin in a child: its file's name, version null). Nil when every plugin is in process: such a run's stdout stays one
    /// object per event, as before isolation.
    var isolationHeaderJSON: String? {
        guard plugins.contains(where: { $0.isolation.mode == .process }) else { return nil }
        let entries: [JSONValue] = plugins.map { plugin in
            var object: JSONObject = [
                "plugin": .string("plugins[\(plugin.index)]"), "name": .string(plugin.name),
                "version": plugin.version.isEmpty ? .null : .string(plugin.version),
                "subscribers": .array(plugin.subscribers.map { .string($0) }),
            ]
            for member in plugin.isolation.json.members { object[member.key] = member.value }
            return .object(object)
        }
        return JSONValue.object(["plugins": .array(entries)]).serialized() + "\n"
    }
}
