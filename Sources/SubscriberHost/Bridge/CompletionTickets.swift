// Completion tickets: how a plugin's completion call finds its way back to a Swift handler.
//
// The C `context` of every completion the host hands a plugin (adh/completion.h) is a *token*, an
// integer id cast to a pointer, never the address of anything. The header promises that calling
// with a context stays safe for the life of the process, so a late, duplicate or forged call must
// never dereference memory: it is only ever looked up in this table.
//
// - `issue` registers the dispatcher's handler (wrapped in a forwarder) and returns a new token.
//   Tokens are never NULL and never repeat.
// - Every call with a known token is forwarded, duplicates included: the dispatcher's handler does
//   its own duplicate detection and reporting (name, event), so this table must not swallow them.
// - After the first call, when the subscriber declined (or answered "no" to continueUserActivity),
//   or when the dispatcher stopped waiting for it (its deadline passed: CompletionHandler.onAbandon),
//   the ticket is retired into a bounded FIFO of `retiredCapacity` entries (65,536 by default) that
//   still forwards calls, so a late call is still reported. When the FIFO is full the oldest retired
//   ticket is forgotten. So a subscriber that never calls holds its ticket only until its deadline.
// - A call with an unknown token (forgotten, never issued, NULL) is ignored and counted in
//   `unknownTokenCount`, for diagnostics.
// - Nothing here traps: when `slotLimit` tickets are outstanding, `issue` refuses (nil, counted in
//   `refusedCount`) and the bridge hands the plugin `unusableToken`, whose calls are ignored.
//
// Layout: tickets live in an array of slots; a token is `generation << 32 | slot index`, and a
// slot's generation grows each time a forgotten ticket's slot is reused, so an old token never
// matches a new ticket. A lookup is an index and a compare: no hashing on the per-subscriber path
// (a dictionary cost three hashes per completion, more than the rest of the bridge).
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
    /// A token no ticket ever has (generation 0), for a completion whose ticket was refused: its
    /// calls are counted as unknown and ignored.
    static var unusableToken: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: UInt(0xFFFF_FFFF))! }

    /// What a plugin passed to a completion's `call`, copied out of its borrowed memory.
    enum Answer: Sendable {
        case done
        case fetch(adh_fetch_result)
        case bool(adh_tristate)
        case json([UInt8])
    }

    /// Receives every call made with one ticket's token.
    typealias Forward = @Sendable (Answer) -> Void

    private struct Slot {
        /// Starts at 1, so that no token is NULL; grows when the slot is reused.
        var generation: UInt = 1
        /// The ticket's forwarder; nil while the slot is free.
        var forward: Forward?
        var retired = false
    }

    private struct State {
        var slots: [Slot] = []
        /// Indices of slots whose tickets were forgotten, to reuse.
        var free: [Int] = []
        /// Slot indices of retired tickets, oldest first from `oldestRetired` (a ring once full).
        var retiredOrder: [Int] = []
        var oldestRetired = 0
        var liveCount = 0
        var unknownTokenCount = 0
        var refusedCount = 0
    }

    private let state = Mutex(State())
    private let retiredCapacity: Int
    private let slotLimit: Int

    /// An empty table that remembers up to `retiredCapacity` retired tickets (clamped to
    /// 1…2^31 − 1: a host must not trap on a setting).
    public convenience init(retiredCapacity: Int = CompletionTickets.defaultRetiredCapacity) {
        self.init(retiredCapacity: retiredCapacity, slotLimit: 1 << 32)
    }

    /// A table with at most `slotLimit` slots (≤ 2^32, the token's index bits); tests use a small one.
    init(retiredCapacity: Int, slotLimit: Int) {
        self.retiredCapacity = min(max(retiredCapacity, 1), (1 << 31) - 1)
        self.slotLimit = min(max(slotLimit, 0), 1 << 32)
    }

    /// How many calls arrived with a token this table does not know (ignored). [any-thread]
    public var unknownTokenCount: Int { state.withLock { $0.unknownTokenCount } }

    /// How many tickets wait for their first call. [any-thread]
    public var liveCount: Int { state.withLock { $0.liveCount } }

    /// How many tickets were refused because every slot was in use. [any-thread]
    public var refusedCount: Int { state.withLock { $0.refusedCount } }

    /// Registers `forward` and returns its token, the `context` to hand the plugin; nil (counted in
    /// ``refusedCount``) when all `slotLimit` slots are in use.
    func issue(_ forward: @escaping Forward) -> UnsafeMutableRawPointer? {
        let token = state.withLock { state -> UInt? in
            let index: Int
            if let reused = state.free.popLast() {
                index = reused
            } else if state.slots.count < slotLimit {
                index = state.slots.count
                state.slots.append(Slot())
            } else {
                state.refusedCount += 1
                return nil
            }
            state.slots[index].forward = forward
            state.slots[index].retired = false
            state.liveCount += 1
            return state.slots[index].generation << 32 | UInt(index)
        }
        // Never NULL: generations start at 1.
        return token.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
    }

    /// Whether `context` is a ticket still waiting for its first call (neither called nor retired). [any-thread]
    func isLive(_ context: UnsafeMutableRawPointer) -> Bool {
        state.withLock { state in
            guard let index = Self.slot(of: UInt(bitPattern: context), in: state) else { return false }
            return state.slots[index].forward != nil && !state.slots[index].retired
        }
    }

    /// A plugin's call with `context`: forwards it when the token is known (retiring a live ticket),
    /// counts it otherwise. [any-thread]
    func deliver(_ context: UnsafeMutableRawPointer?, _ answer: Answer) {
        let token = UInt(bitPattern: context)
        let forward: Forward? = state.withLock { state in
            guard let index = Self.slot(of: token, in: state), let forward = state.slots[index].forward else {
                state.unknownTokenCount += 1
                return nil
            }
            if !state.slots[index].retired { retire(index, in: &state) }
            return forward
        }
        forward?(answer)
    }

    /// Retires a live ticket without a call (its subscriber declined, or will not be waited for). [any-thread]
    func retire(_ context: UnsafeMutableRawPointer) {
        retire(token: UInt(bitPattern: context))
    }

    /// ``retire(_:)`` with the token as an integer, which a Sendable closure may capture. [any-thread]
    func retire(token: UInt) {
        state.withLock { state in
            guard let index = Self.slot(of: token, in: state), state.slots[index].forward != nil,
                  !state.slots[index].retired else { return }
            retire(index, in: &state)
        }
    }

    /// The slot `token` names, when it still belongs to that token's ticket.
    private static func slot(of token: UInt, in state: State) -> Int? {
        let index = Int(truncatingIfNeeded: token & 0xFFFF_FFFF)
        guard index < state.slots.count, state.slots[index].generation == token >> 32 else { return nil }
        return index
    }

    private func retire(_ index: Int, in state: inout State) {
        state.slots[index].retired = true
        state.liveCount -= 1
        if state.retiredOrder.count < retiredCapacity {
            state.retiredOrder.append(index)
            return
        }
        // The FIFO is a ring: forget its oldest ticket, whose slot becomes free under a new generation.
        let forgotten = state.retiredOrder[state.oldestRetired]
        state.slots[forgotten].forward = nil
        // A slot whose generation would leave its 32 bits is never reused, so no token repeats.
        if state.slots[forgotten].generation < 0xFFFF_FFFF {
            state.slots[forgotten].generation += 1
            state.free.append(forgotten)
        }
        state.retiredOrder[state.oldestRetired] = index
        state.oldestRetired = (state.oldestRetired + 1) % retiredCapacity
    }
}
