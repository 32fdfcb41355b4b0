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
        .flag("allow-writable", help: "Turn the plugin path check off (unsafe): accept files or folders writable by others or owned by another user."),
        .flag("version", help: "Print the version and exit.", standalone: true),
    ]

    /// Runs the command; returns the exit status. A failed write to standard output is the
    /// caller's to report (``AppHostCommand/finished(_:output:errors:)``); the run stops once it
    /// shows: before the first event, else when the buffered output is next written out.
    @MainActor
    static func run(_ arguments: ParsedArguments, output: TextOutput, errors: TextOutput) async -> Int32 {
        let json = arguments.flag("json")
        let script = arguments.value("events")
        var events: EventFeed
        let logFile: TextOutput?
        let host: PluginHost
        // Output that survives a signal, a crash or a plugin's exit(): Output/Survival.swift.
        Survival.runStarts(json: json, output: output, errors: errors)
        defer { Survival.runEnds() }
        // Everything that can be wrong is checked before the first event: nothing half-done. (A
        // script on standard input is the exception: each line is checked when its turn comes.)
        do {
            let deadline = try arguments.int("deadline", of: "milliseconds", atLeast: 1)
            events = try script.map { (source) throws(EventScriptError) in try EventScript.feed(from: source) }
                ?? EventFeed(calls: DefaultScenario.calls)
            let options = HostOptions(extraSearchDirectories: arguments.values("plugin-dir"),
                                      allowWritable: arguments.flag("allow-writable"),
                                      deadlineOverride: deadline.map { .milliseconds($0) }, logHandler: Survival.logged,
                                      measuresSubscribers: true, scanCache: ScanCache.standard())
            host = try PluginHost(manifestAt: arguments.value("manifest") ?? "", options: options)
            Survival.pluginsLoaded(host)
            // Opened last, so a run that fails before its first event leaves an existing log as it was.
            logFile = try arguments.value("log-file").map { (path) throws(CommandError) in
                try LogFile.openForWriting(path, guarded: guardedFiles(host: host, script: script, output: output, errors: errors))
            }
            if let logFile { Survival.stageLogs(for: logFile) }
        } catch {
            errors.singleLine("apphost: " + ErrorLine.text(for: error))
            return ExitStatus.usage
        }

        // The header (with the lines subscribers logged when they were made), then each event.
        let out = EventOutput(host: host, json: json, output: output, errors: errors, logFile: logFile)
        // Written out before the first event: an output that cannot be written stops the run before
        // anything is played. Later, buffered outputs show a failure when their buffer is written
        // out, and the run stops there.
        out.flush()

        var scriptError: EventScriptError?
        /// Events whose result comes after the calls returned and that a script must not wait for
        /// (continueUserActivity's optional restoration handler), oldest first from `laterHead`:
        /// each is written once its outcome came and those before it were written, so only events
        /// still waiting (at most a deadline's worth) are held.
        var later: [(call: AnyEventCall, delivered: DeliveredLater)] = []
        var laterHead = 0
        /// The idiom orientations were last asked for: what an orientation request asks again.
        var idiom = UserInterfaceIdiom.phone
        let orientationsRow = LifecycleEvent.supportedInterfaceOrientations.row
        /// Whether a subscriber asked for orientations again since they were last asked (in a
        /// main-actor object: `write` runs inside the host's `begin`, in a closure).
        let orientations = OrientationRequests()
        func write(_ outcome: AnyEventOutcome, call: AnyEventCall) {
            if outcome.requests.contains(where: { $0.request == .updateSupportedInterfaceOrientations }) {
                orientations.requested = true
            }
            out.write(outcome, call: call)
        }
        func play(_ call: AnyEventCall) async {
            if let waiting = playNow(call) { write(await host.finish(waiting), call: call) }
        }
        /// Plays `call` as far as it goes without waiting: nil once it is written (or held for
        /// later), else what to await. Most events await nothing: no suspension point, no async call.
        func playNow(_ call: AnyEventCall) -> PluginHost.Waiting? {
            // Only this row's arguments are an idiom: other events skip the generic cast (about 410 instructions).
            // Told by the row itself: `==` on events goes through Equatable's witness (about 40 an event).
            let row = call.event.row
            if row === orientationsRow, let asked = call.arguments(as: UserInterfaceIdiom.self) { idiom = asked }
            out.starts(call)
            // Matched, not `==`: the timing's `==` is Equatable's witness in another module (about 20 an event).
            guard case .restoration = row.timing else { return host.begin(call) { write($0, call: call) } }
            // Its lists come when every subscriber that returned true called the handler, which is
            // optional: written then, never waited for (mostly at once, inside the calls).
            let delivered = DeliveredLater()
            let immediate = host.dispatchAtOnce(call) { outcome in
                // Delivered during the calls (the common case): nothing came before it, kept as it is.
                guard !delivered.logs.isEmpty || !delivered.requests.isEmpty else {
                    delivered.outcome = outcome
                    return
                }
                // What was logged and asked for during the calls came with the immediate outcome.
                var outcome = outcome
                outcome.logs = delivered.logs + outcome.logs
                outcome.requests = delivered.requests + outcome.requests
                delivered.outcome = outcome
            }
            if let outcome = delivered.outcome {
                write(outcome, call: call)
                return nil
            }
            (delivered.logs, delivered.requests) = (immediate.logs, immediate.requests)
            later.append((call, delivered))
            return nil
        }
        /// Writes the waiting events whose outcome came, oldest first, up to the first still waiting.
        func writeLater() {
            while laterHead < later.count, let outcome = later[laterHead].delivered.outcome {
                write(outcome, call: later[laterHead].call)
                laterHead += 1
            }
            if laterHead == later.count {
                later.removeAll(keepingCapacity: true)
                laterHead = 0
            } else if laterHead > 64, laterHead * 2 > later.count {
                later.removeFirst(laterHead)
                laterHead = 0
            }
        }
        while out.writable {
            let call: AnyEventCall
            do {
                guard let next = try events.next() else { break }
                call = next
            } catch {
                scriptError = error
                break
            }
            // `play(call)`'s body, written out: a call of the async `play` costs an async frame an event.
            if let waiting = playNow(call) { write(await host.finish(waiting), call: call) }
            if !later.isEmpty { writeLater() }
            // A subscriber asked for orientations again: as UIKit would, before anything else.
            if orientations.requested {
                orientations.requested = false
                await play(EventCall.supportedInterfaceOrientations(idiom: idiom).erased)
            }
        }

        // Shut down first, so that the lines subscribers write up to the end of their `destroy` are included.
        Survival.shutdownStarts()
        let leftovers = host.shutDown()
        // Shutting down delivered what was still waiting, with what arrived: every handler ran.
        writeLater()
        out.finish(leftovers)
        if let scriptError {
            errors.singleLine("apphost: " + ErrorLine.text(for: scriptError))
            return ExitStatus.usage
        }
        if let failure = logFile?.failure {
            errors.singleLine("apphost: \(failure)")
            return ExitStatus.usage
        }
        return out.reportCount > 0 ? ExitStatus.failure : ExitStatus.success
    }

    /// The files the log file must not be: the run's inputs (the manifest, the event script, every
    /// plugin file) and the files its other output goes to.
    @MainActor
    private static func guardedFiles(host: PluginHost, script: String?, output: TextOutput, errors: TextOutput) -> [LogFile.Guarded] {
        var guarded: [LogFile.Guarded?] = [LogFile.Guarded(role: "the manifest", path: host.manifest.file)]
        switch script {
        case "-": guarded.append(LogFile.Guarded(role: "standard input, the event script", fileDescriptor: 0))
        case let path?: guarded.append(LogFile.Guarded(role: "the event script", path: path))
        case nil: break
        }
        guarded += host.plugins.plugins.map { LogFile.Guarded(role: "the plugin file \($0.path)", path: $0.path) }
        for stream in [output, errors] {
            if let fd = stream.fileDescriptor { guarded.append(LogFile.Guarded(role: stream.name, fileDescriptor: fd)) }
        }
        return guarded.compactMap { $0 }
    }
}

/// Whether a subscriber asked for orientations again since they were last asked.
@MainActor
private final class OrientationRequests {
    var requested = false
}

/// An outcome delivered by `dispatchAtOnce`'s handler, at once or later (by shutdown at the latest).
@MainActor
private final class DeliveredLater {
    var outcome: AnyEventOutcome?
    /// What the immediate outcome carried (logged and asked for during the calls), when it came first.
    var logs: [LogRecord] = []
    var requests: [HostRequest] = []
}
