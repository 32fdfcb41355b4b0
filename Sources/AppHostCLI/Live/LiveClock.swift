#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import SubscriberHost

/// The live host's clock: every timer it keeps (the watchdog's keep-alive, the termination
/// deadline) asks this seam for the time and for alarms, so that one clock can later drive them all
/// (an injected clock for replay and tests). Times are monotonic, in nanoseconds from an arbitrary start.
protocol LiveClock: Sendable {
    /// Now, in nanoseconds on the monotonic clock.
    func now() -> UInt64
    /// Runs `action` once, on another thread, `nanoseconds` from now, unless the alarm is cancelled first.
    func alarm(after nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) -> LiveAlarm
}

/// An alarm from ``LiveClock/alarm(after:_:)``.
protocol LiveAlarm: Sendable {
    func cancel()
}

/// The live host's clock over a ``HostClock``, the one the host's dispatcher arms its completion
/// deadlines on (`HostOptions.clock`): `apphost run` makes one and hands it to both, so one clock
/// drives the live host's timers (watchdog, memory-pressure polling, termination deadline, the
/// recording's times) and the events' deadlines. A ``ManualHostClock`` makes them all move only when
/// advanced.
struct HostDrivenClock: LiveClock {
    let clock: any HostClock

    init(_ clock: any HostClock) { self.clock = clock }

    func now() -> UInt64 { clock.nanoseconds() }

    func alarm(after nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) -> LiveAlarm {
        let now = clock.nanoseconds()
        let deadline = now > UInt64.max - nanoseconds ? UInt64.max : now + nanoseconds
        return TimerAlarm(timer: clock.schedule(at: deadline, action))
    }

    private struct TimerAlarm: LiveAlarm {
        let timer: any HostTimer
        func cancel() { timer.cancel() }
    }
}

/// The system's monotonic clock (CLOCK_MONOTONIC, ``MonotonicHostClock``), alarms on its one deadline timer.
struct MonotonicClock: LiveClock {
    private let driven = HostDrivenClock(MonotonicHostClock())

    func now() -> UInt64 { driven.now() }

    func alarm(after nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) -> LiveAlarm {
        driven.alarm(after: nanoseconds, action)
    }
}
