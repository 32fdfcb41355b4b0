#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where a run is (loading, event N under way, after event N, …) and the buffers the ending thread
/// writes out, as one view: so that the closing line and the lines written out agree.
///
/// The run's state is one atomic word (``RunState``), changed by the main thread alone. Writing an
/// event — its lines appended to the outputs' buffers, its staged lines dropped, "event N written"
/// — is a section (``beginSection()``): on entry every buffer is marked (``SignalSafeBuffer/mark(keepingDropped:)``),
/// so that no write-out takes the bytes appended during it, and the word says so; the end of the
/// section is the one change of the word that says the event was written. The ending thread seals
/// the word (``seal()``: no change is published after) and writes out what it says: in a section,
/// the buffers up to their marks and the staged lines from theirs (the event is not written, its
/// lines are under way); else everything held. Whatever the main thread does meanwhile (a thread
/// starved past ``OutputClaims/patience`` goes on), the closing line names the last event written
/// (docs/cli.md says when an event under way may still be partly written: an event that fills an
/// output alone, outputs that share a file).
final class RunView: @unchecked Sendable {  // plain memory behind atomics; registration under a lock
    /// A block of bytes the ending thread writes out, and where to.
    struct Registered {
        let fd: Int32
        let buffer: SignalSafeBuffer
    }

    /// The outputs' buffers (``TextOutput``) and the staged log lines (``Survival``).
    static let heldCapacity = 8, stagedCapacity = 4
    let held = UnsafeMutablePointer<Registered>.allocate(capacity: heldCapacity)
    let staged = UnsafeMutablePointer<Registered>.allocate(capacity: stagedCapacity)
    private let counts = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 2)
    private let registration = Mutex(())
    private let word = Atomic<Int>(0)
    /// Where the event under way is shown (human output's standard output), or -1 (`--json`).
    let humanOutput = Atomic<Int32>(-1)
    /// Where the closing `apphost:` line goes (standard error).
    let errorOutput = Atomic<Int32>(2)

    init() {
        counts.initialize(to: Atomic(0))
        (counts + 1).initialize(to: Atomic(0))
    }

    var heldCount: Int { min(counts[0].load(ordering: .acquiring), Self.heldCapacity) }
    var stagedCount: Int { min(counts[1].load(ordering: .acquiring), Self.stagedCapacity) }

    /// Adds a buffer the ending thread writes out to `fd` (`staged`: after every output's held
    /// bytes, as lines under way); false when all are taken.
    func register(_ buffer: SignalSafeBuffer, for fd: Int32, staged isStaged: Bool = false) -> Bool {
        registration.withLock { _ in
            let index = isStaged ? 1 : 0, count = counts[index].load(ordering: .relaxed)
            guard count < (isStaged ? Self.stagedCapacity : Self.heldCapacity) else { return false }
            ((isStaged ? staged : held) + count).initialize(to: Registered(fd: fd, buffer: buffer))
            counts[index].store(count + 1, ordering: .releasing)
            return true
        }
    }

    /// The run's state now.
    var state: RunState { RunState(word: word.load(ordering: .acquiring)) }

    /// Publishes `phase` (and the event, for ``RunState/Phase/event``): false, publishing nothing,
    /// once sealed. Main thread.
    @discardableResult
    func publish(_ phase: RunState.Phase, event index: Int = 0, number: Int = 0) -> Bool {
        var current = word.load(ordering: .relaxed)
        var next = RunState(word: current)
        next.phase = phase
        if phase == .event {
            next.eventIndex = index
            next.eventNumber = number
        }
        while RunState(word: current).sealed == false {
            let (exchanged, found) = word.compareExchange(expected: current, desired: next.word, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = found
            next = RunState(word: current, replacing: next)
        }
        return false
    }

    /// Opens a section (an event being written, or lines before the first or after the last): the
    /// bytes appended until ``endSection(written:)`` are held back until then. False once sealed:
    /// the caller must then append nothing more (the ending thread writes out what it holds).
    /// Main thread.
    @discardableResult
    func beginSection() -> Bool {
        // The marks first: the ending thread that sees the section sees them.
        for index in 0..<heldCount { held[index].buffer.mark(keepingDropped: false) }
        for index in 0..<stagedCount { staged[index].buffer.mark(keepingDropped: true) }
        var current = word.load(ordering: .relaxed)
        while !RunState(word: current).sealed {
            var next = RunState(word: current)
            next.inSection = true
            let (exchanged, found) = word.compareExchange(expected: current, desired: next.word, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = found
        }
        return false
    }

    /// Closes the section, in one change with "event N written" (`written`: the phase becomes
    /// ``RunState/Phase/between``); then lets the marked bytes go. Nothing once sealed: the ending
    /// thread writes out what the sealed word says. Main thread.
    func endSection(written: Bool) {
        var current = word.load(ordering: .relaxed)
        while true {
            var next = RunState(word: current)
            // Sealed: the ending thread writes out what it says. Not in one: already ended.
            guard !next.sealed, next.inSection else { return }
            next.inSection = false
            if written { next.phase = .between }
            let (exchanged, found) = word.compareExchange(expected: current, desired: next.word, ordering: .acquiringAndReleasing)
            if exchanged { break }
            current = found
        }
        for index in 0..<heldCount { held[index].buffer.unmark() }
        for index in 0..<stagedCount { staged[index].buffer.unmark() }
    }

    /// Freezes the state: nothing is published after; what it was. For the ending thread (or a
    /// handler ending the process). Async-signal-safe.
    func seal() -> RunState {
        RunState(word: word.bitwiseOr(RunState.sealedBit, ordering: .acquiringAndReleasing).oldValue)
    }
}

/// Where a run is, in one word: the phase, whether an event's output is being written (a
/// section), whether the process is ending (sealed), and the event under way or last written.
struct RunState: Equatable {
    enum Phase: Int {
        /// Not in a run (or the run is over): an `exit()` is the command's own.
        case none = 0, loading, event, between, shuttingDown
    }

    static let sealedBit = 1 << 4
    private static let sectionBit = 1 << 3
    private static let indexShift = 5, indexBits = 16, numberShift = 21

    private(set) var word: Int

    init(word: Int) { self.word = word }

    /// `next`'s phase, section and event over `word`'s seal.
    fileprivate init(word: Int, replacing next: RunState) {
        self.word = next.word & ~Self.sealedBit | word & Self.sealedBit
    }

    var phase: Phase {
        get { Phase(rawValue: word & 7) ?? .none }
        set { word = word & ~7 | newValue.rawValue }
    }
    var inSection: Bool {
        get { word & Self.sectionBit != 0 }
        set { word = newValue ? word | Self.sectionBit : word & ~Self.sectionBit }
    }
    var sealed: Bool { word & Self.sealedBit != 0 }
    /// The event's ``LifecycleEvent`` index.
    var eventIndex: Int {
        get { (word >> Self.indexShift) & (1 << Self.indexBits - 1) }
        set { word = word & ~((1 << Self.indexBits - 1) << Self.indexShift) | (newValue & (1 << Self.indexBits - 1)) << Self.indexShift }
    }
    /// The event's number in the run (from 1).
    var eventNumber: Int {
        get { word >> Self.numberShift }
        set { word = word & (1 << Self.numberShift - 1) | min(max(newValue, 0), Int.max >> Self.numberShift) << Self.numberShift }
    }
}
