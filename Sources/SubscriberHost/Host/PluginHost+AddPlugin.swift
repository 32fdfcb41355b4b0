import SubscriberDelivery
import SubscriberKit

extension PluginHost {
    /// Loads the plugin of manifest entry `entry` while the host runs and adds its subscribers, as
    /// ``add(_:whenResponseDelivered:)`` adds an in-process one (a module made ready after the
    /// launch — Expo's delegate added late): the ten load-time checks run as at start, check 10
    /// against every subscriber of the host; its subscribers receive events from the next one on, in
    /// their place in the dispatch order, and a notification response nobody handled is offered to
    /// each that responds to it (its outcome to `whenResponseDelivered`). `entry.index` names it in
    /// errors; relative paths start from the manifest's folder; `options` give the search folders
    /// and the writable check, as at start. Returns the names of the subscribers added.
    ///
    /// Throws a ``HostError`` when a check or `create` fails, a ``SubscriberChangeError`` when a
    /// subscriber cannot take its place (its `after`/`before` form a cycle, the host shut down);
    /// nothing is added then, and whatever was made is destroyed. Its subscribers are destroyed at
    /// ``shutDown()``, or when removed.
    @discardableResult
    public func addPlugin(_ entry: ManifestPlugin, options: HostOptions = HostOptions(),
                          whenResponseDelivered: (@MainActor (EventOutcome<Void>) -> Void)? = nil) throws -> [String] {
        guard !isShutDown else { throw SubscriberChangeError.hostShutDown(entry.keyPath) }
        var owners: [String: String] = [:]
        for registration in dispatcher.subscribers { owners[registration.name] = "a subscriber of this host" }
        let locator = PluginLocator(manifest: manifest, extraDirectories: options.extraSearchDirectories)
        let made: [CSubscriber]
        do throws(PluginLoadError) {
            let plugin = try PluginLoader(allowWritable: options.allowWritable, scanCache: options.scanCache).loadEntry(entry, locator: locator, owners: &owners)
            made = try plugin.makeSubscribers(application: manifest.app, sink: log, state: dispatcher.stateCell)
        } catch {
            throw HostError(.load(PluginSetError(file: manifest.file, pluginIndex: entry.index, error: error)))
        }
        let delivered = whenResponseDelivered.map { whenDelivered in { @MainActor (outcome: EventOutcome<Void>) in
            whenDelivered(self.attach(outcome))
        } }
        var added: [String] = []
        for (position, subscriber) in made.enumerated() {
            var registration = SubscriberRegistration(subscriber, priority: entry.priority)
            (registration.after, registration.before) = (entry.after, entry.before)
            do {
                try dispatcher.add(registration, whenResponseDelivered: delivered)
            } catch {
                for name in added { _ = try? dispatcher.remove(named: name) }  // destroys them
                made[position...].forEach { $0.destroy() }
                throw error
            }
            added.append(subscriber.name)
        }
        pluginSubscribersAdded += made
        return added
    }
}
