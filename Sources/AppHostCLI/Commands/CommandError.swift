import SubscriberHost

/// A command that cannot go on: a bad manifest, event script or log file, or a plugin that failed
/// to load. One line naming what, where, expected and found; the command exits with status 2.
package struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The one-line message, without the `apphost:` prefix.
    package var message: String

    /// An error saying `message`.
    package init(_ message: String) {
        self.message = message
    }

    /// The message itself.
    package var description: String { message }
}

/// The one line an error that stops a command shows, made safe for a terminal: where a value from
/// the input (a manifest key, a script value) is long, that value is cut, not the line's end.
enum ErrorLine {
    /// `error`'s description with the values it quotes escaped and cut.
    static func text(for error: any Error) -> String {
        switch error {
        case let error as HostError:
            if case .manifest(let manifestError) = error { return text(for: manifestError) }
            return error.description
        case let error as ManifestError:
            return ManifestError(file: TerminalText.escaped(error.file, limit: TerminalText.pathLimit),
                                 location: TerminalText.escaped(error.location), expected: TerminalText.escaped(error.expected, limit: TerminalText.lineLimit / 4),
                                 found: TerminalText.escaped(error.found)).description
        case let error as EventScriptError:
            return EventScriptError(file: TerminalText.escaped(error.file, limit: TerminalText.pathLimit), line: error.line,
                                    location: TerminalText.escaped(error.location), expected: TerminalText.escaped(error.expected, limit: TerminalText.lineLimit / 4),
                                    found: TerminalText.escaped(error.found)).description
        default:
            return "\(error)"
        }
    }
}
