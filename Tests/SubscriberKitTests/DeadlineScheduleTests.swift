import Dispatch
import Synchronization
import Testing

@testable import SubscriberDelivery

/// What ran, in order.
private final class Ran: Sendable {
    private let labels = Mutex<[String]>([])
    func record(_ label: String) { labels.withLock { $0.append(label) } }
    var all: [String] { labels.withLock { $0 } }
}

/// The monotonic clock's deadlines share one dispatch timer: armed only for an earlier deadline,
/// left armed when the earliest is cancelled (it then fires once for nothing and re-arms), every
/// cancelled deadline gone from the heap at once. Times here are hours ahead, and the firing is
/// driven by `fireDue(at:)`: nothing depends on how fast the machine is.
@Suite("Deadline schedule: one timer for every monotonic deadline")
struct DeadlineScheduleTests {
    private static let hour: UInt64 = 3_600_000_000_000

    @Test("the heap gives back what was not removed, earliest first, ties in arming order")
    func heapOrder() {
        let schedule = DeadlineSchedule(queue: DispatchQueue(label: "test"))
        var heap = DeadlineHeap()
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        var entries: [DeadlineSchedule.Entry] = []
        for sequence in 0..<1_000 {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Few distinct deadlines, so that ties are common.
            let entry = DeadlineSchedule.Entry(deadline: (random >> 33) % 50, sequence: UInt64(sequence),
                                               schedule: schedule, fire: {})
            heap.insert(entry)
            entries.append(entry)
        }
        var removed = Set<UInt64>()
        for (position, entry) in entries.enumerated() where position % 3 == 1 {
            heap.remove(entry)
            heap.remove(entry)
            removed.insert(entry.sequence)
        }
        #expect(heap.count == 1_000 - removed.count)
        let out = heap.removeDue(upTo: .max)
        #expect(heap.count == 0)
        #expect(heap.earliest == nil)
        let expected = entries.filter { !removed.contains($0.sequence) }
            .sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
        #expect(out.map(\.sequence) == expected.map(\.sequence))
    }

    @Test("only a deadline earlier than the armed one re-arms; a cancelled earliest leaves the timer armed for it")
    func armsOnlyForEarlier() {
        let schedule = DeadlineSchedule(queue: DispatchQueue(label: "test"))
        let ran = Ran()
        let now = MonotonicClock.now()
        #expect(schedule.armedFor == nil)
        let first = schedule.schedule(at: now + 2 * Self.hour) { ran.record("2 h") }
        #expect(schedule.armedFor == now + 2 * Self.hour)
        let later = schedule.schedule(at: now + 3 * Self.hour) { ran.record("3 h") }
        #expect(schedule.armedFor == now + 2 * Self.hour, "a later deadline does not touch the timer")
        let earlier = schedule.schedule(at: now + Self.hour) { ran.record("1 h") }
        #expect(schedule.armedFor == now + Self.hour)
        earlier.cancel()
        #expect(schedule.count == 2, "a cancelled deadline leaves the heap at once")
        #expect(schedule.armedFor == now + Self.hour, "cancelling does not touch the timer")
        // The timer fires for the cancelled deadline: nothing runs, and it re-arms for the next.
        schedule.fireDue(at: now + Self.hour)
        #expect(ran.all.isEmpty)
        #expect(schedule.armedFor == now + 2 * Self.hour)
        schedule.fireDue(at: now + 2 * Self.hour)
        #expect(ran.all == ["2 h"])
        #expect(schedule.armedFor == now + 3 * Self.hour)
        first.cancel()
        later.cancel()
        later.cancel()
        #expect(schedule.count == 0)
        schedule.fireDue(at: .max)
        #expect(ran.all == ["2 h"], "cancelled after firing, or twice: nothing more runs")
        #expect(schedule.armedFor == nil, "nothing left: the timer is not re-armed")
    }

    @Test("deadlines due together run earliest first, ties in arming order; one cancelled by an earlier one's run does not run")
    func dueTogether() {
        let schedule = DeadlineSchedule(queue: DispatchQueue(label: "test"))
        let ran = Ran()
        let now = MonotonicClock.now()
        let victim = Mutex<DeadlineSchedule.Entry?>(nil)
        _ = schedule.schedule(at: now + 2 * Self.hour) { ran.record("b") }
        _ = schedule.schedule(at: now + Self.hour) {
            ran.record("a")
            victim.withLock { $0 }?.cancel()
        }
        _ = schedule.schedule(at: now + 2 * Self.hour) { ran.record("c") }
        victim.withLock { $0 = schedule.schedule(at: now + 2 * Self.hour) { ran.record("cancelled by a") } }
        _ = schedule.schedule(at: now + 5 * Self.hour) { ran.record("not due") }
        schedule.fireDue(at: now + 2 * Self.hour)
        #expect(ran.all == ["a", "b", "c"])
        #expect(schedule.count == 1)
        #expect(schedule.armedFor == now + 5 * Self.hour)
    }

    @Test("10,000 deadlines armed and cancelled leave nothing behind")
    func cancelledLeaveNothing() {
        let schedule = DeadlineSchedule(queue: DispatchQueue(label: "test"))
        let now = MonotonicClock.now()
        for index in 0..<10_000 {
            let entry = schedule.schedule(at: now + Self.hour + UInt64(index)) {}
            entry.cancel()
        }
        #expect(schedule.count == 0)
    }

    @Test("the monotonic clock's deadlines run on the shared timer, each once, and leave it")
    func sharedTimerFires() async {
        let clock = MonotonicHostClock()
        let ran = Ran()
        var timers: [any HostTimer] = []
        for index in 0..<100 {
            timers.append(clock.schedule(at: clock.nanoseconds() + UInt64(index % 5) * 1_000) { ran.record("\(index)") })
        }
        let never = clock.schedule(at: clock.nanoseconds() + 1_000 * Self.hour) { ran.record("never") }
        // A generous bound, waited without blocking a thread: only a hang fails this.
        let end = ContinuousClock.now + .seconds(120)
        while ran.all.count < 100, ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(1)) }
        never.cancel()
        #expect(Set(ran.all) == Set((0..<100).map(String.init)))
        #expect(ran.all.count == 100)
        timers.forEach { $0.cancel() }
    }
}
