import SubscriberValues
// An event's policy and what it is made from: the host's settings, what nobody answering delivers.
// The event rows make policies (EventRow.policy(_:settings:)); the delivery engine reads them.

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
package final class TypedPolicy<Value: Sendable, Answer: Sendable>: EventPolicy, @unchecked Sendable {
    package let reconciler: Reconciler<Answer>
    package let nobody: Nobody<Value, Answer>
    package let settings: DeliverySettings
    /// What a responder that missed the deadline counts as; nil: nothing.
    package let late: Answer?

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
