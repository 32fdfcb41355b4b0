import Synchronization
import SubscriberKit
import SubscriberEventModel

/// What every delivery to one subscriber list shares: made once when the list changes (the
/// dispatcher's load, reload, add, remove), lent to each event's ``DeliveryContext`` as one reference
/// (not five values copied and released per event).
package final class DeliveryList: @unchecked Sendable {
    /// The subscribers' names, by the indices in ``Responder/subscriber``: how reports name them.
    package let names: [String]
    /// Whether each subscriber's time is measured (output shows it).
    package let timed: Bool
    /// Where deadlines are measured and armed (the dispatcher's clock).
    package let clock: any HostClock
    /// Where calls that arrive after delivery are reported.
    package let lateReports: LateReports
    /// Reports a loaded subscriber's answer that breaks the header (its index, the event, what is
    /// wrong: returned or passed, expected, read as). [any-thread]
    package let problem: @Sendable (Int, LifecycleEvent, String) -> Void

    /// The answer record each event's last delivery made, by the event's index, reused by the next
    /// (``AnswerRecordSpare``); empty for a list made for one delivery. Kept here, not in each
    /// ``ResponderList``: a reference more in a list copied a few times an event cost more retains
    /// than the record saved.
    let spares: [AnswerRecordSpare]

    package convenience init(names: [String], timed: Bool, clock: any HostClock = MonotonicHostClock(), lateReports: LateReports,
                             problem: @escaping @Sendable (Int, LifecycleEvent, String) -> Void) {
        self.init(names: names, timed: timed, clock: clock, lateReports: lateReports, problem: problem, reusingRecords: false)
    }

    /// `reusingRecords`: a list lent to many events (the dispatcher's), whose deliveries reuse the
    /// answer record of an event for the next of the same event once nothing holds it.
    package init(names: [String], timed: Bool, clock: any HostClock, lateReports: LateReports,
                 problem: @escaping @Sendable (Int, LifecycleEvent, String) -> Void, reusingRecords: Bool) {
        self.names = names
        self.timed = timed
        self.clock = clock
        self.lateReports = lateReports
        self.problem = problem
        spares = reusingRecords ? LifecycleEvent.allCases.map { _ in AnswerRecordSpare() } : []
    }

    /// The spare record of `event`'s deliveries; nil when records are not reused.
    @inline(__always)
    func spare(for event: LifecycleEvent) -> AnswerRecordSpare? {
        event.index < spares.count ? spares[event.index] : nil
    }
}

/// What the dispatcher tells one delivery besides the call: the application, this event's policy and
/// deadline, whether to time each subscriber, and where to report.
package struct DeliveryContext {
    /// The event delivered.
    package var event: LifecycleEvent
    /// The application handed to every subscriber: borrowed from ``snapshot``, never copied.
    package var application: Application { _read { yield snapshot.value } }
    /// The application as it is for this delivery: one reference, shared by every event until the
    /// application changes (copying the `Application` struct into each event's context, and
    /// destroying it, cost about 280 instructions an event).
    package let snapshot: ApplicationSnapshot
    /// The serial of this event's C payloads (non-zero, new per event).
    package var serial: UInt64
    /// What the subscriber list delivered to shares (names, timing, clock, where to report).
    package var list: DeliveryList
    /// Whether each subscriber's time is measured (output shows it).
    package var timed: Bool { list.timed }
    /// The subscribers' names, by the indices in ``Responder/subscriber``: how reports name them.
    package var names: [String] { list.names }
    /// The event's policy (reconciler, what nobody answering gives), made by its row.
    package var policy: EventPolicy
    /// The deadline of a completion event, in nanoseconds.
    package var deadline: UInt64
    /// Where the deadline is measured and armed (the dispatcher's clock).
    package var clock: any HostClock { list.clock }
    /// Where calls that arrive after delivery are reported.
    package var lateReports: LateReports { list.lateReports }
    /// Whether the responders after the first that answers true are not called (Flutter's scene
    /// fan-out; an answer at once, or a completion taken rather than declined). False: every one is.
    package var stopsAtFirstYes = false
    /// Whether only the first responder gets `scene.willConnect`'s connection options, the later ones
    /// the event with empty options (Flutter). False: every one gets them.
    package var optionsToFirstOnly = false
    /// Whether only the first completion that arrived in time is reconciled (Expo's `willPresent`).
    /// False: every answer, in call order.
    package var firstCompletedWins = false
    /// Reports a loaded subscriber's answer that breaks the header (its index, a line). [any-thread]
    package var problem: @Sendable (Int, LifecycleEvent, String) -> Void { list.problem }

    /// A context for one delivery, its list made for it alone.
    package init(event: LifecycleEvent, application: Application, serial: UInt64, timed: Bool, names: [String], policy: EventPolicy,
                 deadline: UInt64, clock: any HostClock = MonotonicHostClock(), lateReports: LateReports,
                problem: @escaping @Sendable (Int, LifecycleEvent, String) -> Void) {
        self.init(event: event, snapshot: ApplicationSnapshot(application), serial: serial,
                  list: DeliveryList(names: names, timed: timed, clock: clock, lateReports: lateReports, problem: problem),
                  policy: policy, deadline: deadline)
    }

    /// A context for one delivery to a list made before (the dispatcher's, lent to each event).
    @inline(__always)
    package init(event: LifecycleEvent, snapshot: ApplicationSnapshot, serial: UInt64, list: DeliveryList, policy: EventPolicy,
                 deadline: UInt64) {
        self.event = event
        self.snapshot = snapshot
        self.serial = serial
        self.list = list
        self.policy = policy
        self.deadline = deadline
    }
}

/// An application as it was at some moment, immutable: what the dispatcher lends each event's
/// ``DeliveryContext`` (a new one only when the application changed).
package final class ApplicationSnapshot: Sendable {
    package let value: Application

    package init(_ value: Application) { self.value = value }
}

/// The serials of C payloads, new for every event in the process: a plugin image serves the
/// subscribers of every dispatcher in the process, and decodes once per serial (adh/payloads.h), so
/// two dispatchers must never hand it the same serial for different arguments.
package enum PayloadSerials {
    private static let last = Atomic<UInt64>(0)

    /// A serial no event in this process had (never 0, which means "not numbered").
    package static func next() -> UInt64 {
        last.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
