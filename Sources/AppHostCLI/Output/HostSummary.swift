import SubscriberHost
import SubscriberKit

/// What the run's header shows: the app, the plugins that loaded, the optional ones skipped, and the
/// order events reach the subscribers.
package struct HostSummary: Sendable {
    /// An optional plugin that failed a load check and was left out.
    package struct Skipped: Sendable, Hashable {
        /// `plugins[3]`.
        package var keyPath: String
        /// `library "Missing"`.
        package var source: String
        /// The failed check's one line.
        package var reason: String

        /// A skipped entry.
        package init(keyPath: String, source: String, reason: String) {
            self.keyPath = keyPath
            self.source = source
            self.reason = reason
        }
    }

    /// The manifest file as named on the command line.
    package var manifestFile: String
    /// The manifest's app.
    package var app: Application
    /// The loaded plugins, in manifest order.
    package var plugins: [PluginSummary]
    /// The optional plugins left out.
    package var skipped: [Skipped]
    /// Every subscriber, in dispatch order (priorities applied).
    package var dispatchOrder: [String]
    /// The manifest's peer profile (docs/profiles.md); the header names it unless it is `uikit`.
    package var profile: PeerProfile

    /// A summary with the given fields.
    package init(manifestFile: String, app: Application, plugins: [PluginSummary], skipped: [Skipped] = [],
                dispatchOrder: [String], profile: PeerProfile = .uikit) {
        self.profile = profile
        self.manifestFile = manifestFile
        self.app = app
        self.plugins = plugins
        self.skipped = skipped
        self.dispatchOrder = dispatchOrder
    }

    /// The summary of a running host.
    @MainActor
    package init(_ host: PluginHost) {
        self.init(manifestFile: host.manifest.file, app: host.manifest.app,
                  plugins: (host.plugins.plugins.map(PluginSummary.init) + Self.isolatedPlugins(of: host)).sorted { $0.index < $1.index },
                  skipped: host.plugins.skipped.map {
                      Skipped(keyPath: $0.entry.keyPath, source: ErrorLine.source($0.entry.source), reason: ErrorLine.cut($0.error).description)
                  },
                  dispatchOrder: host.dispatcher.subscribers.map(\.name), profile: host.manifest.profile)
    }
}
