import SubscriberDelivery
import SubscriberKit

/// What loading a manifest's plugins produced: every plugin that passed all ten checks, with the
/// subscribers asked of it, and the optional plugins that failed and were skipped. Complete or not
/// at all: a required failure throws ``PluginSetError`` instead.
package struct PluginSet: Sendable {
    /// A manifest plugin entry that loaded.
    package struct Plugin: Sendable {
        /// The manifest entry (index, options, priority, …).
        package var entry: ManifestPlugin
        /// The file it resolved to (absolute, symlinks kept).
        package var path: String
        /// The resident image (shared with any other entry naming the same real file).
        package var image: LoadedPluginImage
        /// The subscribers to make from it, in order: the entry's list, or all the image declares.
        package var subscriberNames: [String]
    }

    /// An optional manifest entry that failed a check and was left out.
    package struct Skipped: Sendable, CustomStringConvertible {
        /// The manifest entry.
        package var entry: ManifestPlugin
        /// Why it was left out.
        package var error: PluginLoadError
        /// Its index in the manifest's `plugins`.
        package var pluginIndex: Int { entry.index }
        /// `plugins[3] (optional, skipped): <error>`.
        package var description: String { "\(entry.keyPath) (optional, skipped): \(error)" }
    }

    /// One subscriber to instantiate: which image, which name, and what the manifest says about it.
    package struct Subscriber: Sendable {
        /// The subscriber's name, as the plugin declares it (unique across the set).
        package var name: String
        /// The image whose descriptor's `create` makes it.
        package var image: LoadedPluginImage
        /// The manifest entry's `options`, with the subscriber's own `subscriberOptions` laid over
        /// them (``ManifestPlugin/options(for:)``), for the host interface's `options_json`.
        package var options: JSONValue
        /// The manifest entry's `priority`.
        package var priority: Int
        /// The manifest entry's index (manifest order is dispatch order before priorities).
        package var pluginIndex: Int
    }

    /// The loaded entries, in manifest order.
    package var plugins: [Plugin]
    /// The optional entries that failed, in manifest order.
    package var skipped: [Skipped]

    /// Every subscriber to instantiate, in manifest order then each entry's list order (before
    /// priorities are applied).
    package var subscribers: [Subscriber] {
        plugins.flatMap { plugin in
            plugin.subscriberNames.map {
                Subscriber(name: $0, image: plugin.image, options: plugin.entry.options(for: $0),
                           priority: plugin.entry.priority, pluginIndex: plugin.entry.index)
            }
        }
    }
}

/// A required plugin failed a load-time check (or, when a host makes its subscribers, a `create`):
/// `<manifest>: plugins[2]: <the check's error>`.
package struct PluginSetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manifest file, as the caller named it.
    package var file: String
    /// Index of the failing entry in the manifest's `plugins`.
    package var pluginIndex: Int
    /// The failed check.
    package var error: PluginLoadError

    /// The failure of entry `pluginIndex` of `file`.
    package init(file: String, pluginIndex: Int, error: PluginLoadError) {
        self.file = file
        self.pluginIndex = pluginIndex
        self.error = error
    }

    package var description: String { "\(file): plugins[\(pluginIndex)]: \(error)" }
}

extension PluginLoader {
    /// Loads every plugin of `manifest` in order, running all ten checks. Libraries are looked up by
    /// ``PluginLocator`` (the manifest's search paths, then `extraSearchDirectories`, then the
    /// executable's folder). An `optional` entry that fails is skipped and reported; any other
    /// failure throws, and nothing of the set is returned.
    /// [main-thread] Loading calls each plugin's `[main-thread]` entry symbol.
    @MainActor
    package func load(_ manifest: Manifest, extraSearchDirectories: [String] = []) throws(PluginSetError) -> PluginSet {
        try load(manifest, locator: PluginLocator(manifest: manifest, extraDirectories: extraSearchDirectories))
    }

    /// ``load(_:extraSearchDirectories:)`` with an explicit locator. [main-thread]
    @MainActor
    package func load(_ manifest: Manifest, locator: PluginLocator) throws(PluginSetError) -> PluginSet {
        var set = PluginSet(plugins: [], skipped: [])
        var owners: [String: String] = [:]  // subscriber name → the entry providing it
        // Storage made before the first plugin is loaded: the dictionary's type is built by name at
        // its first storage, and after a dlopen checking `String: Hashable` scans every image's
        // conformances again (365,000 instructions at every start); before, the check is cached.
        owners.reserveCapacity(manifest.plugins.count)
        let verified = VerifiedFolders()  // check 2's folders, examined once for the whole manifest
        for entry in manifest.plugins {
            do throws(PluginLoadError) {
                set.plugins.append(try loadEntry(entry, locator: locator, owners: &owners, verified: verified))
            } catch {
                guard entry.optional else {
                    throw PluginSetError(file: manifest.file, pluginIndex: entry.index, error: error)
                }
                set.skipped.append(PluginSet.Skipped(entry: entry, error: error))
            }
        }
        return set
    }

    /// Loads one manifest entry, running all ten checks: finds its file through `locator`, loads it
    /// (checks 1–8), then checks that it declares every subscriber the entry asks for or gives
    /// `subscriberOptions` (9) and that
    /// none of them is in `owners` already (10). Only when every check passed are the entry's
    /// subscriber names added to `owners` (name → the entry providing it, `plugins[0] "/path"`), so a
    /// refused entry reserves nothing.
    /// [main-thread] Loading calls the plugin's `[main-thread]` entry symbol.
    @MainActor
    package func loadEntry(_ entry: ManifestPlugin, locator: PluginLocator,
                          owners: inout [String: String]) throws(PluginLoadError) -> PluginSet.Plugin {
        try loadEntry(entry, locator: locator, owners: &owners, verified: VerifiedFolders())
    }

    /// ``loadEntry(_:locator:owners:)`` within a manifest's load: check 2 reuses `verified`. [main-thread]
    @MainActor
    func loadEntry(_ entry: ManifestPlugin, locator: PluginLocator, owners: inout [String: String],
                   verified: VerifiedFolders) throws(PluginLoadError) -> PluginSet.Plugin {
        let path = try locator.locate(entry.source)
        let image = try loadImage(at: path, sha256: entry.sha256, verified: verified)
        let names = try image.subscribers(requested: entry.subscribers, path: path)   // check 9
        if entry.subscribers.isEmpty {  // a listed entry's subscriberOptions name listed subscribers (the manifest's check)
            for name in entry.subscriberOptionNames where !image.declares(name) {
                throw .unknownSubscriber(path: path, name: name, declared: image.subscriberNames)
            }
        }
        for name in names {                                                            // check 10
            if let provider = owners[name] { throw .duplicateSubscriber(path: path, name: name, provider: provider) }
        }
        let provider = "\(entry.keyPath) \"\(path)\""
        for name in names { owners[name] = provider }
        return PluginSet.Plugin(entry: entry, path: path, image: image, subscriberNames: names)
    }
}
