import Foundation

/// UIScene.ActivationState: where a scene is in its life. Raw values are UIKit's and the C header's
/// (`ADH_SCENE_*`).
///
/// A scene connects unattached, enters the foreground inactive, becomes active, resigns to inactive,
/// enters the background, and may disconnect from there; the application's state follows its
/// scenes (docs/events.md).
public enum SceneState: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Connected, not yet in the foreground or the background (during `scene.willConnect`).
    case unattached
    /// On screen and receiving events.
    case foregroundActive
    /// On screen, not receiving events (entering the foreground, resigning).
    case foregroundInactive
    /// Off screen.
    case background

    /// "unattached", "foregroundActive", "foregroundInactive", "background".
    package var name: String {
        switch self {
        case .unattached: "unattached"
        case .foregroundActive: "foregroundActive"
        case .foregroundInactive: "foregroundInactive"
        case .background: "background"
        }
    }

    /// UIKit's value, and the C header's (`ADH_SCENE_*`).
    @inlinable package var rawValue: Int32 {
        switch self {
        case .unattached: -1
        case .foregroundActive: 0
        case .foregroundInactive: 1
        case .background: 2
        }
    }

    /// The case whose ``rawValue`` is `rawValue`, or nil.
    @inlinable package init?(rawValue: Int32) {
        switch rawValue {
        case -1: self = .unattached
        case 0: self = .foregroundActive
        case 1: self = .foregroundInactive
        case 2: self = .background
        default: return nil
        }
    }

    public var description: String { name }
}

/// UISceneSession's counterpart: a scene's lasting identity. Its persistent identifier is the name
/// event scripts and output give the scene ("main").
public struct SceneSession: Sendable, Hashable {
    /// UISceneSession.Role.windowApplication: an interactive window (the default role).
    public static let windowApplicationRole = "UIWindowSceneSessionRoleApplication"
    /// UISceneSession.Role.windowExternalDisplayNonInteractive: an external display.
    public static let windowExternalDisplayNonInteractiveRole = "UIWindowSceneSessionRoleExternalDisplayNonInteractive"

    /// The session's persistent identifier.
    public var persistentIdentifier: String
    /// The session's role (``windowApplicationRole``, …).
    public var role: String

    /// A session named `persistentIdentifier` of `role`.
    public init(persistentIdentifier: String, role: String = SceneSession.windowApplicationRole) {
        self.persistentIdentifier = persistentIdentifier
        self.role = role
    }
}

/// UIScene's counterpart, as a scene event hands it to a subscriber: its session, its activation
/// state during the call (for a `will…` transition the state it leaves, for a `did…` transition the
/// one it enters), and the application it belongs to.
public struct Scene: Sendable, Hashable {
    /// The scene's session: identifier and role.
    public var session: SceneSession
    /// UIScene.activationState during the call.
    public var activationState: SceneState
    /// The application (UIApplication.shared's counterpart): its launch invocation and state, the
    /// state derived from every scene's.
    public var application: Application

    /// A scene.
    public init(session: SceneSession, activationState: SceneState, application: Application) {
        self.session = session
        self.activationState = activationState
        self.application = application
    }

    /// The session's persistent identifier: the scene's name in scripts and output.
    public var identifier: String { session.persistentIdentifier }
}

/// UIOpenURLContext's counterpart: a URL to open and how it is opened.
public struct OpenURLContext: Sendable, Hashable {
    /// The URL.
    public var url: URL
    /// UIScene.OpenURLOptions: the source application, the annotation, open in place.
    public var options: OpenURLOptions

    /// A context for `url`.
    public init(url: URL, options: OpenURLOptions = OpenURLOptions()) {
        self.url = url
        self.options = options
    }

    /// As JSON: {"url", "options"?}.
    package var json: JSONObject {
        var object: JSONObject = ["url": .string(url.absoluteString)]
        if !options.json.isEmpty { object["options"] = .object(options.json) }
        return object
    }

    /// Reads a context written as ``json``; errors name the key path under `path`.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        guard let url = try reader.url("url") else {
            throw JSONShapeError(path: reader.path(of: "url"), expected: "an absolute URL", found: "nothing")
        }
        self.url = url
        options = try reader.value("options").map { (value) throws(JSONShapeError) in
            try OpenURLOptions(json: value, path: reader.path(of: "options"))
        } ?? OpenURLOptions()
        try reader.rejectUnknownKeys()
    }
}

/// UIScene.ConnectionOptions' counterpart: why a scene connects. A scene-based app that is not
/// running receives its launch URL, universal link, quick action or notification response here, not
/// in its launch options; every scene subscriber receives all of them.
public struct SceneConnectionOptions: Sendable, Hashable {
    /// The URLs to open (UIOpenURLContext).
    public var urlContexts: [OpenURLContext]
    /// The activity to continue (a universal link, Handoff).
    public var userActivity: UserActivity?
    /// The quick action the user chose.
    public var shortcutItem: ShortcutItem?
    /// The notification response that launched the app.
    public var notificationResponse: NotificationResponse?

    /// Options with the given values; none means a plain connection.
    public init(urlContexts: [OpenURLContext] = [], userActivity: UserActivity? = nil, shortcutItem: ShortcutItem? = nil,
                notificationResponse: NotificationResponse? = nil) {
        self.urlContexts = urlContexts
        self.userActivity = userActivity
        self.shortcutItem = shortcutItem
        self.notificationResponse = notificationResponse
    }

    /// Whether no option is set.
    public var isEmpty: Bool {
        urlContexts.isEmpty && userActivity == nil && shortcutItem == nil && notificationResponse == nil
    }

