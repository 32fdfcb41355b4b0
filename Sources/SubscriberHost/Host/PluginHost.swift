import SubscriberDelivery
import SubscriberKit

/// A running host: a manifest's plugins loaded and checked, their subscribers made through the C
/// ABI, the app's own in-process subscribers beside them, all registered with one
/// dispatcher. What `apphost` and embedding apps use (docs/embedding.md).
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
/// An optional plugin that fails either way is skipped and listed in ``skippedPlugins``. Plugins
/// stay resident (Swift images cannot be unloaded).
@MainActor
public final class PluginHost {
    /// The manifest, as read or built.
    public let manifest: Manifest
    /// The loaded plugins (and the optional ones skipped), in manifest order.
    package let plugins: PluginSet
    /// The dispatcher over every subscriber: the plugins' and the in-process ones.
    package let dispatcher: LifecycleDispatcher
    /// Everything the subscribers logged and asked for; ``dispatch(_:)`` hands each event its own.
    package let log: HostLogRecorder
    /// The subscribers made from plugins, in manifest order.
    package let subscribers: [CSubscriber]
    /// The subscribers of plugins added while the host runs (``addPlugin(_:options:whenResponseDelivered:)``).
    var pluginSubscribersAdded: [CSubscriber] = []
    /// The children of the isolated plugins (``PluginIsolation/Mode/process``), one per isolation group.
    package let isolationGroups: [IsolationGroup]
    /// Whether ``shutDown()`` ran.
    public private(set) var isShutDown = false

    /// Loads the manifest at `path` and its plugins, and registers `inProcess` subscribers beside them.
    public convenience init(manifestAt path: String, inProcess: [InProcessSubscriber] = [],
                            options: HostOptions = HostOptions()) throws(HostError) {
        let manifest: Manifest
        do { manifest = try Manifest(contentsOfFile: path) } catch { throw HostError(.manifest(error)) }
        try self.init(manifest: manifest, inProcess: inProcess, options: options)
    }

    /// A host of `inProcess` subscribers only, for `application`, with every default a manifest
    /// would leave (reconcilers, deadlines, orientations): an app without plugins, or a test.
    public convenience init(application: Application, inProcess: [InProcessSubscriber],
                            options: HostOptions = HostOptions()) throws(HostError) {
        try self.init(manifest: Manifest(file: "(in-process host)", directory: FilePaths.absolute("."), app: application),
                      inProcess: inProcess, options: options)
    }

    /// Loads `manifest`'s plugins, and registers `inProcess` subscribers beside them: a manifest read
    /// from a file, or built in code (no file needed) — the same value gives the same host.
    public convenience init(manifest: Manifest, inProcess: [InProcessSubscriber] = [],
                            options: HostOptions = HostOptions()) throws(HostError) {
        DispatchWarmUp.prepareTimers()  // before any plugin code runs: Environment/DispatchWarmUp.swift
        try Self.checkIsolation(of: manifest)  // a manifest built in code, as a file's is when read
        let configuration = try Self.configuration(for: manifest, options: options)
        let loaded: PluginSet
        // Isolated plugins are never loaded here: their children load them (Isolation/).
        var hosted = manifest
        hosted.plugins.removeAll { $0.isolation.mode == .process }
        do {
            loaded = try PluginLoader(allowWritable: options.allowWritable, scanCache: options.scanCache)
                .load(hosted, extraSearchDirectories: options.extraSearchDirectories)
        } catch {
            throw HostError(.load(error))
        }
        let log = HostLogRecorder(handler: options.logHandler, requestHandler: options.requestHandler)
        let (groups, skippedIsolated) = try Self.startIsolationGroups(of: manifest, options: options, log: log)
        var all = loaded
        all.skipped += skippedIsolated
        try self.init(manifest: manifest, loaded: all, isolated: groups, inProcess: inProcess, configuration: configuration,
                      log: log)
    }

