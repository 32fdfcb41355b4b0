import SubscriberKit
import SubscriberEventModel

/// What ``PluginHost/reloadPlugin(named:scanCache:)`` did: the child restarted from its files.
public struct PluginReload: Sendable, Hashable {
    /// The files of the plugins whose child restarted (more than one when they share an isolation group).
    public var plugins: [String]
    /// The subscribers made anew, in the child's order.
    public var subscribers: [String]
    /// The isolation group restarted whole, if the plugin is in one.
    public var group: String?
}

/// Why a reload did not happen, in one line (what, where, expected, found). Nothing changed.
public struct PluginReloadError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension PluginHost {
    /// The most names an unknown-name error lists.
    static let reloadNamesListed = 32

    /// Restarts the child of the isolated plugin named `name` — its manifest `library` name, its file's
    /// name or path, or the name of one of its subscribers — from its file as it is now, while the
    /// host runs: every load-time check and the entry's `sha256` pin run again in a new child, its
    /// subscribers are made anew, and the old child is told goodbye only once the new one serves.
    /// The subscribers keep their places; under `"replayLaunch"` they are given the launch and each
    /// connected scene's `willConnect`, as any subscriber added late; otherwise they learn the app's
    /// state from the next event, as a subscriber added late does. A plugin in an isolation group
    /// restarts the whole group's child. A disabled plugin is enabled again.
    ///
    /// Throws one line, changing nothing, when no plugin or subscriber has that name (the line lists
    /// the names there are), when the plugin runs in process (a Swift image is never unloaded: it
    /// needs `"isolation": "process"`), or when the new child fails a check or makes other subscribers.
    @discardableResult
    public func reloadPlugin(named name: String, scanCache: ScanCache? = nil) throws(PluginReloadError) -> PluginReload {
        let quoted = ManifestText.quoted(name)
        guard !isShutDown else { throw PluginReloadError("reloading \(quoted): expected a running host, found one shut down") }
        guard dispatcher.callingEvent == nil else {
            throw PluginReloadError("reloading \(quoted): expected no event under way, found \(dispatcher.callingEvent!) calling its subscribers")
        }
        if let group = isolationGroups.first(where: { group in
            group.names.contains(name) || group.plugins.contains { Self.names(of: $0.entry, path: $0.path).contains(name) }
        }) {
            do throws(PluginLoadError) {
                for plugin in group.plugins { try scanCache?.refuseIfBlacklisted(path: plugin.path) }
            } catch {
                throw PluginReloadError("reloading \(quoted): \(error)")
            }
            do throws(IsolationStartError) {
                try group.reload()
            } catch {
                throw PluginReloadError("reloading \(quoted): \(error); the running child goes on")
            }
            dispatcher.rebuild()  // the events each subscriber responds to may have changed
            for subscriber in group.names { dispatcher.replayLaunchNowOrLater(to: subscriber) }
            return PluginReload(plugins: group.plugins.map(\.name), subscribers: group.names, group: group.isolation.group)
        }
        let inProcess = plugins.plugins.first { plugin in
            Self.names(of: plugin.entry, path: plugin.path).contains(name) || plugin.subscriberNames.contains(name)
        }
        if let plugin = inProcess {
            throw PluginReloadError("reloading \(quoted): expected a plugin with \"isolation\": \"process\", found "
                                    + "\(plugin.entry.keyPath) \(ManifestText.quoted(plugin.path)) loaded in process "
                                    + "(a Swift image is never unloaded): give its entry \"isolation\": \"process\" to reload it")
        }
        if dispatcher.subscribers.contains(where: { $0.name == name }) {
            throw PluginReloadError("reloading \(quoted): expected a plugin with \"isolation\": \"process\", found a subscriber "
                                    + "registered in process (a Swift image is never unloaded)")
        }
        var known: [String] = []
        for group in isolationGroups {
            for plugin in group.plugins { known.append(plugin.name) }
            known += group.names
        }
        for plugin in plugins.plugins { known.append(plugin.path.split(separator: "/").last.map(String.init) ?? plugin.path) }
        known += subscriberNames
        var seen: Set<String> = []
        let unique = known.filter { seen.insert($0).inserted }
        let listed = unique.prefix(Self.reloadNamesListed).map { ManifestText.quoted($0) }.joined(separator: ", ")
            + (unique.count > Self.reloadNamesListed ? ", … (\(unique.count) in all)" : "")
        throw PluginReloadError("reloading \(quoted): expected the name of a plugin (its library or file name) or of a "
                                + "subscriber, found none named so; the names: \(unique.isEmpty ? "none" : listed)")
    }

    /// The names a plugin answers to: its manifest `library` name or `path`, its file's path and name.
    private static func names(of entry: ManifestPlugin, path: String) -> [String] {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        var names = [path, file]
        switch entry.source {
        case .library(let library): names.append(library)
        case .path(let given): names.append(given)
        }
        return names
    }
}
