/// An event script that cannot be played: unreadable, or a line that is not a valid event.
/// One line: `events.jsonl:7: url: expected an absolute URL, found nothing`.
package struct EventScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The script as named on the command line (`<stdin>` for `-`).
    package var file: String
    /// The 1-based line number, or nil for the file as a whole.
    package var line: Int?
    /// Where in the line: a key path (`options.sourceApplication`), `column 14` for a syntax
    /// error, `(root)` for the line as a whole; empty for the file as a whole.
    package var location: String
    /// What was expected there.
    package var expected: String
    /// What was found instead.
    package var found: String

    /// An error at `location` of line `line` in `file`.
    package init(file: String, line: Int?, location: String, expected: String, found: String) {
        self.file = file
        self.line = line
        self.location = location
        self.expected = expected
        self.found = found
    }

    /// `file:line: location: expected …, found …`.
    package var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if !location.isEmpty { text += "\(location): " }
        return text + "expected \(expected), found \(found)"
    }
}
