import SubscriberKit

/// How a ``LifecycleDispatcher`` reconciles and waits: the application, the reconciler chosen per
/// event, each completion event's deadline, and the default orientations per idiom. The manifest
/// fills it; the setters validate, so a bad manifest value becomes one clear error.
public struct DispatchConfiguration: Sendable {
    /// iOS's deadline for completion handlers, and the default for every completion event.
    public static let standardDeadline: Duration = .seconds(30)

    /// The application handed to subscribers (its `launchInvocation` is set by the dispatcher).
    public var application: Application
    /// The deadline of every completion event without its own.
    public private(set) var defaultDeadline: Duration = standardDeadline
    /// Per-event deadlines, overriding ``defaultDeadline``.
    public private(set) var deadlines: [LifecycleEvent: Duration] = [:]
    /// Per-event reconcilers, overriding each event's default (docs/events.md).
    public private(set) var reconcilers: [LifecycleEvent: ReconcilerChoice] = [:]
    /// Orientations delivered when nobody answers `supportedInterfaceOrientations`, per idiom, as
    /// the manifest lists them (empty: UIKit's defaults). ``defaultOrientation(for:)`` reads them.
    public var defaultOrientations: [UserInterfaceIdiom: InterfaceOrientationMask] = [:]

    /// A configuration with every event's default reconciler for `application`.
    public init(application: Application) {
        self.application = application
    }

    /// The reconciler `event` uses: the chosen one, else the event's default; nil for notifications.
    public func reconciler(for event: LifecycleEvent) -> ReconcilerChoice? {
        reconcilers[event] ?? event.defaultReconciler
    }

    /// Chooses `choice` for `event`; throws when it does not fit the event's answer type.
    public mutating func setReconciler(_ choice: ReconcilerChoice, for event: LifecycleEvent)
        throws(DispatchConfigurationError)
    {
        try choice.validate(for: event)
        reconcilers[event] = choice
    }

    /// The deadline of `event` (only completion events have one).
    public func deadline(for event: LifecycleEvent) -> Duration {
        deadlines[event] ?? defaultDeadline
    }

    /// Sets `event`'s deadline; throws for a non-completion event or a non-positive duration.
    public mutating func setDeadline(_ deadline: Duration, for event: LifecycleEvent)
        throws(DispatchConfigurationError)
    {
        guard event.answersThroughCompletion else { throw .deadlineWithoutCompletion(event: event) }
        guard deadline > .zero else { throw .nonPositiveDeadline(event: event, deadline: deadline) }
        deadlines[event] = deadline
    }

    /// Sets the deadline of every completion event without its own; throws when not positive.
    public mutating func setDefaultDeadline(_ deadline: Duration) throws(DispatchConfigurationError) {
        guard deadline > .zero else { throw .nonPositiveDeadline(event: nil, deadline: deadline) }
        defaultDeadline = deadline
    }

    /// The orientations delivered for `idiom` when nobody answers (or the answers conflict), the
    /// Info.plist way: the idiom's own entry (`pad` is the `~ipad` key), else `.phone`'s (the plain
    /// key, which applies to every idiom), else UIKit's default: all but upside down, all on a pad.
    public func defaultOrientation(for idiom: UserInterfaceIdiom) -> InterfaceOrientationMask {
        if let own = defaultOrientations[idiom] { return own }
        if let plain = defaultOrientations[.phone] { return plain }
        return idiom == .pad ? .all : .allButUpsideDown
    }
}
