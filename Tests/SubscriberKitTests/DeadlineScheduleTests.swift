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

/// The delays a schedule set its timer to, instead of setting it.
private final class Settings: Sendable {
    private let delays = Mutex<[UInt64]>([])
    func record(_ delay: UInt64) { delays.withLock { $0.append(delay) } }
    var all: [UInt64] { delays.withLock { $0 } }
}

/// Waits, without blocking a thread, until `done` holds; a generous bound only a hang reaches.
private func eventually(_ done: () -> Bool) async {
    let end = ContinuousClock.now + .seconds(120)
    while !done(), ContinuousClock.now < end { try? await Task.sleep(for: .milliseconds(1)) }
}

/// The monotonic clock's deadlines share one dispatch timer: set only for an earlier deadline,
/// left armed when the earliest is cancelled (it then fires once for nothing and re-arms), every
/// cancelled deadline gone from the heap at once. Where the timer is not needed, times are hours
/// ahead, the timer's settings are recorded instead of made, and firing is driven by
/// `fireDue(at:)`: nothing depends on how fast the machine is.
@Suite("Deadline schedule: one timer for every monotonic deadline")
struct DeadlineScheduleTests {
    private static let hour: UInt64 = 3_600_000_000_000

    /// Whether `heap` is in heap order and each entry knows its index.
    private static func isHeap(_ heap: DeadlineHeap) -> Bool {
        heap.entries.indices.allSatisfy { index in
            let entry = heap.entries[index]
            let children = [2 * index + 1, 2 * index + 2].filter { $0 < heap.entries.count }
            return entry.index == index && children.allSatisfy { !heap.entries[$0].precedes(entry) }
        }
    }

    @Test("the heap gives back what was not removed, earliest first, ties in arming order; in order after every removal")
    func heapOrder() {
        let schedule = DeadlineSchedule(queue: DispatchQueue(label: "test"), setTimer: { _ in })
        var heap = DeadlineHeap()
        var random: UInt64 = 0x9E37_79B9_7F4A_7C15
        var entries: [DeadlineSchedule.Entry] = []
        for sequence in 0..<1_000 {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Few distinct deadlines, so that ties are common.
            let entry = DeadlineSchedule.Entry(deadline: (random >> 33) % 50, sequence: UInt64(sequence), schedule: schedule)
            heap.insert(entry)
            entries.append(entry)
        }
        #expect(Self.isHeap(heap))
        var removed = Set<UInt64>()
        var ordered = true
        for (position, entry) in entries.enumerated() where position % 3 == 1 {
            heap.remove(entry)
            heap.remove(entry)
            removed.insert(entry.sequence)
            ordered = ordered && Self.isHeap(heap) && entry.index == -1
        }
        #expect(ordered)
        #expect(heap.count == 1_000 - removed.count)
        let out = heap.removeDue(upTo: .max)
        #expect(heap.count == 0)
        #expect(heap.earliest == nil)
        let expected = entries.filter { !removed.contains($0.sequence) }
            .sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
        #expect(out.map(\.sequence) == expected.map(\.sequence))
    }

    @Test("a removal whose replacement must rise: the last entry moved under a later parent sifts up")
    func replacementSiftsUp() {
        let schedule = DeadlineSchedule(queue: DispatchQueue(label: "test"), setTimer: { _ in })
        var heap = DeadlineHeap()
        var byDeadline: [UInt64: DeadlineSchedule.Entry] = [:]
        for (sequence, deadline) in [0, 10, 1, 11, 12, 2, 3].enumerated() {
            let entry = DeadlineSchedule.Entry(deadline: UInt64(deadline), sequence: UInt64(sequence), schedule: schedule)
            heap.insert(entry)
            byDeadline[UInt64(deadline)] = entry
        }
        // 11 is a child of 10; the last entry, 3, takes its place and must rise above 10.
        heap.remove(byDeadline[11]!)
        #expect(Self.isHeap(heap))
        #expect(heap.entries[1].deadline == 3)
        heap.remove(byDeadline[2]!)
        #expect(Self.isHeap(heap), "the last entry removed: nothing moves")
        #expect(heap.removeDue(upTo: .max).map(\.deadline) == [0, 1, 3, 10, 12])
    }

    @Test("only a deadline earlier than the armed one sets the timer; a cancelled earliest leaves it armed for that one")
    func armsOnlyForEarlier() {
        let queue = DispatchQueue(label: "test")
        let settings = Settings()
        let schedule = DeadlineSchedule(queue: queue, setTimer: { settings.record($0) })
        let ran = Ran()
        let before = MonotonicClock.now()
        #expect(schedule.armedFor == nil)
        let first = schedule.schedule(at: before + 2 * Self.hour) { ran.record("2 h") }
        let afterFirst = MonotonicClock.now()
        #expect(schedule.armedFor == before + 2 * Self.hour)
        #expect(settings.all.count == 1)
        // Set to the time left, not to the deadline itself.
        #expect(settings.all.last.map { (2 * Self.hour - (afterFirst - before))...(2 * Self.hour) ~= $0 } == true)
        let later = schedule.schedule(at: before + 3 * Self.hour) { ran.record("3 h") }
        #expect(schedule.armedFor == before + 2 * Self.hour)
        #expect(settings.all.count == 1, "a later deadline does not touch the timer")
        let earlier = schedule.schedule(at: before + Self.hour) { ran.record("1 h") }
        #expect(schedule.armedFor == before + Self.hour)
        #expect(settings.all.count == 2)
        earlier.cancel()
        #expect(schedule.count == 2, "a cancelled deadline leaves the heap at once")
        #expect(schedule.armedFor == before + Self.hour, "cancelling does not touch the timer")
        #expect(settings.all.count == 2)
        // The timer fires for the cancelled deadline: nothing runs, and it re-arms for the next.
        schedule.fireDue(at: before + Self.hour)
        queue.sync {}
        #expect(ran.all.isEmpty)
        #expect(schedule.armedFor == before + 2 * Self.hour)
        #expect(settings.all.count == 3)
        schedule.fireDue(at: before + 2 * Self.hour)
        queue.sync {}
        #expect(ran.all == ["2 h"])
        #expect(schedule.armedFor == before + 3 * Self.hour)
        first.cancel()
        later.cancel()
        later.cancel()
        #expect(schedule.count == 0)
        schedule.fireDue(at: .max)
        queue.sync {}
        #expect(ran.all == ["2 h"], "cancelled after firing, or twice: nothing more runs")
        #expect(schedule.armedFor == nil, "nothing left: the timer is not re-armed")
    }

