import SubscriberHost
import SubscriberKit

/// The verdict on one manifest plugin entry, for `apphost list`.
package struct PluginVerdict: Sendable {
    /// What became of the entry.
    package enum Outcome: Sendable {
        /// It passed every load check and made its subscribers; what it is.
        case loaded(PluginSummary)
        /// It failed a load check, or a subscriber it declares could not be made.
        case failed(PluginLoadError)
    }

    /// The manifest entry.
    package var entry: ManifestPlugin
    /// Loaded or failed.
    package var outcome: Outcome

    /// A verdict.
    package init(entry: ManifestPlugin, outcome: Outcome) {
        self.entry = entry
        self.outcome = outcome
    }

    /// Whether this verdict stops `apphost` from running: a required entry that failed.
    package var isFatal: Bool {
        if case .failed = outcome { return !entry.optional }
        return false
    }
}

/// Loads each plugin entry of a manifest on its own and says what became of it, so that `list`
/// shows every entry's verdict where a run stops at the first required failure.
///
/// Runs the same ten checks, in the same order, as ``PluginLoader/load(_:extraSearchDirectories:)``
/// (both through ``PluginLoader/loadEntry(_:locator:owners:)``): a subscriber name already provided
/// by an earlier entry that loaded fails the later one. Then, like a run, it makes each subscriber
/// (and destroys it at once), so an entry whose `create` fails is listed as failed, as a run would
/// refuse (or, optional, skip) it.
package enum PluginInspector {
    /// The verdict of every entry of `manifest`, in manifest order.
    /// [main-thread] Loading calls each plugin's `[main-thread]` entry symbol, and `create`.
    @MainActor
    package static func inspect(_ manifest: Manifest, extraSearchDirectories: [String] = [],
                               allowWritable: Bool = false) -> [PluginVerdict] {
        let locator = PluginLocator(manifest: manifest, extraDirectories: extraSearchDirectories)
        let loader = PluginLoader(allowWritable: allowWritable)
        return inspect(manifest) { (entry, owners) throws(PluginLoadError) -> PluginSet.Plugin in
            try loader.loadEntry(entry, locator: locator, owners: &owners)
        }
    }

    /// ``inspect(_:extraSearchDirectories:allowWritable:)`` with the per-entry loading step given
    /// (tests hand in plugins built in memory).
    @MainActor
    static func inspect(_ manifest: Manifest,
                        loadEntry: (ManifestPlugin, inout [String: String]) throws(PluginLoadError) -> PluginSet.Plugin)
        -> [PluginVerdict]
    {
        let sink = HostLogRecorder(retaining: false)  // what create logs is not part of a listing
        var owners: [String: String] = [:]  // subscriber name → the entry providing it
        return manifest.plugins.map { entry in
            do throws(PluginLoadError) {
                let plugin = try loadEntry(entry, &owners)
                try plugin.makeSubscribers(application: manifest.app, sink: sink).forEach { $0.destroy() }
                return PluginVerdict(entry: entry, outcome: .loaded(PluginSummary(plugin)))
            } catch {
                return PluginVerdict(entry: entry, outcome: .failed(error))
            }
        }
    }
}
