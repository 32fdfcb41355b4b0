import SubscriberDelivery
import SubscriberKit

/// The rules a ``PluginHost`` follows where the peers differ from UIKit and from each other, as
/// values: a ``PeerProfile`` sets them all (``PeerRules/dispatch``), a manifest's own key overrides
/// one. The dispatcher reads these, never the profile. The defaults are UIKit's (and this host's).
public struct DispatchRules: Sendable, Hashable {
    /// An app transition UIKit's order refuses (`didBecomeActive` before launch, `willResignActive`
    /// while in the background, …): manifest `"transitionOrder"`.
    public enum TransitionOrder: String, Sendable, Hashable, CaseIterable {
        /// Refused: not delivered, a `stateViolation` report (UIKit's order, the default).
        case strict
        /// Forwarded to its subscribers in the state as it is, and reported all the same (Expo
        /// forwards whatever it is sent).
        case lenient
    }

    /// Adding a subscriber whose name is taken by one of the same type, and removing a name no
    /// subscriber has: manifest `"duplicateRegistration"`.
    public enum DuplicateRegistration: String, Sendable, Hashable, CaseIterable {
        /// An error, nothing changes (Expo's `registerSubscriber`, the default); so is removing an
        /// unknown name.
        case error
        /// The subscriber registered already is kept and its name handed back, as if just added
        /// (GoogleUtilities hands the same interceptor ID back for the same interceptor); removing an
        /// unknown name changes nothing and is no error (GoogleUtilities only logs an unknown ID).
        case sameIdAgain
    }

    /// When the launch counts as sent, for the "at most once per process" rule: manifest `"launchOnce"`.
    public enum LaunchOnce: String, Sendable, Hashable, CaseIterable {
        /// Once it was delivered, whoever responded (UIKit, the default).
        case perProcess
        /// Once a subscriber received it: a launch event nobody responded to may come again, and is
        /// delivered (Flutter's `didFinishLaunching` bookkeeping); a `willFinishLaunching` once a
        /// subscriber received `didFinishLaunching` is refused still (Flutter forwards none then).
        case oncePluginReceived
    }

    /// What happens to notification responses nobody handled: manifest `"pendingResponses"`.
    public enum PendingResponses: String, Sendable, Hashable, CaseIterable {
        /// Each is kept until a subscriber added later handles it (the default).
        case untilHandled
        /// All are kept until a subscriber handles one, then every kept one is dropped (Expo).
        case untilOneHandled
    }

    /// What the scene bridge (the manifest's `"sceneBridge": true`) replays to app-level
    /// subscribers: manifest `"sceneBridgeForwards"`.
    public enum SceneBridgeForwards: String, Sendable, Hashable, CaseIterable {
        /// The scene events no scene subscriber handled (Flutter's fallback, the default).
        case unhandled
        /// Every URL context and user activity, handled or not, and a connection's URLs and
        /// activity (Expo's `ExpoAppSceneDelegate`): each to the subscribers that do not respond
        /// to the scene event itself, so each hears it once.
        case everything
    }

    /// Which app-level subscribers a scene bridge replay skips: manifest `"sceneBridgeSkips"`.
    public enum SceneBridgeSkips: String, Sendable, Hashable, CaseIterable {
        /// Those that respond to the scene event itself: each hears it once (the default).
        case eventResponders
        /// Those that respond to any scene event, having adopted the scene life cycle as a whole
        /// (Flutter skips a plugin that adopted its scene protocol).
        case sceneSubscribers
    }

    /// Which scene subscribers hear `scene.openURLContexts`, `scene.continueUserActivity` and
    /// `scene.performActionForShortcutItem`: manifest `"sceneFanOut"`.
    public enum SceneFanOut: String, Sendable, Hashable, CaseIterable {
        /// Every responder, whatever the answers so far (UIKit's delegate has one; the default).
        case allResponders
        /// Responders in order until the first that answers true (the quick action: that takes the
        /// completion, not declining it), then none (Flutter's `FlutterPluginSceneLifeCycleDelegate`).
        case firstYes
    }

