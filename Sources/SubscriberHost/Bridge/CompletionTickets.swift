// Completion tickets: how a plugin's completion call finds its way back to a Swift handler.
//
// The C `context` of every completion the host hands a plugin (adh/completion.h) is a *token*, an
// integer id cast to a pointer, never the address of anything. The header promises that calling
// with a context stays safe for the life of the process, so a late, duplicate or forged call must
// never dereference memory: it is only ever looked up in this table.
//
// - `issue` registers the dispatcher's handler (wrapped in a forwarder) and returns a new token.
//   Tokens count up from 1 and are never reused.
// - Every call with a known token is forwarded, duplicates included: the dispatcher's handler does
//   its own duplicate detection and reporting (name, event), so this table must not swallow them.
// - After the first call, or when the subscriber declined (or answered "no" to
//   continueUserActivity), the ticket is retired into a bounded FIFO of `retiredCapacity` entries
//   (65,536 by default) that still forwards duplicates. When the FIFO is full the oldest retired
//   ticket is forgotten.
// - A call with an unknown token (forgotten, never issued, NULL) is ignored and counted in
//   `unknownTokenCount`, for diagnostics.
// - A ticket whose subscriber never calls stays live: the dispatcher's deadline reports it as late.
//
// Thread safety: calls arrive on any thread; one Synchronization.Mutex guards the table, and the
// forwarder runs outside the lock, so a handler may call back into the table.
import Synchronization
import SubscriberABI

/// The host's table of outstanding completion tokens. See the comment at the top of this file.
public final class CompletionTickets: Sendable {
    /// The table the C completion callbacks use.
    public static let shared = CompletionTickets()
    /// How many retired tickets the shared table remembers.
    public static let defaultRetiredCapacity = 65_536

    /// What a plugin passed to a completion's `call`, copied out of its borrowed memory.
    enum Answer: Sendable {
        case done
        case fetch(adh_fetch_result)
        case bool(adh_tristate)
        case json([UInt8])
    }

    /// Receives every call made with one ticket's token.
    typealias Forward = @Sendable (Answer) -> Void

    private struct State {
        var nextToken: UInt = 1
        var live: [UInt: Forward] = [:]
        var retired: [UInt: Forward] = [:]
        var retiredOrder: [UInt] = []
        var oldestRetired = 0
        var unknownTokenCount = 0
    }

    private let state = Mutex(State())
    private let retiredCapacity: Int

    /// An empty table that remembers up to `retiredCapacity` retired tickets.
    public init(retiredCapacity: Int = CompletionTickets.defaultRetiredCapacity) {
        precondition(retiredCapacity > 0, "CompletionTickets: retiredCapacity must be positive, got \(retiredCapacity)")
        self.retiredCapacity = retiredCapacity
    }

    /// How many calls arrived with a token this table does not know (ignored). [any-thread]
    public var unknownTokenCount: Int { state.withLock { $0.unknownTokenCount } }

    /// How many tickets wait for their first call. [any-thread]
    public var liveCount: Int { state.withLock { $0.live.count } }

    /// Registers `forward` and returns its token, the `context` to hand the plugin.
    func issue(_ forward: @escaping Forward) -> UnsafeMutableRawPointer {
        let token = state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.live[token] = forward
            return token
        }
        // Never NULL: tokens start at 1.
        return UnsafeMutableRawPointer(bitPattern: token)!
    }

    /// A plugin's call with `context`: forwards it when the token is known (retiring a live ticket),
    /// counts it otherwise. [any-thread]
    func deliver(_ context: UnsafeMutableRawPointer?, _ answer: Answer) {
        let token = UInt(bitPattern: context)
        let forward: Forward? = state.withLock { state in
            if let forward = state.live.removeValue(forKey: token) {
                retire(token, forward, in: &state)
                return forward
            }
            if let forward = state.retired[token] { return forward }
            state.unknownTokenCount += 1
            return nil
        }
        forward?(answer)
    }

    /// Retires a live ticket without a call (its subscriber declined). [any-thread]
    func retire(_ context: UnsafeMutableRawPointer) {
        let token = UInt(bitPattern: context)
        state.withLock { state in
            guard let forward = state.live.removeValue(forKey: token) else { return }
            retire(token, forward, in: &state)
        }
    }

    private func retire(_ token: UInt, _ forward: @escaping Forward, in state: inout State) {
        if state.retiredOrder.count < retiredCapacity {
            state.retiredOrder.append(token)
        } else {
            // The FIFO is a ring: overwrite the oldest entry and forget its ticket.
            state.retired.removeValue(forKey: state.retiredOrder[state.oldestRetired])
            state.retiredOrder[state.oldestRetired] = token
            state.oldestRetired = (state.oldestRetired + 1) % retiredCapacity
        }
        state.retired[token] = forward
    }
}
