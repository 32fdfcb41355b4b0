/// The application the subscribers live in: UIApplication's counterpart, as far as a subscriber
/// needs it. Passed to every event.
public struct Application: Sendable, Hashable {
    /// The app's display name ("News").
    public var name: String
    /// The app's bundle identifier ("com.example.news").
    public var bundleIdentifier: String
    /// The app's version ("1.0").
    public var version: String
    /// How the app was launched; nil until `willFinishLaunching` has been dispatched.
    public var launchInvocation: LaunchInvocation?
    /// UIApplication.applicationState: the state the event is delivered in (before a transition
    /// event such as `didBecomeActive`, the state it leaves), as the host tracks it.
    public var applicationState: ApplicationState

    /// An application with the given info.
    public init(name: String, bundleIdentifier: String, version: String,
                launchInvocation: LaunchInvocation? = nil, applicationState: ApplicationState = .notRunning) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.version = version
        self.launchInvocation = launchInvocation
        self.applicationState = applicationState
    }

    /// The app info as the host hands it to plugins: {"name", "bundleIdentifier", "version"}.
    package var infoJSON: JSONObject {
        ["name": .string(name), "bundleIdentifier": .string(bundleIdentifier), "version": .string(version)]
    }

    /// Reads app info written by ``infoJSON``. Missing keys read as empty strings.
    package init(infoJSON: JSONObject) {
        self.init(name: infoJSON["name"]?.stringValue ?? "",
                  bundleIdentifier: infoJSON["bundleIdentifier"]?.stringValue ?? "",
                  version: infoJSON["version"]?.stringValue ?? "")
    }
}
