// Completion tokens: how a plugin's call of a C completion finds its way back to the event that
// waits for it.
//
// The `context` of every completion the host hands a plugin (adh/completion.h) is a *token*, an
// integer cast to a pointer, never the address of anything: the header promises that calling with
// a context stays safe for the life of the process, so a late, duplicate or forged call must never
// make the host dereference memory the plugin chose. A token is only ever looked up in this table.
//
// - A token is `tag << 32 | slot`. Each slot maps to one responder of one event (a collector and
//   its index); its tag is a fresh pseudo-random non-zero 32-bit number, so a neighbour's token
//   (yours + 1) or an old one matches a live slot only by a 1-in-2^32 accident. That catches honest
//   mistakes (stale, copied, mixed-up contexts); it is no defence against a hostile plugin, which
//   runs in the host's process (isolation is).
// - Slots are issued in one batch per event, on the main thread, and stay mapped after their event
//   was delivered, in a bounded FIFO (65,536 slots), so a late or duplicate call is still reported
//   against its subscriber; then the slot is reused under a new tag, and old tokens become unknown.
//   A retired slot no longer keeps its event's collector: it leads to one sink per event shared by
//   every retired token of that event (``RetiredCompletions``), its slot number packing what a late
//   call's report needs, so that remembering 65,536 tokens costs their slots, not 65,536 collectors.
// - A call with an unknown token is ignored. When it arrives on the thread running a subscriber's
//   entry, during that entry (the call path marks the entry's own token as the call site), it comes
//   from that subscriber and is reported against it as forged; otherwise nobody can be blamed and it
//   is counted (``unattributedForgedCount``), which dispatchers report without naming anyone.
//
// Cost: every call takes the table's lock to read its slot and a strong reference to the sink, on
// every thread (an unlocked read on the thread that issued once let a call run into a sink that
// another thread's retirement had just freed). Issuing takes the lock once per event, not per
// subscriber, and allocates nothing per subscriber (slots live in chunks that are never freed).

import SubscriberKit
import SubscriberEventModel
import Glibc
import Synchronization

/// Where a completion token's calls go: a completion event's collector. [any-thread]
package class CompletionTokenSink: @unchecked Sendable {
    // @unchecked: subclasses synchronize their own state.
    package init() {}

    /// The plugin called the completion of responder `slot` with `raw`.
    package func deliver(_ slot: Int, _ raw: RawCompletion) {}

    /// Responder `slot`'s subscriber called a completion with a token it was never given, during
    /// its own entry call.
    package func forged(_ slot: Int) {}

    /// The late reports of the dispatcher whose event this sink serves, when known (``CompletionTokens/keptSinkCount(owner:)``).
    package var owner: LateReports? { nil }
}

