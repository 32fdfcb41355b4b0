import SubscriberDelivery
import SubscriberKit

/// The application's state as UIKit moves it (UIApplication.State), and each scene's
/// (UIScene.ActivationState), kept by the dispatcher from the events it delivers, each row saying
/// when its event may come and how it moves the states (``StateRule``). An event that would break
/// them — `didBecomeActive` before launch, a second launch, anything after `willTerminate`, a scene
/// event for an unknown scene, a second connection of a connected scene — is refused: not
/// delivered, and reported.
///
/// Once a scene has connected the app is scene-based, as UIKit decides from the app's scene
/// manifest: its state is derived from its scenes' (active if one is foregroundActive, inactive if
/// one is foregroundInactive, background otherwise), and UIKit no longer calls the app delegate's
/// transitions (`applicationDidBecomeActive(_:)` …): a script that sends them then is refused. The
/// scene bridge replays them to app-level subscribers instead (docs/events.md).
struct ApplicationStateMachine {
    /// The state now.
    private(set) var state: ApplicationState = .notRunning
    /// The launch events delivered so far (at most once each per process).
    private var launches = EventFlags()
    /// Whether only launch events were delivered yet: a second launch event may still come.
    private(set) var launching = false
    /// Whether the app has launched and not yet left the state its launch left it in (it has not
    /// become active, nor gone to or come from the background): what arrives meanwhile — a
    /// notification response, a scene's connection options — may tell how it was launched.
    private(set) var launchInProgress = false
    /// The scenes, by identifier.
    private(set) var scenes = SceneStates()
    /// The scene event admitted last (``admit(_:scene:)``); nil when the last event was not a scene
    /// event, or was refused.
    private(set) var admittedScene: SceneAdmission?
    /// Whether an event that breaks the machine is refused; when not (a host driving one subscriber
    /// through any event, the conformance kit), it is delivered in the state as it is.
    let enforcing: Bool

    init(enforcing: Bool = true) {
        self.enforcing = enforcing
    }

    /// Whether an event may be delivered now.
    enum Admission {
        /// Deliver it in state `during`; the state is `after` once its subscribers were called.
        case deliver(during: ApplicationState, after: ApplicationState)
        /// Refuse it, with this report (a stateViolation naming the event, the state, and what was expected).
        case refuse(DispatchReport)
    }

    /// Decides about `event`, an event that names no scene, and moves the state when it is
    /// delivered. Call ``delivered(after:)`` once its subscribers were called.
    mutating func admit(_ event: LifecycleEvent) -> Admission {
        if admittedScene != nil { admittedScene = nil }
        let admission = decide(event)
        if case .refuse = admission, !enforcing { return .deliver(during: state, after: state) }
        return admission
    }

    /// Decides about scene event `event` naming `scene`, and moves the states when it is delivered
    /// (``admittedScene`` says how). Call ``delivered(after:)`` once its subscribers were called.
    mutating func admit(_ event: LifecycleEvent, scene: SceneReference) -> Admission {
        admittedScene = nil
        let admission = decideScene(event, scene)
        if case .refuse = admission, !enforcing {
            // Delivered as named: the role it connected with when known, its state as it is.
            let record = scenes[scene.identifier]
            let named = SceneReference(identifier: scene.identifier, role: scene.role ?? record?.role,
                                       state: record?.state ?? scene.state)
            admittedScene = SceneAdmission(scene: named, after: record?.state ?? scene.state,
                                           applicationBefore: state, applicationAfter: state)
            return .deliver(during: state, after: state)
        }
        return admission
    }

    private mutating func decide(_ event: LifecycleEvent) -> Admission {
        switch event.row.state {
        case .running:
            switch state {
            case .inactive, .active, .background:
                launching = false
                return .deliver(during: state, after: state)
            case .notRunning:
                return refuse(event, "the app launched first (willFinishLaunching or didFinishLaunching)")
            case .terminated:
                return refuse(event, "no event after willTerminate")
            }
        case .launch:
            guard !launches.contains(event) else { return refuse(event, "\(event) at most once per process") }
            // A background launch (UIKit launches it in the background) is launching too.
            guard state == .notRunning || launching else {
                return refuse(event, "\(event) while the app launches, before any other event")
            }
            if event == .willFinishLaunching, launches.contains(.didFinishLaunching) {
                return refuse(event, "willFinishLaunching before didFinishLaunching")
            }
            launches.insert(event)
            launching = true
            launchInProgress = true
            state = .inactive
            return .deliver(during: .inactive, after: .inactive)
        case .transition(let from, let to, let deliveredIn):
            // With scenes, UIKit moves the app by its scenes and calls these no more; it still terminates it.
            if scenes.exist, to != .terminated {
                return refuse(event, "scene transitions: with scenes connected the app's state follows them "
                              + "(UIKit sends scene.\(event.name), not \(event.row.uikit))")
            }
            guard from.contains(state) else {
                let names = from.map(\.name)
                return refuse(event, "the app " + (names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ")
                                                    + " or " + names.last!))
            }
            launching = false
            launchInProgress = false
            let during = deliveredIn == .leaving ? state : to
            state = during
            return .deliver(during: during, after: to)
        case .sceneConnect, .sceneTransition, .scene:
            // A scene event's call names its scene (admit(_:scene:)); one without is not a scene's.
            return refuse(event, "a scene event naming its scene")
        }
    }

