import Foundation
import SubscriberABI
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
    /// What the URL hooks did to a call: the call with its URLs as they decided, the decisions as
    /// outcome lines, and whether nothing is left to deliver.
    typealias Hooked = (call: AnyEventCall, notes: [String], dropsAll: Bool)

    /// `call` as the URL hooks decided (``Hooked``); nil when they had nothing to say: a host
    /// without hooks, an event without a URL.
    @inline(__always)
    func applyURLHooks(_ call: AnyEventCall) -> Hooked? {
        // Without hooks (the usual host, once looked for) one read per event, inlined: no call, no
        // copy of the call or of the hooks (about 120 instructions an event when it always asked).
        if peer.hooks?.isEmpty == true { return nil }
        return hooking(call)
    }

    private func hooking(_ call: AnyEventCall) -> Hooked? {
        let hooks = urlHooks()
        guard !hooks.isEmpty else { return nil }
        let event = call.event
        guard event == .openURL || event == .sceneOpenURLContexts || event == .willFinishLaunching
                || event == .didFinishLaunching else { return nil }
        var notes: [String] = []
        func decide(_ url: URL) -> URL? {
            var current = url
            for hook in hooks {
                let name = hook.name
                switch hook.decide(current, for: event) {
                case .bad(let line): notes.append(line)
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
            let original = value.url  // made once (a script's URL is kept as text until asked for)
            guard let url = decide(original) else { return (call, notes, true) }
            return (url == original ? call : EventCall.openURL(url: url, options: value.options).erased, notes, false)
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
        return nil
    }

    /// The subscribers that are URL hooks, in dispatch order: in-process ones (``URLHookSubscriber``)
    /// and loaded ones whose `get_extension` gave an `adh.url-hook/1` vtable; made once per subscriber
    /// list (``PeerRuleState/hooks``, forgotten by ``rebuild()``).
    private func urlHooks() -> [URLHookTarget] {
        if let hooks = peer.hooks { return hooks }
        let hooks: [URLHookTarget] = subscribers.compactMap { registration in
            switch registration.kind {
            case .inProcess:
                guard let hook = registration.subscriber as? any URLHookSubscriber else { return nil }
                return URLHookTarget(name: registration.name, kind: .inProcess(hook))
            case .loaded(let loaded):
                guard loaded.urlHookEntry != nil else { return nil }
                return URLHookTarget(name: registration.name, kind: .loaded(loaded))
            case .transport:
                return nil
            }
        }
        peer.hooks = hooks
        return hooks
    }
}

/// A URL hook as the dispatcher asks it: an in-process ``URLHookSubscriber``, or a loaded subscriber's
/// `decide` (adh/ext/url_hook.h), whose answer is checked.
@MainActor
struct URLHookTarget {
    /// The subscriber's name.
    let name: String
    let kind: Kind

    enum Kind {
        case inProcess(any URLHookSubscriber)
        case loaded(CSubscriber)
    }

    /// A decision, or a bad answer from a loaded hook: its line (the URL is kept).
    enum Answer {
        case keep, rewrite(URL), drop
        case bad(String)
    }

    /// The longest rewritten URL taken from a loaded hook (ADH_URL_HOOK_MAX_LENGTH).
    static let maximumLength = 8192

    /// What the hook decides about `url` for `event`.
    func decide(_ url: URL, for event: LifecycleEvent) -> Answer {
        switch kind {
        case .inProcess(let hook):
            switch hook.decide(url, for: event) {
            case .keep: return .keep
            case .rewrite(let rewritten): return .rewrite(rewritten)
            case .drop: return .drop
            }
        case .loaded(let loaded):
            guard let decide = loaded.urlHookEntry else { return .keep }
            var rewritten = adh_string(data: nil, length: 0)
            var text = url.absoluteString
            let decision = text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    event.name.withCString { name in
                        decide(loaded.me, name, adh_string(data: chars.baseAddress, length: chars.count), &rewritten)
                    }
                }
            }
            // Copied at once: the plugin's string is valid only until it is called again.
            func bad(_ expected: String, _ found: String) -> Answer {
                .bad("\(name) (plugin \(Self.pluginID(of: loaded))): bad URL hook answer for \(url.absoluteString): "
                     + "expected \(expected), found \(found); kept")
            }
            switch decision {
            case Int32(ADH_URL_KEEP): return .keep
            case Int32(ADH_URL_DROP): return .drop
            case Int32(ADH_URL_REWRITE):
                guard let data = rewritten.data else { return bad("a rewritten URL", "NULL") }
                guard rewritten.length > 0 else { return bad("a rewritten URL", "an empty string") }
                guard rewritten.length <= Self.maximumLength else {
                    return bad("a rewritten URL of at most \(Self.maximumLength) bytes", "\(rewritten.length) bytes")
                }
                let bytes = UnsafeRawBufferPointer(start: data, count: rewritten.length)
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    return bad("a rewritten URL in UTF-8", "bytes that are not UTF-8")
                }
                guard let rewrittenURL = URL(string: string), rewrittenURL.scheme.map({ !$0.isEmpty }) == true else {
                    return bad("an absolute URL with a scheme", "\"\(string)\"")
                }
                return .rewrite(rewrittenURL)
            default:
                return bad("a decision 0 (keep), 1 (rewrite) or 2 (drop)", "\(decision)")
            }
        }
    }

    /// The plugin's id, from its descriptor (checked when it was loaded).
    private static func pluginID(of loaded: CSubscriber) -> String {
        ABI.readCovered(loaded.descriptor).id.map { String(cString: $0) } ?? "?"
    }
}
