import SubscriberDelivery
import SubscriberKit

extension LifecycleDispatcher {
    /// Under ``DispatchRules/replaysLaunch``, gives the subscriber named `name` (just added) the
    /// launch's `didFinishLaunching`, alone, once: Flutter gives a plugin added after the launch the
    /// launch, then each connected scene's `scene.willConnect`, oldest first (the stored connection
    /// Flutter gives a plugin registered after its scene connected). Nothing when the rule is off or
    /// the app has not launched; an event it does not respond to is skipped.
    func replayLaunch(to name: String) {
        guard configuration.rules.replaysLaunch, let launch = peer.launch else { return }
        for call in [launch] + peer.connections.map(\.call) { replay(call, to: name) }
    }

    /// Delivers `call` to the subscriber named `name` alone, when it responds; its outcome once
    /// settled (completions are not awaited: these events answer at once or not at all).
    @discardableResult
    private func replay(_ call: AnyEventCall, to name: String) -> EventOutcome<any Sendable>? {
        guard let position = subscribers.firstIndex(where: { $0.name == name }),
              let target = subscribers[position].target(for: call.event) else { return nil }
        let deliveryList = self.deliveryList
        let names = deliveryList.names
        let started = Started(event: call.event, invocation: application.launchInvocation, reports: [],
                              state: applicationState, names: names)
        live.depth += 1
        let outer = callingEvent
        callingEvent = call.event
        let flight = call.event.row.deliver(call, to: ResponderList([Responder(target, subscriber: position)]),
                                            deliveryContext(for: call.event, list: deliveryList))
        callingEvent = outer
        live.depth -= 1
        peer.delivered(call, responders: 1, rules: DispatchRules())  // the launch received; nothing stored again
        guard let settled = flight.settled else { return nil }
        return outcome(of: settled, started)
    }

    /// Gives the subscriber named `name`, just added, the launch (``replayLaunch(to:)``): now, or
    /// once the current event's calls are over when it was added from inside them.
    func replayLaunchNowOrLater(to name: String) {
        guard configuration.rules.replaysLaunch, peer.launch != nil else { return }
        if live.depth == 0 { replayLaunch(to: name) } else { peer.launchReplays.append(name) }
    }

    /// The launch replays that waited for an event's calls to be over.
    func replayDeferredLaunches() {
        while !peer.launchReplays.isEmpty {
            replayLaunch(to: peer.launchReplays.removeFirst())
        }
    }

    /// Under ``DispatchRules/DuplicateRegistration/sameIdAgain``, whether `registration` is one
    /// registered already: the same object, or an in-process one of the same name and type. Then
    /// adding it changes nothing and is no error.
    func registeredAlready(_ registration: SubscriberRegistration) -> Bool {
        guard configuration.rules.duplicateRegistration == .sameIdAgain else { return false }
        if subscribers.contains(where: { $0.subscriber === registration.subscriber }) { return true }
        guard case .inProcess = registration.kind else { return false }
        return registeredAlready(registration.name, type: Swift.type(of: registration.subscriber)) != nil
    }

    /// Under ``DispatchRules/DuplicateRegistration/sameIdAgain``, whether adding an in-process
    /// subscriber of `type` named `name` is the one registered already (same name, same type): then
    /// it is kept as it is and its name handed back, as GoogleUtilities hands back the same
    /// interceptor ID. Nil otherwise (the addition goes on, and a taken name is an error).
    func registeredAlready(_ name: String, type: AnyObject.Type) -> String? {
        guard configuration.rules.duplicateRegistration == .sameIdAgain,
              let existing = subscribers.first(where: { $0.name == name }),
              case .inProcess = existing.kind,
              Swift.type(of: existing.subscriber) == type else { return nil }
        return name
    }
}
