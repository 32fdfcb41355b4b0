import SubscriberHost
import SubscriberKit

/// `apphost --manifest FILE [--events FILE|-] [--json]`: loads the manifest's plugins, then plays
/// the default scenario or an event script through them, printing each event's answers, result,
/// reports and log lines.
enum RunCommand {
    /// The root command's own options (the root command is the run).
    static let options: [OptionSpec] = [
        .value("manifest", "FILE", short: "m", help: "The manifest naming the plugins to load.", required: true),
        .value("events", "FILE|-", help: "Play this JSON-Lines event script ('-': standard input)\ninstead of the default scenario."),
        .flag("json", help: "One JSON object per event on stdout; log lines on stderr."),
        .value("log-file", "FILE", help: "Also write every log line to FILE, as JSON lines."),
        .value("deadline", "MS", help: "Deadline of every completion event, in milliseconds\n(replaces the manifest's deadlines)."),
        .value("plugin-dir", "DIR", help: "Also search DIR for library plugins.", repeatable: true),
        .flag("allow-writable", help: "Accept plugin files writable by group or others."),
        .flag("version", help: "Print the version and exit.", standalone: true),
    ]

    /// Runs the command; returns the exit status.
    @MainActor
    static func run(_ arguments: ParsedArguments, output: TextOutput, errors: TextOutput) async -> Int32 {
        let json = arguments.flag("json")
        let calls: [EventCall]
        let logFile: TextOutput?
        let host: PluginHost
        // Everything that can be wrong is checked before the first event: nothing half-done.
        do {
            let deadline = try arguments.int("deadline", of: "milliseconds", atLeast: 1)
            calls = try arguments.value("events").map { (source) throws(EventScriptError) in try EventScript.read(from: source) }
                ?? DefaultScenario.calls
            logFile = try arguments.value("log-file").map { (path) throws(CommandError) in try LogFile.openForWriting(path) }
            let options = HostOptions(extraSearchDirectories: arguments.values("plugin-dir"),
                                      allowWritable: arguments.flag("allow-writable"),
                                      deadlineOverride: deadline.map { .milliseconds($0) })
            host = try PluginHost(manifestAt: arguments.value("manifest") ?? "", options: options)
        } catch {
            errors.line("apphost: \(error)")
            return ExitStatus.usage
        }

        let summary = HostSummary(host)
        let renderer = HumanRenderer(style: .for(output), subscriberNames: summary.dispatchOrder)
        let player = EventPlayer(host: host)
        func writeLogs(_ records: [LogRecord], during event: LifecycleEvent?) {
            for record in records { logFile?.write(JSONLines.log(record, during: event)) }
            if json { for record in records { errors.line(record.description) } }
        }

        let startupLogs = player.logsBeforeFirstEvent()
        writeLogs(startupLogs, during: nil)
        if json {
            for skipped in summary.skipped {
                errors.line("apphost: \(skipped.keyPath) \(skipped.source) skipped (optional): \(skipped.reason)")
            }
        } else {
            output.write(renderer.header(summary, logs: startupLogs))
        }

        var reportCount = 0
        for call in calls {
            let played = await player.play(call)
            reportCount += played.report.reports.count
            writeLogs(played.logs, during: played.report.event)
            output.write(json ? JSONLines.event(played.report) : renderer.event(played))
        }

        let (lateReports, lateLogs) = player.leftovers()
        reportCount += lateReports.count
        writeLogs(lateLogs, during: nil)
        if json {
            if !lateReports.isEmpty { output.write(JSONLines.afterLastEvent(lateReports)) }
        } else {
            output.write(renderer.afterLastEvent(reports: lateReports, logs: lateLogs))
            output.write(renderer.footer(events: calls.count, reports: reportCount))
        }
        return reportCount > 0 ? ExitStatus.failure : ExitStatus.success
    }
}
