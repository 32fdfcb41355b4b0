import SubscriberKit
import SubscriberEventModel

/// The report as a human table: one block per plugin, one row per check (status, id, time, what was
/// found; evidence of several lines continues under it), the expectation under every failure and
/// warning, counts per plugin and in total.
/// Every text from outside (the plugin's path, its descriptor's strings, evidence quoting what the
/// plugin did, a problem naming a file) is shown with its control characters escaped: a path such
/// as `lib\e[2J.so` must not clear the terminal that shows the report.
enum TableRenderer {
    static func render(_ report: ConformanceReport) -> String {
        if let problem = report.problem { return "conformance kit could not run: \(shown(problem))\n" }
        let idWidth = (report.plugins.flatMap { $0.results.map(\.id.count) }.max() ?? 0) + 2
        var lines: [String] = []
        for plugin in report.plugins {
            var header = shown(plugin.path)
            if let identity = plugin.identity {
                header += "  (\(shown(identity.id)) \(shown(identity.version)), \"\(shown(identity.name))\")"
            }
            lines.append(header)
            let indent = String(repeating: " ", count: 8 + idWidth + 12)
            for result in plugin.results {
                let time = result.status == .skip && result.duration == .zero ? "" : result.duration.readable
                // Evidence of several findings has one per line: each under the first, indented, so
                // that no line of evidence can pass for a row.
                let found = result.verdict.evidence.found.split(separator: "\n", omittingEmptySubsequences: false)
                let row = "  " + result.status.rawValue.uppercased() + "  " + pad(result.id, idWidth) + pad(time, 10, left: true)
                    + "  " + shown(String(found.first ?? ""))
                lines.append(row)
                lines += found.dropFirst().map { indent + shown(String($0)) }
                if result.status == .fail || result.status == .warn {
                    lines.append(indent + "expected: " + shown(result.verdict.evidence.expected))
                }
            }
            lines.append("  " + counts(plugin.count) + " in \(plugin.duration.readable)")
            lines.append("")
        }
        let total = report.plugins.count == 1 ? "" : " over \(report.plugins.count) plugins"
        lines.append("Total\(total): " + counts(report.count) + " in \(report.duration.readable) (seed \(report.seed))")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Outside text as it may appear on a terminal.
    private static func shown(_ text: String) -> String { ControlCharacters.escaped(text) }

    private static func counts(_ count: (VerdictStatus) -> Int) -> String {
        "\(count(.pass)) passed, \(count(.fail)) failed, \(count(.warn)) warned, \(count(.skip)) skipped"
    }

    private static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }
}
