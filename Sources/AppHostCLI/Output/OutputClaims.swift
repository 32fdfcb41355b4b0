#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Which threads are in the middle of writing output or changing what a handler writes out, so that
/// the thread that writes everything out when the process ends (``Survival``'s ending thread) starts
/// only once none is: it never writes a byte that a write in flight already wrote, nor a buffer
/// while it changes. Every byte is written once.
///
/// The output code takes a claim at its entry points (``withClaim(_:)``: a write, a write-out, a
/// staged log line), outside any lock. Once the process is ending, a write in a claim stops after
/// the write(2) in flight (``OutputWrite/cancelled``: its bytes stay held for the ending thread), the
/// claim is let go, and the thread waits there for the end (``park()``); a thread taking a new claim
/// waits at once. The ending thread interrupts a write in flight on apphost's own threads (a signal
/// of its own, without `SA_RESTART`, so a write to a reader that stopped returns), and waits at most
/// ``patience`` for the claims to be let go. It never signals a thread a plugin started.
enum OutputClaims {
    /// How long the ending thread waits for the claims to be let go.
    static let patience: Duration = .seconds(2)

    private static let slotCount = 32
    /// One more than the highest slot ever taken (it only grows).
    private static let slotsInUse = Atomic<Int>(0)
    /// Each slot's owner (`pthread_self()`, 0: free) and how deep it is in claims (its owner's only),
    /// made by ``install()`` before claims are turned on. Variables set once, not `let`s made on first
    /// use: every read of a lazily made static is a `swift_once` (two a claim, five claims an event:
    /// about 70 instructions an event), and a global initialized to nil is laid out by the compiler.
    @exclusivity(unchecked) private nonisolated(unsafe) static var ownerSlots: UnsafeMutablePointer<Atomic<UInt>>? = nil
    @exclusivity(unchecked) private nonisolated(unsafe) static var depthSlots: UnsafeMutablePointer<Int>? = nil
    private static var owners: UnsafeMutablePointer<Atomic<UInt>> { ownerSlots.unsafelyUnwrapped }
    private static var depths: UnsafeMutablePointer<Int> { depthSlots.unsafelyUnwrapped }
    /// Whether claims are counted at all (``Survival/installProcessHooks()`` turns them on).
    private static let active = Atomic<Bool>(false)
    private static let endingFlag = Atomic<Bool>(false)
    /// apphost's own threads, which the ending thread may interrupt in a write (0: none yet).
    @exclusivity(unchecked) private nonisolated(unsafe) static var ownThreadSlots: UnsafeMutablePointer<Atomic<UInt>>? = nil
    private static var ownThreads: UnsafeMutablePointer<Atomic<UInt>> { ownThreadSlots.unsafelyUnwrapped }
    /// The thread that turned claims on (the main thread, which writes the events): its claims are
    /// counted in slot 0, kept for it, found without a search and taken without a compare-and-exchange
    /// (a claim of the main thread cost about 70 instructions, a nested one 45; four an event).
    @exclusivity(unchecked) private nonisolated(unsafe) static var mainThread: UInt = 0
    /// The real-time signal that interrupts a write of apphost's own (0 until ``install()``).
    private(set) nonisolated(unsafe) static var interruptSignal: Int32 = 0

    /// Turns claims on and installs the interrupting signal's handler: it does nothing, and
    /// without `SA_RESTART` the interrupted write returns. The calling thread is apphost's own.
    static func install() {
        if ownerSlots == nil {
            ownerSlots = .allocate(capacity: slotCount)
            depthSlots = .allocate(capacity: slotCount)
            ownThreadSlots = .allocate(capacity: 4)
        }
        for index in 0..<slotCount {
            (owners + index).initialize(to: Atomic(0))
            depths[index] = 0
        }
        for index in 0..<4 { (ownThreads + index).initialize(to: Atomic(0)) }
        // One the C library, the Swift runtime and libdispatch leave alone (they use none above SIGRTMIN + 2).
        interruptSignal = __libc_current_sigrtmax() - 3
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { _, _, _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(truncatingIfNeeded: SA_SIGINFO)
        sigaction(interruptSignal, &action, nil)
        _ = (endingFlag.load(ordering: .relaxed), patience)
        mainThread = currentThread
        addOwnThread()
        active.store(true, ordering: .releasing)
    }

    /// Counts the calling thread among apphost's own (at most four: the main thread and the
    /// threads ``Survival`` starts).
    static func addOwnThread() {
        let me = currentThread
        for index in 0..<4 where ownThreads[index].compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing).exchanged {
            return
        }
    }

    /// Whether the process is ending: a write in a claim stops after the write(2) in flight.
    static var isEnding: Bool { endingFlag.load(ordering: .sequentiallyConsistent) }

    /// Runs `body` in a claim (nested claims on one thread count once).
    @inline(__always)
    static func withClaim<T>(_ body: () throws -> T) rethrows -> T {
        // Acquiring: the slots ``install()`` made are seen once claims are seen on.
        guard active.load(ordering: .acquiring) else { return try body() }
        let slot = enter()
        defer { leave(slot) }
        return try body()
    }

    private static var currentThread: UInt { UInt(pthread_self()) }