    /// Which scene subscribers get `scene.willConnect`'s connection options: manifest `"sceneConnectionOptions"`.
    public enum SceneConnectionOptions: String, Sendable, Hashable, CaseIterable {
        /// Every one (the default).
        case everySubscriber
        /// The first in call order; the later ones get the event with empty options (Flutter).
        case firstSubscriber
    }

    /// How `notifications.willPresent`'s answer is made: manifest `"willPresentAnswer"`.
    public enum WillPresentAnswer: String, Sendable, Hashable, CaseIterable {
        /// Every answer, reconciled by the event's reconciler (the union by default; the default).
        case reconciled
        /// The first completion that arrives in time, alone (expo-notifications' `NotificationCenterManager`,
        /// which hands UIKit's completion handler to every delegate).
        case firstCompleted
    }

    /// The events ``SceneFanOut/firstYes`` stops at the first YES.
    static let firstYesEvents = EventFlags([.sceneOpenURLContexts, .sceneContinueUserActivity,
                                            .scenePerformActionForShortcutItem])

    /// The most notification responses a host keeps (``pendingResponseLimit``).
    public static let pendingResponseLimitRange = 1...4096

    /// App transitions out of UIKit's order: refused (default) or forwarded and reported.
    public var transitionOrder: TransitionOrder = .strict
    /// The same subscriber added twice: an error (default) or the same name again.
    public var duplicateRegistration: DuplicateRegistration = .error
    /// When the launch counts as sent: once delivered (default) or once a subscriber received it.
    public var launchOnce: LaunchOnce = .perProcess
    /// Whether a subscriber added after the launch is given `didFinishLaunching`, alone, with the
    /// launch's options, then each connected scene's `scene.willConnect` (Flutter gives a plugin
    /// added later the launch and the stored connection): manifest `"replayLaunch"`.
    public var replaysLaunch = false
    /// What the scene bridge replays: what no scene subscriber handled (default), or everything (Expo).
    public var sceneBridgeForwards: SceneBridgeForwards = .unhandled
    /// Which subscribers a bridge replay skips: the scene event's own responders (default), or
    /// every subscriber of any scene event (Flutter).
    public var sceneBridgeSkips: SceneBridgeSkips = .eventResponders
    /// Whether the scene bridge replays each `scene.willConnect` as `didFinishLaunching`, with the
    /// connection's options as launch options, to app-level subscribers (Flutter's fallback turns a
    /// scene's connection into a launch for app-delegate plugins): manifest `"sceneConnectAsLaunch"`.
    public var connectAsLaunch = false
    /// Every scene responder of a URL, an activity or a quick action (default), or until the first YES (Flutter).
    public var sceneFanOut: SceneFanOut = .allResponders
    /// Who gets a scene's connection options: every scene subscriber (default), or the first (Flutter).
    public var sceneConnectionOptions: SceneConnectionOptions = .everySubscriber
    /// `willPresent`'s answer: every answer reconciled (default), or the first completion in time (Expo).
    public var willPresentAnswer: WillPresentAnswer = .reconciled
    /// How notification responses nobody handled are kept.
    public var pendingResponses: PendingResponses = .untilHandled
    /// The most notification responses kept, the oldest dropped first: manifest
    /// `"pendingResponseLimit"`, in ``pendingResponseLimitRange``; 32 by default.
    public var pendingResponseLimit = 32

    /// Whether the dispatcher notes delivered launches and connections (``PeerRuleState``): only
    /// for the rules that read them, so that UIKit's rules cost the dispatch path nothing.
    var remembersDeliveries: Bool { launchOnce == .oncePluginReceived || replaysLaunch }

    /// Creates rules with UIKit's values.
    public init() {}