    /// A scene event: the app must run, its scene be known and connected (but for a connection,
    /// which wants it not connected), and in a state the row allows.
    private mutating func decideScene(_ event: LifecycleEvent, _ named: SceneReference) -> Admission {
        switch state {
        case .inactive, .active, .background: break
        case .notRunning: return refuse(event, "the app launched first (willFinishLaunching or didFinishLaunching)")
        case .terminated: return refuse(event, "no event after willTerminate")
        }
        let identifier = named.identifier
        let record = scenes[identifier]
        let before = state
        var after: SceneState?
        var during: SceneState
        switch event.row.state {
        case .sceneConnect:
            if let current = record?.state {
                return refuseScene(event, identifier, current, "\(event) once while it is connected (scene.didDisconnect first)")
            }
            guard scenes.connectedCount < SceneStates.connectedLimit else {
                return refuseScene(event, identifier, nil, "at most \(SceneStates.connectedLimit) scenes connected at once "
                                   + "(scene.didDisconnect one first)")
            }
            scenes.connect(identifier, role: named.role ?? SceneSession.windowApplicationRole)
            (during, after) = (.unattached, .unattached)
        case .sceneTransition(let from, let to, let deliveredIn):
            guard let current = record?.state else { return refuseUnconnected(event, identifier, record) }
            guard from.contains(current) else {
                let names = from.map(\.name)
                return refuseScene(event, identifier, current, "the scene " + (names.count == 1 ? names[0]
                                   : names.dropLast().joined(separator: ", ") + " or " + names.last!))
            }
            scenes.move(identifier, to: to)
            after = to
            // A disconnection is delivered in the state the scene leaves.
            during = deliveredIn == .leaving ? current : to ?? current
        default:
            guard let current = record?.state else { return refuseUnconnected(event, identifier, record) }
            (during, after) = (current, current)
        }
        let derived = scenes.applicationState(fallback: before)
        launching = false
        // The launch goes on while scenes connect and come forward as the launch left the app.
        if derived != before { launchInProgress = false }
        let deliveredIn: StateRule.DeliveredIn = if case .sceneTransition(_, _, let side) = event.row.state { side } else { .entering }
        let applicationDuring = deliveredIn == .leaving ? before : derived
        state = applicationDuring
        let role = scenes[identifier]?.role ?? named.role
        admittedScene = SceneAdmission(scene: SceneReference(identifier: identifier, role: role, state: during), after: after,
                                       applicationBefore: before, applicationAfter: derived)
        return .deliver(during: applicationDuring, after: derived)
    }

    /// The event admitted as ``Admission/deliver(during:after:)`` was delivered: the state is `after`.
    mutating func delivered(after: ApplicationState) {
        state = after
    }

    // MARK: Refusals

    private func refuse(_ event: LifecycleEvent, _ expected: String) -> Admission {
        .refuse(.stateViolation(event: event, state: state, expected: expected))
    }

    private func refuseScene(_ event: LifecycleEvent, _ scene: String, _ sceneState: SceneState?, _ expected: String) -> Admission {
        .refuse(.sceneStateViolation(event: event, scene: scene, sceneState: sceneState, expected: expected))
    }

    /// A scene event other than a connection for a scene that is not connected: never was, or was disconnected.
    private func refuseUnconnected(_ event: LifecycleEvent, _ scene: String, _ record: SceneStates.Record?) -> Admission {
        refuseScene(event, scene, nil, record == nil
                    ? "scene.willConnect of \"\(scene)\" first (no scene of that identifier connected)"
                    : "no event for it after scene.didDisconnect, until scene.willConnect connects it again")
    }
}
