import SubscriberHost
import SubscriberKit

/// What the run's header shows: the app, the plugins that loaded, the optional ones skipped, and the
/// order events reach the subscribers.
public struct HostSummary: Sendable {
    /// An optional plugin that failed a load check and was left out.
    public struct Skipped: Sendable, Hashable {
        /// `plugins[3]`.
        public var keyPath: String
        /// `library "Missing"`.
        public var source: String
        /// The failed check's one line.
        public var reason: String

        /// A skipped entry.
        public init(keyPath: String, source: String, reason: String) {
            self.keyPath = keyPath
            self.source = source
            self.reason = reason
        }
    }

    /// The manifest file as named on the command line.
    public var manifestFile: String
    /// The manifest's app.
    public var app: Application
    /// The loaded plugins, in manifest order.
    public var plugins: [PluginSummary]
    /// The optional plugins left out.
    public var skipped: [Skipped]
    /// Every subscriber, in dispatch order (priorities applied).
    public var dispatchOrder: [String]

    /// A summary with the given fields.
    public init(manifestFile: String, app: Application, plugins: [PluginSummary], skipped: [Skipped] = [],
                dispatchOrder: [String]) {
        self.manifestFile = manifestFile
        self.app = app
        self.plugins = plugins
        self.skipped = skipped
        self.dispatchOrder = dispatchOrder
    }

    /// The summary of a running host.
    @MainActor
    public init(_ host: PluginHost) {
        self.init(manifestFile: host.manifest.file, app: host.manifest.app,
                  plugins: host.plugins.plugins.map(PluginSummary.init),
                  skipped: host.plugins.skipped.map {
                      Skipped(keyPath: $0.entry.keyPath, source: $0.entry.source.description, reason: $0.error.description)
                  },
                  dispatchOrder: host.dispatcher.subscribers.map(\.name))
    }
}
