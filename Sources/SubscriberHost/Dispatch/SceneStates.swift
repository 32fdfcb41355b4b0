import SubscriberKit

/// The scenes the host knows, by identifier, and how many are in each activation state: what the
/// application's state is derived from once scenes exist (UIKit's rule). The state machine
/// (``ApplicationStateMachine``) decides the transitions; this only keeps them, at constant cost
/// per event.
struct SceneStates {
    /// One scene session: the role it connected with, and its state (nil once disconnected).
    struct Record {
        var role: String
        var state: SceneState?
    }

    /// Every scene that ever connected, disconnected ones included (so that an event naming one says so).
    private(set) var records: [String: Record] = [:]
    /// Connected scenes in the foreground and active, in the foreground and inactive, in the background.
    private var active = 0, inactive = 0, background = 0

    /// Whether a scene ever connected: from then on the app is scene-based, and its state follows its scenes.
    var exist: Bool { !records.isEmpty }

    /// Scene `identifier`'s record; nil when it never connected.
    subscript(identifier: String) -> Record? { records[identifier] }

    /// Connects `identifier` with `role`: unattached.
    mutating func connect(_ identifier: String, role: String) {
        records[identifier] = Record(role: role, state: .unattached)
    }

    /// Moves connected scene `identifier` to `state` (nil: it disconnects).
    mutating func move(_ identifier: String, to state: SceneState?) {
        guard var record = records[identifier] else { return }
        count(record.state, by: -1)
        record.state = state
        count(state, by: 1)
        records[identifier] = record
    }

    /// The application's state as UIKit derives it from its scenes: active when a scene is in the
    /// foreground and active, else inactive when one is in the foreground, else background when one
    /// is in the background; `fallback` (the state as it is) when none is in either (every scene
    /// unattached, or none connected any more).
    func applicationState(fallback: ApplicationState) -> ApplicationState {
        if active > 0 { return .active }
        if inactive > 0 { return .inactive }
        if background > 0 { return .background }
        return fallback
    }

    private mutating func count(_ state: SceneState?, by delta: Int) {
        switch state {
        case .foregroundActive?: active += delta
        case .foregroundInactive?: inactive += delta
        case .background?: background += delta
        case .unattached?, nil: break
        }
    }
}

/// A scene event the state machine admitted: the scene as the call is delivered (its role and its
/// state during the call), its state afterwards, and the application's state before and after (the
/// scene bridge replays the app's transition when they differ).
struct SceneAdmission {
    /// The scene, with the role it connected with and its activation state during the call.
    var scene: SceneReference
    /// Its state once the event was delivered; nil when it disconnected.
    var after: SceneState?
    /// The application's state before the event, and once it was delivered.
    var applicationBefore: ApplicationState
    var applicationAfter: ApplicationState
}
