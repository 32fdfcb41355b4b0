/// Severity of a log line, as swift-log names them. Raw values are the C header's (`ADH_LOG_*`).
public enum LogLevel: Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    /// Finest detail.
    case trace
    /// Debugging detail.
    case debug
    /// Normal operation (the default).
    case info
    /// Worth noticing.
    case notice
    /// Something went wrong but was handled.
    case warning
    /// Something failed.
    case error
    /// The subscriber cannot go on.
    case critical

    /// "trace", "debug", "info", …
    package var name: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    /// The C header's value (`ADH_LOG_*`).
    @inlinable package var rawValue: Int32 {
        switch self {
        case .trace: 0
        case .debug: 1
        case .info: 2
        case .notice: 3
        case .warning: 4
        case .error: 5
        case .critical: 6
        }
    }

    /// The case whose ``rawValue`` is `rawValue`, or nil.
    @inlinable package init?(rawValue: Int32) {
        switch rawValue {
        case 0: self = .trace
        case 1: self = .debug
        case 2: self = .info
        case 3: self = .notice
        case 4: self = .warning
        case 5: self = .error
        case 6: self = .critical
        default: return nil
        }
    }

    public var description: String { name }
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a subscriber's log lines, events and errors go: Q2's ModuleDelegate. The host provides it.
package protocol SubscriberLogSink: Sendable {
    /// One log line from subscriber `subscriber`. [any-thread]
    func log(subscriber: String, level: LogLevel, message: String)
    /// An analytics event from subscriber `subscriber`. [any-thread]
    func logEvent(subscriber: String, name: String, attributes: JSONObject)
    /// An error from subscriber `subscriber`. [any-thread]
    func logError(subscriber: String, message: String, attributes: JSONObject)
    /// A request from subscriber `subscriber` (``SubscriberRequest``). [any-thread] The default
    /// ignores it.
    func request(_ request: SubscriberRequest, from subscriber: String)
    /// An analytics event whose attributes came as text in the serializer's form (a plugin's,
    /// checked): a sink may keep the text. The default builds the object. [any-thread]
    func logEvent(subscriber: String, name: String, attributesText: JSONObjectText)
    /// An error whose attributes came as text in the serializer's form, as ``logEvent(subscriber:name:attributesText:)``.
    func logError(subscriber: String, message: String, attributesText: JSONObjectText)
}

extension SubscriberLogSink {
    package func request(_ request: SubscriberRequest, from subscriber: String) {}
    package func logEvent(subscriber: String, name: String, attributesText: JSONObjectText) {
        logEvent(subscriber: subscriber, name: name, attributes: attributesText.object)
    }
    package func logError(subscriber: String, message: String, attributesText: JSONObjectText) {
        logError(subscriber: subscriber, message: message, attributes: attributesText.object)
    }
}

/// What a subscriber gets from its host when it is made: logging (Q2's ModuleDelegate) and data
/// (Q2's ModuleDataSource: the app info and this subscriber's `options` from the manifest).
public struct SubscriberContext: Sendable {
    /// The name this subscriber was created under.
    public let subscriberName: String
    /// The app's info.
    public let application: Application
    /// This subscriber's `options` from the manifest (`{}` when none).
    public var options: JSONValue { givenOptions ?? [:] }
    /// The options given; nil for none. `{}` is made when asked for: a plugin makes its subscribers'
    /// contexts at `create`, and most never ask.
    private let givenOptions: JSONValue?
    private let sink: any SubscriberLogSink

    /// A context; hosts make these.
    package init(subscriberName: String, application: Application, options: JSONValue? = nil,
                sink: any SubscriberLogSink) {
        self.subscriberName = subscriberName
        self.application = application
        givenOptions = options
        self.sink = sink
    }

    /// Writes one log line. [any-thread]
    public func log(_ message: String, level: LogLevel = .info) {
        sink.log(subscriber: subscriberName, level: level, message: message)
    }

    /// Records an analytics event such as `session_started`. [any-thread]
    public func logEvent(_ name: String, attributes: JSONObject = [:]) {
        sink.logEvent(subscriber: subscriberName, name: name, attributes: attributes)
    }

    /// Records an error. [any-thread]
    public func logError(_ message: String, attributes: JSONObject = [:]) {
        sink.logError(subscriber: subscriberName, message: message, attributes: attributes)
    }

    /// Records an error. [any-thread]
    public func logError(_ error: any Error, attributes: JSONObject = [:]) {
        logError(String(describing: error), attributes: attributes)
    }

    /// Records an analytics event whose attributes are checked text (the C bridge's). [any-thread]
    package func logEvent(_ name: String, attributesText: JSONObjectText) {
        sink.logEvent(subscriber: subscriberName, name: name, attributesText: attributesText)
    }

    /// Records an error whose attributes are checked text (the C bridge's). [any-thread]
    package func logError(_ message: String, attributesText: JSONObjectText) {
        sink.logError(subscriber: subscriberName, message: message, attributesText: attributesText)
    }

    /// Hands `request` to the host (the C bridge forwards a plugin's requests through this). [any-thread]
    package func request(_ request: SubscriberRequest) {
        sink.request(request, from: subscriberName)
    }

    /// Asks the app to register for remote notifications (UIApplication's
    /// `registerForRemoteNotifications()`); the answer comes as `didRegisterForRemoteNotifications` or
    /// `didFailToRegisterForRemoteNotifications`. [any-thread] During an event or later.
    public func registerForRemoteNotifications() {
        sink.request(.registerForRemoteNotifications, from: subscriberName)
    }

    /// Asks the app to ask `supportedInterfaceOrientations` again (UIKit's
    /// `setNeedsUpdateOfSupportedInterfaceOrientations()`). [any-thread] During an event or later.
    public func setNeedsUpdateOfSupportedInterfaceOrientations() {
        sink.request(.updateSupportedInterfaceOrientations, from: subscriberName)
    }
}
