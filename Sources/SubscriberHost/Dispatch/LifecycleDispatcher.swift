import SubscriberDelivery
import SubscriberKit

/// Forwards every lifecycle event to every subscriber that responds, in order, and reconciles their
/// answers into one result (docs/events.md): Expo's `ExpoAppDelegate`, for subscribers loaded from
/// plugins or registered in-process alike.
///
/// - Every responder is called, even when the answer is already decided: reconcilers only see the
///   answers after all calls.
/// - An app delegate answers UIKit at once: ``dispatchAtOnce(_:whenDelivered:)`` returns what the
///   event's UIKit method returns (`openURL`'s `Bool`, `continueUserActivity`'s handled `Bool`,
///   nothing for `performFetch`) and hands what comes later (the fetch result, the restoration lists)
///   to `whenDelivered`. ``dispatch(_:)`` waits for that and returns it.
/// - Completions are delivered exactly once, on the main actor: when every awaited responder has
///   called back, or at the event's deadline with what arrived.
/// - Events are delivered in the order they are dispatched; each event's calls all return before
///   the next event's begin. An event dispatched while an earlier one waits for completions is
///   delivered at once, as UIKit does: the earlier one's completions may arrive after it. An event
///   dispatched from inside another's calls (a subscriber's method) is refused with a
///   `stateViolation`: UIKit's run loop never nests one event in another.
/// - The dispatcher keeps the application's state (``applicationState``) and each scene's: an event
///   UIKit would never deliver in them (`didBecomeActive` before launch, a second launch, anything
///   after `willTerminate`, a scene event for an unknown scene) is not delivered, and its outcome
///   carries a `stateViolation` report. Once scenes exist, the app's state follows them.
/// - With ``DispatchConfiguration/sceneBridge``, a scene event no scene subscriber handled is replayed
///   to app-level subscribers (SceneBridge.swift); the outcome lists the replays (``EventOutcome/bridged``).
/// - Calls that arrive after their event was delivered are ignored and reported: in the reports of
///   the next outcome, or through ``takeLateReports()``.
@MainActor
package final class LifecycleDispatcher {
    /// The subscribers in dispatch order: their `after`/`before` constraints, then priority (higher
    /// first), then registration order. ``add(_:whenResponseDelivered:)`` and ``remove(named:)``
    /// change them while the host runs, from the next event on.
    package internal(set) var subscribers: [SubscriberRegistration]
    /// Reconcilers, deadlines, default orientations.
    package let configuration: DispatchConfiguration
    /// The application handed to subscribers: its launch invocation and state are kept up to date.
    // Unchecked (this and the dispatcher's other per-event state below): main-actor state that no
    // access holds across a call into a subscriber or anything else that could reach it again (each
    // is a read, an assignment or a short in-place change), so the run-time check — 7 of them an
    // event in `start`, about 1,000 instructions with their access set — could never find a conflict.
    @exclusivity(unchecked) package private(set) var application: Application
    /// ``application`` as lent to each event's delivery context: made again only after it changed
    /// (nil until then), not copied into every event's.
    @exclusivity(unchecked) private var applicationSnapshot: ApplicationSnapshot?

    /// The application's state.
    package var applicationState: ApplicationState { machine.state }
    /// The same, where C plugins read it (`adh.host.state/1`).
    package let stateCell: ApplicationStateCell

    /// The activation state of scene `identifier` (its session's persistent identifier); nil when it
    /// is not connected (it never was, or it disconnected).
    package func sceneState(of identifier: String) -> SceneState? { machine.scenes[identifier]?.state }

    /// How many scene identifiers the state machine keeps (connected ones and the disconnected ones
    /// it remembers): bounded, whatever the events.
    package var sceneIdentifiersKept: Int { machine.scenes.keptCount }

    @exclusivity(unchecked) private var machine: ApplicationStateMachine
    /// The responders of each event, by event index, in dispatch order.
    @exclusivity(unchecked) private var lists: [ResponderList] = []
    /// What every delivery to the subscribers as they are now shares: their names, by position in
    /// ``subscribers``, how a loaded subscriber's answer that breaks the header is reported, the clock,
    /// timing, where late calls go. Made by ``rebuild()`` (not per event) and lent to each event.
    @exclusivity(unchecked) private(set) var deliveryList: DeliveryList
    /// The subscribers' names, by position in ``subscribers``.
    var names: [String] { deliveryList.names }
    /// Each event's policy, by event index.
    private let policies: [EventPolicy]
    /// Each event's deadline in nanoseconds, by event index: the configuration's dictionary looked
    /// up and its `Duration` converted once, not per event (about 480 instructions an event).
    private let deadlines: [UInt64]
    /// Non-zero when a peer's rule changes how some event is delivered (fan-out, connection options,
    /// willPresent's answer): only then are the rules looked at per event.
    private let ruleFlags: Int
    /// Also what the token table's sinks of this dispatcher's events name as their owner (tests count them).
    let lateReports = LateReports()
    /// Events still waiting for completions, so that shutting down delivers them.
    @exclusivity(unchecked) var waiting: [ObjectIdentifier: InFlight] = [:]
    /// Results owed to a `whenDelivered` handler, by flight: settled before ``shutDown()`` returns.
    private var owed: [ObjectIdentifier: OwedDelivery] = [:]
    private var nextOwed = 0
    /// The event whose subscribers are being called now (nil between events): an event dispatched
    /// meanwhile is refused.
    @exclusivity(unchecked) var callingEvent: LifecycleEvent?
    /// Subscribers added and removed while the host runs, and the notification responses nobody
    /// handled (LifecycleDispatcher+Subscribers.swift).
    let live = LiveSubscribers()
    /// What the peers' rules remember (``DispatchRules``, DispatchRules.swift).
    let peer = PeerRuleState()
    /// Whether a subscriber is a C plugin's: only those are handed completion tokens, so only then
    /// are the process's calls with a token the host never gave this dispatcher's to report.
    private var reportsUnattributedForgeries = false
    /// ``CompletionTokens/unattributedForgedCount`` when this dispatcher last reported it.
    private var unattributedForgeriesSeen = 0

    /// A dispatcher over `subscribers`, put in dispatch order here (their `after`/`before`
    /// constraints, then priority, then the order given). Constraints that form a cycle are a
    /// programming error: use ``init(checking:configuration:)`` for registrations made elsewhere.
    package convenience init(subscribers: [SubscriberRegistration], configuration: DispatchConfiguration) {
        self.init(subscribers: subscribers, configuration: configuration, state: ApplicationStateCell())
    }

    /// A dispatcher over `subscribers`, each checked as ``add(_:whenResponseDelivered:)`` checks it:
    /// throws when two share a name, the same object is registered twice, a name is not one a
    /// manifest could give, or the `after`/`before` constraints form a cycle.
    package convenience init(checking subscribers: [SubscriberRegistration], configuration: DispatchConfiguration)
        throws(SubscriberChangeError)
    {
        try Self.check(subscribers)
        self.init(subscribers: subscribers, configuration: configuration)
    }

    /// A dispatcher that keeps the application's state in `state` (the cell the C subscribers' host
    /// interfaces read). When `enforcesApplicationState` is false, an event that breaks the state
    /// machine is delivered anyway (a test driving one subscriber through any event).
    package init(subscribers: [SubscriberRegistration], configuration: DispatchConfiguration, state: ApplicationStateCell,
                 enforcesApplicationState: Bool = true) {
        machine = ApplicationStateMachine(enforcing: enforcesApplicationState)
        self.subscribers = Self.ordered(numbering: subscribers)
        self.configuration = configuration
        self.application = configuration.application
        self.stateCell = state
        deliveryList = DeliveryList(names: [], timed: configuration.measuresSubscribers, clock: configuration.clock,
                                    lateReports: lateReports, problem: { _, _, _ in })
        policies = configuration.policies()
        deadlines = LifecycleEvent.allCases.map { configuration.deadline(for: $0).nanosecondsSaturating }
        let rules = configuration.rules
        ruleFlags = (rules.sceneFanOut == .firstYes ? 1 : 0) | (rules.sceneConnectionOptions == .firstSubscriber ? 2 : 0)
            | (rules.willPresentAnswer == .firstCompleted ? 4 : 0)
        state.state = .notRunning
        application.applicationState = .notRunning
        live.nextSequence = self.subscribers.count
        rebuild()
    }

    /// The names of the subscribers `event` goes to, in call order.
    package func responderNames(for event: LifecycleEvent) -> [String] {
        lists[event.index].responders.map { names[$0.subscriber] }
    }

    /// Takes the reports about calls that arrived after their event was delivered and that no
    /// outcome has carried yet (e.g. after the last event).
    package func takeLateReports() -> [DispatchReport] {
        drainLateReports()
    }

    // MARK: Dispatch

    /// Delivers `call` to every responder of its event, in order, and returns its outcome once every
    /// awaited completion arrived or the event's deadline passed; at once for an event without
    /// completions.
    package func dispatch<Immediate, Final>(_ call: EventCall<Immediate, Final>) async -> EventOutcome<Final> {
        let (flight, started) = start(call.erased)
        let result = await flight.finish()
        waiting[ObjectIdentifier(flight)] = nil
        return outcome(of: result, started).withResult(as: Final.self)
    }

    /// ``dispatch(_:)`` for a call whose types are erased (a script's): its outcome as built, not
    /// retyped (no copy of the outcome, no cast of its result).
    package func dispatch(_ call: AnyEventCall) async -> AnyEventOutcome {
        var made: AnyEventOutcome?
        guard let waiting = begin(call, settled: { made = $0 }) else { return made! }
        return await finish(waiting)
    }

    /// A call whose completions are awaited (``begin(_:settled:)``).
    package struct Waiting {
        let flight: InFlight
        let started: Started
    }

    /// ``dispatch(_:)``'s first half, synchronous: a caller that plays many events (`apphost`'s
    /// script) reaches no suspension point for an event that awaits nothing (the async calls of each
    /// event cost about 1,500 instructions in the concurrency runtime). The same steps in the same
    /// order as ``dispatch(_:)``, whose `finish` returns such a flight's result at once. An outcome
    /// known now goes to `settled` in place (not copied out of a returned value) and nil is returned;
    /// else what ``finish(_:)`` waits for.
    package func begin(_ call: AnyEventCall, settled: (inout AnyEventOutcome) -> Void) -> Waiting? {
        let (flight, started) = start(call)
        var made: AnyEventOutcome
        if let known = flight as? SettledFlight {
            // Settled when delivered (no completion awaited, the usual event): its result read in
            // place, not copied out of the flight and destroyed.
            made = outcome(of: known.result, started)
        } else {
            guard let result = flight.settled else { return Waiting(flight: flight, started: started) }
            // Kept by `start` only if it was not settled then (a completion from another thread since).
            if !waiting.isEmpty { waiting[ObjectIdentifier(flight)] = nil }
            made = outcome(of: result, started)
        }
        settled(&made)
        return nil
    }

    /// ``dispatch(_:)``'s second half: the outcome once every awaited completion arrived or the
    /// deadline passed.
    package func finish(_ call: Waiting) async -> AnyEventOutcome {
        let result = await call.flight.finish()
        waiting[ObjectIdentifier(call.flight)] = nil
        return outcome(of: result, call.started)
    }

    /// ``dispatchAtOnce(_:whenDelivered:)`` for a call whose types are erased (a script's), compiled
    /// for them: no generic metadata looked up, no outcome retyped.
    @discardableResult
    package func dispatchAtOnce(_ call: AnyEventCall, whenDelivered: (@MainActor (AnyEventOutcome) -> Void)? = nil)
        -> AnyEventOutcome
    {
        let (flight, started) = start(call)
        if let settled = flight.settled {
            waiting[ObjectIdentifier(flight)] = nil
            var delivered = outcome(of: settled, started)
            whenDelivered?(delivered)
            delivered.result = flight.immediate
            return delivered
        }
        owe(flight) { result in whenDelivered?(self.outcome(of: result, started)) }
        var pending = AnyEventOutcome(event: call.event, result: flight.immediate, answers: [], reports: started.reports,
                                      invocation: started.invocation, applicationState: machine.state)
        pending.scene = started.scene?.identifier
        pending.refusal = started.refusal
        pending.isKept = started.kept
        pending.urlHook = started.urlHook
        return pending
    }

    /// Delivers `call` to every responder of its event, in order, and returns at once what the
    /// event's UIKit method returns at once: `openURL`'s `Bool`, `continueUserActivity`'s handled
    /// `Bool`, nothing for an event that answers through completion handlers. What comes later — the
    /// completions' result, the restoration lists — goes to `whenDelivered`, exactly once, on the main
    /// actor (right away when nothing is awaited). The returned outcome's answers are the ones known
    /// now: every row of an event answered at once, none yet of one answered through completions.
    @discardableResult
    package func dispatchAtOnce<Immediate, Final>(
        _ call: EventCall<Immediate, Final>,
        whenDelivered: (@MainActor (EventOutcome<Final>) -> Void)? = nil
    ) -> EventOutcome<Immediate> {
        let typed = whenDelivered.map { whenDelivered in
            { @MainActor (outcome: AnyEventOutcome) in whenDelivered(outcome.withResult(as: Final.self)) }
        }
        return dispatchAtOnce(call.erased, whenDelivered: typed).withResult(as: Immediate.self)
    }

    /// Hands `flight`'s result to `deliver` once it finished (a task waits for it), or when the host
    /// shuts down, whichever comes first: exactly once, and before ``shutDown()`` returns.
    func owe(_ flight: InFlight, _ deliver: @escaping @MainActor (DeliveryResult) -> Void) {
        let owed = OwedDelivery(flight: flight, order: nextOwed, deliver: deliver)
        nextOwed += 1
        self.owed[ObjectIdentifier(flight)] = owed
        Task { @MainActor in
            let result = await flight.finish()
            self.waiting[ObjectIdentifier(flight)] = nil
            self.settle(owed, with: result)
        }
    }

    private func settle(_ owed: OwedDelivery, with result: DeliveryResult) {
        guard let deliver = owed.deliver else { return }
        owed.deliver = nil
        self.owed[ObjectIdentifier(owed.flight)] = nil
        deliver(result)
    }

    /// What ``start(_:)`` knew before the result: the state it delivered in, the invocation, reports.
    struct Started {
        var event: LifecycleEvent
        var invocation: LaunchInvocation?
        var reports: [DispatchReport]
        /// The state once its responders were called: what its outcome says, even when its
        /// completions arrive after later events moved the state on.
        var state: ApplicationState
        /// For a scene event, its scene and what the bridge replayed; nil for every other event
        /// (one reference, so that an app event's start copies nothing more).
        var scene: SceneStart?
        /// The subscribers' names when it was delivered (its rows name them by position), whatever
        /// was added or removed since.
        var names: [String]
        /// Why it was not delivered; nil when it was.
        var refusal: DispatchReport? = nil
        /// Whether it was a notification response nobody handled, kept for subscribers added later.
        var kept = false
        /// What the URL hooks decided, one line each.
        var urlHook: [String] = []
    }

    /// What a scene event's start knew about its scene.
    final class SceneStart {
        /// The scene the event names.
        let identifier: String
        /// The app-level events the scene bridge replayed for it.
        var bridged: BridgedFlight?
        init(_ identifier: String) { self.identifier = identifier }
    }

    /// Admits `call` by the state machine, and calls its responders (none when refused).
    private func start(_ call: AnyEventCall) -> (InFlight, Started) {
        // URL hooks first: what they rewrite or drop is what is classified and delivered (URLHook.swift).
        let hooked = applyURLHooks(call)
        let event = call.event
        let row = event.row
        let named = row.namesScene ? row.scene(of: call) : nil
        // The subscribers as they are now: one added or removed during this event (also by a
        // bridge replay's subscriber) counts from the next event, and the rows name these.
        // (Kept only for the scene bridge, which replays after the calls: nothing else reads it then.)
        let lists = configuration.sceneBridge ? self.lists : []
        let deliveryList = self.deliveryList
        // This event's responders, read with the names its rows index into (both as they are now).
        let eventList = self.lists[event.index]
        // What the outcome will say, kept apart and made into its `Started` once, where it is
        // returned (a `Started` built first and changed along the way was copied out to return it).
        var reports: [DispatchReport] = []
        var invocation: LaunchInvocation? = nil
        var refusal: DispatchReport? = nil
        let scene = named.map { SceneStart($0.identifier) }
        var call = hooked?.call ?? call
        let list: ResponderList
        // Whether it is delivered (`refusal` is nil), kept as a Bool: `refusal == nil` compared two
        // `DispatchReport?`s through Equatable, copying and destroying them (about 75 instructions a test).
        let delivered: Bool
        var after: ApplicationState
        let launching = machine.launchInProgress
        let admission: ApplicationStateMachine.Admission
        if let outer = callingEvent {
            // Dispatched from inside another event's calls: UIKit's run loop delivers one event at
            // a time, and the state machine would see this one between the other's subscribers.
            admission = .refuse(.stateViolation(
                event: event, state: machine.state,
                expected: "no event dispatched from inside the calls of another (\(outer)): dispatch it once they "
                    + "returned (from a Task, or after dispatchAtOnce returned)"))
        } else {
            admission = named.map({ machine.admit(event, scene: $0) }) ?? machine.admit(event)
        }
        switch admission {
        case .refuse(let report):
            // The peers' rules may forward an event the state machine refused (DispatchRules.swift);
            // never one dispatched from inside another's calls.
            let (forwards, reported) = callingEvent == nil ? peer.forwardsRefused(event, rules: configuration.rules) : (false, true)
            if reported { reports.append(report) }
            if !forwards { refusal = report }
            delivered = forwards
            list = forwards ? eventList : .empty
            after = machine.state
        case .deliver(var during, let next):
            after = next
            delivered = true
            // The scene as the host knows it: the role it connected with, its state during the call.
            if let admitted = machine.admittedScene { call = row.call(call, naming: admitted.scene) }
            if case .launch = row.state {
                // Classified before any subscriber is called, for this and every later event.
                classify(as: row.launchInvocation(of: call) ?? application.launchInvocation)
                invocation = application.launchInvocation
                // UIKit launches an app for a background task in the background, not inactive.
                if case .background? = application.launchInvocation { (during, after) = (.background, .background) }
            } else if launching, let implied = row.launchInvocation(of: call),
                      implied.precedence < (application.launchInvocation?.precedence ?? .max) {
                // What launched the app, learned while it launches: a notification response the user
                // tapped, a scene's connection options (its URL, activity, quick action).
                classify(as: implied)
                invocation = implied
            }
            setState(during)
            list = hooked?.dropsAll == true ? .empty : eventList
        }
        live.depth += 1
        let outer = callingEvent
        callingEvent = event
        var flight = row.deliver(call, to: list, deliveryContext(for: event, list: deliveryList))
        if delivered, configuration.rules.remembersDeliveries {
            peer.delivered(call, responders: list.responders.count, rules: configuration.rules)
        }
        if configuration.sceneBridge, let admitted = machine.admittedScene,
           row.bridge != nil || event == .sceneWillConnect {
            // The list the event started with: the replays' rows name the same subscribers.
            let bridged = SceneBridge.replay(call, delivered: flight, admitted: admitted, lists: lists,
                                             rules: configuration.rules) { replay, responders in
                var context = self.deliveryContext(for: replay.event, list: deliveryList)
                // The scene's method has no restoration handler to hand lists to: a replayed
                // continueUserActivity takes the lists given during its calls and waits for no
                // other (the handler is optional: one never called stalls nothing).
                if replay.event.row.timing == .restoration { context.deadline = 0 }
                return replay.event.row.deliver(replay, to: responders, context)
            }
            scene?.bridged = bridged
            flight = bridged ?? flight
        }
        callingEvent = outer
        live.depth -= 1
        machine.delivered(after: after)
        setState(after)
        // Nothing is delivered after termination: a response kept for subscribers added later never will be.
        if after == .terminated, delivered { live.terminated() }
        // A refused event carries its stateViolation report, and nothing else yet.
        let kept = live.watches(event) && reports.isEmpty && keepIfUnhandled(call, list: list, flight: flight)
        if !flight.isSettled { waiting[ObjectIdentifier(flight)] = flight }
        if live.hasDeferredWork, live.depth == 0 { runDeferredChanges() }
        if live.depth == 0, !peer.launchReplays.isEmpty { replayDeferredLaunches() }
        return (flight, Started(event: event, invocation: invocation, reports: reports, state: after, scene: scene,
                                names: deliveryList.names, refusal: refusal, kept: kept, urlHook: hooked?.notes ?? []))
    }

    /// What a delivery of `event` needs besides its responders, for the subscriber list `list` (the
    /// dispatcher's ``deliveryList`` when the event started: its names are the ones its rows count in).
    @inline(__always)
    func deliveryContext(for event: LifecycleEvent, list: DeliveryList) -> DeliveryContext {
        let index = event.index
        let snapshot: ApplicationSnapshot
        if let made = applicationSnapshot {
            snapshot = made
        } else {
            snapshot = ApplicationSnapshot(application)
            applicationSnapshot = snapshot
        }
        var context = DeliveryContext(event: event, snapshot: snapshot, serial: PayloadSerials.next(), list: list,
                                      policy: policies[index], deadline: deadlines[index])
        if ruleFlags != 0 {
            let rules = configuration.rules
            if rules.sceneFanOut == .firstYes { context.stopsAtFirstYes = DispatchRules.firstYesEvents.contains(event) }
            if rules.sceneConnectionOptions == .firstSubscriber { context.optionsToFirstOnly = event == .sceneWillConnect }
            if rules.willPresentAnswer == .firstCompleted { context.firstCompletedWins = event == .willPresentNotification }
        }
        return context
    }

    /// Builds the outcome and attaches the late reports gathered since the previous one.
    func outcome(of result: DeliveryResult, _ started: Started) -> EventOutcome<any Sendable> {
        let late = drainLateReports()
        // Mostly all three are empty, or only the result's are not: no arrays joined for nothing.
        let reports = started.reports.isEmpty && late.isEmpty ? result.reports : started.reports + result.reports + late
        var outcome = EventOutcome(event: started.event, result: result.final, record: result.answers, names: started.names,
                                   reports: reports, invocation: started.invocation, applicationState: started.state)
        if let refusal = started.refusal { outcome.refusal = refusal }
        outcome.isKept = started.kept
        if !started.urlHook.isEmpty { outcome.urlHook = started.urlHook }
        if let scene = started.scene {
            outcome.scene = scene.identifier
            if let bridged = scene.bridged { outcome.bridged = bridged.outcomes(names: started.names, state: started.state) }
        }
        return outcome
    }

    /// How the app was launched, for subscribers in-process and through C.
    private func classify(as invocation: LaunchInvocation?) {
        application.launchInvocation = invocation
        applicationSnapshot = nil
        stateCell.setInvocation(invocation)
    }

    private func setState(_ state: ApplicationState) {
        if application.applicationState != state {
            application.applicationState = state
            applicationSnapshot = nil
        }
        stateCell.state = state
    }

    /// How a loaded subscriber's answer that breaks the header is reported: an `invalidAnswer` report
    /// (a run with one ends with status 1), in the outcome of the event it answered, or of the next
    /// one for a completion that came after. Made once per subscriber list (not per event: the
    /// dispatch path allocates nothing for it). [any-thread]
    private static func problemReporter(_ subscribers: [SubscriberRegistration], into lateReports: LateReports)
        -> @Sendable (Int, LifecycleEvent, String) -> Void
    {
        let names = subscribers.map(\.name)
        return { index, event, problem in lateReports.append(.invalidAnswer(subscriber: names[index], event: event, problem: problem)) }
    }

    // MARK: Subscribers

    /// Rebuilds each event's responder list from ``subscribers``, and what their deliveries share.
    func rebuild() {
        deliveryList = DeliveryList(names: subscribers.map(\.name), timed: configuration.measuresSubscribers,
                                    clock: configuration.clock, lateReports: lateReports,
                                    problem: Self.problemReporter(subscribers, into: lateReports), reusingRecords: true)
        peer.hooks = nil  // URL hooks are found again when next needed (URLHook.swift)
        // Subscriber by subscriber, each read once (not once per event), into every event's list
        // in dispatch order: `lists[event.index]`.
        let events = LifecycleEvent.allCases
        var responders = [[Responder]](repeating: [], count: events.count)
        for (index, registration) in subscribers.enumerated() {
            for event in events {
                if let target = registration.target(for: event) {
                    responders[event.index].append(Responder(target, subscriber: index))
                }
            }
        }
        lists = responders.map(ResponderList.init)
        let reported = reportsUnattributedForgeries
        reportsUnattributedForgeries = subscribers.contains { if case .loaded = $0.kind { true } else { false } }
        // Counted from the first loaded subscriber on: a rebuild while the host runs loses no count.
        if reportsUnattributedForgeries, !reported { unattributedForgeriesSeen = CompletionTokens.shared.unattributedForgedCount }
    }

    /// The host shut down, its loaded subscribers destroyed: events still waiting for completions are
    /// delivered with what arrived (later calls are reported as after shutdown), and from now on no
    /// event goes to a loaded subscriber.
    package func shutDown() {
        live.shutDown()
        for flight in waiting.values { flight.deliverNow() }
        subscribers.removeAll { if case .loaded = $0.kind { true } else { false } }
        rebuild()
        // Every whenDelivered handler still owed runs now, in dispatch order, with what arrived: an
        // app that exits once shutDown() returned has seen every one.
        for owed in owed.values.sorted(by: { $0.order < $1.order }) {
            if let result = owed.flight.settled { settle(owed, with: result) }
        }
    }

    /// The late reports, then one counting the calls with a context the host never gave that arrived
    /// since the last look, outside any subscriber's call (a plugin's own thread can make them at any time).
    private func drainLateReports() -> [DispatchReport] {
        var late = lateReports.drain()
        guard reportsUnattributedForgeries else { return late }
        let forged = CompletionTokens.shared.unattributedForgedCount
        if forged != unattributedForgeriesSeen {
            late.append(.unattributedForgedCompletion(count: forged &- unattributedForgeriesSeen))
            unattributedForgeriesSeen = forged
        }
        return late
    }
}

/// A result owed to a `whenDelivered` handler (``LifecycleDispatcher/owe(_:_:)``): delivered once,
/// by the task that waits for it or by shutting down.
@MainActor
final class OwedDelivery {
    let flight: InFlight
    /// Dispatch order, for shutting down.
    let order: Int
    /// Nil once delivered.
    var deliver: (@MainActor (DeliveryResult) -> Void)?

    init(flight: InFlight, order: Int, deliver: @escaping @MainActor (DeliveryResult) -> Void) {
        self.flight = flight
        self.order = order
        self.deliver = deliver
    }
}
