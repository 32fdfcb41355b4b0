#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock (clock_gettime: a vDSO call, no allocation).
enum BenchClock {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}

/// CPU time (user + system), in nanoseconds.
enum CPUTime {
    /// This process's, all threads (CLOCK_PROCESS_CPUTIME_ID).
    static func process() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// A `timeval` (rusage) in nanoseconds.
    static func nanoseconds(_ time: timeval) -> UInt64 {
        UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_usec) &* 1000
    }
}

/// The median and range of repeated measurements of one quantity.
struct Stats: Sendable {
    var median: Double
    var min: Double
    var max: Double
    /// Every repetition, in the order measured.
    var samples: [Double]

    init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "Stats: no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted[0]
        max = sorted[sorted.count - 1]
        self.samples = samples
    }

    /// Every figure scaled by `factor` (e.g. per event → per subscriber).
    func scaled(_ factor: Double) -> Stats { Stats(samples.map { $0 * factor }) }
    /// Nanoseconds per event as events per second, sample by sample.
    var perSecond: Stats { Stats(samples.map { 1e9 / $0 }) }
}

/// Times batches of events: a warm-up that also sizes the batch (doubling the event count until a
/// batch lasts at least `minimumBatch`), then `repetitions` batches of that size.
@MainActor
struct Sampler {
    /// Repetitions per figure (after the warm-up).
    var repetitions: Int
    /// The shortest batch, in nanoseconds; long enough that the clock's cost and jitter vanish.
    var minimumBatch: UInt64 = 20_000_000

    /// Runs `batch(count)` for growing `count` until it lasts `minimumBatch`; returns that count.
    /// The runs are the warm-up: caches filled, payloads encoded, lazy state made.
    func calibrate(_ batch: (Int) async -> Void) async -> Int {
        var count = 1
        while true {
            let start = BenchClock.now()
            await batch(count)
            let elapsed = BenchClock.now() &- start
            if elapsed >= minimumBatch { return count }
            // Jump close to the target once a run is long enough to predict from.
            let predicted = elapsed > 1_000_000 ? Int(Double(count) * Double(minimumBatch) / Double(elapsed) * 1.1) : 0
            count = Swift.max(count * 2, predicted)
        }
    }

    /// Nanoseconds per event of one batch of `count` events.
    func time(_ count: Int, _ batch: (Int) async -> Void) async -> Double {
        let start = BenchClock.now()
        await batch(count)
        return Double(BenchClock.now() &- start) / Double(count)
    }

    /// Two variants measured in alternation, repetition by repetition, so that drift of the machine
    /// (other processes, frequency) hits both alike. Returns ns per event of each.
    func comparePair(_ first: (Int) async -> Void, _ second: (Int) async -> Void) async -> (Stats, Stats) {
        let firstCount = await calibrate(first)
        let secondCount = await calibrate(second)
        var firstSamples: [Double] = []
        var secondSamples: [Double] = []
        for _ in 0..<repetitions {
            firstSamples.append(await time(firstCount, first))
            secondSamples.append(await time(secondCount, second))
        }
        return (Stats(firstSamples), Stats(secondSamples))
    }
}

/// The ratio of two paired measurements, repetition by repetition: its median and range.
func ratio(_ numerator: Stats, _ denominator: Stats) -> Stats {
    SubscriberBenchRatio.of(numerator, denominator)
}

/// ``ratio(_:_:)`` under a name that local variables called `ratio` do not shadow.
enum SubscriberBenchRatio {
    static func of(_ numerator: Stats, _ denominator: Stats) -> Stats {
        Stats(zip(numerator.samples, denominator.samples).map { $0 / $1 })
    }
}
