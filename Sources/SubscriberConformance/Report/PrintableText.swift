/// Text a plugin wrote, made safe to show: control characters (which could rewrite a terminal or
/// break a line-oriented report) become visible escapes.
enum PrintableText {
    /// `text` with `\n`, `\r`, `\t` and every other control character (C0, DEL, C1) escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
