import Foundation
import SubscriberHost
import SubscriberKit

/// How values read in human output: compact, unquoted where that is unambiguous, and every text
/// that came from outside escaped and cut (``TerminalText``).
enum DisplayText {
    /// "—" for no answer; strings bare (`newData`); arrays `[portrait, landscapeLeft]`; objects
    /// `{handled: true, restorableObjects: [article/9]}`; numbers without a needless `.0`.
    static func value(_ value: JSONValue?) -> String {
        guard let value, value != .null else { return "—" }
        return TerminalText.escaped(value.readableText)
    }

    /// Names (subscribers, plugins) as a list: `DeepLinkRouter, SessionAnalytics`, each escaped.
    static func names(_ names: [String], separator: String = ", ") -> String {
        names.map { TerminalText.escaped($0) }.joined(separator: separator)
    }

    /// The heading line of a run or a listing: `News 1.0 (com.example.news) · manifests/news.json`.
    static func appTitle(_ app: Application, manifestFile: String, style: Style) -> String {
        style.bold("\(TerminalText.escaped(app.name)) \(TerminalText.escaped(app.version))")
            + " (\(TerminalText.escaped(app.bundleIdentifier)))" + style.dim(" · \(TerminalText.escaped(manifestFile, limit: TerminalText.pathLimit))")
    }

    /// `0.04 ms`, `12.31 ms`, `5000.27 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.2f ms", duration.milliseconds)
    }

    /// `text` padded with spaces to `width` characters (never cut).
    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` right-aligned in `width` characters (never cut).
    static func rightAligned(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
