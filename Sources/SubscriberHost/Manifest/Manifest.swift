import SubscriberDelivery
import SubscriberKit

/// The host's manifest (docs/manifest.md): the app, per-idiom orientations, deadlines, the peer
/// profile and every rule, where to look for plugins and which plugins to load. Read from a file
/// with ``init(contentsOfFile:)``, or built in code with
/// ``init(file:directory:app:supportedInterfaceOrientations:deadlines:defaultDeadline:profile:reconcilers:pluginSearchPaths:plugins:sceneBridge:restorationFromEveryCaller:)``
/// (then set any rule on ``rules``): the same value either way, which ``PluginHost/init(manifest:inProcess:options:)`` runs.
///
/// Every problem is a ``ManifestError`` naming the file and the key path; unknown keys are errors at
/// every level, so a typo never silently means "default".
public struct Manifest: Sendable, Hashable {
    /// The manifest file as the caller named it (used in error messages).
    public var file: String
    /// The absolute folder of the manifest; relative paths in it are relative to this folder.
    public var directory: String
    /// `app`: name and bundle identifier (required), version (default "1.0").
    public var app: Application
    /// `supportedInterfaceOrientations`: the orientations per idiom, when the manifest lists them.
    /// `~ipad` and `~iphone` keys (Info.plist style) are read as `pad` and `phone`. Idioms not listed
    /// get the rule of docs/manifest.md (phone's entry, else UIKit's).
    public var supportedInterfaceOrientations: [UserInterfaceIdiom: InterfaceOrientationMask]
    /// `deadlines`: per-event deadline of completion events, in milliseconds.
    public var deadlines: [LifecycleEvent: Int]
    /// `deadlines.default`: the deadline of completion events not listed, in milliseconds.
    public var defaultDeadline: Int?
    /// `reconcilers`: the reconciler chosen per event, where the profile or the manifest overrides the
    /// default (the manifest's over its profile's).
    public var reconcilers: [LifecycleEvent: ReconcilerChoice] {
        get { rules.reconcilers }
        set { rules.reconcilers = newValue }
    }
    /// `pluginSearchPaths` as written (relative to ``directory`` unless absolute).
    public var pluginSearchPaths: [String]
    /// `plugins`, in manifest order (which is dispatch order before constraints and priorities).
    public var plugins: [ManifestPlugin]
    /// `terminationDeadline`: how long `apphost run`'s way out (resign, background, terminate) may
    /// take, in milliseconds (``terminationDeadlineRange``); nil: not said (the flag's, else 5000).
    public var terminationDeadline: Int? = nil
    /// `sceneBased`: the app is scene-based (UIKit: an Info.plist with a scene manifest): `apphost run`
    /// connects scene ``liveSceneIdentifier`` at launch with the launch's options and moves it, and
    /// `apphost open` sends it `scene.openURLContexts`. Default false.
    public var sceneBased = false
    /// `profile`: the peer whose rules ``rules`` started from (docs/profiles.md); `.uikit` by default.
    public var profile: PeerProfile
    /// Every rule where the peers differ: the profile's, each overridden by the manifest's own key.
    public var rules: PeerRules
    /// `sceneBridge`: replay scene events no scene subscriber handled to app-level subscribers
    /// (docs/manifest.md); default false (the profile's).
    public var sceneBridge: Bool {
        get { rules.sceneBridge }
        set { rules.sceneBridge = newValue }
    }
    /// `restorationFromEveryCaller`: `continueUserActivity`'s restoration lists come from every
    /// subscriber that calls the restoration handler (Expo, GoogleUtilities), not only from those
    /// that returned true (the default, UIKit's contract).
    public var restorationFromEveryCaller: Bool {
        get { rules.restorationFromEveryCaller }
        set { rules.restorationFromEveryCaller = newValue }
    }

    /// A manifest built in code. `directory` must be absolute. The rules start from `profile`'s;
    /// `reconcilers` override its reconcilers event by event, and `sceneBridge` and
    /// `restorationFromEveryCaller`, when given, its values (as the manifest's keys do).
    public init(file: String, directory: String, app: Application,
                supportedInterfaceOrientations: [UserInterfaceIdiom: InterfaceOrientationMask] = [:],
                deadlines: [LifecycleEvent: Int] = [:], defaultDeadline: Int? = nil, profile: PeerProfile = .uikit,
                reconcilers: [LifecycleEvent: ReconcilerChoice] = [:], pluginSearchPaths: [String] = [],
                plugins: [ManifestPlugin] = [], sceneBridge: Bool? = nil, restorationFromEveryCaller: Bool? = nil) {
        self.profile = profile
        self.rules = profile.rules
        self.file = file
        self.directory = directory
        self.app = app
        self.supportedInterfaceOrientations = supportedInterfaceOrientations
        self.deadlines = deadlines
        self.defaultDeadline = defaultDeadline
        self.rules.reconcilers.merge(reconcilers) { _, own in own }
        self.pluginSearchPaths = pluginSearchPaths
        self.plugins = plugins
        if let sceneBridge { self.rules.sceneBridge = sceneBridge }
        if let restorationFromEveryCaller { self.rules.restorationFromEveryCaller = restorationFromEveryCaller }
    }

    /// Reads and validates the manifest at `path` (relative to the current directory unless absolute).
    public init(contentsOfFile path: String) throws(ManifestError) {
        let bytes = try ManifestFile.contents(of: path)
        let absolute = FilePaths.absolute(path)
        try self.init(bytes: bytes, file: path, directory: FilePaths.directory(of: absolute))
    }

    /// Parses and validates manifest text. `file` names it in errors; `directory` (absolute) is the
    /// folder its relative paths start from.
    public init(bytes: [UInt8], file: String, directory: String) throws(ManifestError) {
        // The bytes as a raw buffer: the parser's generic entry would go through
        // withContiguousStorageIfAvailable and a Result type made at run time.
        let parsed = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) -> JSONValue in try JSONValue(parsing: raw) }
        }
        let json: JSONValue
        switch parsed {
        case .success(let value): json = value
        case .failure(let error): throw ManifestError(file: file, syntax: error)
        }
        try self.init(json: json, file: file, directory: directory)
    }

    /// Validates an already parsed manifest document.
    public init(json: JSONValue, file: String, directory: String) throws(ManifestError) {
        do {
            self = try ManifestReader.read(json, file: file, directory: directory)
        } catch {
            throw ManifestError(file: file, error)
        }
    }

    /// The deadline of `event` in milliseconds: its own, else `default`, else nil (the host's default).
    public func deadline(for event: LifecycleEvent) -> Int? {
        deadlines[event] ?? (event.answersThroughCompletion ? defaultDeadline : nil)
    }

    /// `pluginSearchPaths` made absolute against ``directory``, in order.
    public var pluginSearchDirectories: [String] {
        pluginSearchPaths.map { FilePaths.resolve($0, against: directory) }
    }
}
