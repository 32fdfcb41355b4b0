import SubscriberDelivery
import SubscriberKit

/// A manifest that cannot be used: unreadable, not JSON, or JSON of the wrong shape. One line,
/// `<file>: <where>: expected …, found …`, where `<where>` is a key path (`plugins[2].subscribers[0]`)
/// or, for a syntax error, `line 3, column 14`.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manifest file, as the caller named it.
    public var file: String
    /// Where in the file: a key path, `line L, column C`, or `""` for the file as a whole.
    public var location: String
    /// What was expected there.
    public var expected: String
    /// What was found instead.
    public var found: String

    /// An error at `location` in `file`.
    public init(file: String, location: String, expected: String, found: String) {
        self.file = file
        self.location = location
        self.expected = expected
        self.found = found
    }

    /// The shape error `error`, located in `file`.
    package init(file: String, _ error: JSONShapeError) {
        self.init(file: file, location: error.path.isEmpty ? "(root)" : error.path,
                  expected: error.expected, found: error.found)
    }

    /// The syntax error `error`, located in `file` as `line L, column C`.
    public init(file: String, syntax error: JSONParseError) {
        self.init(file: file, location: "line \(error.line), column \(error.column)",
                  expected: error.expected, found: error.found)
    }

    public var description: String {
        let place = location.isEmpty ? "" : "\(location): "
        return "\(file): \(place)expected \(expected), found \(found)"
    }
}
