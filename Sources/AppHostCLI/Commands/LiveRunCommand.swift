#if canImport(Glibc)
import Glibc
#endif
import SubscriberHost
import SubscriberKit

/// `apphost run --manifest FILE [--url URL | --user-activity JSON | --notification JSON | --shortcut TYPE]`:
/// a live host (docs/live-host.md). Launches, becomes active, then stays up, driven by signals and
/// its control socket, until SIGTERM, SIGINT, SIGHUP or SIGQUIT. Thin: the engine is in Live/.
enum LiveRunCommand {
    static let spec = CommandSpec(
        name: "run",
        summary: "Run the app as a live host: launch, become active, then take events from signals and the control socket until stopped.",
        options: [
            .value("manifest", "FILE", short: "m", help: "The manifest naming the plugins to load.", required: true),
            .value("url", "URL", help: "Launch with this URL in the launch options (a custom scheme: invocation urlScheme)."),
            .value("user-activity", "JSON", help: "Launch continuing this user activity ({\"activityType\": …, \"webpageURL\": …})."),
            .value("notification", "JSON", help: "Launch from this remote notification's payload (a JSON object)."),
            .value("shortcut", "TYPE", help: "Launch from the home-screen quick action of this type."),
            .value("termination-deadline", "MS", help: "How long the way out (resign, background, terminate) may take,\nin milliseconds, 1 to 600000 (default: the manifest's\nterminationDeadline, else 5000)."),
            .flag("json", help: "One JSON object per event on stdout; log lines on stderr."),
            .value("log-file", "FILE", help: "Also write every log line to FILE, as JSON lines."),
            .value("record", "FILE", help: "Write every event dispatched, from every source, to FILE as an event\nscript (with \"source\" and \"at\"): apphost --events FILE replays it."),
            .value("deadline", "MS", help: "Deadline of every completion event, in milliseconds\n(replaces the manifest's deadlines)."),
            .value("plugin-dir", "DIR", help: "Also search DIR for library plugins.", repeatable: true),
            .flag("allow-writable", help: "Turn the plugin path check off (unsafe): accept files or folders writable by others or owned by another user."),
        ]
    )

    static let helpEpilogue = """

        Launches (willFinishLaunching, didFinishLaunching with the launch options given), becomes
        active, then stays up until it is stopped:
          SIGTERM, SIGINT, SIGHUP,
          SIGQUIT                  willResignActive, didEnterBackground, willTerminate, exit 0
          SIGTSTP                  willResignActive, didEnterBackground, then the process stops
          SIGCONT                  willEnterForeground, didBecomeActive (ignored unless in the background)
          SIGUSR1                  didReceiveMemoryWarning
          memory pressure (PSI)    didReceiveMemoryWarning, at most one per 10 s
          clock set, time zone     significantTimeChange
        Events sent to the control socket ($XDG_RUNTIME_DIR/apphost/<bundleIdentifier>.sock, or
        /tmp/apphost-<uid>/ without XDG_RUNTIME_DIR) with apphost send or apphost open are
        delivered as they come, each answered with one JSON line.
        Under systemd (Type=notify): READY=1 after launch, STATUS= lines, WATCHDOG=1 at half of
        WATCHDOG_USEC, STOPPING=1 on the way out.
        A second run for the same bundle identifier refuses, naming the running pid.

        Exit status:
          0  stopped by a signal (or willTerminate from the control socket) in order
          1  the way out took longer than --termination-deadline
          2  usage error, bad manifest, a plugin that failed to load, an instance already
             running, a refused launch, or a log file that could not be written (standard
             output that cannot be written is said once, and the app goes on)

        """

