import SubscriberHost
import SubscriberKit

/// What a run writes, scripted (`apphost --manifest`) or live (`apphost run`): the header, each
/// event (human, or one JSON line per event with `--json`), log lines to stderr (`--json`) and the
/// log file, and what shutting down left — through Survival, so that a signal or a crash still
/// writes out what was played, and each event exactly once.
@MainActor
final class EventOutput {
    let json: Bool
    let output: TextOutput
    let errors: TextOutput
    let logFile: TextOutput?
    private let renderer: HumanRenderer
    private let nobodyResponds: [Bool]
    private(set) var eventCount = 0
    private(set) var reportCount = 0
    /// The event's JSON line, written in place and reused (unchecked: main-actor, only `writeNow`
    /// touches it, calling nothing that could).
    @exclusivity(unchecked) private var line = OutputBytes(capacity: 4096)

    /// Whether reports make the exit status 1 (a script's run), said in the footer; `apphost run`'s do not.
    private let reportsFail: Bool

    init(host: PluginHost, json: Bool, output: TextOutput, errors: TextOutput, logFile: TextOutput?, reportsFail: Bool = true) {
        self.json = json
        self.reportsFail = reportsFail
        self.output = output
        self.errors = errors
        self.logFile = logFile
        let summary = HostSummary(host)
        renderer = HumanRenderer(style: .for(output), subscriberNames: summary.dispatchOrder)
        nobodyResponds = LifecycleEvent.allCases.map { host.dispatcher.responderNames(for: $0).isEmpty }
        let startupLogs = host.takeLogs()
        // At once, as an event: the lines before the first event are either staged or written
        // (human output shows them in its header).
        Survival.writingAtOnce {
            writeLogs(startupLogs, during: nil)
            Survival.logsWritten(startupLogs.count)
            if !json { output.write(renderer.header(summary, logs: startupLogs)) }
        }
        if json {
            if let header = summary.isolationHeaderJSON { output.write(header) }
            for skipped in summary.skipped {
                errors.singleLine("apphost: \(skipped.keyPath) \(skipped.source) skipped (optional): \(skipped.reason)")
            }
        }
    }

    /// Whether every write so far went through.
    var writable: Bool { output.failure == nil && logFile?.failure == nil }
    /// The first failed write to standard output, nil while none failed.
    var outputFailure: WriteFailure? { output.failure }
    /// The first failed write to the log file, nil while none failed (or without one).
    var logFileFailure: WriteFailure? { logFile?.failure }

    /// Writes out what is buffered.
    func flush() { TextOutput.flushPending() }

    /// A line about the host itself (a source's mechanism, a stop): `apphost: text` on stderr; with
    /// `--json`, `{"host": "text"}` on stdout as well, so a reader of the events sees it in its place.
    func note(_ text: String) {
        errors.singleLine("apphost: " + text)
        if json { output.write(JSONValue.object(["host": .string(text)]).serialized() + "\n") }
    }

    /// `call` is about to be delivered.
    func starts(_ call: AnyEventCall) { Survival.eventStarts(call, number: eventCount + 1) }

    /// Writes `outcome`, `call`'s.
    func write(_ outcome: AnyEventOutcome, call: AnyEventCall) {
        // Its lines, its block and "written" at once: a signal finds the event either not written at
        // all (under way) or written whole.
        Survival.writingAtOnce { writeNow(outcome, call: call) }
    }

    private func writeNow(_ outcome: AnyEventOutcome, call: AnyEventCall) {
        eventCount += 1
        writeLogs(outcome.logs, during: outcome.event)
        if json {
            line.removeAll()
            // The line counts the reports it lists, the replays' included (read once, there).
            reportCount += JSONLines.event(outcome, into: &line)
            // In the claim ``Survival/writingAtOnce(_:)`` holds (``write(_:call:)``): no second one.
            output.writeInClaim(line.bytes)
        } else {
            reportCount += outcome.reports.count + outcome.bridged.reduce(0) { $0 + $1.reports.count }
            output.write(renderer.event(outcome, call: call, nobodyResponds: nobodyResponds[call.event.index]))
        }
        Survival.eventWritten(call, number: eventCount, logs: outcome.logs.count)
    }

    /// What shutting down left: reports and log lines after the last event, and the footer.
    func finish(_ leftovers: PluginHost.Leftovers) {
        reportCount += leftovers.reports.count
        // At once, as an event; then written out (outside: what is written at once is held until it ends).
        Survival.writingAtOnce {
            writeLogs(leftovers.logs, during: nil)
            Survival.logsWritten(leftovers.logs.count)
            if json {
                if !leftovers.reports.isEmpty || !leftovers.requests.isEmpty {
                    output.write(JSONLines.afterLastEvent(leftovers.reports, requests: leftovers.requests))
                }
            } else {
                output.write(renderer.afterLastEvent(reports: leftovers.reports, logs: leftovers.logs, requests: leftovers.requests))
                output.write(renderer.footer(events: eventCount, reports: reportCount, reportsFail: reportsFail))
            }
        }
        flush()
    }

    private func writeLogs(_ records: [LogRecord], during event: LifecycleEvent?) {
        if let logFile { Survival.write(records, during: event, to: logFile) { JSONLines.log($0, during: event) } }
        if json { Survival.write(records, during: event, to: errors) { TerminalText.line($0.description) + "\n" } }
    }
}
