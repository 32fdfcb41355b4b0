import SubscriberABI
import SubscriberHost
import SubscriberKit

/// What a check gets in its child process: the plugin (loaded once, through the host's own loader),
/// the run's settings, a progress line writer, and helpers to make subscribers the way the host does.
@MainActor
final class CheckEnvironment {
    /// The request this child serves.
    let request: ChildRequest
    /// Tells the parent what is running.
    let progress: ProgressWriter
    /// The application handed to subscribers.
    let application = Application(name: "Conformance", bundleIdentifier: "dev.appdelegatehost.conformance", version: "1.0")
    /// What the kit's host saw the plugin do against the contract (unreadable strings, forged or
    /// unknown completion tokens), through the bridge and the raw host alike.
    let problems = HostCallProblems()

    private var loaded: Result<LoadedPluginImage, PluginLoadError>?

    /// The `adh_host` raw instances get: the request's options, logs checked and dropped.
    private let rawHost: RawHost

    init(request: ChildRequest, progress: ProgressWriter) {
        self.request = request
        self.progress = progress
        rawHost = RawHost(options: request.subscriberOptions, problems: problems)
    }

    /// The plugin file's path.
    var pluginPath: String { request.plugin }

    /// Loads the plugin through ``PluginLoader`` (load-time checks 1–8), once per child.
    func load() -> Result<LoadedPluginImage, PluginLoadError> {
        if let loaded { return loaded }
        progress.step("loading \(pluginPath)")
        let result = Result { () throws(PluginLoadError) -> LoadedPluginImage in
            try PluginLoader(allowWritable: request.allowWritable).loadImage(at: pluginPath)
        }
        // The plugin's constructors ran: a sweep of descriptors there ends the check now, before the
        // kit's runtime stumbles over what it lost.
        progress.verifyDescriptors()
        loaded = result
        return result
    }

    /// The identity of the loaded plugin, for the report; nil until it loaded.
    var identity: PluginIdentity? {
        guard case .success(let image)? = loaded else { return nil }
        return PluginIdentity(id: image.id, name: image.name, version: image.version, subscribers: image.subscriberNames)
    }

    /// Runs `body` with the loaded plugin, or fails with the load error when it does not load (the
    /// load.* checks say why in detail).
    func withImage(expected: String, _ body: (LoadedPluginImage) async -> Verdict) async -> Verdict {
        switch load() {
        case .success(let image):
            return await body(image)
        case .failure(let error):
            return .fail(expected: expected, found: "the plugin does not load (load-time check \(error.check)): \(error)")
        }
    }

    /// A context for subscriber `name`, as the host makes one.
    func context(for name: String) -> SubscriberContext {
        SubscriberContext(subscriberName: name, application: application, options: .object(request.subscriberOptions),
                          sink: problems.sink)
    }

    /// Makes subscriber `name` through the host's C bridge, as the host does.
    func makeSubscriber(_ name: String, of image: LoadedPluginImage) -> CSubscriber? {
        try? CSubscriber(creating: name, from: image.descriptor, context: context(for: name))
    }

    /// The plugin's raw `create`, for checks that must see the C behaviour itself.
    func rawPlugin(_ image: LoadedPluginImage) -> RawPlugin { RawPlugin(descriptor: image.descriptor, host: rawHost.pointer) }
}