    /// As JSON: {"urlContexts"?, "userActivity"?, "shortcutItem"?, "notificationResponse"?}.
    package var json: JSONObject {
        var object: JSONObject = [:]
        if !urlContexts.isEmpty { object["urlContexts"] = .array(urlContexts.map { .object($0.json) }) }
        if let userActivity { object["userActivity"] = .object(userActivity.json) }
        if let shortcutItem { object["shortcutItem"] = .object(shortcutItem.json) }
        if let notificationResponse { object["notificationResponse"] = .object(notificationResponse.json) }
        return object
    }

    /// Reads options written as ``json``; unknown keys and wrong types are errors naming the key path.
    package init(json: JSONValue, path: String) throws(JSONShapeError) {
        var reader = try JSONObjectReader(json, path: path)
        urlContexts = try reader.urlContexts("urlContexts", required: false)
        userActivity = try reader.value("userActivity").map { (value) throws(JSONShapeError) in
            try UserActivity(json: value, path: reader.path(of: "userActivity"))
        }
        shortcutItem = try reader.value("shortcutItem").map { (value) throws(JSONShapeError) in
            try ShortcutItem(json: value, path: reader.path(of: "shortcutItem"))
        }
        notificationResponse = try reader.value("notificationResponse").map { (value) throws(JSONShapeError) in
            try NotificationResponse(json: value, path: reader.path(of: "notificationResponse"))
        }
        try reader.rejectUnknownKeys()
    }
}

/// UIInterfaceOrientation: which way the interface is turned. Raw values are UIKit's and the C
/// header's (`ADH_INTERFACE_ORIENTATION_*`).
public enum InterfaceOrientation: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not known.
    case unknown
    /// Upright.
    case portrait
    /// Upside down.
    case portraitUpsideDown
    /// Turned with the home button (or the right edge) to the right.
    case landscapeRight
    /// Turned with the home button (or the right edge) to the left.
    case landscapeLeft

    /// The name used in event scripts and output, as ``InterfaceOrientationMask/named`` names its bits.
    package var name: String {
        switch self {
        case .unknown: "unknown"
        case .portrait: "portrait"
        case .portraitUpsideDown: "portraitUpsideDown"
        case .landscapeRight: "landscapeRight"
        case .landscapeLeft: "landscapeLeft"
        }
    }

    /// The orientation named `name`, or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// UIKit's value, and the C header's (`ADH_INTERFACE_ORIENTATION_*`).
    @inlinable package var rawValue: Int32 {
        switch self {
        case .unknown: 0
        case .portrait: 1
        case .portraitUpsideDown: 2
        case .landscapeRight: 3
        case .landscapeLeft: 4
        }
    }

    /// The case whose ``rawValue`` is `rawValue`, or nil.
    @inlinable package init?(rawValue: Int32) {
        switch rawValue {
        case 0: self = .unknown
        case 1: self = .portrait
        case 2: self = .portraitUpsideDown
        case 3: self = .landscapeRight
        case 4: self = .landscapeLeft
        default: return nil
        }
    }

    public var description: String { name }
}

/// A window scene's geometry: what `windowScene(_:didUpdate:)` reports after a rotation or a trait
/// change (UIKit's `windowScene(_:didUpdate:interfaceOrientation:traitCollection:)` hands the previous
/// values and lets the scene say the new ones; with no scene object to ask, the new ones come here).
public struct SceneGeometry: Sendable, Hashable {
    /// The interface orientation now.
    public var interfaceOrientation: InterfaceOrientation
    /// The idiom of the scene's trait collection now.
    public var idiom: UserInterfaceIdiom

    /// A geometry.
    public init(interfaceOrientation: InterfaceOrientation, idiom: UserInterfaceIdiom = .phone) {
        self.interfaceOrientation = interfaceOrientation
        self.idiom = idiom
    }
}

extension JSONObjectReader {
    /// Member `key` as a list of URL contexts ({"url", "options"?}); empty when absent and not
    /// `required`. A required list must have at least one.
    package mutating func urlContexts(_ key: String, required: Bool) throws(JSONShapeError) -> [OpenURLContext] {
        guard let elements = try array(key) else {
            if required {
                throw JSONShapeError(path: path(of: key), expected: "a list of URL contexts [{\"url\", \"options\"?}]",
                                     found: "nothing")
            }
            return []
        }
        if required && elements.isEmpty {
            throw JSONShapeError(path: path(of: key), expected: "at least one URL context", found: "an empty array")
        }
        var contexts: [OpenURLContext] = []
        contexts.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            contexts.append(try OpenURLContext(json: element, path: "\(path(of: key))[\(index)]"))
        }
        return contexts
    }
}

extension LaunchInvocation {
    /// How a scene's connection options say the app was launched, by the launch options' rules and
    /// in their order: a user activity (a universal link: ``deepLink(_:)``, any other: ``unknown``),
    /// a notification response (``notification(_:)``), a URL context (an `http`/`https` URL is a
    /// universal link opened as a URL: ``deepLink(_:)``; any other scheme ``urlScheme(_:)``), a
    /// quick action (``shortcut(_:)``). Nil when the options say nothing (a plain connection).
    package init?(classifying options: SceneConnectionOptions) {
        if let activity = options.userActivity {
            if activity.activityType == UserActivity.browsingWeb, let url = activity.webpageURL {
                self = .deepLink(url)
            } else {
                self = .unknown
            }
        } else if let response = options.notificationResponse {
            self = .notification(response.notification.userInfo)
        } else if let url = options.urlContexts.first?.url {
            self = url.scheme == "https" || url.scheme == "http" ? .deepLink(url) : .urlScheme(url)
        } else if let item = options.shortcutItem {
            self = .shortcut(item.type)
        } else {
            return nil
        }
    }
}
