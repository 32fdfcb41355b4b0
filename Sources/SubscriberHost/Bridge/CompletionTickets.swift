// Completion tickets: how a plugin's completion call finds its way back to a Swift handler.
//
// The C `context` of every completion the host hands a plugin (adh/completion.h) is a *token*, an
// integer id cast to a pointer, never the address of anything. The header promises that calling
// with a context stays safe for the life of the process, so a late, duplicate or forged call must
// never dereference memory: it is only ever looked up in this table.
//
// - `issue` registers the dispatcher's handler (wrapped in a forwarder) and returns a new token.
//   Tokens are never NULL, and one token says nothing useful about another: each carries a fresh
//   pseudo-random 32-bit tag. That catches honest mistakes (a stale, copied or mixed-up context, a
//   neighbour's token, an integer that was never a token). It is no defence against a hostile plugin:
//   the tags come from one seeded SplitMix64, which is predictable from its outputs, and a plugin
//   runs in the host's process and can read the table's memory anyway.
// - Every call with a known token is forwarded, duplicates included: the dispatcher's handler does
//   its own duplicate detection and reporting (name, event), so this table must not swallow them.
// - After the first call, when the subscriber declined (or answered "no" to continueUserActivity),
//   or when the dispatcher stopped waiting for it (its deadline passed: CompletionHandler.onAbandon),
//   the ticket is retired into a bounded FIFO of `retiredCapacity` entries (65,536 by default) that
//   still forwards calls, so a late call is still reported. When the FIFO is full the oldest retired
//   ticket is forgotten. So a subscriber that never calls holds its ticket only until its deadline.
// - A call with an unknown token (forgotten, never issued, forged, NULL) is ignored. When it arrives
//   on the thread running a subscriber's entry, during that entry (the bridge marks that entry's
//   own token as the call site), it comes from that subscriber: it is counted in `forgedCount` and
//   reported to that subscriber's handler as forged (never to the ticket the token happens to name).
//   Otherwise (typically a plugin completing later from a thread of its own) nobody can be blamed:
//   it is counted in `unknownTokenCount` and in `unattributedForgedCount`, which every dispatcher
//   of C subscribers reads and reports with no subscriber named. The exception is
//   `unusableToken`: the host did give it (when the table was full), so its calls are not forged.
// - Nothing here traps: when `slotLimit` tickets are outstanding, `issue` refuses (nil, counted in
//   `refusedCount`) and the bridge hands the plugin `unusableToken`, whose calls are ignored.
//
// Layout: tickets live in an array of slots; a token is `tag << 32 | slot index`, where `tag` is a
// non-zero random number drawn (from a generator seeded once per process) each time a slot is
// issued, and cleared when its ticket is forgotten. So a neighbour's token (yours − 1) or an old
// token matches a live ticket only by a 1-in-2^32 accident. A lookup is an index and a compare: no
// hashing on the per-subscriber path (a dictionary cost three hashes per completion, more than the
// rest of the bridge).
//
// Thread safety: calls arrive on any thread; one Synchronization.Mutex guards the table, and the
// forwarder runs outside the lock, so a handler may call back into the table.
import Glibc
import Synchronization
import SubscriberABI
import SubscriberKit