    init(manifest: Manifest, loaded: PluginSet, isolated: [IsolationGroup] = [], inProcess: [InProcessSubscriber] = [],
         configuration: DispatchConfiguration, log: HostLogRecorder) throws(HostError) {
        var plugins: [PluginSet.Plugin] = []
        var skipped = loaded.skipped
        var made: [CSubscriber] = []
        var registrations: [SubscriberRegistration] = []
        /// The manifest entry of each registration so far (isolated ones are merged in manifest order below).
        var registrationEntries: [ManifestPlugin] = []
        let state = ApplicationStateCell()
        for plugin in loaded.plugins {
            let subscribers: [CSubscriber]
            do {
                subscribers = try plugin.makeSubscribers(application: manifest.app, sink: log, state: state)
            } catch {
                guard plugin.entry.optional else {
                    made.reversed().forEach { $0.destroy() }
                    throw HostError(.load(PluginSetError(file: manifest.file, pluginIndex: plugin.entry.index, error: error)))
                }
                skipped.append(PluginSet.Skipped(entry: plugin.entry, error: error))
                continue
            }
            plugins.append(plugin)
            made += subscribers
            registrations += subscribers.map { subscriber in
                var registration = SubscriberRegistration(subscriber, priority: plugin.entry.priority)
                (registration.after, registration.before) = (plugin.entry.after, plugin.entry.before)
                return registration
            }
            registrationEntries += subscribers.map { _ in plugin.entry }
        }
        do throws(HostError) {
            (registrations, registrationEntries) = try Self.mergeIsolated(isolated, into: registrations, registrationEntries,
                                                                          manifest: manifest)
        } catch {
            made.reversed().forEach { $0.destroy() }
            isolated.forEach { $0.shutDown() }
            throw error
        }
        let loadedCount = registrations.count
        // In-process subscribers follow the manifest's, in the order given; then one stable sort by
        // priority orders them all. A name already taken is refused like two plugins sharing one.
        var taken = Set(registrations.map(\.name))
        for (index, subscriber) in inProcess.enumerated() {
            let name = subscriber.name
            if let problem = SubscriberName.problem(name) {
                made.reversed().forEach { $0.destroy() }
                isolated.forEach { $0.shutDown() }
                throw HostError(.invalidInProcessName(index: index, expected: problem.expected, found: problem.found))
            }
            guard taken.insert(name).inserted else {
                made.reversed().forEach { $0.destroy() }
                isolated.forEach { $0.shutDown() }
                throw HostError(.duplicateInProcessName(name: name, index: index))
            }
            if let problem = Self.orderListProblem(subscriber) {
                made.reversed().forEach { $0.destroy() }
                isolated.forEach { $0.shutDown() }
                throw HostError(.invalidInProcessOrder(index: index, key: problem.key, expected: problem.expected,
                                                        found: problem.found))
            }
            var registration = SubscriberRegistration(subscriber.type, name: name, application: manifest.app,
                                                      options: subscriber.options, sink: log, priority: subscriber.priority)
            (registration.after, registration.before) = (subscriber.after, subscriber.before)
            Self.warnIfRespondingToNothing(registration, log: log)
            registrations.append(registration)
        }
        skipped.sort { $0.pluginIndex < $1.pluginIndex }  // manifest order, whichever step refused them
        do throws(HostError) {
            try Self.checkOrder(registrations, loadedCount: loadedCount, entries: registrationEntries, skipped: skipped,
                                manifest: manifest)
        } catch {
            made.reversed().forEach { $0.destroy() }
            isolated.forEach { $0.shutDown() }
            throw error
        }
        self.isolationGroups = isolated
        self.manifest = manifest
        self.plugins = PluginSet(plugins: plugins, skipped: skipped)
        self.log = log
        let dispatcher = LifecycleDispatcher(subscribers: registrations, configuration: configuration, state: state)
        self.dispatcher = dispatcher
        self.subscribers = made
        // A disabled group's subscribers leave the responder lists: absent from the next event on.
        for group in isolated { group.onDisabled = { [weak dispatcher] in dispatcher?.rebuild() } }
    }

    /// Checks the `after`/`before` constraints of every subscriber, the loaded ones first (made from
    /// `entries`, one per registration), then the in-process ones: a name no subscriber has, or a
    /// cycle, is an error placed where it was written (a manifest entry, an in-process subscriber).
    /// A name an optional plugin that was skipped would have made constrains nothing; so does any
    /// name when a skipped one did not list its subscribers (which names it would make is unknown).
    private static func checkOrder(_ registrations: [SubscriberRegistration], loadedCount: Int,
                                   entries: [ManifestPlugin], skipped: [PluginSet.Skipped], manifest: Manifest)
        throws(HostError)
    {
        let absent = Set(skipped.flatMap { manifest.plugins[$0.pluginIndex].subscribers })
        let unknownNamesAbsent = skipped.contains { manifest.plugins[$0.pluginIndex].subscribers.isEmpty }
        do {
            _ = try SubscriberRegistration.ordered(registrations) { _, name in !unknownNamesAbsent && !absent.contains(name) }
        } catch {
            guard error.index < loadedCount else {
                throw HostError(.invalidInProcessOrder(index: error.index - loadedCount, key: error.key,
                                                       expected: error.expected, found: error.found))
            }
            throw HostError(.manifest(ManifestError(file: manifest.file, location: "\(entries[error.index].keyPath).\(error.key)",
                                                    expected: error.expected, found: error.found)))
        }
    }

