import SubscriberABI

/// UIApplication.State, with the states around a process's life: not running before
/// `willFinishLaunching`, terminated after `willTerminate`. UIKit's three raw values are kept; the C
/// header's are the same (`ADH_APPLICATION_*`).
///
/// The host moves through them as UIKit does: notRunning → inactive (launching) → active →
/// inactive → background → inactive (entering the foreground) → active …, and terminated.
public enum ApplicationState: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// In the foreground and receiving events.
    case active
    /// In the foreground, not receiving events (launching, resigning, returning).
    case inactive
    /// In the background.
    case background
    /// Not launched yet.
    case notRunning
    /// Terminated.
    case terminated

    /// "active", "inactive", "background", "notRunning", "terminated".
    package var name: String {
        switch self {
        case .active: "active"
        case .inactive: "inactive"
        case .background: "background"
        case .notRunning: "notRunning"
        case .terminated: "terminated"
        }
    }

    /// UIKit's value, and the C header's (`ADH_APPLICATION_*`).
    @inlinable package var rawValue: Int32 {
        switch self {
        case .active: 0
        case .inactive: 1
        case .background: 2
        case .notRunning: 3
        case .terminated: 4
        }
    }

    /// The case whose ``rawValue`` is `rawValue`, or nil.
    @inlinable package init?(rawValue: Int32) {
        switch rawValue {
        case 0: self = .active
        case 1: self = .inactive
        case 2: self = .background
        case 3: self = .notRunning
        case 4: self = .terminated
        default: return nil
        }
    }

    public var description: String { name }
}

/// What a subscriber may ask the app to do (`adh.host.requests/1` in C): the embedding app receives
/// each one as a value and decides what it does on its platform.
public enum SubscriberRequest: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// UIApplication.registerForRemoteNotifications(): the answer comes as
    /// `didRegisterForRemoteNotifications` or `didFailToRegisterForRemoteNotifications`.
    case registerForRemoteNotifications
    /// UIViewController.setNeedsUpdateOfSupportedInterfaceOrientations(): ask
    /// `supportedInterfaceOrientations` again.
    case updateSupportedInterfaceOrientations

    /// "registerForRemoteNotifications", "updateSupportedInterfaceOrientations".
    package var name: String {
        switch self {
        case .registerForRemoteNotifications: "registerForRemoteNotifications"
        case .updateSupportedInterfaceOrientations: "updateSupportedInterfaceOrientations"
        }
    }

    public var description: String { name }
}
