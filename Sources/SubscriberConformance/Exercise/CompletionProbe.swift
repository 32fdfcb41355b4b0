import Dispatch
import SubscriberHost
import SubscriberKit
import Synchronization

/// The completion handler given to one event call, recording every call (duplicates included), when
/// it came, whether the subscriber declined, and how many completion calls the host's bridge saw it
/// make, during the call, with a token it was never given (forged). Calls may come from any thread.
final class CompletionProbe: CompletionMisuseReceiver {
    /// One call of the completion: its value as JSON, and how long after the probe was made.
    struct Call: Sendable {
        let answer: JSONValue
        let after: Duration
    }

    private struct State {
        var calls: [Call] = []
        var declined = false
        var forgedCalls = 0
        var waiter: UnsafeContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private let start = ContinuousClock.now

    /// Every call so far, in order.
    var calls: [Call] { state.withLock { $0.calls } }
    /// Whether the subscriber declined.
    var declined: Bool { state.withLock { $0.declined } }
    /// How many completion calls with a forged token the bridge reported against this call.
    var forgedCalls: Int { state.withLock { $0.forgedCalls } }

    /// A handler whose values `encode` turns into JSON. It reaches this probe's
    /// ``forgedCompletion(slot:)`` through the host's ``CompletionAbandonment`` (slot 0), which the
    /// handler keeps alive, as its closures keep the probe.
    func handler<Value: Sendable>(_ encode: @escaping @Sendable (Value) -> JSONValue) -> CompletionHandler<Value> {
        let misuse = CompletionAbandonment(count: 1)
        misuse.setMisuseReceiver(self)
        return CompletionHandler({ [self] value in record(encode(value)) },
                                 onDecline: { [self] in state.withLock { $0.declined = true } },
                                 abandonment: misuse, slot: 0)
    }

    /// The subscriber called a completion with a context the host never gave it. [any-thread]
    func forgedCompletion(slot: Int) {
        state.withLock { $0.forgedCalls += 1 }
    }

    private func record(_ answer: JSONValue) {
        let call = Call(answer: answer, after: ContinuousClock.now - start)
        let waiter = state.withLock { state in
            state.calls.append(call)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns at the first call, or after `timeout` without one (at once when a call already came).
    /// Call at most once per probe.
    func waitForFirstCall(within timeout: Duration) async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let parked = state.withLock { state in
                guard state.calls.isEmpty else { return false }
                state.waiter = continuation
                return true
            }
            guard parked else { return continuation.resume() }
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: timeout.nanosecondsSaturating))) { [self] in
                let waiter = state.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume()
            }
        }
    }
}
