import SubscriberDelivery
import SubscriberKit

/// How a ``LifecycleDispatcher`` reconciles and waits: the application, the reconciler chosen per
/// event, each completion event's deadline, the default orientations per idiom, how the restoration
/// handler gathers its lists, and whether subscribers are timed. The manifest fills it; the setters
/// validate, so a bad manifest value becomes one clear error.
package struct DispatchConfiguration: Sendable {
    /// iOS's deadline for completion handlers, and the default for every completion event.
    package static let standardDeadline: Duration = .seconds(30)

    /// The application handed to subscribers (its launch invocation and state are the dispatcher's).
    package var application: Application
    /// The deadline of every completion event without its own.
    package private(set) var defaultDeadline: Duration = standardDeadline
    /// Per-event deadlines, overriding ``defaultDeadline``.
    package private(set) var deadlines: [LifecycleEvent: Duration] = [:]
    /// Per-event reconcilers, overriding each event's default (docs/events.md).
    package private(set) var reconcilers: [LifecycleEvent: ReconcilerChoice] = [:]
    /// Whether each subscriber's time is measured (``SubscriberAnswer/duration``). Off by default: it
    /// costs a clock read per subscriber per event; `apphost` turns it on, as its output shows times.
    package var measuresSubscribers = false
    /// What nobody answering reads, and how the restoration handler gathers its lists.
    package var settings = DeliverySettings()
    /// Whether a scene event that no scene subscriber handled is replayed to app-level subscribers
    /// (`openURLContexts` as `openURL` per URL, the user activities, the quick action, the
    /// transitions that change the app's state): the manifest's `sceneBridge`, off by default. See
    /// docs/events.md for what "handled" means per event and which peer each rule reproduces.
    package var sceneBridge = false
    /// The dispatcher's rules where the peers differ (a profile's, or the manifest's own keys).
    package var rules = DispatchRules()
    /// Where deadlines are measured and armed: the system's monotonic clock, or one an embedding app
    /// or a test passes (``HostOptions/clock``; a ``ManualHostClock`` moves only when advanced).
    package var clock: any HostClock = MonotonicHostClock()

    /// A configuration with every event's default reconciler for `application`.
    package init(application: Application) {
        self.application = application
    }

    /// Orientations delivered when nobody answers `supportedInterfaceOrientations`, per idiom, as the
    /// manifest lists them (empty: UIKit's defaults). ``defaultOrientation(for:)`` reads them.
    package var defaultOrientations: [UserInterfaceIdiom: InterfaceOrientationMask] {
        get { settings.defaultOrientations }
        set { settings.defaultOrientations = newValue }
    }

    /// Whether `continueUserActivity`'s restoration lists come from every subscriber that calls the
    /// restoration handler (Expo) instead of only from those that returned true (the default, UIKit's
    /// contract).
    package var restorationFromEveryCaller: Bool {
        get { settings.restorationFromEveryCaller }
        set { settings.restorationFromEveryCaller = newValue }
    }

    /// The reconciler `event` uses: the chosen one, else the event's default; nil for events that
    /// combine nothing.
    package func reconciler(for event: LifecycleEvent) -> ReconcilerChoice? {
        reconcilers[event] ?? event.defaultReconciler
    }

    /// Chooses `choice` for `event`; throws when it does not fit the event's answer.
    package mutating func setReconciler(_ choice: ReconcilerChoice, for event: LifecycleEvent)
        throws(DispatchConfigurationError)
    {
        do {
            try event.check(choice)
        } catch {
            throw .reconcilerDoesNotFit(event: event, expected: error.expected, found: error.found)
        }
        reconcilers[event] = choice
    }

    /// The deadline of `event` (only completion events have one).
    package func deadline(for event: LifecycleEvent) -> Duration {
        deadlines[event] ?? defaultDeadline
    }

    /// Sets `event`'s deadline; throws for a non-completion event or a non-positive duration.
    package mutating func setDeadline(_ deadline: Duration, for event: LifecycleEvent)
        throws(DispatchConfigurationError)
    {
        guard event.answersThroughCompletion else { throw .deadlineWithoutCompletion(event: event) }
        guard deadline > .zero else { throw .nonPositiveDeadline(event: event, deadline: deadline) }
        deadlines[event] = deadline
    }

    /// Sets the deadline of every completion event without its own; throws when not positive.
    package mutating func setDefaultDeadline(_ deadline: Duration) throws(DispatchConfigurationError) {
        guard deadline > .zero else { throw .nonPositiveDeadline(event: nil, deadline: deadline) }
        defaultDeadline = deadline
    }

    /// The orientations delivered for `idiom` when nobody answers (or the answers conflict), the
    /// Info.plist way: the idiom's own entry (`pad` is the `~ipad` key), else `.phone`'s (the plain
    /// key, which applies to every idiom), else UIKit's default: all but upside down, all on a pad.
    package func defaultOrientation(for idiom: UserInterfaceIdiom) -> InterfaceOrientationMask {
        settings.defaultOrientation(for: idiom)
    }

    /// Every event's policy, by event index. The setters checked every choice, so none can fail.
    package func policies() -> [EventPolicy] {
        EventTable.rows.map { row in
            do throws(ReconcilerMismatch) {
                return try row.policy(reconcilers[row.event], settings: settings)
            } catch {
                preconditionFailure("\(row.name): a reconciler that setReconciler accepted no longer fits (\(error.expected))")
            }
        }
    }
}
