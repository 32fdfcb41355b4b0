import SubscriberDelivery
import SubscriberKit

/// Rules for the manifest's strings that leave Swift as C strings: file paths, library names,
/// search folders and subscriber names.
enum ManifestText {
    /// A C string ends at the first NUL: `"libGreeterC.so\u0000.evil"` would load `libGreeterC.so`
    /// while the manifest (and every message) shows the longer name. Other control characters have no
    /// business in a name either, and would rewrite a terminal that prints it. So both are refused,
    /// NUL by name.
    /// - Parameters:
    ///   - text: the manifest's value.
    ///   - what: what it should be, with its article ("a path", "a subscriber name").
    ///   - keyPath: where it is (`plugins[0].path`).
    ///   (Built only for an error: names in a list of millions are checked one by one.)
    static func checkPlain(_ text: String, as what: String, at keyPath: @autoclosure () -> String) throws(JSONShapeError) {
        var control: Unicode.Scalar?
        for scalar in text.unicodeScalars where ControlCharacters.isControl(scalar) {
            if scalar == "\0" { control = scalar; break }
            if control == nil { control = scalar }
        }
        guard let control else { return }
        let rule = control == "\0" ? "without NUL" : "without control characters"
        throw JSONShapeError(path: keyPath(), expected: "\(what) \(rule)", found: quoted(text))
    }

    /// Longer values are cut: an error stays one readable line.
    static let maximumQuotedCharacters = 120

    /// `text` as a JSON string literal, cut after ``maximumQuotedCharacters`` characters with an
    /// ellipsis and the full length. Control characters get JSON's escapes (`\u0000`, `\u001b`), not
    /// the human ones of ``ControlCharacters``: the value is quoted as the manifest's JSON spells it.
    static func quoted(_ text: String) -> String {
        guard text.count > maximumQuotedCharacters else { return JSONValue.string(text).serialized() }
        let cut = JSONValue.string(String(text.prefix(maximumQuotedCharacters))).serialized()
        return "\(cut.dropLast())…\" (\(text.utf8.count) bytes)"
    }
}

/// The rules a subscriber's name follows wherever it comes from (a plugin's descriptor, a manifest,
/// an in-process registration): it names the subscriber in output, reports and logs.
enum SubscriberName {
    /// The longest name, in bytes.
    static let maximumLength = 1024

    /// What is wrong with `name` (expected, found); nil when it is a fine name.
    static func problem(_ name: String) -> (expected: String, found: String)? {
        if name.isEmpty { return ("a non-empty subscriber name", "\"\"") }
        if name.utf8.count > maximumLength {
            return ("a subscriber name of at most \(maximumLength) bytes", ManifestText.quoted(name))
        }
        if name.unicodeScalars.contains(where: ControlCharacters.isControl) {
            return ("a subscriber name without control characters", ManifestText.quoted(name))
        }
        return nil
    }
}
