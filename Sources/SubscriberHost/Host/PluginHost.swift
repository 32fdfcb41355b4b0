import SubscriberKit

/// A running host: a manifest's plugins loaded and checked, their subscribers made through the C
/// ABI, the app's own in-process subscribers beside them, all registered with one
/// ``LifecycleDispatcher``. What `apphost` and embedding apps use (docs/embedding.md).
///
/// ```swift
/// let host = try PluginHost(manifestAt: "manifests/news.json",
///                           inProcess: [InProcessSubscriber(AppRouter.self, priority: 10)])
/// let launched = await host.dispatch(.didFinishLaunching(options: LaunchOptions()))
/// let opened = host.dispatchAtOnce(.openURL(url: url))?.result.bool ?? false
/// let leftovers = host.shutDown()
/// ```
///
/// Loading is all or nothing: any required failure (a load-time check, or a `create` that fails)
/// throws, destroying whatever subscribers were made, so no event ever reaches a half-loaded host.
/// An optional plugin that fails either way is skipped and listed in ``PluginSet/skipped``. Plugins
/// stay resident (Swift images cannot be unloaded).
@MainActor
public final class PluginHost {
    /// The manifest, as read.
    public let manifest: Manifest
    /// The loaded plugins (and the optional ones skipped), in manifest order.
    public let plugins: PluginSet
    /// The dispatcher over every subscriber: the plugins' and the in-process ones.
    public let dispatcher: LifecycleDispatcher
    /// Everything the subscribers logged; ``dispatch(_:)`` hands each event its own records.
    public let log: HostLogRecorder
    /// The subscribers made from plugins, in manifest order.
    package let subscribers: [CSubscriber]
    /// Whether ``shutDown()`` ran.
    public private(set) var isShutDown = false

    /// Loads the manifest at `path` and its plugins, and registers `inProcess` subscribers beside them.
    public convenience init(manifestAt path: String, inProcess: [InProcessSubscriber] = [],
                            options: HostOptions = HostOptions()) throws(HostError) {
        let manifest: Manifest
        do { manifest = try Manifest(contentsOfFile: path) } catch { throw .manifest(error) }
        try self.init(manifest: manifest, inProcess: inProcess, options: options)
    }

    /// Loads `manifest`'s plugins, and registers `inProcess` subscribers beside them.
    public convenience init(manifest: Manifest, inProcess: [InProcessSubscriber] = [],
                            options: HostOptions = HostOptions()) throws(HostError) {
        DispatchWarmUp.prepareTimers()  // before any plugin code runs: Environment/DispatchWarmUp.swift
        let configuration = try Self.configuration(for: manifest, options: options)
        let loaded: PluginSet
        do {
            loaded = try PluginLoader(allowWritable: options.allowWritable)
                .load(manifest, extraSearchDirectories: options.extraSearchDirectories)
        } catch {
            throw .load(error)
        }
        try self.init(manifest: manifest, loaded: loaded, inProcess: inProcess, configuration: configuration,
                      log: HostLogRecorder(handler: options.logHandler))
    }

    init(manifest: Manifest, loaded: PluginSet, inProcess: [InProcessSubscriber] = [],
         configuration: DispatchConfiguration, log: HostLogRecorder) throws(HostError) {
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
                    made.reversed().forEach { $0.destroy() }
                    throw .load(PluginSetError(file: manifest.file, pluginIndex: plugin.entry.index, error: error))
                }
                skipped.append(PluginSet.Skipped(entry: plugin.entry, error: error))
                continue
            }
            plugins.append(plugin)
            made += subscribers
            registrations += subscribers.map { SubscriberRegistration($0, priority: plugin.entry.priority) }
        }
        // In-process subscribers follow the manifest's, in the order given; then one stable sort by
        // priority orders them all. A name already taken is refused like two plugins sharing one.
        var taken = Set(registrations.map(\.name))
        for (index, subscriber) in inProcess.enumerated() {
            let name = subscriber.name
            guard taken.insert(name).inserted else {
                made.reversed().forEach { $0.destroy() }
                throw .duplicateInProcessName(name: name, index: index)
            }
            registrations.append(SubscriberRegistration(subscriber.type, name: name, application: manifest.app,
                                                        options: subscriber.options, sink: log,
                                                        priority: subscriber.priority))
        }
        skipped.sort { $0.pluginIndex < $1.pluginIndex }  // manifest order, whichever step refused them
        self.manifest = manifest
        self.plugins = PluginSet(plugins: plugins, skipped: skipped)
        self.log = log
        self.dispatcher = LifecycleDispatcher(subscribers: registrations, configuration: configuration)
        self.subscribers = made
    }

    /// Takes the records logged since the last take (at first: what subscribers logged when made).
    public func takeLogs() -> [LogRecord] { log.drain() }

    /// Delivers `call` to every subscriber that responds (``LifecycleDispatcher/dispatch(_:)``). The
    /// outcome carries the records logged since the previous event: a completion that logs before
    /// calling back belongs to the event that waited for it.
    public func dispatch(_ call: EventCall) async -> EventOutcome {
        var outcome = await dispatcher.dispatch(call)
        outcome.logs = log.drain()
        return outcome
    }

    /// Delivers `call` synchronously when its event answers at once, with its log records; nil,
    /// delivering nothing, for an event that answers through completion handlers
    /// (``LifecycleDispatcher/dispatchAtOnce(_:)``).
    public func dispatchAtOnce(_ call: EventCall) -> EventOutcome? {
        guard var outcome = dispatcher.dispatchAtOnce(call) else { return nil }
        outcome.logs = log.drain()
        return outcome
    }

    /// Destroys the plugins' subscribers, last first, and returns what is left: reports about calls
    /// that arrived after their event was delivered, and every record not yet handed out — including
    /// every line a subscriber wrote up to the moment its `destroy` returned. Later calls return
    /// nothing new. In-process subscribers are released with the host.
    @discardableResult
    public func shutDown() -> Leftovers {
        if !isShutDown {
            isShutDown = true
            for subscriber in subscribers.reversed() { subscriber.destroy() }
        }
        return Leftovers(reports: dispatcher.takeLateReports(), logs: log.drain())
    }

    /// What ``shutDown()`` found after the last event.
    public struct Leftovers: Sendable, Hashable {
        /// Reports about calls that arrived after their event was delivered.
        public var reports: [DispatchReport]
        /// Records not handed out with an outcome.
        public var logs: [LogRecord]
    }

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

/// A subscriber type an embedding app registers beside the manifest's plugins: made with a context
/// from the host (its logs go where the plugins' go, with the manifest's app info), ordered and
/// reconciled exactly like a loaded subscriber.
public struct InProcessSubscriber: Sendable {
    /// The type to make.
    public let type: any InstantiableSubscriber.Type
    /// The name it is listed under; unique among all the host's subscribers.
    public let name: String
    /// Its options, as a manifest entry's `options` would give them.
    public let options: JSONValue
    /// Higher goes first; equal priorities keep order (the manifest's plugins first).
    public let priority: Int

    /// A subscriber of `type`, named `name` (default: the type's `subscriberName`).
    @MainActor
    public init(_ type: any InstantiableSubscriber.Type, name: String? = nil, options: JSONValue = [:], priority: Int = 0) {
        self.type = type
        self.name = name ?? type.subscriberName
        self.options = options
        self.priority = priority
    }
}
