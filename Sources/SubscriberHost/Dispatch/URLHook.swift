import Foundation
import SubscriberDelivery
import SubscriberKit

/// What a ``URLHookSubscriber`` decides about a URL before it is fanned out or classified.
public enum URLHookDecision: Sendable, Hashable {
    /// Deliver it as it is.
    case keep
    /// Deliver this URL instead (later hooks see it).
    case rewrite(URL)
    /// Deliver it to nobody: `openURL` answers false, a URL context is left out, a launch URL is
    /// removed from the launch options.
    case drop
}

/// An in-process subscriber that may rewrite or drop a URL before `openURL`, `scene.openURLContexts`
/// or a launch's `url` option is delivered or classified (Expo is adding such a hook: expo/expo PR
/// #49391). Hooks are asked in dispatch order, each seeing the previous one's rewrite; the first
/// drop ends it. Every decision other than `keep` is in the outcome (``EventOutcome/urlHook``) and
/// in `apphost`'s output. In every profile.
@MainActor
public protocol URLHookSubscriber: AnyObject {
    /// The decision about `url`, about to be delivered as (or in) `event`.
    func decide(_ url: URL, for event: LifecycleEvent) -> URLHookDecision
}

extension LifecycleDispatcher {
    /// `call` with its URLs as the hooks decided, the decisions as outcome lines, and whether
    /// nothing is left to deliver. `call` itself, at once, for an event without a URL or a host
    /// without hooks.
    func applyURLHooks(_ call: AnyEventCall) -> (call: AnyEventCall, notes: [String], dropsAll: Bool) {
        // Without hooks (the usual host) this costs one read per event.
        let hooks = urlHooks()
        guard !hooks.isEmpty else { return (call, [], false) }
        let event = call.event
        guard event == .openURL || event == .sceneOpenURLContexts || event == .willFinishLaunching
                || event == .didFinishLaunching else { return (call, [], false) }
        var notes: [String] = []
        func decide(_ url: URL) -> URL? {
            var current = url
            for (name, hook) in hooks {
                switch hook.decide(current, for: event) {
                case .keep: continue
                case .rewrite(let rewritten):
                    notes.append("\(name) rewrote \(current.absoluteString) → \(rewritten.absoluteString)")
                    current = rewritten
                case .drop:
                    notes.append("\(name) dropped \(current.absoluteString)")
                    return nil
                }
            }
            return current
        }
        if event == .openURL, let value = call.arguments(as: OpenURLArguments.Value.self) {
            guard let url = decide(value.url) else { return (call, notes, true) }
            return (url == value.url ? call : EventCall.openURL(url: url, options: value.options).erased, notes, false)
        }
        if event == .sceneOpenURLContexts, let value = call.arguments(as: SceneScopedValue<[OpenURLContext]>.self) {
            let contexts = value.inner.compactMap { context in decide(context.url).map { OpenURLContext(url: $0, options: context.options) } }
            if contexts.isEmpty { return (call, notes, true) }
            guard contexts != value.inner else { return (call, notes, false) }
            return (EventCall.sceneOpenURLContexts(scene: value.scene.identifier, urlContexts: contexts).erased, notes, false)
        }
        if let options = call.arguments(as: LaunchOptions.self), let url = options.url {
            var changed = options
            changed.url = decide(url)
            guard changed != options else { return (call, notes, false) }
            let launch = event == .willFinishLaunching ? EventCall.willFinishLaunching(options: changed).erased
                : EventCall.didFinishLaunching(options: changed).erased
            return (launch, notes, false)
        }
        return (call, [], false)
    }

    /// The in-process subscribers that are URL hooks, in dispatch order, with their names; made
    /// once per subscriber list (``PeerRuleState/hooks``, forgotten by ``rebuild()``).
    private func urlHooks() -> [(String, any URLHookSubscriber)] {
        if let hooks = peer.hooks { return hooks }
        let hooks: [(String, any URLHookSubscriber)] = subscribers.compactMap { registration in
            guard case .inProcess = registration.kind, let hook = registration.subscriber as? any URLHookSubscriber else { return nil }
            return (registration.name, hook)
        }
        peer.hooks = hooks
        return hooks
    }
}