    @MainActor
    static func run(_ arguments: ParsedArguments, output: TextOutput, errors: TextOutput,
                    hostClock: any HostClock = MonotonicHostClock()) async -> Int32 {
        // One clock for everything: the dispatcher's completion deadlines (HostOptions.clock) and the
        // live host's timers (termination deadline, watchdog, memory-pressure polling, the recording).
        let clock = HostDrivenClock(hostClock)
        let json = arguments.flag("json")
        Survival.runStarts(json: json, output: output, errors: errors)
        defer { Survival.runEnds() }
        let environment = ProcessEnvironment.current
        let host: PluginHost
        let launch: [AnyEventCall]
        let terminationDeadline: Int
        let server: ControlSocketServer
        let lock: InstanceLock
        let logFile: TextOutput?
        let record: TextOutput?
        let signals: SignalSource
        let scanCache: ScanCache?
        // Bound before the plugins load, so that it is taken away again if the start fails.
        var bound: ControlSocketServer?
        do {
            // The manifest's bounds: up to ten minutes.
            let flagDeadline = try arguments.int("termination-deadline", of: "milliseconds",
                                                 atLeast: Manifest.terminationDeadlineRange.lowerBound,
                                                 atMost: Manifest.terminationDeadlineRange.upperBound)
            let deadline = try arguments.int("deadline", of: "milliseconds", atLeast: 1)
            let manifest = try Manifest(contentsOfFile: arguments.value("manifest") ?? "")
            launch = try launchCalls(arguments, scene: manifest.sceneBased ? Manifest.liveSceneIdentifier : nil)
            // The flag wins over the manifest's terminationDeadline; 5 s when neither says.
            terminationDeadline = flagDeadline ?? manifest.terminationDeadline ?? 5000
            let place = try ControlSocketPlace(bundleIdentifier: manifest.app.bundleIdentifier, manifestFile: manifest.file,
                                               environment: environment)
            try place.prepareFolder()
            lock = try InstanceLock(path: place.lock, bundleIdentifier: manifest.app.bundleIdentifier, socket: place.socket)
            // Before anything is delivered: a signal from now on is an event, never lost.
            let stopDeadline = UInt64(terminationDeadline) * 1_000_000
            signals = try SignalSource(onStop: {
                // From the signal on, whatever holds the loop: kept until the process ends.
                let alarm = LiveHost.armTerminationDeadline(stopDeadline, clock: clock)
                SignalSource.keep(alarm)
            })
            // Bound as soon as the lock is held, before the plugins load: `apphost open` or `send`
            // during a slow start connects, and its line waits in the socket until the loop runs (with
            // the socket made after loading, `open` found the lock held and no socket, and refused).
            server = try ControlSocketServer(path: place.socket)
            bound = server
            scanCache = ScanCache.standard()
            let options = HostOptions(extraSearchDirectories: arguments.values("plugin-dir"),
                                      allowWritable: arguments.flag("allow-writable"),
                                      deadlineOverride: deadline.map { .milliseconds($0) }, logHandler: Survival.logged,
                                      measuresSubscribers: true, clock: hostClock, scanCache: scanCache)
            host = try PluginHost(manifestAt: manifest.file, options: options)
            Survival.pluginsLoaded(host)
            logFile = try arguments.value("log-file").map { (path) throws(CommandError) in
                var guarded: [LogFile.Guarded?] = [LogFile.Guarded(role: "the manifest", path: host.manifest.file)]
                guarded += host.plugins.plugins.map { LogFile.Guarded(role: "the plugin file \($0.path)", path: $0.path) }
                for stream in [output, errors] {
                    if let fd = stream.fileDescriptor { guarded.append(LogFile.Guarded(role: stream.name, fileDescriptor: fd)) }
                }
                return try LogFile.openForWriting(path, guarded: guarded.compactMap { $0 })
            }
            if let logFile { Survival.stageLogs(for: logFile) }
            record = try arguments.value("record").map { (path) throws(CommandError) in
                var guarded: [LogFile.Guarded?] = [LogFile.Guarded(role: "the manifest", path: host.manifest.file)]
                guarded += host.plugins.plugins.map { LogFile.Guarded(role: "the plugin file \($0.path)", path: $0.path) }
                for stream in [output, errors, logFile].compactMap({ $0 }) {
                    if let fd = stream.fileDescriptor { guarded.append(LogFile.Guarded(role: stream.name, fileDescriptor: fd)) }
                }
                return try LogFile.openForWriting(path, guarded: guarded.compactMap { $0 }, flag: "--record")
            }
        } catch {
            bound?.close()
            errors.singleLine("apphost: " + ErrorLine.text(for: error))
            return ExitStatus.usage
        }

        let liveOutput = EventOutput(host: host, json: json, output: output, errors: errors, logFile: logFile, reportsFail: false)
        let notifier = ServiceNotifier(environment: environment)
        notifier.onFirstFailure = { liveOutput.note($0) }
        let live = LiveHost(host: host, output: liveOutput, notifier: notifier, clock: clock,
                            terminationDeadline: UInt64(terminationDeadline) * 1_000_000)
        if host.manifest.sceneBased { live.scene = Manifest.liveSceneIdentifier }
        live.scanCache = scanCache
        if let record, let fd = record.fileDescriptor {
            live.recorder = SessionRecorder(fd: fd, name: record.name, clock: clock)
            liveOutput.note("recording: every event dispatched, to \(arguments.value("record") ?? "")")
        }
        live.add(signals)
        live.add(server)
        // Each source once, at start: what is in use, and what is not available (never fatal).
        for note in server.notes { liveOutput.note(note) }
        liveOutput.note("signals: SIGTERM, SIGINT, SIGHUP, SIGQUIT stop; SIGTSTP, SIGCONT stop and continue; SIGUSR1 warns of memory (self-pipe)")
        liveOutput.note("control socket: \(server.path)")
        if let problem = notifier.problem {
            liveOutput.note("service manager: unavailable: \(problem)")
        } else if notifier.isActive {
            liveOutput.note("service manager: notifying NOTIFY_SOCKET")
        }
        if let interval = notifier.watchdogInterval {
            live.add(WatchdogSource(notifier: notifier, interval: interval, clock: clock))
            liveOutput.note("watchdog: WATCHDOG=1 every \(interval / 1_000_000) ms")
        }
        if MemoryPressureSource.isTurnedOff(in: environment) {
            liveOutput.note("memory pressure: off ($MEMORY_PRESSURE_WATCH is /dev/null: systemd's MemoryPressureWatch=off)")
        } else {
            do {
                let memory = try MemoryPressureSource(environment: environment, clock: clock)
                live.add(memory)
                liveOutput.note("memory pressure: \(memory.description)")
            } catch {
                liveOutput.note("memory pressure: unavailable: \(error)")
            }
        }
        do {
            let clockChanges = try ClockChangeSource()
            live.add(clockChanges)
            liveOutput.note("clock and time zone: \((clockChanges.parts + clockChanges.missing.map { "unavailable: " + $0 }).joined(separator: "; "))")
        } catch {
            liveOutput.note("clock and time zone: unavailable: \(error)")
        }
        liveOutput.flush()

        var status = ExitStatus.usage
        if await live.launch(launch) {
            status = await live.run()
        } else if liveOutput.logFileFailure == nil {
            errors.singleLine("apphost: the launch was refused; stopping")
        }
        for source in live.sources { source.close() }
        liveOutput.finish(host.shutDown())
        // The lock is held until the host is done (not merely until its last use above).
        withExtendedLifetime(lock) {}
        if let failure = logFile?.failure {
            errors.singleLine("apphost: \(failure)")
            return ExitStatus.usage
        }
        return status
    }

