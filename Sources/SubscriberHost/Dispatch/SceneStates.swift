import SubscriberDelivery
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

    /// The most scenes connected at once: a connection beyond is refused (an iPad shows a few
    /// windows; a script that connects without disconnecting would otherwise grow without bound).
    static let connectedLimit = 1_024
    /// How many disconnected scenes are remembered, the most recent ones, so that an event naming
    /// one says it was disconnected; an older one reads as never connected.
    static let disconnectedLimit = 1_024

    /// The connected scenes.
    private var connected: [String: Record] = [:]
    /// The scenes disconnected last (at most ``disconnectedLimit``): each one's role and when it
    /// disconnected, and that order (entries whose scene connected again since are skipped).
    private var disconnected: [String: (role: String, number: Int)] = [:]
    private var disconnections: [(identifier: String, number: Int)] = []
    private var disconnectionsHead = 0
    private var disconnectionNumber = 0
    /// Whether a scene ever connected.
    private(set) var exist = false
    /// Connected scenes in the foreground and active, in the foreground and inactive, in the background.
    private var active = 0, inactive = 0, background = 0

    /// How many scenes are connected.
    var connectedCount: Int { connected.count }

    /// How many scene identifiers are kept (connected, and disconnected ones remembered): at most
    /// ``connectedLimit`` + ``disconnectedLimit``.
    var keptCount: Int { connected.count + disconnected.count }

    /// Scene `identifier`'s record (its state nil when it disconnected); nil when it never connected
    /// (or disconnected long ago).
    subscript(identifier: String) -> Record? {
        if let record = connected[identifier] { return record }
        return disconnected[identifier].map { Record(role: $0.role, state: nil) }
    }

    /// Connects `identifier` with `role`: unattached.
    mutating func connect(_ identifier: String, role: String) {
        exist = true
        disconnected[identifier] = nil
        connected[identifier] = Record(role: role, state: .unattached)
    }

    /// Moves connected scene `identifier` to `state` (nil: it disconnects).
    mutating func move(_ identifier: String, to state: SceneState?) {
        guard var record = connected[identifier] else { return }
        count(record.state, by: -1)
        count(state, by: 1)
        guard state != nil else {
            connected[identifier] = nil
            remember(identifier, role: record.role)
            return
        }
        record.state = state
        connected[identifier] = record
    }

    /// Remembers disconnected scene `identifier`, forgetting the oldest beyond the limit.
    private mutating func remember(_ identifier: String, role: String) {
        disconnectionNumber += 1
        disconnected[identifier] = (role, disconnectionNumber)
        disconnections.append((identifier, disconnectionNumber))
        while disconnected.count > Self.disconnectedLimit, disconnectionsHead < disconnections.count {
            let oldest = disconnections[disconnectionsHead]
            disconnectionsHead += 1
            if disconnected[oldest.identifier]?.number == oldest.number { disconnected[oldest.identifier] = nil }
        }
        // The order keeps entries of scenes that connected again: dropped once they are half of it.
        if disconnectionsHead > 64, disconnectionsHead * 2 > disconnections.count {
            disconnections.removeFirst(disconnectionsHead)
            disconnectionsHead = 0
        }
        if disconnections.count - disconnectionsHead > 2 * Self.disconnectedLimit + 64 {
            disconnections = disconnections[disconnectionsHead...].filter { disconnected[$0.identifier]?.number == $0.number }
            disconnectionsHead = 0
        }
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
