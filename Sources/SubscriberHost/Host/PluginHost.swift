import SubscriberKit

/// A running host: a manifest's plugins loaded and checked, their subscribers made through the C
/// ABI, the app's own in-process subscribers beside them, all registered with one
/// ``LifecycleDispatcher``. What `apphost` and embedding apps use (docs/embedding.md).
///
/// ```swift
/// let host = try PluginHost(manifestAt: "manifests/news.json",
///                           inProcess: [InProcessSubscriber(AppRouter.self, priority: 10)])
/// let launched = await host.dispatch(.didFinishLaunching(options: LaunchOptions()))
/// let opened: Bool = host.dispatchAtOnce(.openURL(url: url)).result
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
    /// Everything the subscribers logged and asked for; ``dispatch(_:)`` hands each event its own.
    package let log: HostLogRecorder
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
                      log: HostLogRecorder(handler: options.logHandler, requestHandler: options.requestHandler))
    }

    init(manifest: Manifest, loaded: PluginSet, inProcess: [InProcessSubscriber] = [],
         configuration: DispatchConfiguration, log: HostLogRecorder) throws(HostError) {
        var plugins: [PluginSet.Plugin] = []
        var skipped = loaded.skipped
        var made: [CSubscriber] = []
        var registrations: [SubscriberRegistration] = []
        let state = ApplicationStateCell()
        for plugin in loaded.plugins {
            let subscribers: [CSubscriber]
            do {
                subscribers = try plugin.makeSubscribers(application: manifest.app, sink: log, state: state)
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
            if let problem = SubscriberName.problem(name) {
                made.reversed().forEach { $0.destroy() }
                throw .invalidInProcessName(index: index, expected: problem.expected, found: problem.found)
            }
            guard taken.insert(name).inserted else {
                made.reversed().forEach { $0.destroy() }
                throw .duplicateInProcessName(name: name, index: index)
            }
            let registration = SubscriberRegistration(subscriber.type, name: name, application: manifest.app,
                                                      options: subscriber.options, sink: log, priority: subscriber.priority)
            // An in-process subscriber that adopts no event protocol compiles and receives nothing: the
            // typical mistake of a port from Expo. Say so where its logs go.
            if registration.respondingEvents.isEmpty {
                log.log(subscriber: name, level: .warning,
                        message: "\(name) responds to no event: adopt the event protocols of the methods it implements "
                            + "(OpenURLSubscriber for application(_:open:options:), …)")
            }
            registrations.append(registration)
        }
        skipped.sort { $0.pluginIndex < $1.pluginIndex }  // manifest order, whichever step refused them
        self.manifest = manifest
        self.plugins = PluginSet(plugins: plugins, skipped: skipped)
        self.log = log
        self.dispatcher = LifecycleDispatcher(subscribers: registrations, configuration: configuration, state: state)
        self.subscribers = made
    }

    /// Takes the records logged since the last take (at first: what subscribers logged when made).
    public func takeLogs() -> [LogRecord] { log.drain() }

    /// Delivers `call` to every subscriber that responds and returns its outcome once every awaited
    /// completion arrived (``LifecycleDispatcher/dispatch(_:)``). The outcome carries the records
    /// logged and the requests made since the previous outcome: a completion that logs before calling
    /// back belongs to the event that waited for it.
    public func dispatch<Immediate, Final>(_ call: EventCall<Immediate, Final>) async -> EventOutcome<Final> {
        attach(await dispatcher.dispatch(call))
    }

    /// Delivers `call` and returns at once what the event's UIKit method returns at once; what comes
    /// later goes to `whenDelivered` (``LifecycleDispatcher/dispatchAtOnce(_:whenDelivered:)``). Each
    /// outcome carries the records logged and the requests made since the previous one.
    @discardableResult
    public func dispatchAtOnce<Immediate, Final>(
        _ call: EventCall<Immediate, Final>,
        whenDelivered: (@MainActor (EventOutcome<Final>) -> Void)? = nil
    ) -> EventOutcome<Immediate> {
        let delivered = whenDelivered.map { whenDelivered in { @MainActor (outcome: EventOutcome<Final>) in
            whenDelivered(self.attach(outcome))
        } }
        return attach(dispatcher.dispatchAtOnce(call, whenDelivered: delivered))
    }

    /// The requests subscribers made since they were last handed out, oldest first.
    public func takeRequests() -> [HostRequest] { log.drainRequests() }

    /// `outcome` with the records logged and the requests made since the previous outcome.
    private func attach<Result>(_ outcome: EventOutcome<Result>) -> EventOutcome<Result> {
        var outcome = outcome
        outcome.logs = log.drain()
        outcome.requests = log.drainRequests()
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
            // Events still waiting are delivered with what arrived; no outcome lists a destroyed subscriber.
            dispatcher.shutDown()
        }
        return Leftovers(reports: dispatcher.takeLateReports(), logs: log.drain(), requests: log.drainRequests())
    }

    /// What ``shutDown()`` found after the last event.
    public struct Leftovers: Sendable, Hashable {
        /// Reports about calls that arrived after their event was delivered.
        public var reports: [DispatchReport]
        /// Records not handed out with an outcome.
        public var logs: [LogRecord]
        /// Requests not handed out with an outcome.
        public var requests: [HostRequest]
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
        configuration.measuresSubscribers = options.measuresSubscribers
        configuration.sceneBridge = manifest.sceneBridge
        return configuration
    }
}

/// A subscriber type an embedding app registers beside the manifest's plugins: made with a context
/// from the host (its logs go where the plugins' go, with the manifest's app info), ordered and
/// reconciled exactly like a loaded subscriber.
@MainActor
public struct InProcessSubscriber {
    /// The type to make.
    public let type: any InstantiableSubscriber.Type
    /// The name it is listed under; unique among all the host's subscribers.
    public let name: String
    /// Its options, as a manifest entry's `options` would give them.
    public let options: JSONValue
    /// Higher goes first; equal priorities keep order (the manifest's plugins first).
    public let priority: Int

    /// A subscriber of `type`, named `name` (default: the type's `subscriberName`). The name follows a
    /// manifest's rules (not empty, no control characters, unique among the host's subscribers),
    /// checked when the host is made.
    @MainActor
    public init(_ type: any InstantiableSubscriber.Type, name: String? = nil, options: JSONValue = [:], priority: Int = 0) {
        self.type = type
        self.name = name ?? type.subscriberName
        self.options = options
        self.priority = priority
    }
}
