import SubscriberDelivery
import SubscriberKit

/// The peer whose rules a host follows where the peers differ from UIKit (docs/profiles.md): a
/// manifest's top-level `"profile"`. Each profile is one row of ``PeerRules`` values
/// (``rules``); a manifest's own setting of any one rule overrides its profile's value.
public enum PeerProfile: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// UIKit's own rules, and this host's: the default.
    case uikit
    /// Expo's `ExpoAppDelegateSubscriberManager` and `ExpoAppSceneDelegate`.
    case expo
    /// Flutter's `FlutterPluginAppLifeCycleDelegate` and `FlutterSceneDelegate`.
    case flutter
    /// GoogleUtilities' `GULAppDelegateSwizzler` (Firebase).
    case googleUtilities

    /// The name a manifest writes.
    public var description: String { rawValue }

    /// Every rule of this profile: the one table of where each peer differs (docs/profiles.md
    /// cites, cell by cell, where the peer does it).
    public var rules: PeerRules {
        switch self {
        case .uikit:
            PeerRules()
        case .expo:
            PeerRules(
                reconcilers: [.performFetch: .precedence([.newData, .failed, .noData]),
                              .didReceiveRemoteNotification: .precedence([.newData, .failed, .noData]),
                              .didFinishLaunching: .always(true),
                              .supportedInterfaceOrientations: .intersectionAllowingEmpty],
                restorationFromEveryCaller: true,
                sceneBridge: true,
                dispatch: DispatchRules(transitionOrder: .lenient, pendingResponses: .untilOneHandled,
                                        pendingResponseLimit: DispatchRules.pendingResponseLimitRange.upperBound,
                                        sceneBridgeForwards: .everything, willPresentAnswer: .firstCompleted))
        case .flutter:
            PeerRules(
                reconcilers: [.willFinishLaunching: .allTrue, .didFinishLaunching: .allTrue,
                              .performFetch: .firstAnswer, .didReceiveRemoteNotification: .firstAnswer],
                sceneBridge: true,
                dispatch: DispatchRules(launchOnce: .oncePluginReceived, replaysLaunch: true, connectAsLaunch: true,
                                        sceneBridgeSkips: .sceneSubscribers, sceneFanOut: .firstYes,
                                        sceneConnectionOptions: .firstSubscriber))
        case .googleUtilities:
            PeerRules(
                reconcilers: [.didReceiveRemoteNotification: .precedence([.newData, .noData, .failed])],
                restorationFromEveryCaller: true,
                dispatch: DispatchRules(duplicateRegistration: .sameIdAgain))
        }
    }

    /// Reads a manifest's `"profile"`: one of the profiles' names.
    init(json: JSONValue, path: String) throws(JSONShapeError) {
        guard case .string(let name) = json, let profile = PeerProfile(rawValue: name) else {
            throw JSONShapeError(path: path, expected: "one of " + Self.allCases.map { "\"\($0)\"" }.joined(separator: ", "),
                                 found: json.shapeDescription)
        }
        self = profile
    }
}

/// The value of every rule a ``PeerProfile`` sets, where the peers differ. The defaults are UIKit's
/// (``PeerProfile/uikit``). A manifest's own settings override them one by one.
public struct PeerRules: Sendable, Hashable {
    /// Per event, another reconciler than the event's default (`"reconcilers"`).
    public var reconcilers: [LifecycleEvent: ReconcilerChoice]
    /// `continueUserActivity`'s restoration lists from every subscriber that calls the handler
    /// (`"restorationFromEveryCaller"`).
    public var restorationFromEveryCaller: Bool
    /// Replay scene events no scene subscriber handled to app-level subscribers (`"sceneBridge"`).
    public var sceneBridge: Bool
    /// The dispatcher's own rules: notification responses kept, transition order, duplicate
    /// registration, launch bookkeeping.
    public var dispatch: DispatchRules

    /// Rules with the given values; the defaults are UIKit's.
    public init(reconcilers: [LifecycleEvent: ReconcilerChoice] = [:], restorationFromEveryCaller: Bool = false,
                sceneBridge: Bool = false, dispatch: DispatchRules = DispatchRules()) {
        self.reconcilers = reconcilers
        self.restorationFromEveryCaller = restorationFromEveryCaller
        self.sceneBridge = sceneBridge
        self.dispatch = dispatch
    }
}
