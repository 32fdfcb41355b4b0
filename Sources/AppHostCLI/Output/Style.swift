import Foundation

/// Terminal colour for human output: ANSI escapes when enabled, the plain text otherwise.
///
/// Enabled only when standard output is a terminal and `NO_COLOR` is unset or empty
/// (https://no-color.org), so pipes, files and tests always get plain text.
public struct Style: Sendable, Equatable {
    /// Whether escapes are written.
    public let enabled: Bool

    /// A style that colours when `enabled`.
    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// The style for `output` under `environment`: colour only on a terminal without `NO_COLOR`.
    public static func `for`(_ output: TextOutput,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> Style {
        Style(enabled: output.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty)
    }

    /// Plain text, whatever `enabled` says.
    public static let plain = Style(enabled: false)

    /// Event names and headings.
    public func bold(_ text: String) -> String { paint(text, "1") }
    /// Secondary detail: times, "no opinion", log lines.
    public func dim(_ text: String) -> String { paint(text, "2") }
    /// Reports (something went wrong in a subscriber).
    public func yellow(_ text: String) -> String { paint(text, "33") }
    /// Errors and failed plugins.
    public func red(_ text: String) -> String { paint(text, "31") }
    /// Plugins that loaded.
    public func green(_ text: String) -> String { paint(text, "32") }
    /// The event marker and reconciled results.
    public func cyan(_ text: String) -> String { paint(text, "36") }

    private func paint(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
