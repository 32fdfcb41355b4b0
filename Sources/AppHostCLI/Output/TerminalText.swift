import SubscriberKit
import SubscriberEventModel

/// Text from outside the program (manifests, scripts, plugin descriptors, plugin log lines, error
/// messages quoting them) made safe to show on a terminal: control characters written as escapes,
/// very long values cut.
///
/// The one place where human output and error lines are made safe. A value such as `"\e[2J"` can
/// neither clear the screen nor break a line: control characters are written as
/// ``ControlCharacters`` (SubscriberKit) spells them, `\e`, `\r`, `\n`, `\t` or `\u{7}` (invalid
/// UTF-8 never gets here: every text read from a plugin or a file is decoded with U+FFFD in its place). A value
/// longer than its limit keeps its first characters and says how long it was:
/// `aaaa… (15,728,640 bytes)`. JSON output never goes through here: it is escaped by JSON itself
/// and must stay exact.
package enum TerminalText {
    /// The most characters a value (a name, a string answer, a key) shows in human output.
    package static let valueLimit = 200
    /// The most characters a line of free text (a log message, an error line) shows.
    package static let lineLimit = 4_096
    /// The most characters a file path shows (paths are longer than names, shorter than lines).
    package static let pathLimit = 1_024

    /// `text` with every control character escaped, cut after `limit` characters of output.
    package static func escaped(_ text: String, limit: Int = valueLimit) -> String {
        // Most text has nothing to escape and is short: return it as is, without copying.
        if text.utf8.count <= limit && !ControlCharacters.mayContainControl(text) { return text }
        let (head, complete) = ControlCharacters.escapedPrefix(text.unicodeScalars, limit: limit)
        return complete ? head : head + cutNote(byteCount: text.utf8.count)
    }

    /// `text` as one line of an error or log: escaped (newlines too), at most about ``lineLimit``
    /// characters. A longer line keeps its start and its end (where an error says what it
    /// expected and found) around a note of its whole length:
    /// `x.json: aaaa… (15,728,811 bytes) …aaaa: expected one of the known keys, found an unknown key`.
    package static func line(_ text: String) -> String {
        if text.utf8.count <= lineLimit && !ControlCharacters.mayContainControl(text) { return text }
        let (head, complete) = ControlCharacters.escapedPrefix(text.unicodeScalars, limit: lineLimit)
        guard !complete else { return head }
        let headPart = ControlCharacters.escapedPrefix(text.unicodeScalars, limit: lineLimit / 2).text
        let tailPart = ControlCharacters.escapedPrefix(text.unicodeScalars.suffix(lineLimit / 4), limit: lineLimit / 2).text
        return headPart + cutNote(byteCount: text.utf8.count) + " …" + tailPart
    }

    /// `… (15,728,640 bytes)`: what a cut value says about its whole length.
    static func cutNote(byteCount: Int) -> String {
        "… (\(grouped(byteCount)) bytes)"
    }

    /// `15728640` as `15,728,640`.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
