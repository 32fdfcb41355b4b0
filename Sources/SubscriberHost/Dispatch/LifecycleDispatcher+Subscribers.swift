import SubscriberDelivery
import SubscriberKit

/// Why a subscriber could not be added or removed while the host runs. Nothing changed. One line:
/// what, where, expected, found.
public enum SubscriberChangeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A subscriber named `name` is already registered: names are unique among a host's subscribers.
    case duplicateName(String)
    /// The subscriber object registered as `name` is already registered, as `existing` (Expo's
    /// `registerSubscriber` refuses the same object twice too).
    case duplicateSubscriber(name: String, existing: String)
    /// No subscriber named `name` is registered (removing).
    case unknownName(String)
    /// The name cannot be a subscriber's (empty, control characters, too long).
    case invalidName(expected: String, found: String)
    /// Adding `subscriber` would leave its order constraints unsatisfiable (`key`: `after`, `before`).
    case order(subscriber: String, key: String, expected: String, found: String)
    /// The host shut down: no subscriber can be added any more.
    case hostShutDown(String)
    /// The app terminated (`willTerminate` was delivered): nothing would ever be delivered to it.
    case appTerminated(String)

    public var description: String {
        switch self {
        case .duplicateName(let name):
            "adding \"\(name)\": expected a subscriber name no other subscriber has, found \"\(name)\" already registered"
        case .duplicateSubscriber(let name, let existing):
            "adding \"\(name)\": expected a subscriber object not registered yet, found the one registered as \"\(existing)\""
        case .unknownName(let name):
            "removing \"\(name)\": expected the name of a registered subscriber, found no subscriber named \"\(name)\""
        case .invalidName(let expected, let found):
            "adding a subscriber: expected \(expected), found \(found)"
        case .order(let subscriber, let key, let expected, let found):
            "adding \"\(subscriber)\": \(subscriber).\(key): expected \(expected), found \(found)"
        case .hostShutDown(let name):
            "adding \"\(name)\": expected a running host, found one shut down"
        case .appTerminated(let name):
            "adding \"\(name)\": expected an app that has not terminated, found willTerminate delivered "
                + "(no event is delivered after it)"
        }
    }
}

/// What adding and removing subscribers while the host runs needs beside the dispatcher's lists:
/// who was removed during an event (kept alive, and destroyed when its calls are over), who was added
/// and may get a pending notification response, and those responses. [main-actor]
@MainActor
final class LiveSubscribers {
    /// The most notification responses kept for subscribers added later; the oldest goes first.
    static let pendingResponseLimit = 32

    /// How many events are calling their responders right now (more than one when a subscriber
    /// dispatches an event from inside one).
    @exclusivity(unchecked) var depth = 0  // unchecked: main-actor, only ever read or stepped by one
    /// The next registration's ``SubscriberRegistration/sequence``.
    var nextSequence = 0
    /// Removed while an event was calling its responders: kept alive (the event's responder list
    /// borrows them) until its calls are over, then destroyed (loaded) and released.
    @exclusivity(unchecked) var removed: [SubscriberRegistration] = []  // unchecked: as `depth`
    /// Added subscribers that respond to `notifications.didReceiveResponse` while responses wait,
    /// each with where its outcomes go.
    @exclusivity(unchecked) var offers: [(name: String, whenDelivered: (@MainActor (EventOutcome<Void>) -> Void)?)] = []
    /// `notifications.didReceiveResponse` calls no subscriber handled, oldest first (Expo's
    /// `pendingResponses`): offered to subscribers added later.
    var pendingResponses: [AnyEventCall] = []
    /// Whether the host shut down: nothing can be added any more.
    private(set) var isShutDown = false

    /// Whether something waits for the current event's calls to be over.
    var hasDeferredWork: Bool { !removed.isEmpty || !offers.isEmpty }

    /// The event whose unhandled deliveries are kept, by index (read once: a static's accessor per
    /// event would cost more than the comparison).
    private let watched = LifecycleEvent.didReceiveNotificationResponse.index

    /// Whether a delivery of `event` is looked at after its calls: only unhandled notification responses are kept.
    func watches(_ event: LifecycleEvent) -> Bool { event.index == watched }

    func shutDown() {
        isShutDown = true
        offers = []
        pendingResponses = []
    }

    /// The app terminated (willTerminate was delivered): nothing is kept for subscribers added later.
    func terminated() {
        offers = []
        pendingResponses = []
    }