    /// Rules with the given values.
    public init(transitionOrder: TransitionOrder = .strict, duplicateRegistration: DuplicateRegistration = .error,
                launchOnce: LaunchOnce = .perProcess, replaysLaunch: Bool = false,
                pendingResponses: PendingResponses = .untilHandled, pendingResponseLimit: Int = 32,
                sceneBridgeForwards: SceneBridgeForwards = .unhandled, connectAsLaunch: Bool = false,
                sceneBridgeSkips: SceneBridgeSkips = .eventResponders, sceneFanOut: SceneFanOut = .allResponders,
                sceneConnectionOptions: SceneConnectionOptions = .everySubscriber,
                willPresentAnswer: WillPresentAnswer = .reconciled) {
        self.willPresentAnswer = willPresentAnswer
        self.sceneConnectionOptions = sceneConnectionOptions
        self.sceneFanOut = sceneFanOut
        self.sceneBridgeSkips = sceneBridgeSkips
        self.connectAsLaunch = connectAsLaunch
        self.sceneBridgeForwards = sceneBridgeForwards
        self.transitionOrder = transitionOrder
        self.duplicateRegistration = duplicateRegistration
        self.launchOnce = launchOnce
        self.replaysLaunch = replaysLaunch
        self.pendingResponses = pendingResponses
        self.pendingResponseLimit = pendingResponseLimit
    }
}

/// What the dispatcher remembers for the rules of ``DispatchRules``. [main-actor]
@MainActor
final class PeerRuleState {
    /// The launch events some subscriber received (``DispatchRules/LaunchOnce/oncePluginReceived``).
    var launchesReceived = EventFlags()
    /// The `didFinishLaunching` call delivered, kept for subscribers added later
    /// (``DispatchRules/replaysLaunch``).
    var launch: AnyEventCall?
    /// The URL hooks among the subscribers (URLHook.swift); nil until asked after a change.
    @exclusivity(unchecked) var hooks: [URLHookTarget]?  // unchecked: as `launchReplays`
    /// Subscribers added from inside an event's calls, given the launch once the calls are over.
    // Unchecked (this and `hooks`, read every event): main-actor, each access a read or a short
    // in-place change that calls nothing which could reach it again.
    @exclusivity(unchecked) var launchReplays: [String] = []

    /// Whether `event`, which the state machine refused, goes to its subscribers anyway under
    /// `rules`, and whether its report stays: a transition out of order under a lenient order
    /// (reported), a launch event nobody received yet when only a received launch counts (not reported).
    /// A `willFinishLaunching` after a received `didFinishLaunching` is not forwarded (reported), as
    /// Flutter's `application:willFinishLaunchingWithOptions:` forwards nothing once the launch was sent.
    func forwardsRefused(_ event: LifecycleEvent, rules: DispatchRules) -> (forwards: Bool, reported: Bool) {
        switch event.row.state {
        case .transition where rules.transitionOrder == .lenient:
            return (true, true)
        case .launch where rules.launchOnce == .oncePluginReceived && !launchesReceived.contains(event)
            && !(event == .willFinishLaunching && launchesReceived.contains(.didFinishLaunching)):
            return (true, false)
        default:
            return (false, true)
        }
    }

    /// The `scene.willConnect` calls of the scenes connected now, oldest first, kept for
    /// subscribers added later (``DispatchRules/replaysLaunch``); at most ``connectionLimit``.
    var connections: [(scene: String, call: AnyEventCall)] = []
    /// The most connections kept (UIKit keeps a handful of scenes; the oldest goes first).
    static let connectionLimit = 256

    /// Notes a delivered (not refused) event that the rules remember: a launch event (whether anyone
    /// received it, and the call), a scene's connection and disconnection (when `rules` replay them).
    func delivered(_ call: AnyEventCall, responders: Int, rules: DispatchRules) {
        switch call.event.row.state {
        case .launch:
            if responders > 0 { launchesReceived.insert(call.event) }
            if call.event == .didFinishLaunching { launch = call }
        case .sceneConnect where rules.replaysLaunch:
            guard let scene = call.event.row.scene(of: call)?.identifier else { return }
            if connections.count >= Self.connectionLimit { connections.removeFirst() }
            connections.append((scene, call))
        case .sceneTransition(_, nil, _) where rules.replaysLaunch:  // a disconnection
            guard let scene = call.event.row.scene(of: call)?.identifier else { return }
            connections.removeAll { $0.scene == scene }
        default:
            return
        }
    }
}
