/// Text from outside the program (manifests, scripts, plugin descriptors, plugin log lines, error
/// messages quoting them) made safe to show on a terminal: control characters written as escapes,
/// very long values cut.
///
/// The one place where human output and error lines are made safe. A value such as `"\e[2J"` can
/// neither clear the screen nor break a line: C0 controls, DEL and C1 controls are written as
/// `\e`, `\r`, `\n`, `\t` or `\u{7}` (invalid UTF-8 never gets here: every text read from a plugin
/// or a file is decoded with U+FFFD in its place). A value
/// longer than its limit keeps its first characters and says how long it was:
/// `aaaa… (15,728,640 bytes)`. JSON output never goes through here: it is escaped by JSON itself
/// and must stay exact.
public enum TerminalText {
    /// The most characters a value (a name, a string answer, a key) shows in human output.
    public static let valueLimit = 200
    /// The most characters a line of free text (a log message, an error line) shows.
    public static let lineLimit = 4_096
    /// The most characters a file path shows (paths are longer than names, shorter than lines).
    public static let pathLimit = 1_024

    /// `text` with every control character escaped, cut after `limit` characters of output.
    public static func escaped(_ text: String, limit: Int = valueLimit) -> String {
        // Most text has nothing to escape and is short: return it as is, without copying.
        if text.utf8.count <= limit && !hasEscapes(text) { return text }
        let (head, complete) = escapedPrefix(text.unicodeScalars, limit: limit)
        return complete ? head : head + cutNote(byteCount: text.utf8.count)
    }

    /// `text` as one line of an error or log: escaped (newlines too), at most about ``lineLimit``
    /// characters. A longer line keeps its start and its end (where an error says what it
    /// expected and found) around a note of its whole length:
    /// `x.json: aaaa… (15,728,811 bytes) …aaaa: expected one of the known keys, found an unknown key`.
    public static func line(_ text: String) -> String {
        if text.utf8.count <= lineLimit && !hasEscapes(text) { return text }
        let (head, complete) = escapedPrefix(text.unicodeScalars, limit: lineLimit)
        guard !complete else { return head }
        let headPart = escapedPrefix(text.unicodeScalars, limit: lineLimit / 2).text
        let tailPart = escapedPrefix(text.unicodeScalars.suffix(lineLimit / 4), limit: lineLimit / 2).text
        return headPart + cutNote(byteCount: text.utf8.count) + " …" + tailPart
    }

    /// The escaped form of `scalars` up to `limit` characters, and whether that is all of it.
    private static func escapedPrefix(_ scalars: some Sequence<Unicode.Scalar>, limit: Int) -> (text: String, complete: Bool) {
        var result = ""
        var shown = 0
        for scalar in scalars {
            let piece = escape(scalar)
            let width = piece?.count ?? 1
            if shown + width > limit { return (result, false) }
            if let piece { result += piece.text } else { result.unicodeScalars.append(scalar) }
            shown += width
        }
        return (result, true)
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

    /// Whether `text` may hold a character that is written as an escape (the check every line of
    /// output makes, so it scans the bytes in place).
    private static func hasEscapes(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(where: needsEscape) }
            ?? text.utf8.contains(where: needsEscape)
    }

    /// Whether the UTF-8 byte starts a character that is written as an escape: C0, DEL, and the
    /// lead byte 0xC2 of C1 controls (U+0080–U+009F; a few false positives only cost the slow path).
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2
    }

    /// The escape for `scalar` and its length in characters, or nil when it shows as itself.
    private static func escape(_ scalar: Unicode.Scalar) -> (text: String, count: Int)? {
        switch scalar.value {
        case 0x0A: return ("\\n", 2)
        case 0x0D: return ("\\r", 2)
        case 0x09: return ("\\t", 2)
        case 0x1B: return ("\\e", 2)
        case 0x00..<0x20, 0x7F, 0x80...0x9F:
            let text = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            return (text, text.count)
        default: return nil
        }
    }
}
