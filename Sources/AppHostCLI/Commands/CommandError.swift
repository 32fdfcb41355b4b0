/// A command that cannot go on: a bad manifest, event script or log file, or a plugin that failed
/// to load. One line naming what, where, expected and found; the command exits with status 2.
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The one-line message, without the `apphost:` prefix.
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message itself.
    public var description: String { message }
}
