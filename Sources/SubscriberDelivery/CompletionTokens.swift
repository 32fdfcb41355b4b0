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
// - Slots are issued as one run per event (consecutive slots, each under a tag of its own computed
//   from the run's seed: ``Run``), on the main thread, and retired as one run when it was delivered;
//   retired runs stay mapped in a bounded FIFO (65,536 slots, the newest run always), so a late or
//   duplicate call is still reported against its subscriber; then the run's slots are reused under
//   new tags, and old tokens become unknown.
//   A retired slot no longer keeps its event's collector: it leads to one sink per event shared by
//   every retired token of that event (``RetiredCompletions``), its slot number packing what a late
//   call's report needs, so that remembering 65,536 tokens costs their slots, not 65,536 collectors.
// - A call with an unknown token is ignored. When it arrives on the thread running a subscriber's
//   entry, during that entry (the call path marks the entry's own token as the call site), it comes
//   from that subscriber and is reported against it as forged; otherwise nobody can be blamed and it
//   is counted (``unattributedForgedCount``), which dispatchers report without naming anyone.
//
// Cost: a call made inside its own entry call, on the thread running that entry (a completion
// called before the method returns: the common case), reads its slot without the lock and calls the
// sink without retaining it (``deliver(_:_:)`` says why that is safe). Every other call takes the
// table's lock to read its slot and a strong reference to the sink, on every thread (an unlocked
// read on the thread that issued once let a call run into a sink that another thread's retirement
// had just freed: being the issuing thread proves nothing about a run retired elsewhere). Issuing
// and retiring take the lock once per event and one reference to the event's sink (not one per
// subscriber), store a few words per slot, and allocate nothing per subscriber (slots live in chunks
// that are never freed; the tokens are computed, not kept).

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

    /// The plugin called the integer completion of responder `slot` with `integer`: as
    /// ``deliver(_:_:)`` with `.integer(integer)`, unless a sink reads it typed.
    package func deliver(_ slot: Int, integer: Int64) { deliver(slot, .integer(integer)) }

    /// Responder `slot`'s subscriber called a completion with a token it was never given, during
    /// its own entry call.
    package func forged(_ slot: Int) {}

    /// The late reports of the dispatcher whose event this sink serves, when known (``CompletionTokens/keptSinkCount(owner:)``).
    package var owner: LateReports? { nil }
}

