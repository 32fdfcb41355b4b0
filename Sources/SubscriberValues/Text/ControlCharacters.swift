/// The one rule for control characters in text from outside the program (manifests, scripts, plugin
/// descriptors, plugin log lines and output, file paths), and the one way to show them to people.
///
/// A control character is C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F): each can rewrite
/// a terminal (`ESC [2J` clears it, U+009B is a one-character `ESC [`) or break a line-oriented
/// report, and none belongs in a name.
///
/// Human text spells them so: `\n`, `\r`, `\t`, `\e` (ESC), and every other one as `\u{` its
/// hexadecimal value in capitals `}`: `\u{7}`, `\u{0}`, `\u{7F}`, `\u{9B}` (Swift's own spelling).
/// A backslash is shown as itself. Where a value is quoted *as JSON* (the manifest's errors quote
/// its JSON values; JSON output), JSON's own escapes apply instead (`\u001b`): that text must stay
/// JSON. Length caps belong to the caller (a terminal value, a descriptor excerpt), not to this rule.
///
/// `package`: shared by the host, the conformance kit and the command line, not part of what plugin
/// authors see.
package enum ControlCharacters {
    /// Whether `scalar` is a control character: C0, DEL or C1.
    @inline(__always)
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// How `scalar` is shown to people: its escape when it is a control character, nil when it
    /// shows as itself.
    package static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        case 0x09: "\\t"
        case 0x1B: "\\e"
        case _ where isControl(scalar): "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: nil
        }
    }

    /// `text` with every control character escaped (see the spelling above), whole.
    package static func escaped(_ text: String) -> String {
        guard mayContainControl(text) else { return text }
        return escapedPrefix(text.unicodeScalars, limit: .max).text
    }

    /// The escaped form of `scalars` up to `limit` characters of output (an escape is never split),
    /// and whether that is all of them.
    package static func escapedPrefix(_ scalars: some Sequence<Unicode.Scalar>,
                                      limit: Int) -> (text: String, complete: Bool) {
        var result = ""
        var shown = 0
        for scalar in scalars {
            let piece = escape(scalar)
            let width = piece?.count ?? 1
            if shown > limit - width { return (result, false) }
            if let piece { result += piece } else { result.unicodeScalars.append(scalar) }
            shown += width
        }
        return (result, true)
    }

    /// Whether `text` may hold a control character: a scan of its UTF-8 bytes in place, for the
    /// common case of text with nothing to escape. C0 and DEL are single bytes; every C1 character
    /// starts with the byte 0xC2 (a few other characters do too: they only cost the slow path).
    package static func mayContainControl(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(where: startsControl) }
            ?? text.utf8.contains(where: startsControl)
    }

    @inline(__always)
    private static func startsControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2
    }
}
