import Dispatch
import Synchronization

/// Every deadline armed on the system's monotonic clock (``MonotonicHostClock``), on one dispatch
/// timer of a global queue.
///
/// A completion event whose answers come later arms its deadline when it starts waiting and, nearly
/// always, cancels it a moment later when its last completion arrives. A dispatch timer source made
/// for each deadline woke libdispatch's manager thread when armed and again when cancelled, and its
/// disposal ran on a worker thread: on the shipped tour (two waiting events a cycle) about a third of
/// the process's context switches. Here the deadlines wait in a heap ordered by time, and the one
/// timer is set only when a deadline earlier than the one it is armed for comes in (or none is
/// armed), and each setting reaches libdispatch's manager thread once. A cancelled deadline leaves
/// the heap at once and touches no timer; the timer, still armed for it, fires once for nothing and
/// re-arms for the next — at most once per deadline that was the earliest. Due deadlines run as
/// blocks of their own on the queue, as they did on sources of their own.
package final class DeadlineSchedule: @unchecked Sendable {
    // @unchecked: a dispatch source may be used from any thread; the rest is under `state`'s lock.
    /// The schedule every ``MonotonicHostClock`` arms its deadlines on.
    package static let shared = DeadlineSchedule(queue: .global())

    /// One armed deadline: the handle ``MonotonicHostClock/schedule(at:_:)`` returns.
    package final class Entry: HostTimer, @unchecked Sendable {
        // @unchecked: `index` is read and written only under the schedule's lock.
        package let deadline: UInt64
        /// Ties between equal deadlines: the one armed first fires first.
        package let sequence: UInt64
        /// What runs at the deadline; let go (with what it captured) once it left the heap, fired or
        /// cancelled. Read and written under the schedule's lock.
        var fire: (@Sendable () -> Void)?
        /// Its place in the heap; -1 once it left (fired or cancelled). Under the schedule's lock.
        var index = -1
        /// Whether it may still run: claimed by whichever comes first, its firing or its cancelling,
        /// so that a deadline cancelled after it was taken out of the heap for firing does not run.
        private let armed = Atomic<Bool>(true)
        private let schedule: DeadlineSchedule

        init(deadline: UInt64, sequence: UInt64, schedule: DeadlineSchedule) {
            self.deadline = deadline
            self.sequence = sequence
            self.schedule = schedule
        }

        /// Whether it comes before `other`: the earlier deadline, then the one armed first.
        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }

        /// Claims the right to run: true once, for the firing side or the cancelling side.
        func claim() -> Bool { armed.exchange(false, ordering: .acquiringAndReleasing) }

        /// Stops it: `fire` does not run after this returns, unless it was already taken for firing
        /// (running, or about to). [any-thread]
        package func cancel() {
            guard claim() else { return }
            schedule.remove(self)
        }
    }

    private struct State {
        var heap = DeadlineHeap()
        var nextSequence: UInt64 = 0
        /// The deadline the timer is armed for; `.max` when it is not armed.
        var armedFor = UInt64.max
    }

    private let state = Mutex(State())
    private let queue: DispatchQueue
    private let timer: any DispatchSourceTimer
    /// Called instead of setting the timer, with the delay it would be set to (a test's).
    private let setTimer: (@Sendable (UInt64) -> Void)?

    /// A schedule whose deadlines run on `queue`, each as a block of its own (so that one that
    /// blocks does not hold up the others). Not armed until a deadline is. `setTimer`, when given,
    /// is called instead of setting the timer, with the delay it would be set to.
    package init(queue: DispatchQueue, setTimer: (@Sendable (UInt64) -> Void)? = nil) {
        self.queue = queue
        timer = DispatchSource.makeTimerSource(queue: queue)
        self.setTimer = setTimer
        timer.setEventHandler { [weak self] in self?.fireDue(at: MonotonicClock.now()) }
        timer.activate()
    }

    deinit { timer.cancel() }

    /// Arms a deadline at `deadline` nanoseconds on the monotonic clock; `fire` runs once on the
    /// schedule's queue once it passed (never inside this call), unless the entry is cancelled
    /// first. [any-thread]
    package func schedule(at deadline: UInt64, _ fire: @escaping @Sendable () -> Void) -> Entry {
        state.withLock { state in
            let entry = Entry(deadline: deadline, sequence: state.nextSequence, schedule: self)
            entry.fire = fire
            state.nextSequence &+= 1
            state.heap.insert(entry)
            if deadline < state.armedFor {
                state.armedFor = deadline
                arm(for: deadline)
            }
            return entry
        }
    }

    /// The deadlines armed and not yet fired or cancelled.
    package var count: Int { state.withLock { $0.heap.count } }

    /// The deadline the timer is armed for; nil when it is not armed.
    package var armedFor: UInt64? { state.withLock { $0.armedFor == .max ? nil : $0.armedFor } }

    /// Sends every deadline due at `now` (monotonic nanoseconds) to the queue, earliest first, each
    /// as a block of its own, and re-arms the timer for the next. What the timer runs when it fires;
    /// a test may call it with any `now`.
    package func fireDue(at now: UInt64) {
        let due = state.withLock { state in
            let due = state.heap.removeDue(upTo: now).map { entry in
                defer { entry.fire = nil }
                return (entry: entry, fire: entry.fire)
            }
            state.armedFor = .max
            if let next = state.heap.earliest {
                state.armedFor = next
                arm(for: next)
            }
            return due
        }
        for (entry, fire) in due {
            guard let fire else { continue }
            // Claimed in the block: one cancelled before its block ran does not run.
            queue.async { if entry.claim() { fire() } }
        }
    }

    fileprivate func remove(_ entry: Entry) {
        // The timer stays armed: if this was the earliest, it fires once for nothing and re-arms.
        state.withLock { state in
            state.heap.remove(entry)
            entry.fire = nil
        }
    }

    /// Sets the timer for `deadline`; called under the lock, so that arms happen in the order decided.
    private func arm(for deadline: UInt64) {
        let now = MonotonicClock.now()
        let delay = deadline > now ? deadline - now : 0
        if let setTimer { return setTimer(delay) }
        timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: delay)))
    }
}