/// A table of completion tokens; the process's is ``shared``, the one every C completion's call
/// goes to. See the comment at the top of this file.
package final class CompletionTokens: @unchecked Sendable {
    // @unchecked: the state and the slots are changed under the lock only, and read under it but for
    // the call made inside its own entry (``deliver(_:_:)`` says why that read is safe); the slots'
    // callers are atomics.

    /// The table the C completion callbacks use.
    package static let shared: CompletionTokens = {
        let tokens = CompletionTokens()
        // The host's C completions (the answer shapes') reach this table through the event model's
        // hook: set here, before the first token exists. A closure that captures nothing: a captured
        // table was retained and released around every call.
        sharedUnretained = Unmanaged.passUnretained(tokens)
        HostCompletions.receiver = { token, raw in
            CompletionTokens.sharedUnretained.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.deliver(token, raw) }
        }
        HostCompletions.integerReceiver = { token, integer in
            CompletionTokens.sharedUnretained.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.deliver(token, integer: integer) }
        }
        return tokens
    }()
    /// ``shared``, for the host's C completions: set with it (before any completion can be made) and
    /// never again, and the table lives as long as the process, so it is read unretained, without
    /// the lazy static's `swift_once` or run-time exclusivity checks.
    @exclusivity(unchecked) nonisolated(unsafe) private static var sharedUnretained: Unmanaged<CompletionTokens>?
    /// How many retired slots the shared table keeps mapped (late calls still reported) before reuse.
    package static let defaultRetiredCapacity = 65_536
    /// A token no slot ever has (tag 0): the context of a completion whose slot could not be issued.
    package static var unusable: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: UInt(0xFFFF_FFFF))! }

    private struct Slot {
        /// 0 while free: no token is NULL, and a freed slot matches no token.
        var tag: UInt32 = 0
        var index: Int32 = 0
        /// Not retained by the slot: its run (one event's slots) holds one reference for all of them
        /// while they are mapped.
        var sink: Unmanaged<CompletionTokenSink>?
    }

    /// One event's tokens (``issue(_:to:)``), one per responder in call order: the slots
    /// `base..<base + mapped`, each under a tag of its own — the outputs of a SplitMix64 from `seed`,
    /// so that a token is computed when asked, not kept in an array; a responder past `mapped` has
    /// the ``unusable`` token (the table was full).
    package struct Run: RandomAccessCollection, Sendable {
        fileprivate let base: Int
        fileprivate let mapped: Int
        private let total: Int
        fileprivate let seed: UInt64

        fileprivate init(base: Int, mapped: Int, total: Int, seed: UInt64) {
            self.base = base
            self.mapped = mapped
            self.total = total
            self.seed = seed
        }

        /// No tokens (no responder is loaded).
        package static var empty: Run { Run(base: 0, mapped: 0, total: 0, seed: 0) }

        package var startIndex: Int { 0 }
        package var endIndex: Int { total }

        /// Responder `position`'s token.
        @inline(__always)
        package subscript(position: Int) -> UnsafeMutableRawPointer {
            guard position < mapped else { return CompletionTokens.unusable }
            let tag = SplitMix64.tag(seed, position)
            return UnsafeMutableRawPointer(bitPattern: UInt(tag) << 32 | UInt(base + position)).unsafelyUnwrapped
        }
    }

    /// A run retired and still remembered: its slots, oldest first in ``State/retired``.
    private struct RetiredRun {
        var base: Int
        var count: Int
        /// Its first slot's tag: a run retired twice is in the FIFO twice, and only the first
        /// forgetting frees its slots (``forget(_:_:)``).
        var tag: UInt32
    }

    private static let chunkBits = 12
    private static let chunkSize = 1 << chunkBits
    private static let chunkLimit = 4096  // 16 M slots

    private let retiredCapacity: Int
    private let slotLimit: Int

    private struct State {
        /// Slots made so far: the next fresh one.
        var count = 0
        /// Forgotten runs, by length: their first slots (a run is reused whole, or split).
        var free = FreeRuns()
        /// The retired runs still remembered, oldest at `oldestRetired`.
        var retired: [RetiredRun] = []
        var oldestRetired = 0
        /// Slots in the retired runs still remembered.
        var retiredSlots = 0
        /// Slots that map a token now (issued, not yet forgotten).
        var mappedSlots = 0
        var random = SplitMix64()
        var unknownCount = 0
        var forgedCount = 0
        var refusedCount = 0
    }

    // The chunks' directory: written under the lock; read under it, or for a slot of a run not yet
    // retired by the thread calling that run's entries (``deliver(_:_:)``). Never freed (a table lives
    // as long as the process).
    private let directory: UnsafeMutablePointer<UnsafeMutablePointer<Slot>?>
    /// Beside each chunk of slots, each slot's caller: `pthread_self()` of the thread running the
    /// entry call its token was handed to (``enter(_:_:thread:)``), 0 otherwise. Only that thread
    /// writes a slot's caller, and only while its run is issued and not yet retired.
    private let callerDirectory: UnsafeMutablePointer<UnsafeMutablePointer<Atomic<UInt>>?>
    private let state = Mutex(State())
    /// Slots mapped so far (the directory's extent), for bounds checks without the lock.
    private let mapped = Atomic<Int>(0)

    /// A table that keeps `retiredCapacity` retired slots mapped, with at most `slotLimit` slots
    /// (tests make small ones).
    package init(retiredCapacity: Int = CompletionTokens.defaultRetiredCapacity,
                 slotLimit: Int = CompletionTokens.chunkSize * CompletionTokens.chunkLimit) {
        self.retiredCapacity = max(retiredCapacity, 1)
        self.slotLimit = min(max(slotLimit, 0), Self.chunkSize * Self.chunkLimit)
        directory = .allocate(capacity: Self.chunkLimit)
        directory.initialize(repeating: nil, count: Self.chunkLimit)
        callerDirectory = .allocate(capacity: Self.chunkLimit)
        callerDirectory.initialize(repeating: nil, count: Self.chunkLimit)
    }

    @inline(__always)
    private func slot(_ index: Int) -> UnsafeMutablePointer<Slot> {
        directory[index >> Self.chunkBits].unsafelyUnwrapped + (index & (Self.chunkSize - 1))
    }

    @inline(__always)
    private func caller(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt>> {
        callerDirectory[index >> Self.chunkBits].unsafelyUnwrapped + (index & (Self.chunkSize - 1))
    }

    /// Issues one token per responder `0..<count` of `sink`, in order, as one run of slots: one lock,
    /// one reference to `sink` and one store per slot. A token is ``unusable`` when the table is full
    /// (16 M slots mapped at once), and its calls are ignored. [main-thread]
    package func issue(_ count: Int, to sink: CompletionTokenSink) -> Run {
        guard count > 0 else { return .empty }
        return state.withLock { state in
            let (base, mapped) = takeRun(count, &state)
            let seed = state.random.next()
            if mapped > 0 {
                let sink = Unmanaged.passRetained(sink)
                for position in 0..<mapped {
                    slot(base + position).pointee = Slot(tag: SplitMix64.tag(seed, position), index: Int32(position), sink: sink)
                }
            }
            state.mappedSlots += mapped
            state.refusedCount += count - mapped
            return Run(base: base, mapped: mapped, total: count, seed: seed)
        }
    }

    /// The event of `run` was delivered: its tokens stay mapped among the last ``retiredCapacity``
    /// retired slots (whole runs, the newest always), then their slots are reused.
    /// One lock per event. [main-thread]
    package func retire(_ run: Run) { retire(run, as: nil, numbers: nil) }

    /// ``retire(_:)``, and token `i` leads from now on to `retired` with slot number
    /// `numbers.number(i)` instead of to its event's collector, so that a remembered token keeps a few
    /// bytes, not the collector (``CompletionCollector/retiredSink()``, ``CompletionCollector/retire(_:in:as:)``).
    /// One lock and one reference exchanged per event, and a store of two words per slot. [main-thread]
    package func retire(_ run: Run, as retired: CompletionTokenSink, numbers: RetiredNumbers) {
        retire(run, as: retired, numbers: Optional(numbers))
    }

    private func retire(_ run: Run, as retired: CompletionTokenSink?, numbers: RetiredNumbers?) {
        guard run.mapped > 0 else { return }
        let tag = SplitMix64.tag(run.seed, 0)
        state.withLock { state in
            // A run whose first slot no longer carries its tag was retired and forgotten before: its
            // slots may be another event's now, and nothing of this run is left to retire.
            guard slot(run.base).pointee.tag == tag else { return }
            if let retired, let numbers {
                // Read through unchecked pointers below: one check a run, not one a slot.
                precondition(run.mapped <= numbers.count, "a run retired with fewer numbers than tokens")
                let previous = slot(run.base).pointee.sink
                let sink = Unmanaged.passRetained(retired)
                for position in 0..<run.mapped {
                    let pointer = slot(run.base + position)
                    pointer.pointee.sink = sink
                    pointer.pointee.index = Int32(clamping: numbers.number(position))
                }
                previous?.release()
            }
            state.retired.append(RetiredRun(base: run.base, count: run.mapped, tag: tag))
            state.retiredSlots += run.mapped
            while state.retiredSlots > retiredCapacity, state.retired.count - state.oldestRetired > 1 {
                forget(state.retired[state.oldestRetired], &state)
                state.oldestRetired += 1
            }
            if state.oldestRetired >= 1024, state.oldestRetired * 2 >= state.retired.count {
                state.retired.removeFirst(state.oldestRetired)
                state.oldestRetired = 0
            }
        }
    }

    /// Unmaps `run`: its tokens become unknown, its sink is let go, its slots reusable — unless it
    /// was retired twice and forgotten already (and its slots perhaps reused: the tags differ).
    private func forget(_ run: RetiredRun, _ state: inout State) {
        state.retiredSlots -= run.count
        guard slot(run.base).pointee.tag == run.tag else { return }
        let sink = slot(run.base).pointee.sink
        for position in 0..<run.count { slot(run.base + position).pointee = Slot() }
        sink?.release()
        state.free.append(run.base, length: run.count)
        state.mappedSlots -= run.count
    }

    /// `count` slots in a row, or as many as the table has left: a forgotten run of that length
    /// (events of one kind have as many responders), else fresh ones, else a longer forgotten run
    /// split (the rest stays free), else the most there is.
    private func takeRun(_ count: Int, _ state: inout State) -> (base: Int, mapped: Int) {
        if let base = state.free.popLast(length: count) { return (base, count) }
        let fresh = slotLimit - state.count
        if fresh >= count { return (mapFresh(count, &state), count) }
        // The shortest longer run, split; else the longest run, when it is more than the fresh slots
        // left (lengths are few: one per number of responders an event had).
        let (longer, longest) = state.free.lengths(over: count)
        if let length = longer, let base = state.free.popLast(length: length) {
            state.free.append(base + count, length: length - count)
            return (base, count)
        }
        if longest > fresh, let base = state.free.popLast(length: longest) { return (base, longest) }
        return fresh > 0 ? (mapFresh(fresh, &state), fresh) : (0, 0)
    }

    /// Makes `count` fresh slots and returns the first.
    private func mapFresh(_ count: Int, _ state: inout State) -> Int {
        let base = state.count
        for chunk in (base >> Self.chunkBits)...((base + count - 1) >> Self.chunkBits) where directory[chunk] == nil {
            let (slots, callers) = Self.makeChunk()
            callerDirectory[chunk] = callers
            directory[chunk] = slots
        }
        state.count += count
        mapped.store(state.count, ordering: .releasing)
        return base
    }

    /// A chunk of free slots and their callers. Zero bytes are a free slot (tag 0, no sink) and a
    /// caller of 0, so the chunk is mapped from the kernel's zero pages (about 24 instructions a
    /// token otherwise, every fresh slot written before its first use); allocated and written when
    /// that fails. Never freed.
    private static func makeChunk() -> (UnsafeMutablePointer<Slot>, UnsafeMutablePointer<Atomic<UInt>>) {
        let slotBytes = chunkSize * MemoryLayout<Slot>.stride, callerBytes = chunkSize * MemoryLayout<Atomic<UInt>>.stride
        if let raw = mmap(nil, slotBytes + callerBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
           raw != MAP_FAILED {
            return (raw.bindMemory(to: Slot.self, capacity: chunkSize),
                    (raw + slotBytes).bindMemory(to: Atomic<UInt>.self, capacity: chunkSize))
        }
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: chunkSize)
        slots.initialize(repeating: Slot(), count: chunkSize)
        let callers = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: chunkSize)
        for index in 0..<chunkSize { (callers + index).initialize(to: Atomic(0)) }
        return (slots, callers)
    }

    // MARK: Calls from plugins

    /// A plugin called a completion of the shared table with `token` and `raw`. [any-thread]
    package static func deliver(_ token: UnsafeMutableRawPointer?, _ raw: RawCompletion) {
        shared.deliver(token, raw)
    }

    /// A plugin called a completion with `token` and `raw`. [any-thread]
    ///
    /// Without the lock, and without retaining the sink, when this thread is running the entry call
    /// that `token` was handed to (its slot's caller is this thread, ``enter(_:_:thread:)``). That is
    /// safe whatever other threads do: a slot's tag, index and sink are written by ``issue(_:to:)``
    /// on the thread that then calls the run's entries, before it calls them, and changed again only
    /// by ``retire(_:as:numbers:)`` (and, after it, ``forget(_:_:)`` and a reuse), which needs the
    /// run, which the call path hands on only once it has called every entry of it. Nothing retires
    /// a run while one of its entries runs, so the run still holds its reference to the sink. A
    /// slot's caller is written only by the thread that runs its entry (this one: its id, then 0), and
    /// another thread with that id cannot exist meanwhile; so reading this thread's id there means
    /// that this thread's latest write was its id: it is inside that entry now (or inside a call it
    /// made: a nested dispatch uses other slots, and the outer run is retired only after it).
    /// Any other call — from another thread, after the entry returned, a stale or forged token —
    /// reads the slot under the lock and holds a strong reference to the sink for the call.
    package func deliver(_ token: UnsafeMutableRawPointer?, _ raw: RawCompletion) {
        let bits = UInt(bitPattern: token)
        if let (sink, position) = unlockedSlot(bits) { return sink._withUnsafeGuaranteedRef { $0.deliver(position, raw) } }
        lockedDeliver(bits, raw)
    }

    /// A plugin called an integer completion with `token` and `integer`: as ``deliver(_:_:)`` with
    /// `.integer(integer)`, handed to the sink typed (no ``RawCompletion`` made on the common path). [any-thread]
    package func deliver(_ token: UnsafeMutableRawPointer?, integer: Int64) {
        let bits = UInt(bitPattern: token)
        if let (sink, position) = unlockedSlot(bits) {
            return sink._withUnsafeGuaranteedRef { $0.deliver(position, integer: integer) }
        }
        lockedDeliver(bits, .integer(integer))
    }

    /// The sink and slot number of token `bits` when the call may take the unlocked path of
    /// ``deliver(_:_:)`` (made inside the entry it was handed to, on that entry's thread); nil otherwise.
    @inline(__always)
    private func unlockedSlot(_ bits: UInt) -> (Unmanaged<CompletionTokenSink>, Int)? {
        let index = Int(bits & 0xFFFF_FFFF), tag = UInt32(truncatingIfNeeded: bits >> 32)
        guard tag != 0, index < mapped.load(ordering: .acquiring),
              caller(index).pointee.load(ordering: .relaxed) == UInt(pthread_self()) else { return nil }
        let slot = slot(index)
        guard slot.pointee.tag == tag, let sink = slot.pointee.sink else { return nil }
        return (sink, Int(slot.pointee.index))
    }

    /// ``deliver(_:_:)`` for a call that may not take the unlocked path: a function of its own, so
    /// that the unlocked path sets up no frame for it.
    @inline(never)
    private func lockedDeliver(_ bits: UInt, _ raw: RawCompletion) {
        let index = Int(bits & 0xFFFF_FFFF), tag = UInt32(truncatingIfNeeded: bits >> 32)
        // Read under the lock, and keep a strong reference to the sink for the call: whatever thread
        // retires or reuses the slot meanwhile, the sink outlives the call.
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

    /// The entry call of responder `position` of `run` starts on this thread (`thread`, its
    /// `pthread_self()`): returns its token, marked as the call site, and marks its slot's caller,
    /// so that the completion's calls made inside it take the fast path of ``deliver(_:_:)``. Only
    /// on the thread that issued `run`, before the run is retired; end with ``leave(_:_:)``.
    @inline(__always)
    package func enter(_ run: Run, _ position: Int, thread: UInt) -> UnsafeMutableRawPointer {
        var bits = UInt(bitPattern: CompletionTokens.unusable)
        if position < run.mapped {
            // The slot's tag, as issued (it does not change before the run is retired): read, not
            // computed again from the run's seed.
            let index = run.base + position
            caller(index).pointee.store(thread, ordering: .relaxed)
            bits = UInt(slot(index).pointee.tag) << 32 | UInt(index)
        }
        callSiteThread.store(thread, ordering: .relaxed)
        callSiteToken.store(bits, ordering: .relaxed)
        return UnsafeMutableRawPointer(bitPattern: bits).unsafelyUnwrapped
    }

    /// The entry call that ``enter(_:_:thread:)`` marked returned.
    @inline(__always)
    package func leave(_ run: Run, _ position: Int) {
        if position < run.mapped { caller(run.base + position).pointee.store(0, ordering: .relaxed) }
        callSiteThread.store(0, ordering: .relaxed)
        callSiteToken.store(0, ordering: .relaxed)
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
                if token != UInt(bitPattern: Self.unusable) { unattributedForged.add(1, ordering: .relaxed) }
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
    package var unattributedForgedCount: Int { unattributedForged.load(ordering: .relaxed) }
    /// ``unattributedForgedCount``, kept outside the lock: every dispatcher with a loaded subscriber
    /// reads it every event, and the lock cost about 30 instructions a read.
    private let unattributedForged = Atomic<Int>(0)

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
    package var mappedCount: Int { state.withLock { $0.mappedSlots } }
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

    /// A random 64-bit number: a run's seed.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The tag of a run's slot `position`: a random number in 1...2^32 − 1, the SplitMix64 output
    /// `position + 1` steps from `seed`.
    @inline(__always)
    static func tag(_ seed: UInt64, _ position: Int) -> UInt32 {
        let tag = UInt32(truncatingIfNeeded: mix(seed &+ UInt64(truncatingIfNeeded: position &+ 1) &* 0x9E37_79B9_7F4A_7C15) >> 32)
        return tag == 0 ? 1 : tag
    }

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Forgotten runs of completion-token slots, by length: their first slots. A run is as long as its
/// event had responders, so lengths under ``indexedLengths`` are kept in an array by length; longer
/// ones (a split's rest, the last fresh slots of a full table) in a dictionary, used only if one is
/// ever kept. Not a `[Int: [Int]]` for all: its type, built by name at the first run forgotten,
/// checked `Int: Hashable` against every loaded image (425,000 instructions once a run). At most
/// ``indexedLengths`` lists by index; the bases are the table's forgotten runs (bounded by it).
struct FreeRuns {
    static let indexedLengths = 1024
    /// By length, up to the longest short length kept so far.
    private var byLength: [[Int]] = []
    private var longRuns: [Int: [Int]] = [:]

    mutating func append(_ base: Int, length: Int) {
        if length < Self.indexedLengths {
            if length >= byLength.count { byLength.append(contentsOf: repeatElement([], count: length + 1 - byLength.count)) }
            byLength[length].append(base)
        } else {
            longRuns[length, default: []].append(base)
        }
    }

    /// The first slot of a forgotten run of `length`, taken out; nil for none.
    mutating func popLast(length: Int) -> Int? {
        if length < Self.indexedLengths { return length >= 0 && length < byLength.count ? byLength[length].popLast() : nil }
        return longRuns.isEmpty ? nil : longRuns[length]?.popLast()
    }

    /// Among the lengths that hold a run: the shortest longer than `count` (nil for none), and the
    /// longest (0 for none).
    func lengths(over count: Int) -> (shortestLonger: Int?, longest: Int) {
        var shortestLonger: Int?
        var longest = 0
        for length in byLength.indices where !byLength[length].isEmpty {
            if length > count, length < (shortestLonger ?? .max) { shortestLonger = length }
            longest = max(longest, length)
        }
        for (length, bases) in longRuns where !bases.isEmpty {
            if length > count, length < (shortestLonger ?? .max) { shortestLonger = length }
            longest = max(longest, length)
        }
        return (shortestLonger, longest)
    }
}
