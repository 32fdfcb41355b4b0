import SubscriberHost
import SubscriberKit

/// Renders a run for people: a header naming the app and its plugins, then one block per event.
///
/// ```
/// ▸ didFinishLaunching  → true   invocation: deepLink(https://news.example.com/article/42)
///     DeepLinkRouter         true     0.04 ms
///     SessionAnalytics       —        0.01 ms
///     log   DeepLinkRouter: routing to article/42
///     ⚠ late: NeverCompletes did not complete performFetch before its deadline
/// ```
///
/// Every method returns text ending in a newline (blocks in a blank line, or nothing); columns are padded on the plain text
/// before colour is applied, so they line up with and without escapes.
package struct HumanRenderer: Sendable {
    /// Colour, or plain text.
    package var style: Style
    /// Width of the subscriber column: the longest subscriber name, so every event lines up.
    package var nameWidth: Int

    /// A renderer whose subscriber column fits `subscriberNames`.
    package init(style: Style, subscriberNames: [String]) {
        self.style = style
        self.nameWidth = max(12, subscriberNames.map { TerminalText.escaped($0).count }.max() ?? 0)
    }

    /// The app, its plugins (and the optional ones skipped), the dispatch order, and what the
    /// subscribers logged while they were made.
    package func header(_ summary: HostSummary, logs: [LogRecord] = []) -> String {
        var lines = [DisplayText.appTitle(summary.app, manifestFile: summary.manifestFile, style: style)]
        let labels = summary.plugins.map { "plugins[\($0.index)]" }
        // A plugin in a child: the host never read its descriptor, so its file and how it is hosted.
        let titles = summary.plugins.map {
            $0.version.isEmpty ? TerminalText.escaped($0.name) : "\(TerminalText.escaped($0.name)) \(TerminalText.escaped($0.version))"
        }
        let kinds = summary.plugins.map {
            $0.abi.isEmpty ? $0.isolation.headerText
                : "\(TerminalText.escaped($0.language)) · ABI \(TerminalText.escaped($0.abi)) · \($0.isolation.headerText)"
        }
        let widths = [labels, titles, kinds].map { $0.map(\.count).max() ?? 0 }
        for (index, plugin) in summary.plugins.enumerated() {
            lines.append("  " + style.green(DisplayText.padded(labels[index], widths[0])) + "  "
                + DisplayText.padded(titles[index], widths[1]) + "  "
                + style.dim(DisplayText.padded(kinds[index], widths[2])) + "  "
                + DisplayText.names(plugin.subscribers))
        }
        if summary.plugins.isEmpty { lines.append("  " + style.dim("(no plugins)")) }
        for skipped in summary.skipped {
            lines.append("  " + style.yellow(TerminalText.line("⚠ \(skipped.keyPath) \(skipped.source) skipped (optional): \(skipped.reason)")))
        }
        if summary.profile != .uikit {
            lines.append("  " + style.dim("profile: \(summary.profile) (docs/profiles.md)"))
        }
        if !summary.dispatchOrder.isEmpty {
            lines.append("  " + style.dim("order: " + DisplayText.names(summary.dispatchOrder, separator: " → ")))
        }
        lines += logs.map(logLine)
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// One event's block: heading with `call`'s arguments (a scene event's start with its scene), the
    /// result and invocation, one row per answering subscriber, the app-level events the scene
    /// bridge replayed for it (each a block of its own, indented), then the outcome's log lines,
    /// requests and reports. `nobodyResponds`: no subscriber responds to the event at all (none was
    /// asked), which an empty block says.
    package func event(_ outcome: AnyEventOutcome, call: AnyEventCall, nobodyResponds: Bool = false) -> String {
        var lines = block(outcome, call: call, nobodyResponds: nobodyResponds, marker: style.cyan("▸") + " ", indent: "")
        // The replays follow the calls the bridge makes from this one, in order (one per URL, …).
        for (replay, replayed) in zip(outcome.bridged, call.event.row.bridgedCalls(of: call)) {
            lines += block(replay, call: replayed, nobodyResponds: false, marker: style.cyan("↳ bridged") + " ", indent: "    ")
        }
        lines += outcome.logs.map(logLine)
        lines += outcome.requests.map(requestLine)
        lines += outcome.reports.map(reportLine)
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// The heading and answer rows of `outcome`, and, when nested (`indent`), its reports.
    private func block(_ outcome: AnyEventOutcome, call: AnyEventCall, nobodyResponds: Bool, marker: String,
                       indent: String) -> [String] {
        var heading = indent + marker + style.bold(outcome.event.name)
        if let arguments = call.argumentSummary { heading += " " + TerminalText.escaped(arguments) }
        let row = outcome.event.row
        // A refused event has no result: no subscriber was asked.
        let result = outcome.isDelivered ? row.json(result: outcome.result) : .null
        if result != .null { heading += "  " + style.cyan("→ " + DisplayText.value(result)) }
        if let invocation = outcome.invocation { heading += "   invocation: " + TerminalText.escaped(invocation.description) }
        var lines = [heading]
        // Notifications have nothing to answer: their rows say the subscriber was called.
        let isNotification = row.timing == .notification
        let answers = outcome.answers.map { answer in
            answer.answer.map { DisplayText.value(row.json(answer: $0)) } ?? (isNotification ? "called" : DisplayText.value(nil))
        }
        let times = outcome.answers.map { DisplayText.milliseconds($0.duration) }
        let answerWidth = max(8, answers.map(\.count).max() ?? 0)
        let timeWidth = times.map(\.count).max() ?? 0
        for (index, row) in outcome.answers.enumerated() {
            let answer = DisplayText.padded(answers[index], answerWidth)
            lines.append(indent + "    " + DisplayText.padded(TerminalText.escaped(row.subscriber), nameWidth) + "  "
                + (row.answer == nil ? style.dim(answer) : answer) + "  "
                + style.dim(DisplayText.rightAligned(times[index], timeWidth)))
        }
        if let refusal = outcome.refusal?.refusalReason {
            lines.append(indent + "    " + style.yellow("refused: " + TerminalText.line(refusal)))
        } else if outcome.answers.isEmpty {
            lines.append(indent + "    " + style.dim(nobodyResponds ? "(no subscriber responds to this event)" : "(no subscriber answered)"))
        }
        for note in outcome.urlHook { lines.append(indent + "    " + style.cyan("url hook: " + TerminalText.line(note))) }
        if outcome.isKept {
            lines.append(indent + "    " + style.yellow("kept: no subscriber handled it; offered to subscribers added later"))
        }
        if !indent.isEmpty { lines += outcome.reports.map { indent + reportLine($0) } }
        return lines
    }

    /// `    asks  OrientationLock: updateSupportedInterfaceOrientations`.
    func requestLine(_ request: HostRequest) -> String {
        "    " + style.cyan(DisplayText.padded("asks", 5) + " \(TerminalText.escaped(request.subscriber)): \(request.request)")
    }

    /// What arrived after the last event was delivered; empty when nothing did.
    package func afterLastEvent(reports: [DispatchReport], logs: [LogRecord], requests: [HostRequest] = []) -> String {
        guard !reports.isEmpty || !logs.isEmpty || !requests.isEmpty else { return "" }
        let lines = [style.cyan("▸") + " " + style.bold("after the last event")] + logs.map(logLine)
            + requests.map(requestLine) + reports.map(reportLine)
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// The closing line: how many events were played and how many reports they raised, and, when
    /// `reportsFail` (a script's run: reports make its status 1; `apphost run` exits 0 when stopped
    /// as asked, reports or not), the exit status they give.
    package func footer(events: Int, reports: Int, reportsFail: Bool = true) -> String {
        let played = "\(events) event\(events == 1 ? "" : "s") played"
        guard reports > 0 else { return style.dim("\(played), no reports") + "\n" }
        return style.yellow("\(played), \(reports) report\(reports == 1 ? "" : "s")" + (reportsFail ? " (exit status 1)" : "")) + "\n"
    }

    /// `    log   DeepLinkRouter: routing to article/42`; events carry their attributes.
    func logLine(_ record: LogRecord) -> String {
        let label: String
        switch record.kind {
        case .log:
            switch record.level {
            case .info, .notice: label = "log"
            case .warning: label = "warn"
            case .critical: label = "crit"
            default: label = record.level.name
            }
        case .event: label = "event"
        case .error: label = "error"
        }
        var text = DisplayText.padded(label, 5) + " \(TerminalText.escaped(record.subscriber)): \(TerminalText.line(record.message))"
        if !record.attributes.isEmpty { text += " " + DisplayText.value(.object(record.attributes)) }
        let isError = record.kind == .error || record.level >= .error
        return "    " + (isError ? style.red(text) : style.dim(text))
    }

    /// `    ⚠ late: NeverCompletes did not complete performFetch before its deadline`.
    func reportLine(_ report: DispatchReport) -> String {
        "    " + style.yellow("⚠ " + TerminalText.line(report.description))
    }
}