    /// Keeps `call`, dropping the oldest beyond `limit` (a tap that nobody handled stays bounded).
    func keep(_ call: AnyEventCall, limit: Int = pendingResponseLimit) {
        while pendingResponses.count >= max(1, limit) { pendingResponses.removeFirst() }
        pendingResponses.append(call)
    }
}

extension LifecycleDispatcher {
    // MARK: Adding and removing subscribers while the host runs

    /// Adds `registration` while the host runs (Expo's `registerSubscriber`, GoogleUtilities'
    /// `registerAppDelegateInterceptor`): it receives events from the next one on — also when added
    /// from inside an event, which goes on with the subscribers it started with. It takes its place in
    /// dispatch order by its `after`/`before` constraints and priority, after every subscriber of equal
    /// priority registered before it; a constraint naming a subscriber not registered (yet) waits for it.
    ///
    /// When it responds to `notifications.didReceiveResponse` and responses no subscriber handled are
    /// pending, each is delivered to it alone, once, right away (after the current event's calls when
    /// added from inside one); one it does not decline is handed out, and its outcome goes to
    /// `whenResponseDelivered`. Throws, changing nothing, when the name is taken or the constraints
    /// cannot be met (a cycle).
    package func add(_ registration: SubscriberRegistration,
                    whenResponseDelivered: (@MainActor (EventOutcome<Void>) -> Void)? = nil) throws(SubscriberChangeError) {
        if registeredAlready(registration) { return }  // a peer's rule (LifecycleDispatcher+PeerRules.swift)
        var registration = registration
        registration.sequence = live.nextSequence
        subscribers = try checkAddition(of: registration)
        live.nextSequence += 1
        rebuild()
        replayLaunchNowOrLater(to: registration.name)
        if !live.pendingResponses.isEmpty, registration.responds(to: .didReceiveNotificationResponse) {
            live.offers.append((registration.name, whenResponseDelivered))
            if live.depth == 0 { runDeferredChanges() }
        }
    }

    /// The subscribers in dispatch order with `registration` among them; throws when it cannot be added.
    package func checkAddition(of registration: SubscriberRegistration) throws(SubscriberChangeError)
        -> [SubscriberRegistration]
    {
        let name = registration.name
        guard !live.isShutDown else { throw .hostShutDown(name) }
        guard applicationState != .terminated else { throw .appTerminated(name) }
        if let problem = SubscriberName.problem(name) { throw .invalidName(expected: problem.expected, found: problem.found) }
        guard !subscribers.contains(where: { $0.name == name }) else { throw .duplicateName(name) }
        if let existing = subscribers.first(where: { $0.subscriber === registration.subscriber }) {
            throw .duplicateSubscriber(name: name, existing: existing.name)
        }
        var all = subscribers
        all.append(registration)
        all.sort { $0.sequence < $1.sequence }
        do {
            return try SubscriberRegistration.ordered(all) { _, _ in false }
        } catch {
            throw .order(subscriber: all[error.index].name, key: error.key, expected: error.expected, found: error.found)
        }
    }

    /// Checks `registrations` as ``init(checking:configuration:)`` does: each as if added in turn.
    static func check(_ registrations: [SubscriberRegistration]) throws(SubscriberChangeError) {
        var names: Set<String> = []
        var objects: [ObjectIdentifier: String] = [:]
        for registration in registrations {
            let name = registration.name
            if let problem = SubscriberName.problem(name) { throw .invalidName(expected: problem.expected, found: problem.found) }
            guard names.insert(name).inserted else { throw .duplicateName(name) }
            if let existing = objects.updateValue(name, forKey: ObjectIdentifier(registration.subscriber)) {
                throw .duplicateSubscriber(name: name, existing: existing)
            }
        }
        do {
            _ = try SubscriberRegistration.ordered(registrations) { _, _ in false }
        } catch {
            throw .order(subscriber: registrations[error.index].name, key: error.key, expected: error.expected,
                         found: error.found)
        }
    }

    /// Removes the subscriber named `name` while the host runs: from the next event on it receives
    /// nothing — also when removed from inside an event, which goes on with the subscribers it started
    /// with. Once the current event's calls are over (at once outside an event), a loaded subscriber is
    /// destroyed, and the completions it still owes to events waiting for them are settled as at
    /// shutdown: counted as the event's late value, reported `late`. Returns true. When no subscriber
    /// has that name: throws, or under ``DispatchRules/DuplicateRegistration/sameIdAgain`` changes
    /// nothing and returns false (GoogleUtilities' `unregisterAppDelegateInterceptorWithID:` only
    /// logs an unknown ID).
    @discardableResult
    package func remove(named name: String) throws(SubscriberChangeError) -> Bool {
        guard let position = subscribers.firstIndex(where: { $0.name == name }) else {
            if configuration.rules.duplicateRegistration == .sameIdAgain { return false }
            throw .unknownName(name)
        }
        live.removed.append(subscribers.remove(at: position))
        // Its constraints no longer hold the others: priority may now order them differently.
        subscribers = Self.ordered(subscribers.sorted { $0.sequence < $1.sequence })
        rebuild()
        if live.depth == 0 { runDeferredChanges() }
        return true
    }

