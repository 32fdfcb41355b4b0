import SubscriberKit

/// A running host: a manifest's plugins loaded, checked, their subscribers made through the C ABI
/// and registered with one ``LifecycleDispatcher``. What `apphost` and embedding apps use.
///
/// ```swift
/// let host = try PluginHost(manifestAt: "manifests/news.json")
/// let launched = host.dispatcher.didFinishLaunching(options: LaunchOptions())
/// ```
///
/// Loading is all or nothing: any required failure (a load-time check, or a `create` that fails)
/// throws, destroying whatever subscribers were made, so no event ever reaches a half-loaded host.
/// An optional plugin that fails either way is skipped and listed in ``PluginSet/skipped``. Plugins
/// stay resident (Swift images cannot be unloaded).
@MainActor
public final class PluginHost {
    /// The manifest as read.
    public let manifest: Manifest
    /// The plugins whose subscribers were made, and the optional ones that were skipped (a failed
    /// load-time check or a failed `create`), in manifest order.
    public let plugins: PluginSet
    /// The dispatcher every event goes through.
    public let dispatcher: LifecycleDispatcher
    /// Every log line, event and error the subscribers wrote.
    public let log: HostLogRecorder
    /// The subscribers made from the plugins, in manifest order then each entry's list order; the
    /// dispatcher calls them in priority order (``LifecycleDispatcher/subscribers``).
    public let subscribers: [CSubscriber]

    /// Reads the manifest at `path` and loads it.
    public convenience init(manifestAt path: String, options: HostOptions = HostOptions()) throws(HostError) {
        let manifest: Manifest
        do { manifest = try Manifest(contentsOfFile: path) } catch { throw .manifest(error) }
        try self.init(manifest: manifest, options: options)
    }

    /// Loads `manifest`'s plugins, makes their subscribers and configures the dispatcher.
    public convenience init(manifest: Manifest, options: HostOptions = HostOptions()) throws(HostError) {
        let configuration = try Self.configuration(for: manifest, options: options)
        let loaded: PluginSet
        do {
            loaded = try PluginLoader(allowWritable: options.allowWritable)
                .load(manifest, extraSearchDirectories: options.extraSearchDirectories)
        } catch {
            throw .load(error)
        }
        try self.init(manifest: manifest, loaded: loaded, configuration: configuration,
                      log: HostLogRecorder(handler: options.logHandler))
    }

    /// Makes the subscribers of the plugins in `loaded` (of `manifest`), entry by entry. An entry
    /// whose `create` fails is, when optional, left out (the subscribers made from it destroyed)
    /// and added to ``PluginSet/skipped``; when required, every subscriber made so far is destroyed
    /// and the host does not start.
    init(manifest: Manifest, loaded: PluginSet, configuration: DispatchConfiguration,
         log: HostLogRecorder) throws(HostError) {
        var plugins: [PluginSet.Plugin] = []
        var skipped = loaded.skipped
        var made: [CSubscriber] = []
        var registrations: [SubscriberRegistration] = []
        for plugin in loaded.plugins {
            let subscribers: [CSubscriber]
            do {
                subscribers = try plugin.makeSubscribers(application: manifest.app, sink: log)
            } catch {
                guard plugin.entry.optional else {
                    made.forEach { $0.destroy() }
                    throw .load(PluginSetError(file: manifest.file, pluginIndex: plugin.entry.index, error: error))
                }
                skipped.append(PluginSet.Skipped(entry: plugin.entry, error: error))
                continue
            }
            plugins.append(plugin)
            made += subscribers
            registrations += subscribers.map {
                SubscriberRegistration(name: $0.name, subscriber: $0, priority: plugin.entry.priority,
                                       respondingEvents: $0.respondingEvents)
            }
        }
        skipped.sort { $0.pluginIndex < $1.pluginIndex }  // manifest order, whichever step refused them
        self.manifest = manifest
        self.plugins = PluginSet(plugins: plugins, skipped: skipped)
        self.log = log
        self.dispatcher = LifecycleDispatcher(subscribers: registrations, configuration: configuration)
        self.subscribers = made
    }

    /// Destroys every subscriber (each plugin's `destroy`), in the reverse of the order they were
    /// made. When this returns, every line they logged up to the moment their `destroy` returned is
    /// in ``log``: drain it after this, not before. A later call to a plugin's host interface is
    /// dropped and reported. Events sent afterwards reach no C subscriber. Idempotent.
    public func shutDown() {
        for subscriber in subscribers.reversed() { subscriber.destroy() }
    }

    /// The dispatcher's settings from the manifest: app, reconcilers, deadlines, orientations.
    static func configuration(for manifest: Manifest, options: HostOptions) throws(HostError) -> DispatchConfiguration {
        var configuration = DispatchConfiguration(application: manifest.app)
        do {
            for (event, choice) in manifest.reconcilers { try configuration.setReconciler(choice, for: event) }
            if let override = options.deadlineOverride {
                try configuration.setDefaultDeadline(override)
            } else {
                if let fallback = manifest.defaultDeadline { try configuration.setDefaultDeadline(.milliseconds(fallback)) }
                for (event, milliseconds) in manifest.deadlines {
                    try configuration.setDeadline(.milliseconds(milliseconds), for: event)
                }
            }
        } catch {
            throw .configuration(file: manifest.file, error)
        }
        // As listed: idioms without an entry follow DispatchConfiguration.defaultOrientation(for:).
        configuration.defaultOrientations = manifest.supportedInterfaceOrientations
        return configuration
    }
}
