import SubscriberHost

/// One event as played: what was asked, what the dispatcher reported, and the log lines the
/// subscribers wrote while it ran (a completion that logs before calling back belongs to the event
/// that waited for it).
public struct PlayedEvent: Sendable {
    /// The call, with its arguments.
    public var call: EventCall
    /// The dispatcher's report: result, answers, reports, invocation.
    public var report: EventReport
    /// The records logged since the previous event.
    public var logs: [LogRecord]

    /// A played event.
    public init(call: EventCall, report: EventReport, logs: [LogRecord] = []) {
        self.call = call
        self.report = report
        self.logs = logs
    }
}

/// Plays calls through a host one at a time, each to completion, and pairs each report with the
/// log lines written while it ran.
@MainActor
struct EventPlayer {
    let host: PluginHost

    /// Takes what was logged before the first event (subscribers log when they are made).
    func logsBeforeFirstEvent() -> [LogRecord] {
        host.log.drain()
    }

    /// Delivers `call`, waits for its result, and collects its log lines.
    func play(_ call: EventCall) async -> PlayedEvent {
        let report = await host.dispatcher.dispatch(call)
        return PlayedEvent(call: call, report: report, logs: host.log.drain())
    }

    /// What arrived after the last event was delivered: late reports and log lines. Shuts the host
    /// down first, so that the lines subscribers write up to the end of their `destroy` are included.
    func leftovers() -> (reports: [DispatchReport], logs: [LogRecord]) {
        host.shutDown()
        return (host.dispatcher.takeLateReports(), host.log.drain())
    }
}