/// The host's table of outstanding completion tokens. See the comment at the top of this file.
package final class CompletionTickets: Sendable {
    /// The table the C completion callbacks use.
    package static let shared = CompletionTickets()
    /// How many retired tickets the shared table remembers.
    package static let defaultRetiredCapacity = 65_536
    /// A token no ticket ever has (tag 0), for a completion whose ticket was refused: its calls are
    /// counted as unknown and ignored.
    static var unusableToken: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: UInt(0xFFFF_FFFF))! }

    /// What a plugin passed to a completion's `call`, copied out of its borrowed memory.
    enum Answer: Sendable {
        case done
        case fetch(adh_fetch_result)
        case bool(adh_tristate)
        case json([UInt8])
        /// A JSON string that cannot be read (too long, NULL data).
        case unreadable(ABIStringProblem)
        /// Not a plugin's answer: the table tells the call site's ticket that its subscriber called
        /// with a token it was never given.
        case forged
    }

    /// Receives every call made with one ticket's token.
    typealias Forward = @Sendable (Answer) -> Void

    private struct Slot {
        /// The ticket's random tag; 0 while the slot is free, so that no token is NULL.
        var tag: UInt = 0
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
        var forgedCount = 0
        var unattributedForgedCount = 0
        var refusedCount = 0
        var random = SplitMix64()
    }

    /// The token of the ticket issued for the entry call running now, and the thread running it
    /// (0 when none): a completion call with an unknown token made on that thread during that call
    /// is that subscriber's. Relaxed atomics: the pair is only trusted by the thread that wrote it.
    private static let callSiteToken = Atomic<UInt>(0)
    private static let callSiteThread = Atomic<UInt>(0)

    /// Marks `token`'s entry call as running on this thread (0: none). [any-thread]
    static func setCallSite(_ token: UInt) {
        callSiteThread.store(token == 0 ? 0 : UInt(pthread_self()), ordering: .relaxed)
        callSiteToken.store(token, ordering: .relaxed)
    }

    private let state = Mutex(State())
    private let retiredCapacity: Int
    private let slotLimit: Int

    /// An empty table that remembers up to `retiredCapacity` retired tickets (clamped to
    /// 1…2^31 − 1: a host must not trap on a setting).
    package convenience init(retiredCapacity: Int = CompletionTickets.defaultRetiredCapacity) {
        self.init(retiredCapacity: retiredCapacity, slotLimit: 1 << 32)
    }

    /// A table with at most `slotLimit` slots (≤ 2^32, the token's index bits); tests use a small one.
    init(retiredCapacity: Int, slotLimit: Int) {
        self.retiredCapacity = min(max(retiredCapacity, 1), (1 << 31) - 1)
        self.slotLimit = min(max(slotLimit, 0), 1 << 32)
    }

    /// How many calls arrived with a token this table does not know (ignored). [any-thread]
    package var unknownTokenCount: Int { state.withLock { $0.unknownTokenCount } }

    /// How many calls with an unknown token were made inside a subscriber's entry call, and reported
    /// as forged against that subscriber. [any-thread]
    package var forgedCount: Int { state.withLock { $0.forgedCount } }

    /// How many calls with a token the host never gave arrived outside any subscriber's entry call,
    /// so that no subscriber can be blamed (ignored). Never decreases: each dispatcher of C
    /// subscribers reports how much it grew since it last looked. [any-thread]
    package var unattributedForgedCount: Int { state.withLock { $0.unattributedForgedCount } }

    /// How many tickets wait for their first call. [any-thread]
    package var liveCount: Int { state.withLock { $0.liveCount } }

    /// How many tickets were refused because every slot was in use. [any-thread]
    package var refusedCount: Int { state.withLock { $0.refusedCount } }

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
            let tag = state.random.nextTag()
            state.slots[index].tag = tag
            state.slots[index].forward = forward
            state.slots[index].retired = false
            state.liveCount += 1
            return tag << 32 | UInt(index)
        }
        // Never NULL: tags are never 0.
        return token.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
    }

    /// Whether `context` is a ticket still waiting for its first call (neither called nor retired). [any-thread]
    func isLive(_ context: UnsafeMutableRawPointer) -> Bool {
        state.withLock { state in
            guard let index = Self.slot(of: UInt(bitPattern: context), in: state) else { return false }
            return state.slots[index].forward != nil && !state.slots[index].retired
        }
    }

    /// A plugin's call with `context`: forwards it when the token is known (retiring a live ticket);
    /// otherwise reports it as forged to the call site's ticket (see the top of this file) or counts
    /// it as unknown. [any-thread]
    func deliver(_ context: UnsafeMutableRawPointer?, _ answer: Answer) {
        let token = UInt(bitPattern: context)
        let known: Forward? = state.withLock { state in
            guard let index = Self.slot(of: token, in: state), let forward = state.slots[index].forward else {
                return nil
            }
            if !state.slots[index].retired { retire(index, in: &state) }
            return forward
        }
        guard let known else { return unknown(token) }
        known(answer)
    }

    /// A call with a token no ticket has: ignored; reported as forged against its caller when it is
    /// known, counted as unattributed forged otherwise.
    private func unknown(_ token: UInt) {
        // Only the thread that marked the call site may use it; this check runs only for unknown
        // tokens, never on the path of a good call.
        let callSite = Self.callSiteThread.load(ordering: .relaxed) == UInt(pthread_self())
            ? Self.callSiteToken.load(ordering: .relaxed) : 0
        let caller: Forward? = state.withLock { state in
            guard callSite != 0, callSite != token, let index = Self.slot(of: callSite, in: state),
                  let forward = state.slots[index].forward else {
                state.unknownTokenCount += 1
                if token != UInt(bitPattern: Self.unusableToken) { state.unattributedForgedCount += 1 }
                return nil
            }
            state.forgedCount += 1
            return forward
        }
        caller?(.forged)
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
        guard index < state.slots.count, state.slots[index].tag == token >> 32, token >> 32 != 0 else { return nil }
        return index
    }

    private func retire(_ index: Int, in state: inout State) {
        state.slots[index].retired = true
        state.liveCount -= 1
        if state.retiredOrder.count < retiredCapacity {
            state.retiredOrder.append(index)
            return
        }
        // The FIFO is a ring: forget its oldest ticket, whose slot becomes free (its next ticket gets a new tag).
        let forgotten = state.retiredOrder[state.oldestRetired]
        state.slots[forgotten].forward = nil
        state.slots[forgotten].tag = 0
        state.free.append(forgotten)
        state.retiredOrder[state.oldestRetired] = index
        state.oldestRetired = (state.oldestRetired + 1) % retiredCapacity
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014), seeded once from the system's random source: a fast
/// source of ticket tags that costs no system call per ticket. Not a cryptographic generator:
/// its outputs reveal its state, which is fine for telling honest mistakes apart (see the top of this file).
private struct SplitMix64 {
    private var state: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    /// A random number in 1...2^32 − 1.
    @inline(__always)
    mutating func nextTag() -> UInt {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let tag = UInt(z >> 32)
        return tag == 0 ? 1 : tag
    }
}