    /// An in-process subscriber that adopts no event protocol compiles and receives nothing: the
    /// typical mistake of a port from Expo. Says so where its logs go.
    private static func warnIfRespondingToNothing(_ registration: SubscriberRegistration, log: HostLogRecorder) {
        guard registration.respondingEvents.isEmpty else { return }
        let name = registration.name
        log.log(subscriber: name, level: .warning,
                message: "\(name) responds to no event: adopt the event protocols of the methods it implements "
                    + "(OpenURLSubscriber for application(_:open:options:), …)")
    }

    /// What is wrong with `subscriber`'s own `after`/`before` lists (too long, an empty or repeated
    /// name), as a manifest entry's would be; nil when they are fine.
    private static func orderListProblem(_ subscriber: InProcessSubscriber) -> (key: String, expected: String, found: String)? {
        for list in [OrderConstraint.after, .before] {
            let names = list == .after ? subscriber.after : subscriber.before
            if names.count > DispatchOrder.maximumConstraintCount {
                return (list.rawValue, "at most \(DispatchOrder.maximumConstraintCount) subscriber names", "\(names.count)")
            }
            var seen: Set<String> = []
            for (position, name) in names.enumerated() {
                if let problem = SubscriberName.problem(name) { return ("\(list)[\(position)]", problem.expected, problem.found) }
                if !seen.insert(name).inserted {
                    return ("\(list)[\(position)]", "a subscriber name not listed before", ManifestText.quoted(name) + " again")
                }
            }
        }
        return nil
    }

    // MARK: Subscribers added and removed while the host runs

    /// Makes `subscriber` and adds it while the host runs, as the manifest's would be made (the
    /// manifest's app info, its options, logging beside the plugins'): it receives events from the
    /// next one on, also when added from inside an event, in its place in the dispatch order; a
    /// notification response nobody handled is offered to it. Checked before it is made: a name already taken (one
    /// clear error, as the same subscriber registered twice), a bad name, or constraints that form a
    /// cycle throw, and nothing is made or changed. Returns the name it is registered under. Under
    /// the rules of a profile: the same subscriber (name and type) added again is no error when
    /// ``DispatchRules/duplicateRegistration`` says so, and one added after the launch is given it
    /// when ``DispatchRules/replaysLaunch`` says so.
    @discardableResult
    public func add(_ subscriber: InProcessSubscriber,
                    whenResponseDelivered: (@MainActor (EventOutcome<Void>) -> Void)? = nil) throws(SubscriberChangeError) -> String {
        if let again = dispatcher.registeredAlready(subscriber.name, type: subscriber.type) { return again }
        if let problem = Self.orderListProblem(subscriber) {
            throw .order(subscriber: subscriber.name, key: problem.key, expected: problem.expected, found: problem.found)
        }
        // Checked with a stand-in, so that a refused subscriber is never made.
        var standIn = SubscriberRegistration(name: subscriber.name, subscriber: PlaceholderSubscriber(),
                                             handlers: [AnyEventHandler?](repeating: nil, count: EventTable.rows.count),
                                             priority: subscriber.priority)
        (standIn.after, standIn.before) = (subscriber.after, subscriber.before)
        _ = try dispatcher.checkAddition(of: standIn)
        var registration = SubscriberRegistration(subscriber.type, name: subscriber.name, application: manifest.app,
                                                  options: subscriber.options, sink: log, priority: subscriber.priority)
        (registration.after, registration.before) = (subscriber.after, subscriber.before)
        Self.warnIfRespondingToNothing(registration, log: log)
        let delivered = whenResponseDelivered.map { whenDelivered in { @MainActor (outcome: EventOutcome<Void>) in
            whenDelivered(self.attach(outcome))
        } }
        try dispatcher.add(registration, whenResponseDelivered: delivered)
        return subscriber.name
    }

    /// Removes the subscriber named `name` while the host runs, a plugin's or an in-process one: it
    /// receives nothing from the next event on; a plugin's is destroyed once the current event's
    /// calls are over (at once outside an event), its owed completions settled as at shutdown.
    /// Returns true. When no subscriber has that name: throws ``SubscriberChangeError/unknownName(_:)``,
    /// or, under ``DispatchRules/DuplicateRegistration/sameIdAgain`` (the `googleUtilities` profile),
    /// removes nothing and returns false, as GoogleUtilities ignores an unknown interceptor ID.
    @discardableResult
    public func remove(named name: String) throws(SubscriberChangeError) -> Bool {
        try dispatcher.remove(named: name)
    }

