/// An error the system reports to the app (NSError's counterpart): failing to register for remote
/// notifications, failing to continue a user activity.
public struct LifecycleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error domain ("NSCocoaErrorDomain", "com.example.push").
    public var domain: String
    /// The code within the domain.
    public var code: Int
    /// A human-readable message.
    public var message: String

    /// An error with the given domain, code and message.
    public init(domain: String, code: Int, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    public var description: String { "\(domain) \(code): \(message)" }
}
