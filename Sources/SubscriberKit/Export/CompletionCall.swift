import Synchronization
import SubscriberABI

/// The plugin side of one completion-answering event call: turns the host's C completion into a
/// ``CompletionHandler`` and tells the trampoline, once the subscriber's method returned, whether
/// it declined.
///
/// `decline()` is only meaningful before the method returns and before any call; a later one
/// cannot be honoured (the host was already told "responds", or got the answer), so it is
/// reported to the host as a warning and ignored.
final class CompletionCall: Sendable {
    private struct Phase {
        var called = false
        var declined = false
        var returned = false
    }

    private let phase = Mutex(Phase())
    private let link: HostLink
    private let subscriber: String
    private let event: LifecycleEvent

    init(instance: ExportedInstance, event: LifecycleEvent) {
        link = instance.link
        subscriber = instance.name
        self.event = event
    }

    /// A handler whose calls go to `deliver` (any thread) and whose decline this object records.
    func handler<Value: Sendable>(_ deliver: @escaping @Sendable (Value) -> Void) -> CompletionHandler<Value> {
        CompletionHandler({ [self] value in
            phase.withLock { $0.called = true }
            deliver(value)
        }, onDecline: { [self] in decline() })
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
