import SubscriberKit
import SubscriberEventModel

extension PluginHost {
    /// Refuses a manifest whose isolation groups disagree on their limits, restart policy or call
    /// budget (a group is one child): reading a manifest file checks this, a manifest built in code
    /// is checked here, before any plugin is loaded.
    static func checkIsolation(of manifest: Manifest) throws(HostError) {
        do throws(ManifestError) { try manifest.checkIsolationGroups() } catch { throw HostError(.manifest(error)) }
    }

    /// Starts one child per isolation group of `manifest`'s isolated entries (an entry without a
    /// group: a child of its own), in manifest order. A group that cannot start throws when one of its
    /// entries is required; otherwise its entries are skipped, like optional plugins that fail a check.
    static func startIsolationGroups(of manifest: Manifest, options: HostOptions, log: HostLogRecorder)
        throws(HostError) -> (groups: [IsolationGroup], skipped: [PluginSet.Skipped])
    {
        let isolated = manifest.plugins.filter { $0.isolation.mode == .process }
        guard !isolated.isEmpty else { return ([], []) }
        let locator = PluginLocator(manifest: manifest, extraDirectories: options.extraSearchDirectories)
        var keys: [String] = []
        var members: [String: [ManifestPlugin]] = [:]
        for entry in isolated {
            let key = entry.isolation.group.map { "group:" + $0 } ?? "entry:\(entry.index)"
            if members[key] == nil { keys.append(key) }
            members[key, default: []].append(entry)
        }
        var groups: [IsolationGroup] = []
        var skipped: [PluginSet.Skipped] = []
        func fail(_ entry: ManifestPlugin, _ error: PluginLoadError, group: [ManifestPlugin]) throws(HostError) {
            guard group.allSatisfy(\.optional) else {
                groups.forEach { $0.shutDown() }
                throw HostError(.load(PluginSetError(file: manifest.file, pluginIndex: entry.index, error: error)))
            }
            skipped += group.map { PluginSet.Skipped(entry: $0, error: $0.index == entry.index ? error : error) }
        }
        for key in keys {
            let entries = members[key] ?? []
            var plugins: [IsolationGroup.Plugin] = []
            var failed = false
            for entry in entries {
                do throws(PluginLoadError) {
                    let path = try locator.locate(entry.source)
                    try options.scanCache?.refuseIfBlacklisted(path: path)  // as in-process plugins are
                    plugins.append(IsolationGroup.Plugin(entry: entry, path: path))
                } catch {
                    try fail(entry, error, group: entries)
                    failed = true
                    break
                }
            }
            if failed { continue }
            do throws(IsolationStartError) {
                groups.append(try IsolationGroup(plugins: plugins, application: manifest.app,
                                                 allowWritable: options.allowWritable, log: log))
            } catch {
                // A load-time check that failed in the child: its line, as in process.
                let failure: PluginLoadError = if let check = error.loadCheck {
                    .inspected(path: error.plugin.path, check: check, message: error.reason)
                } else {
                    .createFailed(path: error.plugin.path, name: error.plugin.entry.subscribers.first ?? "*",
                                  reason: "in its isolated child: \(error.reason)")
                }
                try fail(error.plugin.entry, failure, group: entries)
            }
        }
        return (groups, skipped)
    }

    /// `registrations` (with their entries) and every isolated subscriber, in manifest order (each
    /// entry's subscribers in its child's order): the order in-process subscribers of those entries
    /// would have. A name another subscriber has already is refused as the loader refuses it.
    static func mergeIsolated(_ groups: [IsolationGroup], into registrations: [SubscriberRegistration],
                              _ entries: [ManifestPlugin], manifest: Manifest)
        throws(HostError) -> ([SubscriberRegistration], [ManifestPlugin])
    {
        guard !groups.isEmpty else { return (registrations, entries) }
        var items = Array(zip(registrations, entries))
        var owners = Dictionary(uniqueKeysWithValues: zip(registrations.map(\.name), entries.map { "\($0.keyPath)" }))
        for group in groups {
            for (local, name) in group.names.enumerated() {
                let plugin = group.plugins[group.pluginOf[local]]
                if let provider = owners[name] {
                    throw HostError(.load(PluginSetError(file: manifest.file, pluginIndex: plugin.entry.index,
                                                         error: .duplicateSubscriber(path: plugin.path, name: name, provider: provider))))
                }
                owners[name] = "\(plugin.entry.keyPath) \"\(plugin.path)\""
                var registration = SubscriberRegistration(name: name, transport: IsolatedTransport(group: group, local: local),
                                                          priority: plugin.entry.priority)
                (registration.after, registration.before) = (plugin.entry.after, plugin.entry.before)
                items.append((registration, plugin.entry))
            }
        }
        // Stable: equal indices keep their order (an entry's subscribers, as made).
        let sorted = items.enumerated().sorted { ($0.element.1.index, $0.offset) < ($1.element.1.index, $1.offset) }.map(\.element)
        return (sorted.map(\.0), sorted.map(\.1))
    }
}
