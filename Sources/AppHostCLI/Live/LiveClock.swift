#if canImport(Glibc)
import Glibc
#endif
import Dispatch

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

/// The system's monotonic clock (CLOCK_MONOTONIC), alarms on a libdispatch timer.
struct MonotonicClock: LiveClock {
    func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    func alarm(after nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) -> LiveAlarm {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
        timer.schedule(deadline: .now() + .nanoseconds(Int(min(nanoseconds, UInt64(Int.max)))))
        timer.setEventHandler(handler: action)
        timer.resume()
        return DispatchAlarm(timer: timer)
    }

    private struct DispatchAlarm: LiveAlarm, @unchecked Sendable {
        let timer: DispatchSourceTimer
        func cancel() { timer.cancel() }
    }
}
