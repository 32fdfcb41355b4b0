import Synchronization
import SubscriberABI

/// The plugin side of one completion-answering event call: turns the host's C completion into a
/// ``CompletionHandler`` and tells the trampoline, once the subscriber's method returned, whether
/// it declined.
///
/// Not generic, and the handlers' closures capture only this object: a closure capturing one
/// object needs no context of its own, and a generic class would look its metadata up in the
/// runtime's cache on every call. So one event call allocates this object and nothing else.
///
/// `decline()` is only meaningful before the method returns and before any call; a later one
/// cannot be honoured (the host was already told "responds", or got the answer), so it is
/// reported to the host as a warning and ignored.
final class CompletionCall: Sendable {
    /// The host's completion, as the event's C type.
    enum Completion: @unchecked Sendable {
        // @unchecked: C structs of a function pointer and an opaque token, callable from any thread.
        case fetch(adh_fetch_completion)
        case void(adh_void_completion)
        case bool(adh_bool_completion)
        case json(adh_json_completion)
    }

    private struct Phase {
        var called = false
        var declined = false
        var returned = false
    }

    private let phase = Mutex(Phase())
    private let link: HostLink
    private let subscriber: String
    private let event: LifecycleEvent
    private let completion: Completion

    /// A call of `event` on `instance` whose completions go to `completion`.
    @MainActor
    init(instance: ExportedInstance, event: LifecycleEvent, completion: Completion) {
        link = instance.link
        subscriber = instance.name
        self.event = event
        self.completion = completion
    }

    /// The handler of a `.fetch` completion.
    var fetchHandler: CompletionHandler<BackgroundFetchResult> {
        CompletionHandler({ [self] in deliver(.fetch($0)) }, onDecline: { [self] in decline() })
    }

    /// The handler of a `.void` completion.
    var voidHandler: CompletionHandler<Void> {
        CompletionHandler({ [self] _ in deliver(.done) }, onDecline: { [self] in decline() })
    }

    /// The handler of a `.bool` completion.
    var boolHandler: CompletionHandler<Bool> {
        CompletionHandler({ [self] in deliver(.bool($0)) }, onDecline: { [self] in decline() })
    }

    /// The handler of a `.json` completion that replies with a JSON object.
    var objectHandler: CompletionHandler<JSONObject> {
        CompletionHandler({ [self] in deliver(.object($0)) }, onDecline: { [self] in decline() })
    }

    private enum Value {
        case fetch(BackgroundFetchResult)
        case done
        case bool(Bool)
        case object(JSONObject)
    }

    /// Passes a subscriber's call to the host's completion. [any-thread] A value of another kind
    /// than the completion's cannot happen: each trampoline hands out the matching handler.
    private func deliver(_ value: Value) {
        phase.withLock { $0.called = true }
        switch (completion, value) {
        case (.fetch(let completion), .fetch(let result)):
            completion.call?(completion.context, result.rawValue)
        case (.void(let completion), .done):
            completion.call?(completion.context)
        case (.bool(let completion), .bool(let succeeded)):
            completion.call?(completion.context, ABI.tristate(succeeded))
        case (.json(let completion), .object(let object)):
            withABIString(JSONValue.object(object).serialized()) { completion.call?(completion.context, $0) }
        default:
            assertionFailure("CompletionCall: \(value) delivered to a \(completion) completion")
        }
    }

    /// Called by the trampoline when the method returned: ADH_DECLINES when it declined in time.
    func finish() -> adh_response {
        phase.withLock { phase in
            phase.returned = true
            return phase.declined ? ABI.declines : ABI.responds
        }
    }

    private func decline() {
        let late: String? = phase.withLock { phase in
            if phase.returned { return "after the method returned" }
            if phase.called { return "after calling the completion handler" }
            phase.declined = true
            return nil
        }
        if let late {
            link.log(subscriber: subscriber, level: .warning,
                     message: "\(subscriber): \(event) declined its completion handler \(late); ignored")
        }
    }
}