    private static func enter() -> Int {
        let me = currentThread
        // The globals read once: each access to a static is a swift_once, 14 a claim in the loop.
        let owners = Self.owners, depths = Self.depths
        if me == mainThread {
            // Slot 0 is the main thread's alone: its depth says whether it holds a claim already.
            if depths[0] > 0 {
                depths[0] += 1
                return 0
            }
            // Taken, then the end looked for (as below): the ending thread that stored its flag
            // first sees the slot taken, or this thread sees the flag.
            owners[0].store(me, ordering: .sequentiallyConsistent)
            depths[0] = 1
            if isEnding {
                owners[0].store(0, ordering: .sequentiallyConsistent)
                park()
            }
            return 0
        }
        // Only the slots ever taken are looked at for a claim of this thread's (one or two, not 32):
        // a thread raises the mark before its claim returns, so its own slot is always below it.
        let inUse = slotsInUse.load(ordering: .relaxed)
        for index in 1..<max(inUse, 1) where owners[index].load(ordering: .relaxed) == me {
            depths[index] += 1
            return index
        }
        if isEnding { park() }
        while true {
            for index in 1..<slotCount
            where owners[index].compareExchange(expected: 0, desired: me, ordering: .sequentiallyConsistent).exchanged {
                depths[index] = 1
                var mark = slotsInUse.load(ordering: .relaxed)
                while mark <= index {
                    let (exchanged, found) = slotsInUse.compareExchange(expected: mark, desired: index + 1, ordering: .relaxed)
                    if exchanged { break }
                    mark = found
                }
                // The ending thread may have looked at this slot before it was taken: look again.
                if isEnding {
                    owners[index].store(0, ordering: .sequentiallyConsistent)
                    park()
                }
                return index
            }
            sched_yield()  // every slot taken: a moment
        }
    }

    private static func leave(_ slot: Int) {
        depths[slot] -= 1
        guard depths[slot] == 0 else { return }
        owners[slot].store(0, ordering: .sequentiallyConsistent)
        if isEnding { park() }
    }

    /// The write-out thread (``Survival``), which leaves a write cut short by the end the ordinary
    /// way (its locks let go: it flushes without waiting for a lock, so it never holds one another
    /// thread waits for), then waits at the end of its claim.
    private static let unwindingThread = Atomic<UInt>(0)

    /// Marks the calling thread as the write-out thread.
    static func addWriteOutThread() {
        addOwnThread()
        unwindingThread.store(currentThread, ordering: .releasing)
    }

    /// A write in a claim found the process ending: any thread but the write-out thread lets its
    /// claims go and waits right there for the end, so that nothing it would do next (forget lines
    /// it staged, say an event was written) changes what the ending thread writes out; the
    /// write-out thread gets ``OutputWrite/cancelled`` to return with.
    static func cutShort() -> Int32 {
        let me = currentThread
        guard me != unwindingThread.load(ordering: .relaxed) else { return OutputWrite.cancelled }
        // The slots exist once claims are on (``install()`` made them before turning them on).
        guard active.load(ordering: .acquiring) else { park() }
        for index in 0..<slotCount where owners[index].load(ordering: .relaxed) == me {
            depths[index] = 0
            owners[index].store(0, ordering: .sequentiallyConsistent)
        }
        park()
    }

    /// Waits for the end of the process (the ending thread ends it). Never returns. Not inlined: its
    /// local made every claim's entry and exit guard its stack (about 15 instructions a claim).
    @inline(never)
    static func park() -> Never {
        while true {
            var pause = timespec(tv_sec: 3_600, tv_nsec: 0)
            nanosleep(&pause, nil)
        }
    }

    /// The process is ending: from now on no claim is taken; waits for the claims held to be let
    /// go, interrupting apphost's own threads in a write, at most ``patience`` (a thread in a
    /// signal handler, `handlerThread`, is not waited for: it is waiting for this one). Returns
    /// whether every claim was let go. For the ending thread only.
    @discardableResult
    static func beginEnding(handlerThread: UInt) -> Bool {
        endingFlag.store(true, ordering: .sequentiallyConsistent)
        // Acquiring: pairs with install()'s releasing store, after which the slots it made are seen.
        guard active.load(ordering: .acquiring) else { return true }
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while true {
            var held = false
            for index in 0..<slotCount {
                let owner = owners[index].load(ordering: .sequentiallyConsistent)
                guard owner != 0, owner != handlerThread else { continue }
                held = true
                // Only apphost's own threads: a plugin's thread is never signalled (its claim is
                // a staged log line, which takes no time).
                for own in 0..<4 where ownThreads[own].load(ordering: .relaxed) == owner {
                    _ = pthread_kill(pthread_t(owner), interruptSignal)
                }
            }
            guard held else { return true }
            guard clock.now < deadline else { return false }
            var pause = timespec(tv_sec: 0, tv_nsec: 2_000_000)
            nanosleep(&pause, nil)
        }
    }
}

/// A timer that interrupts the ending thread's write (``OutputClaims/interruptSignal``, sent to
/// that thread alone), so that a write to a reader that stopped returns.
final class EndingTimer: @unchecked Sendable {  // used by the ending thread alone
    private var timer: timer_t?
    private var deadline: Int64 = 0

    /// A timer aimed at the calling thread, whose kernel id is `thread`; nil when none can be made.
    init?(thread: pid_t) {
        var event = sigevent()
        event.sigev_notify = Int32(SIGEV_THREAD_ID)
        event.sigev_signo = OutputClaims.interruptSignal
        event._sigev_un._tid = thread
        var made: timer_t?
        guard OutputClaims.interruptSignal != 0, timer_create(CLOCK_MONOTONIC, &event, &made) == 0 else { return nil }
        timer = made
    }

    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Interrupts the thread's system call in progress in `milliseconds`.
    func arm(milliseconds: Int32) {
        deadline = Self.now() + Int64(milliseconds) * 1_000_000
        var value = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: Int(milliseconds / 1_000),
                                                                              tv_nsec: Int(milliseconds % 1_000) * 1_000_000))
        timer_settime(timer, 0, &value, nil)
    }

    /// Stops the timer; whether it was due (the call it guarded took that long).
    func disarm() -> Bool {
        var zero = itimerspec()
        timer_settime(timer, 0, &zero, nil)
        return Self.now() >= deadline
    }
}