    // MARK: What the host knows

    /// The app's identity, as the manifest (or ``init(application:inProcess:options:)``) gave it.
    public var application: Application { dispatcher.application }

    /// The peer profile the host's rules started from (the manifest's `"profile"`, docs/profiles.md).
    public var profile: PeerProfile { manifest.profile }

    /// Where the app is in its life cycle, as the events delivered so far moved it.
    public var applicationState: ApplicationState { dispatcher.applicationState }

    /// Where the scene whose session has `identifier` is; nil for a scene never connected.
    public func sceneState(of identifier: String) -> SceneState? { dispatcher.sceneState(of: identifier) }

    /// Every subscriber's name, the plugins' and the in-process ones, in dispatch order.
    public var subscriberNames: [String] { dispatcher.subscribers.map(\.name) }

    /// The subscribers that respond to `event`, in the order they are called.
    public func responderNames(for event: LifecycleEvent) -> [String] { dispatcher.responderNames(for: event) }

    /// The optional plugins that were skipped, in manifest order: one line each, naming the entry,
    /// what was expected and what was found.
    public var skippedPlugins: [String] { plugins.skipped.map { "\(manifest.file): \($0)" } }

    /// Takes the records logged since the last take (at first: what subscribers logged when made).
    public func takeLogs() -> [LogRecord] { log.drain() }

    /// Delivers `call` to every subscriber that responds and returns its outcome once every awaited
    /// completion arrived. The outcome carries the records
    /// logged and the requests made since the previous outcome: a completion that logs before calling
    /// back belongs to the event that waited for it.
    public func dispatch<Immediate, Final>(_ call: EventCall<Immediate, Final>) async -> EventOutcome<Final> {
        let window = openWindow()
        return attach(await dispatcher.dispatch(call), window: window, closing: true)
    }

    /// ``dispatch(_:)`` for a call whose types are erased (a script's), compiled for them: no
    /// generic metadata is looked up per event in the dispatch, the outcome's retyping or `attach`.
    public func dispatch(_ call: AnyEventCall) async -> AnyEventOutcome {
        var made: AnyEventOutcome?
        guard let waiting = begin(call, settled: { made = $0 }) else { return made! }
        return await finish(waiting)
    }

    /// A call ``begin(_:settled:)`` left waiting for completions.
    package struct Waiting {
        fileprivate let window: Int?
        fileprivate let waiting: LifecycleDispatcher.Waiting
    }

    /// ``dispatch(_:)`` without a suspension point for an event that awaits nothing: its outcome,
    /// its records attached, goes to `settled` at once (in place: no copy of it) and nil is
    /// returned; else ``finish(_:)`` waits for it. The same steps as ``dispatch(_:)``.
    package func begin(_ call: AnyEventCall, settled: (inout AnyEventOutcome) -> Void) -> Waiting? {
        let window = openWindow()
        let log = self.log
        let waiting = dispatcher.begin(call) { outcome in
            (outcome.logs, outcome.requests) = log.take(event: window, closing: true)
            settled(&outcome)
        }
        return waiting.map { Waiting(window: window, waiting: $0) }
    }

    /// The outcome of a call ``begin(_:)`` left waiting.
    package func finish(_ call: Waiting) async -> AnyEventOutcome {
        attach(await dispatcher.finish(call.waiting), window: call.window, closing: true)
    }

    /// Delivers `call` and returns at once what the event's UIKit method returns at once; what comes
    /// later goes to `whenDelivered`, exactly once. Each
    /// outcome carries the records logged and the requests made since the previous one.
    @discardableResult
    public func dispatchAtOnce<Immediate, Final>(
        _ call: EventCall<Immediate, Final>,
        whenDelivered: (@MainActor (EventOutcome<Final>) -> Void)? = nil
    ) -> EventOutcome<Immediate> {
        let typed = whenDelivered.map { whenDelivered in
            { @MainActor (outcome: AnyEventOutcome) in whenDelivered(outcome.withResult(as: Final.self)) }
        }
        return dispatchAtOnce(call.erased, whenDelivered: typed).withResult(as: Immediate.self)
    }

