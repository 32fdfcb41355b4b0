#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock, for timing answers and deadlines. `clock_gettime` is a vDSO
/// call on Linux: cheaper than building `ContinuousClock.Instant`s on the per-subscriber path.
package enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary fixed point.
    @inline(__always)
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
