import SubscriberKit

/// The host's manifest (docs/manifest.md): the app, per-idiom orientations, deadlines, reconciler choices,
/// where to look for plugins and which plugins to load. Read with ``init(contentsOfFile:)``.
///
/// Every problem is a ``ManifestError`` naming the file and the key path; unknown keys are errors at
/// every level, so a typo never silently means "default".
package struct Manifest: Sendable, Hashable {
    /// The manifest file as the caller named it (used in error messages).
    package var file: String
    /// The absolute folder of the manifest; relative paths in it are relative to this folder.
    package var directory: String
    /// `app`: name and bundle identifier (required), version (default "1.0").
    package var app: Application
    /// `supportedInterfaceOrientations`: the orientations per idiom, when the manifest lists them.
    /// `~ipad` and `~iphone` keys (Info.plist style) are read as `pad` and `phone`. Idioms not listed
    /// get ``DispatchConfiguration/defaultOrientation(for:)``'s rule (phone's entry, else UIKit's).
    package var supportedInterfaceOrientations: [UserInterfaceIdiom: InterfaceOrientationMask]
    /// `deadlines`: per-event deadline of completion events, in milliseconds.
    package var deadlines: [LifecycleEvent: Int]
    /// `deadlines.default`: the deadline of completion events not listed, in milliseconds.
    package var defaultDeadline: Int?
    /// `reconcilers`: the reconciler chosen per event, where the profile or the manifest overrides the
    /// default (the manifest's over its profile's).
    package var reconcilers: [LifecycleEvent: ReconcilerChoice] {
        get { rules.reconcilers }
        set { rules.reconcilers = newValue }
    }
    /// `pluginSearchPaths` as written (relative to ``directory`` unless absolute).
    package var pluginSearchPaths: [String]
    /// `plugins`, in manifest order (which is dispatch order before constraints and priorities).
    package var plugins: [ManifestPlugin]
    /// `profile`: the peer whose rules ``rules`` started from (docs/profiles.md); `.uikit` by default.
    package var profile: PeerProfile
    /// Every rule where the peers differ: the profile's, each overridden by the manifest's own key.
    package var rules: PeerRules
    /// `sceneBridge`: replay scene events no scene subscriber handled to app-level subscribers
    /// (``DispatchConfiguration/sceneBridge``); default false (the profile's).
    package var sceneBridge: Bool {
        get { rules.sceneBridge }
        set { rules.sceneBridge = newValue }
    }
    /// `restorationFromEveryCaller`: `continueUserActivity`'s restoration lists come from every
    /// subscriber that calls the restoration handler (Expo, GoogleUtilities), not only from those
    /// that returned true (the default, UIKit's contract). ``DispatchConfiguration/restorationFromEveryCaller``.
    package var restorationFromEveryCaller: Bool {
        get { rules.restorationFromEveryCaller }
        set { rules.restorationFromEveryCaller = newValue }
    }

    /// A manifest built in code. `directory` must be absolute. The rules start from `profile`'s;
    /// `reconcilers` override its reconcilers event by event, and `sceneBridge` and
    /// `restorationFromEveryCaller`, when given, its values (as the manifest's keys do).
    package init(file: String, directory: String, app: Application,
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
    package init(contentsOfFile path: String) throws(ManifestError) {
        let bytes = try ManifestFile.contents(of: path)
        let absolute = FilePaths.absolute(path)
        try self.init(bytes: bytes, file: path, directory: FilePaths.directory(of: absolute))
    }

    /// Parses and validates manifest text. `file` names it in errors; `directory` (absolute) is the
    /// folder its relative paths start from.
    package init(bytes: [UInt8], file: String, directory: String) throws(ManifestError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw ManifestError(file: file, syntax: error)
        }
        try self.init(json: json, file: file, directory: directory)
    }

    /// Validates an already parsed manifest document.
    package init(json: JSONValue, file: String, directory: String) throws(ManifestError) {
        do {
            self = try ManifestReader.read(json, file: file, directory: directory)
        } catch {
            throw ManifestError(file: file, error)
        }
    }

    /// The deadline of `event` in milliseconds: its own, else `default`, else nil (the host's default).
    package func deadline(for event: LifecycleEvent) -> Int? {
        deadlines[event] ?? (event.answersThroughCompletion ? defaultDeadline : nil)
    }

    /// `pluginSearchPaths` made absolute against ``directory``, in order.
    package var pluginSearchDirectories: [String] {
        pluginSearchPaths.map { FilePaths.resolve($0, against: directory) }
    }
}