    @Test("a deadline at UInt64.max is kept but never armed and never due")
    func never() {
        let queue = DispatchQueue(label: "test")
        let settings = Settings()
        let schedule = DeadlineSchedule(queue: queue, setTimer: { settings.record($0) })
        let ran = Ran()
        let forever = schedule.schedule(at: .max) { ran.record("never") }
        #expect(schedule.count == 1)
        #expect(schedule.armedFor == nil)
        #expect(settings.all.isEmpty)
        schedule.fireDue(at: .max - 1)
        queue.sync {}
        #expect(ran.all.isEmpty)
        forever.cancel()
        #expect(schedule.count == 0)
    }

    @Test("deadlines due together run earliest first, ties in arming order; one cancelled by an earlier one's run does not run")
    func dueTogether() {
        let queue = DispatchQueue(label: "test")
        let schedule = DeadlineSchedule(queue: queue, setTimer: { _ in })
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
        let notDue = schedule.schedule(at: now + 5 * Self.hour) { ran.record("not due") }
        schedule.fireDue(at: now + 2 * Self.hour)
        queue.sync {}
        #expect(ran.all == ["a", "b", "c"])
        #expect(schedule.count == 1)
        #expect(schedule.armedFor == now + 5 * Self.hour)
        notDue.cancel()
    }

    @Test("10,000 deadlines armed and cancelled leave nothing behind")
    func cancelledLeaveNothing() {
        let schedule = DeadlineSchedule(queue: DispatchQueue(label: "test"), setTimer: { _ in })
        let now = MonotonicClock.now()
        for index in 0..<10_000 {
            let entry = schedule.schedule(at: now + Self.hour + UInt64(index)) {}
            entry.cancel()
        }
        #expect(schedule.count == 0)
    }

    @Test("on the real timer: a deadline already passed never runs inside schedule, and runs once its queue runs")
    func pastDeadlineRunsSoonNotInline() async {
        let queue = DispatchQueue(label: "test")
        queue.suspend()
        let schedule = DeadlineSchedule(queue: queue)
        let ran = Ran()
        let entry = schedule.schedule(at: 0) { ran.record("past") }
        #expect(ran.all.isEmpty)
        queue.resume()
        await eventually { ran.all.count == 1 && schedule.count == 0 }
        #expect(ran.all == ["past"])
        #expect(schedule.count == 0)
        entry.cancel()
        #expect(ran.all == ["past"])
    }

    @Test("on the real timer: a deadline's run may arm another on the same schedule")
    func fireSchedulesAnother() async {
        let schedule = DeadlineSchedule(queue: .global())
        let ran = Ran()
        let second = Mutex<DeadlineSchedule.Entry?>(nil)
        let first = schedule.schedule(at: MonotonicClock.now()) {
            ran.record("first")
            second.withLock { $0 = schedule.schedule(at: MonotonicClock.now()) { ran.record("second") } }
        }
        await eventually { ran.all.count == 2 }
        #expect(ran.all == ["first", "second"])
        #expect(schedule.count == 0)
        first.cancel()
    }

    @Test("on the real timer: 100 deadlines run, each once, and leave the schedule")
    func realTimerRunsEachOnce() async {
        let schedule = DeadlineSchedule(queue: .global())
        let ran = Ran()
        var entries: [DeadlineSchedule.Entry] = []
        for index in 0..<100 {
            entries.append(schedule.schedule(at: MonotonicClock.now() + UInt64(index % 5) * 1_000) { ran.record("\(index)") })
        }
        let never = schedule.schedule(at: MonotonicClock.now() + 1_000 * Self.hour) { ran.record("never") }
        await eventually { ran.all.count >= 100 && schedule.count == 1 }
        never.cancel()
        #expect(schedule.count == 0)
        #expect(ran.all.count == 100)
        #expect(Set(ran.all) == Set((0..<100).map(String.init)))
        entries.forEach { $0.cancel() }
    }

    @Test("MonotonicHostClock arms on the shared schedule: its deadline runs")
    func monotonicClockUsesTheSchedule() async {
        let clock = MonotonicHostClock()
        let ran = Ran()
        let timer = clock.schedule(at: clock.nanoseconds()) { ran.record("ran") }
        #expect(timer is DeadlineSchedule.Entry)
        await eventually { !ran.all.isEmpty }
        #expect(ran.all == ["ran"])
    }
}