    /// will/didFinishLaunching with the launch options the flags give (at most one of them), read
    /// as an event script's launchOptions would be. In a scene-based app (`scene` set) the launch
    /// options are empty and `scene` connects with the flag's option in its connection options, as
    /// UIKit gives them: a URL context, the user activity, the quick action, a notification response
    /// (a tap on the notification whose userInfo is the payload).
    static func launchCalls(_ arguments: ParsedArguments, scene: String? = nil) throws(UsageError) -> [AnyEventCall] {
        let given = ["url", "user-activity", "notification", "shortcut"].filter { arguments.value($0) != nil }
        guard given.count <= 1 else {
            throw UsageError("--\(given[0]) and --\(given[1]): expected at most one launch option, found \(given.count)")
        }
        var options: JSONObject = [:]
        func parsed(_ name: String, _ text: String) throws(UsageError) -> JSONValue {
            do {
                return try JSONValue(parsing: text)
            } catch {
                throw UsageError("--\(name): expected a JSON value, found \(ErrorLine.value(text)) (\(error.expected) at column \(error.column))")
            }
        }
        if let url = arguments.value("url") { options["url"] = .string(url) }
        if let text = arguments.value("user-activity") { options["userActivity"] = try parsed("user-activity", text) }
        if let text = arguments.value("notification") { options["remoteNotification"] = try parsed("notification", text) }
        if let type = arguments.value("shortcut") { options["shortcutItem"] = .object(["type": .string(type)]) }
        let flag = given.first.map { "--" + $0 } ?? "launch options"
        var objects: [JSONObject] = ["willFinishLaunching", "didFinishLaunching"].map {
            ["event": .string($0), "launchOptions": .object(scene == nil ? options : [:])]
        }
        if let scene {
            var connection: JSONObject = [:]
            if let url = options["url"] { connection["urlContexts"] = .array([.object(["url": url])]) }
            if let activity = options["userActivity"] { connection["userActivity"] = activity }
            if let item = options["shortcutItem"] { connection["shortcutItem"] = item }
            if let payload = options["remoteNotification"] {
                connection["notificationResponse"] = .object(["notification": .object(["identifier": .string("launch"), "userInfo": payload])])
            }
            objects.append(["event": .string("scene.willConnect"), "scene": .string(scene), "options": .object(connection)])
        }
        return try objects.map { (object) throws(UsageError) in
            do {
                return try AnyEventCall(json: .object(object))
            } catch let error as JSONShapeError {
                throw UsageError("\(flag): \(ErrorLine.value(error.path)): expected \(error.expected), found \(ErrorLine.value(error.found))")
            } catch {
                throw UsageError("\(flag): \(error)")
            }
        }
    }
}

/// The process's environment, read once.
enum ProcessEnvironment {
    static var current: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