/// A table of completion tokens; the process's is ``shared``, the one every C completion's call
/// goes to. See the comment at the top of this file.
package final class CompletionTokens: @unchecked Sendable {
    // @unchecked: the state and the slots are read and changed under the lock only.

    /// The table the C completion callbacks use.
    package static let shared: CompletionTokens = {
        let tokens = CompletionTokens()
        // The host's C completions (the answer shapes') reach this table through the event model's
        // hook: set here, before the first token exists.
        HostCompletions.receiver = { tokens.deliver($0, $1) }
        return tokens
    }()
    /// How many retired slots the shared table keeps mapped (late calls still reported) before reuse.
    package static let defaultRetiredCapacity = 65_536
    /// A token no slot ever has (tag 0): the context of a completion whose slot could not be issued.
    package static var unusable: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: UInt(0xFFFF_FFFF))! }

    private struct Slot {
        /// 0 while free: no token is NULL, and a freed slot matches no token.
        var tag: UInt32 = 0
        var index: Int32 = 0
        /// Retained while mapped.
        var sink: Unmanaged<CompletionTokenSink>?
    }

    private static let chunkBits = 12
    private static let chunkSize = 1 << chunkBits
    private static let chunkLimit = 4096  // 16 M slots

    private let retiredCapacity: Int
    private let slotLimit: Int

    private struct State {
        var count = 0
        var free: [Int] = []
        /// Retired tokens, oldest at `oldestRetired` once full (tokens, not slots: see ``forget(_:_:)``).
        var retired: [UInt] = []
        var oldestRetired = 0
        var random = SplitMix64()
        var unknownCount = 0
        var unattributedForgedCount = 0
        var forgedCount = 0
        var refusedCount = 0
        var issuedCount = 0
    }

    // The chunks' directory: read and written under the lock. Never freed (a table lives as long as
    // the process).
    private let directory: UnsafeMutablePointer<UnsafeMutablePointer<Slot>?>
    private let state = Mutex(State())
    /// Slots mapped so far (the directory's extent).
    private let mapped = Atomic<Int>(0)

    /// A table that keeps `retiredCapacity` retired slots mapped, with at most `slotLimit` slots
    /// (tests make small ones).
    package init(retiredCapacity: Int = CompletionTokens.defaultRetiredCapacity,
                 slotLimit: Int = CompletionTokens.chunkSize * CompletionTokens.chunkLimit) {
        self.retiredCapacity = max(retiredCapacity, 1)
        self.slotLimit = min(max(slotLimit, 0), Self.chunkSize * Self.chunkLimit)
        directory = .allocate(capacity: Self.chunkLimit)
        directory.initialize(repeating: nil, count: Self.chunkLimit)
    }

    @inline(__always)
    private func slot(_ index: Int) -> UnsafeMutablePointer<Slot> {
        directory[index >> Self.chunkBits]! + (index & (Self.chunkSize - 1))
    }

    /// Issues one token per responder `0..<count` of `sink`, in order; a token is ``unusable`` when the
    /// table is full (16 M slots mapped at once), and its calls are ignored. [main-thread]
    package func issue(_ count: Int, to sink: CompletionTokenSink) -> [UnsafeMutableRawPointer] {
        var tokens: [UnsafeMutableRawPointer] = []
        tokens.reserveCapacity(count)
        state.withLock { state in
            for index in 0..<count {
                guard let slotIndex = takeSlot(&state) else {
                    tokens.append(Self.unusable)
                    continue
                }
                let tag = state.random.nextTag()
                state.issuedCount += 1
                let pointer = slot(slotIndex)
                pointer.pointee = Slot(tag: tag, index: Int32(index), sink: .passRetained(sink))
                tokens.append(UnsafeMutableRawPointer(bitPattern: UInt(tag) << 32 | UInt(slotIndex))!)
            }
        }
        return tokens
    }

    /// The event of these tokens was delivered: they stay mapped among the last ``retiredCapacity``
    /// retired, then their slots are reused. With `retired`, token `i` leads from now on to
    /// `retired.sink` with slot number `retired.slots[i]` instead of to its event's collector, so that
    /// a remembered token keeps a few bytes, not the collector (``CompletionCollector/retirement()``).
    /// [main-thread]
    package func retire(_ tokens: [UnsafeMutableRawPointer], as retired: (sink: CompletionTokenSink, slots: [Int])? = nil) {
        guard !tokens.isEmpty else { return }
        state.withLock { state in
            for (position, token) in tokens.enumerated() where token != Self.unusable {
                let bits = UInt(bitPattern: token)
                let index = Int(bits & 0xFFFF_FFFF)
                // A token whose slot no longer carries its tag was retired and forgotten before:
                // its slot may be another event's now, and nothing of this token is left to retire.
                guard index < state.count, slot(index).pointee.tag == UInt32(truncatingIfNeeded: bits >> 32) else { continue }
                if let retired, position < retired.slots.count, let number = Int32(exactly: retired.slots[position]) {
                    let pointer = slot(index)
                    pointer.pointee.sink?.release()
                    pointer.pointee.sink = .passRetained(retired.sink)
                    pointer.pointee.index = number
                }
                if state.retired.count < retiredCapacity {
                    state.retired.append(bits)
                    continue
                }
                forget(state.retired[state.oldestRetired], &state)
                state.retired[state.oldestRetired] = bits
                state.oldestRetired = (state.oldestRetired + 1) % retiredCapacity
            }
        }
    }

    /// The FIFO forgets retired token `bits`: its slot is freed for reuse, unless the token was
    /// retired twice and its slot already forgotten (and perhaps reused: the tags differ).
    private func forget(_ bits: UInt, _ state: inout State) {
        let index = Int(bits & 0xFFFF_FFFF)
        let pointer = slot(index)
        guard pointer.pointee.tag == UInt32(truncatingIfNeeded: bits >> 32) else { return }
        pointer.pointee.sink?.release()
        pointer.pointee = Slot()
        state.free.append(index)
    }

    private func takeSlot(_ state: inout State) -> Int? {
        if let reused = state.free.popLast() { return reused }
        let index = state.count
        guard index < slotLimit else {
            state.refusedCount += 1
            return nil
        }
        if index & (Self.chunkSize - 1) == 0 {
            let chunk = UnsafeMutablePointer<Slot>.allocate(capacity: Self.chunkSize)
            chunk.initialize(repeating: Slot(), count: Self.chunkSize)
            directory[index >> Self.chunkBits] = chunk
        }
        state.count += 1
        mapped.store(state.count, ordering: .releasing)
        return index
    }

    // MARK: Calls from plugins

    /// A plugin called a completion of the shared table with `token` and `raw`. [any-thread]
    package static func deliver(_ token: UnsafeMutableRawPointer?, _ raw: RawCompletion) {
        shared.deliver(token, raw)
    }

    /// A plugin called a completion with `token` and `raw`. [any-thread]
    package func deliver(_ token: UnsafeMutableRawPointer?, _ raw: RawCompletion) {
        let bits = UInt(bitPattern: token)
        let index = Int(bits & 0xFFFF_FFFF), tag = UInt32(truncatingIfNeeded: bits >> 32)
        // Read under the lock, on every thread, and keep a strong reference to the sink for the call:
        // whatever thread retires or reuses the slot meanwhile, the sink outlives the call.
        let found: (sink: CompletionTokenSink, slot: Int)? = state.withLock { _ in
            guard tag != 0, index < mapped.load(ordering: .acquiring), slot(index).pointee.tag == tag,
                  let sink = slot(index).pointee.sink else { return nil }
            return (sink.takeUnretainedValue(), Int(slot(index).pointee.index))
        }
        guard let found else { return unknown(bits) }
        found.sink.deliver(found.slot, raw)
    }

    // MARK: Call sites and unknown tokens

    /// The token of the entry call running now, and its thread (0 when none).
    private let callSiteToken = Atomic<UInt>(0)
    private let callSiteThread = Atomic<UInt>(0)

    /// Marks `token`'s entry call as running on this thread; `nil` ends it. [main-thread]
    @inline(__always)
    package func setCallSite(_ token: UnsafeMutableRawPointer?) {
        let bits = UInt(bitPattern: token)
        callSiteThread.store(bits == 0 ? 0 : UInt(pthread_self()), ordering: .relaxed)
        callSiteToken.store(bits, ordering: .relaxed)
    }

    /// A call with a token no slot has: reported against the call site's subscriber when it is made
    /// during that subscriber's entry, counted as unattributed otherwise.
    private func unknown(_ token: UInt) {
        let callSite = callSiteThread.load(ordering: .relaxed) == UInt(pthread_self())
            ? callSiteToken.load(ordering: .relaxed) : 0
        let blamed: (sink: CompletionTokenSink, slot: Int)? = state.withLock { state in
            let index = Int(callSite & 0xFFFF_FFFF), tag = UInt32(truncatingIfNeeded: callSite >> 32)
            guard callSite != 0, callSite != token, tag != 0, index < state.count, slot(index).pointee.tag == tag,
                  let sink = slot(index).pointee.sink else {
                state.unknownCount += 1
                if token != UInt(bitPattern: Self.unusable) { state.unattributedForgedCount += 1 }
                return nil
            }
            state.forgedCount += 1
            // A strong reference, taken under the lock: the slot may be reused once it is released.
            return (sink.takeUnretainedValue(), Int(slot(index).pointee.index))
        }
        guard let blamed else { return }
        blamed.sink.forged(blamed.slot)
    }

    /// How many calls came with a token no slot has and were blamed on nobody (ignored). [any-thread]
    package var unknownCount: Int { state.withLock { $0.unknownCount } }

    /// How many calls with an unknown token came outside any subscriber's entry, so that nobody can
    /// be blamed. Never decreases: dispatchers report how much it grew since they last looked. [any-thread]
    package var unattributedForgedCount: Int { state.withLock { $0.unattributedForgedCount } }

    /// How many calls with an unknown token came during a subscriber's entry and were reported
    /// against it as forged. [any-thread]
    package var forgedCount: Int { state.withLock { $0.forgedCount } }

    /// How many tokens could not be issued (the table full). [any-thread]
    package var refusedCount: Int { state.withLock { $0.refusedCount } }

    /// How many distinct sinks the mapped slots keep (collectors, and the retired tokens' shared
    /// sinks): what the table holds beyond its slots; with `owner`, only those of the dispatcher
    /// with these late reports. Linear in the slots mapped; for tests. [main-thread]
    package func keptSinkCount(owner: LateReports? = nil) -> Int {
        state.withLock { state in
            var kept = Set<ObjectIdentifier>()
            for index in 0..<state.count {
                guard let sink = slot(index).pointee.sink?.takeUnretainedValue() else { continue }
                if let owner, sink.owner !== owner { continue }
                kept.insert(ObjectIdentifier(sink))
            }
            return kept.count
        }
    }

    /// How many slots map a token now (issued, not yet reused). [any-thread]
    package var mappedCount: Int { state.withLock { $0.count - $0.free.count } }
}

/// SplitMix64 (Steele, Lea, Flood 2014), seeded once from the system's random source: a fast
/// source of token tags that costs no system call per token. Not a cryptographic generator: its
/// outputs reveal its state, which is fine for telling honest mistakes apart.
private struct SplitMix64 {
    private var state: UInt64

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    /// A random number in 1...2^32 − 1.
    @inline(__always)
    mutating func nextTag() -> UInt32 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let tag = UInt32(truncatingIfNeeded: z >> 32)
        return tag == 0 ? 1 : tag
    }
}
