import Synchronization

/// What the dispatcher tells one delivery besides the call: the application, this event's policy and
/// deadline, whether to time each subscriber, and where to report.
package struct DeliveryContext {
    /// The event delivered.
    package var event: LifecycleEvent
    /// The application handed to every subscriber.
    package var application: Application
    /// The serial of this event's C payloads (non-zero, new per event).
    package var serial: UInt64
    /// Whether each subscriber's time is measured (output shows it).
    package var timed: Bool
    /// The subscribers' names, by the indices in ``Responder/subscriber``: how reports name them.
    package var names: [String]
    /// The event's policy (reconciler, what nobody answering gives), made by its row.
    package var policy: EventPolicy
    /// The deadline of a completion event, in nanoseconds.
    package var deadline: UInt64
    /// Where the deadline is measured and armed (the dispatcher's clock).
    package var clock: any HostClock
    /// Where calls that arrive after delivery are reported.
    package var lateReports: LateReports
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
    package var problem: @Sendable (Int, String) -> Void

    package init(event: LifecycleEvent, application: Application, serial: UInt64, timed: Bool, names: [String], policy: EventPolicy,
                 deadline: UInt64, clock: any HostClock = MonotonicHostClock(), lateReports: LateReports,
                problem: @escaping @Sendable (Int, String) -> Void) {
        self.event = event
        self.application = application
        self.serial = serial
        self.timed = timed
        self.names = names
        self.policy = policy
        self.deadline = deadline
        self.clock = clock
        self.lateReports = lateReports
        self.problem = problem
    }
}

/// What the host's configuration says about answers beyond reconcilers: what nobody answering reads
/// (the default orientations), and how the restoration handler gathers its lists.
package struct DeliverySettings: Sendable, Hashable {
    /// Orientations delivered when nobody answers `supportedInterfaceOrientations`, per idiom.
    package var defaultOrientations: [UserInterfaceIdiom: InterfaceOrientationMask] = [:]
    /// Whether the restoration lists come from every subscriber that calls the restoration handler
    /// (Expo) instead of only from those that returned true (the default).
    package var restorationFromEveryCaller = false

    package init() {}

    /// The orientations delivered for `idiom` when nobody answers (or the answers conflict), the
    /// Info.plist way: the idiom's own entry (`pad` is the `~ipad` key), else `.phone`'s (the plain
    /// key, which applies to every idiom), else UIKit's default: all but upside down, all on a pad.
    package func defaultOrientation(for idiom: UserInterfaceIdiom) -> InterfaceOrientationMask {
        if let own = defaultOrientations[idiom] { return own }
        if let plain = defaultOrientations[.phone] { return plain }
        return idiom == .pad ? .all : .allButUpsideDown
    }
}

/// What an event delivers when nobody answers (nobody responds, or every answer is no opinion).
package enum Nobody<Value, Answer> {
    /// Always this.
    case constant(Answer)
    /// Read from the settings and the arguments; `description` says what, for the docs.
    case computed(description: String, @Sendable (Value, DeliverySettings) -> Answer)

    package func answer(for value: Value, _ settings: DeliverySettings) -> Answer {
        switch self {
        case .constant(let answer): answer
        case .computed(_, let compute): compute(value, settings)
        }
    }
}

// Sendable only where its types are, not as a requirement of its parameters: a requirement is
// checked when the type's metadata is made from its mangled name, once per plugin image, by a
// conformance lookup that scans every loaded image (1,000 plugins took 25 s to load).
extension Nobody: Sendable where Value: Sendable, Answer: Sendable {}

/// One event's policy, typed by its shapes inside: the reconciler chosen (or the default), what
/// nobody answering delivers, how completions are collected. Made once per event when a
/// configuration is built (``EventRow/policy(_:settings:)``).
package class EventPolicy: @unchecked Sendable {
    // @unchecked: immutable.
    /// The reconciler in use; nil for events that combine nothing.
    package let choice: ReconcilerChoice?

    init(choice: ReconcilerChoice?) { self.choice = choice }

    /// What a responder that missed the deadline counts as (the event's answer type); nil: nothing.
    package var lateAnswer: (any Sendable)? { nil }
}

/// The policy of an event of shapes `Arguments` and `Answer`.
final class TypedPolicy<Value: Sendable, Answer: Sendable>: EventPolicy, @unchecked Sendable {
    let reconciler: Reconciler<Answer>
    let nobody: Nobody<Value, Answer>
    let settings: DeliverySettings
    /// What a responder that missed the deadline counts as; nil: nothing.
    let late: Answer?

    init(reconciler: Reconciler<Answer>, shown: ReconcilerChoice?, nobody: Nobody<Value, Answer>, settings: DeliverySettings,
         late: Answer?) {
        self.reconciler = reconciler
        self.nobody = nobody
        self.settings = settings
        self.late = late
        super.init(choice: shown)
    }

    override package var lateAnswer: (any Sendable)? { late }
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
