import Dispatch
import Synchronization
import Testing

@testable import SubscriberDelivery
@testable import SubscriberKit
@testable import SubscriberEventModel

/// What fired, in order: the labels of the timers.
private final class Fired: Sendable {
    private let labels = Mutex<[String]>([])
    func record(_ label: String) { labels.withLock { $0.append(label) } }
    var all: [String] { labels.withLock { $0 } }
}

/// The clocks deadlines are armed on: the manual one moves only when advanced, fires every due
/// timer in order before the advance returns, exactly at its deadline and never before; the
/// monotonic one is the system's.
@Suite("Host clocks: the manual clock's deadlines, the monotonic clock's timers")
struct HostClockTests {
    @Test("a deadline fires exactly when the clock reaches it, not a nanosecond before, and once")
    func firesExactlyAtTheDeadline() {
        let clock = ManualHostClock(startingAt: 1_000)
        let fired = Fired()
        let readAtFire = Mutex<UInt64>(0)
        _ = clock.schedule(at: 1_000 + 30_000_000_000) {
            fired.record("deadline")
            readAtFire.withLock { $0 = clock.nanoseconds() }
        }
        clock.advance(by: .seconds(30) - .nanoseconds(1))
        #expect(fired.all.isEmpty)
        #expect(clock.nanoseconds() == 1_000 + 30_000_000_000 - 1)
        #expect(clock.armedTimerCount == 1)
        clock.advance(by: .nanoseconds(1))
        #expect(fired.all == ["deadline"])
        #expect(readAtFire.withLock { $0 } == 1_000 + 30_000_000_000, "the clock reads the deadline while it fires")
        clock.advance(by: .seconds(3600))
        #expect(fired.all == ["deadline"])
        #expect(clock.armedTimerCount == 0)
    }

    @Test("the clock stands still until advanced; a negative or zero advance does nothing")
    func standsStill() {
        let clock = ManualHostClock()
        let fired = Fired()
        _ = clock.schedule(at: 0) { fired.record("due now") }
        #expect(clock.nanoseconds() == 0)
        #expect(fired.all.isEmpty, "a timer never fires inside schedule, only at an advance")
        clock.advance(by: .zero)
        clock.advance(by: .seconds(-1))
        #expect(fired.all.isEmpty)
        clock.advance(by: .nanoseconds(1))
        #expect(fired.all == ["due now"])
        #expect(clock.nanoseconds() == 1)
    }

    @Test("a cancelled timer never fires; cancelling twice or after firing does nothing")
    func cancelled() {
        let clock = ManualHostClock()
        let fired = Fired()
        let cancelled = clock.schedule(at: 10) { fired.record("cancelled") }
        let kept = clock.schedule(at: 20) { fired.record("kept") }
        cancelled.cancel()
        cancelled.cancel()
        clock.advance(by: .nanoseconds(100))
        #expect(fired.all == ["kept"])
        kept.cancel()
        #expect(clock.armedTimerCount == 0)
    }

    @Test("due timers fire in deadline order, ties in scheduling order, each with the clock at its deadline")
    func order() {
        let clock = ManualHostClock()
        let fired = Fired()
        for (label, deadline) in [("c", UInt64(300)), ("a", 100), ("b1", 200), ("b2", 200), ("late", 1_000)] {
            _ = clock.schedule(at: deadline) { fired.record("\(label)@\(clock.nanoseconds())") }
        }
        clock.advance(by: .nanoseconds(500))
        #expect(fired.all == ["a@100", "b1@200", "b2@200", "c@300"])
        #expect(clock.nanoseconds() == 500)
        clock.advance(to: 1_000)
        #expect(fired.all.last == "late@1000")
    }

    @Test("a timer armed by a firing one fires in the same advance when its deadline is reached")
    func armedWhileFiring() {
        let clock = ManualHostClock()
        let fired = Fired()
        _ = clock.schedule(at: 10) {
            fired.record("first")
            _ = clock.schedule(at: clock.nanoseconds() + 5) { fired.record("armed at 10, due 15") }
            _ = clock.schedule(at: clock.nanoseconds() + 500) { fired.record("due 510") }
        }
        clock.advance(by: .nanoseconds(20))
        #expect(fired.all == ["first", "armed at 10, due 15"])
        #expect(clock.armedTimerCount == 1)
    }

    @Test("the monotonic clock moves by itself and its timers fire on another thread; a cancelled one does not")
    func monotonic() async {
        let clock = MonotonicHostClock()
        let before = clock.nanoseconds()
        let fired = Fired()
        let timer = clock.schedule(at: clock.nanoseconds() + 1_000_000) { fired.record("fired") }
        // A generous bound, waited without blocking a thread: only a hang fails this.
        let end = ContinuousClock.now + .seconds(120)
        while fired.all.isEmpty, ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(fired.all == ["fired"])
        timer.cancel()
        #expect(clock.nanoseconds() > before)
        let never = Fired()
        let cancelled = clock.schedule(at: clock.nanoseconds() + 1_000_000_000_000) { never.record("fired") }
        cancelled.cancel()
        #expect(never.all.isEmpty)
    }
}