    /// ``dispatchAtOnce(_:whenDelivered:)`` for a call whose types are erased (a script's), compiled
    /// for them: no generic metadata looked up per event, no outcome retyped.
    @discardableResult
    package func dispatchAtOnce(_ call: AnyEventCall, whenDelivered: (@MainActor (AnyEventOutcome) -> Void)? = nil)
        -> AnyEventOutcome
    {
        let window = openWindow()
        let settled = DeliveredFlag()
        let delivered = whenDelivered.map { whenDelivered in { @MainActor (outcome: AnyEventOutcome) in
            settled.value = true
            whenDelivered(self.attach(outcome, window: window, closing: true))
        } }
        let immediate = dispatcher.dispatchAtOnce(call, whenDelivered: delivered)
        // Still waiting for its handler: what is logged for it meanwhile goes to `whenDelivered`'s outcome.
        return attach(immediate, window: window, closing: whenDelivered == nil || settled.value)
    }

    /// Opens the window of an event about to be dispatched: what is logged and asked for from now
    /// on, until the next event, goes with its outcome. None for an event dispatched from inside
    /// another's calls (refused): what they log is the other's.
    private func openWindow() -> Int? {
        guard dispatcher.callingEvent == nil else { return nil }
        nextWindow += 1
        log.open(event: nextWindow)
        return nextWindow
    }

    /// The requests subscribers made since they were last handed out, oldest first.
    public func takeRequests() -> [HostRequest] { log.drainRequests() }

    /// `outcome` with the records logged and the requests made for its event (`window`), and those
    /// that belong to no event still waiting (``HostLogRecorder/take(event:closing:)``).
    func attach<Result>(_ outcome: consuming EventOutcome<Result>, window: Int? = nil, closing: Bool = true) -> EventOutcome<Result> {
        var outcome = outcome
        (outcome.logs, outcome.requests) = log.take(event: window, closing: closing)
        return outcome
    }

    /// The last event window opened (``openWindow()``).
    private var nextWindow = 0

    /// Destroys the plugins' subscribers, last first, and returns what is left: reports about calls
    /// that arrived after their event was delivered, and every record not yet handed out — including
    /// every line a subscriber wrote up to the moment its `destroy` returned. Later calls return
    /// nothing new. In-process subscribers are released with the host.
    @discardableResult
    public func shutDown() -> Leftovers {
        if !isShutDown {
            isShutDown = true
            // What is logged from now on (destroy's lines) is the leftovers', not a waiting event's.
            nextWindow += 1
            log.open(event: nextWindow)
            for subscriber in (subscribers + pluginSubscribersAdded).reversed() { subscriber.destroy() }
            for group in isolationGroups.reversed() { group.shutDown() }
            // Events still waiting are delivered with what arrived, and their whenDelivered handlers
            // run now; no outcome lists a destroyed subscriber.
            dispatcher.shutDown()
        }
        // An isolated child's completion reports that came after its last event come with its farewell.
        let farewells = isolationGroups.flatMap { $0.takeFarewellReports() }
        return Leftovers(reports: dispatcher.takeLateReports() + farewells, logs: log.drain(), requests: log.drainRequests())
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

    package static func configuration(for manifest: Manifest, options: HostOptions) throws(HostError) -> DispatchConfiguration {
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
            throw HostError(.configuration(file: manifest.file, error))
        }
        // As listed: idioms without an entry follow DispatchConfiguration.defaultOrientation(for:).
        configuration.defaultOrientations = manifest.supportedInterfaceOrientations
        configuration.restorationFromEveryCaller = manifest.restorationFromEveryCaller
        configuration.measuresSubscribers = options.measuresSubscribers
        configuration.clock = options.clock
        configuration.sceneBridge = manifest.sceneBridge
        configuration.rules = manifest.rules.dispatch
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
    /// The subscribers it is called after, by name, whatever the priorities (a manifest entry's `after`).
    public let after: [String]
    /// The subscribers it is called before, by name (a manifest entry's `before`).
    public let before: [String]

    /// A subscriber of `type`, named `name` (default: the type's `subscriberName`). The name follows a
    /// manifest's rules (not empty, no control characters, unique among the host's subscribers), and
    /// `after`/`before` a manifest entry's (names of the host's subscribers, without cycles), checked
    /// when the host is made (or when it is added).
    @MainActor
    public init(_ type: any InstantiableSubscriber.Type, name: String? = nil, options: JSONValue = [:], priority: Int = 0,
                after: [String] = [], before: [String] = []) {
        self.type = type
        self.name = name ?? type.subscriberName
        self.options = options
        self.priority = priority
        self.after = after
        self.before = before
    }
}

/// Whether a `whenDelivered` handler ran (at once, inside `dispatchAtOnce`).
@MainActor
private final class DeliveredFlag {
    var value = false
}

/// Stands in for a subscriber while its addition is checked (responds to nothing, never called).
private final class PlaceholderSubscriber {}
