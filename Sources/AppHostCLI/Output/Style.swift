import Foundation

/// Terminal colour for human output: ANSI escapes when enabled, the plain text otherwise.
///
/// Enabled only when standard output is a terminal and `NO_COLOR` is unset or empty
/// (https://no-color.org), so pipes, files and tests always get plain text.
package struct Style: Sendable, Equatable {
    /// Whether escapes are written.
    package let enabled: Bool

    /// A style that colours when `enabled`.
    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// The style for `output` under `environment` (the process's own when nil: only `NO_COLOR` is
    /// read, and only for a terminal): colour only on a terminal without `NO_COLOR`.
    package static func `for`(_ output: TextOutput, environment: [String: String]? = nil) -> Style {
        guard output.isTerminal else { return Style(enabled: false) }
        if let environment { return Style(enabled: (environment["NO_COLOR"] ?? "").isEmpty) }
        guard let value = getenv("NO_COLOR") else { return Style(enabled: true) }
        return Style(enabled: value.pointee == 0)
    }

    /// Plain text, whatever `enabled` says.
    package static let plain = Style(enabled: false)

    /// Event names and headings.
    package func bold(_ text: String) -> String { paint(text, "1") }
    /// Secondary detail: times, "no opinion", log lines.
    package func dim(_ text: String) -> String { paint(text, "2") }
    /// Reports (something went wrong in a subscriber).
    package func yellow(_ text: String) -> String { paint(text, "33") }
    /// Errors and failed plugins.
    package func red(_ text: String) -> String { paint(text, "31") }
    /// Plugins that loaded.
    package func green(_ text: String) -> String { paint(text, "32") }
    /// The event marker and reconciled results.
    package func cyan(_ text: String) -> String { paint(text, "36") }

    private func paint(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
