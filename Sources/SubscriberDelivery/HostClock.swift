import Synchronization
import SubscriberKit
import SubscriberEventModel

/// Where a host's time comes from: what time it is, and deadlines. The dispatcher reads it when a
/// completion event starts and arms the event's deadline on it; nothing else in delivery waits on
/// time. ``MonotonicHostClock`` (the default) is the system's monotonic clock with one dispatch timer;
/// ``ManualHostClock`` moves only when told to, so that a test sees a deadline pass exactly when it
/// says so, however busy the machine is.
///
/// Durations shown in output (`measuresSubscribers`) always read the system's monotonic clock: they
/// measure the calls themselves, which a manual clock would show as taking no time.
public protocol HostClock: Sendable {
    /// Now, in nanoseconds since a fixed point of this clock's own; never decreases. [any-thread]
    func nanoseconds() -> UInt64
    /// Runs `fire` once, on any thread, once this clock reaches `deadline` (nanoseconds on it),
    /// unless the returned timer is cancelled first. A deadline already passed fires soon (a manual
    /// clock: at its next advance). Keep the timer until it fired or is cancelled: one dropped may
    /// never fire. [any-thread]
    func schedule(at deadline: UInt64, _ fire: @escaping @Sendable () -> Void) -> any HostTimer
}

/// A deadline armed on a ``HostClock``.
public protocol HostTimer: Sendable {
    /// Stops the timer: `fire` does not run after this returns, unless it was already taken for
    /// firing (running, or about to).
    /// Cancelling twice, or after it fired, does nothing. [any-thread]
    func cancel()
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), deadlines on one dispatch timer of a global
/// queue (``DeadlineSchedule``): a host's clock unless its options name another.
public struct MonotonicHostClock: HostClock {
    public init() {}

    public func nanoseconds() -> UInt64 { MonotonicClock.now() }

    /// On the process's one deadline timer (``DeadlineSchedule``): cancelling touches no timer, and
    /// arming sets it only for a deadline earlier than every other armed one.
    public func schedule(at deadline: UInt64, _ fire: @escaping @Sendable () -> Void) -> any HostTimer {
        DeadlineSchedule.shared.schedule(at: deadline, fire)
    }
}

/// A clock that stands still until ``advance(by:)``, which runs every deadline reached, in order, on
/// the calling thread, before it returns (swift-nio's `EmbeddedEventLoop.advanceTime`). For tests,
/// and for an app that replays a recorded session: a deadline passes exactly when the clock is
/// advanced past it, never because the machine was busy.
public final class ManualHostClock: HostClock {
    private struct Timer {
        var deadline: UInt64
        /// Scheduling order: timers with the same deadline fire in it.
        var sequence: UInt64
        var fire: @Sendable () -> Void
    }

    private struct State {
        var now: UInt64
        var nextSequence: UInt64 = 0
        /// Armed timers, by sequence.
        var timers: [UInt64: Timer] = [:]
    }

    private let state: Mutex<State>

    /// A clock that reads `nanoseconds` until advanced.
    public init(startingAt nanoseconds: UInt64 = 0) {
        state = Mutex(State(now: nanoseconds))
    }

    public func nanoseconds() -> UInt64 { state.withLock { $0.now } }

    public func schedule(at deadline: UInt64, _ fire: @escaping @Sendable () -> Void) -> any HostTimer {
        let sequence = state.withLock { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            state.timers[sequence] = Timer(deadline: deadline, sequence: sequence, fire: fire)
            return sequence
        }
        return ManualTimer(clock: self, sequence: sequence)
    }

    /// How many timers are armed (scheduled, neither fired nor cancelled).
    public var armedTimerCount: Int { state.withLock { $0.timers.count } }

    /// Moves the clock forward by `duration` (nothing for a negative one) and runs, on this thread,
    /// every timer whose deadline it reaches — in deadline order, then scheduling order — each with
    /// the clock reading its deadline; a timer armed by one of them fires too when its deadline is
    /// reached. Returns when every due timer has run.
    public func advance(by duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds > 0 || (seconds == 0 && attoseconds > 0) else { return }
        let whole = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let sum = whole.partialValue.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
        let stepped = whole.overflow || sum.overflow ? UInt64.max : sum.partialValue
        let now = nanoseconds()
        advance(to: stepped > .max - now ? .max : now + stepped)
    }

    /// Moves the clock forward to `target` (nanoseconds on it; nothing when it is not later than now),
    /// running the timers due meanwhile as ``advance(by:)`` does.
    public func advance(to target: UInt64) {
        while let fire = nextDue(upTo: target) { fire() }
    }

    /// The earliest timer due by `target`, removed, with the clock set to its deadline; nil (the clock
    /// set to `target`) when none is due.
    private func nextDue(upTo target: UInt64) -> (@Sendable () -> Void)? {
        state.withLock { state in
            let due = state.timers.values.filter { $0.deadline <= target }
                .min { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            guard let due else {
                state.now = max(state.now, target)
                return nil
            }
            state.timers[due.sequence] = nil
            state.now = max(state.now, due.deadline)
            return due.fire
        }
    }

    fileprivate func cancel(_ sequence: UInt64) {
        _ = state.withLock { $0.timers.removeValue(forKey: sequence) }
    }
}

/// A timer of a ``ManualHostClock``.
private struct ManualTimer: HostTimer {
    let clock: ManualHostClock
    let sequence: UInt64

    func cancel() { clock.cancel(sequence) }
}
