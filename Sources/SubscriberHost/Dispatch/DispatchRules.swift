/// The rules a ``LifecycleDispatcher`` follows where the peers differ from UIKit and from each
/// other, as values: a ``PeerProfile`` sets them all (``PeerRules/dispatch``), a manifest's own key
/// overrides one. The dispatcher reads these, never the profile. The defaults are UIKit's.
public struct DispatchRules: Sendable, Hashable {
    /// Creates rules with UIKit's values.
    public init() {}
}
