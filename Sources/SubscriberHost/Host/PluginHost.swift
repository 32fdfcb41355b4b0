import SubscriberKit

/// A running host: a manifest's plugins loaded, checked, their subscribers made through the C ABI
/// and registered with one ``LifecycleDispatcher``. What `apphost` and embedding apps use.
///
/// ```swift
/// let host = try PluginHost(manifestAt: "manifests/news.json")
/// let launched = host.dispatcher.didFinishLaunching(options: LaunchOptions())
/// ```
///
/// Loading is all or nothing: any required failure throws before a subscriber is made, so no event
/// ever reaches a half-loaded host. Plugins stay resident (Swift images cannot be unloaded).
@MainActor
public final class PluginHost {
    /// The manifest as read.
    public let manifest: Manifest
    /// The loaded plugins and the optional ones that were skipped.
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
    public init(manifest: Manifest, options: HostOptions = HostOptions()) throws(HostError) {
        let configuration = try Self.configuration(for: manifest, options: options)
        let plugins: PluginSet
        do {
            plugins = try PluginLoader(allowWritable: options.allowWritable)
                .load(manifest, extraSearchDirectories: options.extraSearchDirectories)
        } catch {
            throw .load(error)
        }
        let log = HostLogRecorder(handler: options.logHandler)
        var made: [CSubscriber] = []
        var registrations: [SubscriberRegistration] = []
        for planned in plugins.subscribers {
            let context = log.context(for: planned.name, application: manifest.app, options: planned.options)
            guard let subscriber = CSubscriber(descriptor: planned.image.descriptor, name: planned.name,
                                               context: context) else {
                made.forEach { $0.destroy() }
                throw .createFailed(file: manifest.file, plugin: planned.image.path, subscriber: planned.name)
            }
            made.append(subscriber)
            registrations.append(SubscriberRegistration(name: planned.name, subscriber: subscriber,
                                                        priority: planned.priority,
                                                        respondingEvents: subscriber.respondingEvents))
        }
        self.manifest = manifest
        self.plugins = plugins
        self.log = log
        self.dispatcher = LifecycleDispatcher(subscribers: registrations, configuration: configuration)
        self.subscribers = made
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
        for idiom in UserInterfaceIdiom.allCases {
            configuration.defaultOrientations[idiom] = manifest.orientations(for: idiom)
        }
        return configuration
    }
}