    /// `registrations` numbered in the order given, then in dispatch order: what a dispatcher starts
    /// with. The host checked the constraints (``PluginHost``); here a name no subscriber has
    /// constrains nothing, and a cycle is a programming error.
    static func ordered(numbering registrations: [SubscriberRegistration]) -> [SubscriberRegistration] {
        var numbered = registrations
        for index in numbered.indices { numbered[index].sequence = index }
        return ordered(numbered)
    }

    /// `registrations` (in registration order) in dispatch order, names no subscriber has ignored.
    private static func ordered(_ registrations: [SubscriberRegistration]) -> [SubscriberRegistration] {
        do {
            return try SubscriberRegistration.ordered(registrations) { _, _ in false }
        } catch {
            preconditionFailure("dispatch order: \(error) (check constraints with SubscriberRegistration.ordered(_:) first)")
        }
    }

    // MARK: After an event's calls

    /// What waited for the calls to be over: subscribers removed meanwhile are destroyed and their
    /// owed completions settled; subscribers added meanwhile are offered the pending responses.
    func runDeferredChanges() {
        while live.hasDeferredWork {
            let removed = live.removed
            live.removed = []
            for registration in removed {
                if case .loaded(let loaded) = registration.kind { loaded.destroy() }
            }
            for registration in removed {
                for flight in waiting.values { flight.abandon(named: registration.name) }
            }
            let offers = live.offers
            live.offers = []
            for offer in offers { offerPendingResponses(to: offer.name, whenDelivered: offer.whenDelivered) }
        }
    }

    // MARK: Pending notification responses

    /// Keeps a `notifications.didReceiveResponse` that no subscriber handled: nobody responds, or
    /// every responder declined (known once the calls returned: a declined slot settles at once).
    /// Returns whether it was kept.
    func keepIfUnhandled(_ call: AnyEventCall, list: ResponderList, flight: InFlight) -> Bool {
        if list.responders.isEmpty || flight.settled?.answers.count == 0 {
            live.keep(call, limit: configuration.rules.pendingResponseLimit)
            return true
        }
        if configuration.rules.pendingResponses == .untilOneHandled { live.pendingResponses = [] }
        return false
    }

    /// Delivers each pending response to the subscriber named `name` alone; one it does not decline
    /// is no longer pending.
    private func offerPendingResponses(to name: String, whenDelivered: (@MainActor (EventOutcome<Void>) -> Void)?) {
        let event = LifecycleEvent.didReceiveNotificationResponse
        guard let position = subscribers.firstIndex(where: { $0.name == name }),
              let target = subscribers[position].target(for: event) else { return }  // removed meanwhile
        let list = ResponderList([Responder(target, subscriber: position)])
        // The names `position` counts in, whatever a delivery below adds or removes.
        let deliveryList = self.deliveryList
        let names = deliveryList.names
        var unhandled: [AnyEventCall] = []
        let pending = live.pendingResponses
        live.pendingResponses = []
        for call in pending {
            let started = Started(event: event, invocation: nil, reports: [], state: applicationState, names: names)
            live.depth += 1
            let outer = callingEvent
            callingEvent = event
            let flight = event.row.deliver(call, to: list, deliveryContext(for: event, list: deliveryList))
            callingEvent = outer
            live.depth -= 1
            if let settled = flight.settled {
                if settled.answers.count == 0 { unhandled.append(call) }
                whenDelivered?(outcome(of: settled, started).withResult(as: Void.self))
                continue
            }
            waiting[ObjectIdentifier(flight)] = flight
            owe(flight) { result in whenDelivered?(self.outcome(of: result, started).withResult(as: Void.self)) }
        }
        // Responses that arrived meanwhile (from a subscriber's own dispatch) stay after the unhandled ones.
        let handledOne = unhandled.count < pending.count
        live.pendingResponses = handledOne && configuration.rules.pendingResponses == .untilOneHandled
            ? [] : unhandled + live.pendingResponses
    }
}