/// The armed deadlines of a ``DeadlineSchedule``, earliest first: a binary heap whose entries know
/// their place, so that a cancelled one leaves in O(log n) and nothing cancelled stays behind.
package struct DeadlineHeap {
    /// In heap order: each entry precedes its two children, and knows its index.
    private(set) var entries: [DeadlineSchedule.Entry] = []

    package var count: Int { entries.count }

    /// The earliest deadline; nil when empty.
    package var earliest: UInt64? { entries.first?.deadline }

    package mutating func insert(_ entry: DeadlineSchedule.Entry) {
        entry.index = entries.count
        entries.append(entry)
        siftUp(entries.count - 1)
    }

    /// Takes `entry` out; nothing when it already left.
    package mutating func remove(_ entry: DeadlineSchedule.Entry) {
        let index = entry.index
        guard index >= 0, index < entries.count, entries[index] === entry else { return }
        entry.index = -1
        let last = entries.removeLast()
        guard index < entries.count else { return }
        entries[index] = last
        last.index = index
        siftDown(index)
        siftUp(index)
    }

    /// Takes out every entry due at `now`, earliest first.
    package mutating func removeDue(upTo now: UInt64) -> [DeadlineSchedule.Entry] {
        var due: [DeadlineSchedule.Entry] = []
        while let first = entries.first, first.deadline <= now {
            remove(first)
            due.append(first)
        }
        return due
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].precedes(entries[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            var first = left
            if left + 1 < entries.count, entries[left + 1].precedes(entries[left]) { first = left + 1 }
            guard entries[first].precedes(entries[parent]) else { return }
            swapAt(parent, first)
            parent = first
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        entries[a].index = a
        entries[b].index = b
    }
}
