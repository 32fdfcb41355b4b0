#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import SubscriberHost
import SubscriberKit

/// The live host's engine: launches the app, then delivers what its sources ask for, on one event
/// loop (poll(2) over the sources' descriptors, its timeout the nearest timer), until a stop.
///
/// The application-state machine guards every source: a stimulus is turned into the events its
/// state allows (a `resume` while active is ignored, not replayed; a `stop` in the background is
/// `willTerminate` alone), and an event from the control socket the state forbids is refused with
/// its stateViolation in the reply.
@MainActor
final class LiveHost {
    private let host: PluginHost
    private let output: EventOutput
    private let notifier: ServiceNotifier
    private let clock: LiveClock
    /// How long the way out (resign, background, terminate) may take, in nanoseconds.
    private let terminationDeadline: UInt64
    private(set) var sources: [LiveSource] = []
    /// Set once the app was terminated: the loop ends.
    private var finished = false
    /// In a scene-based app (the manifest's `sceneBased`), the scene connected at launch: the host
    /// moves it (foreground, active, background) where it would move the app; nil otherwise.
    var scene: String?
    /// Records every event dispatched (`--record`); nil when not recording.
    var recorder: SessionRecorder?
    /// The scan cache a reload checks the plugins' files against (`apphost send --reload`).
    var scanCache: ScanCache?
    /// Raises SIGSTOP after a suspend (a seam: tests that inject a suspend do not stop themselves).
    var stopProcess: () -> Void = { _ = raise(SIGSTOP) }
    /// Whether a stop signal came and the loop has not read it yet (a seam: the signal relay's flag).
    var stopPending: () -> Bool = { SignalSource.stopRequested }

    init(host: PluginHost, output: EventOutput, notifier: ServiceNotifier, clock: LiveClock, terminationDeadline: UInt64) {
        self.host = host
        self.output = output
        self.notifier = notifier
        self.clock = clock
        self.terminationDeadline = terminationDeadline
    }

    /// Adds a source polled by the loop.
    func add(_ source: LiveSource) { sources.append(source) }

    /// Launches: `launch` (will/didFinishLaunching, and a scene-based app's scene.willConnect), then
    /// didBecomeActive (a scene-based app: its scene's willEnterForeground and didBecomeActive);
    /// READY=1 once done. False when the launch was refused or an output failed. A stop signal that
    /// came while the plugins loaded, or during the launch, ends it where it is, without READY=1:
    /// the loop then reads the stop and stops the app from the state it reached.
    func launch(_ launch: [AnyEventCall]) async -> Bool {
        for call in launch + foreground(fromBackground: false) {
            if stopPending() { return true }
            let outcome = await deliver(call, source: "launch")
            guard outcome?.refusal == nil, outputsLetItGoOn() else { return false }
        }
        output.flush()
        if stopPending() { return true }
        notifier.send(["READY=1", "STATUS=\(host.application.name) is active; control socket ready", "MAINPID=\(getpid())"])
        return true
    }

    /// Whether the app goes on after its outputs' writes: standard output lost (its reader gone, a
    /// full disk) is said once on stderr and the app goes on without it — a service's app does not end
    /// because whoever read its lines went away; a log file that cannot be written is a record lost,
    /// and stops the app.
    private func outputsLetItGoOn() -> Bool {
        if output.logFileFailure != nil { return false }
        if let failure = output.outputFailure, !outputLossSaid {
            outputLossSaid = true
            output.note("\(failure); event lines are no longer written there, the app goes on (SIGTERM stops it)")
        }
        return true
    }
    private var outputLossSaid = false

    /// Runs the loop until a stop (or the app is terminated through the socket); returns the exit
    /// status: 0 after an orderly stop, 2 when the log file could not be written (the app was then
    /// stopped in order).
    func run() async -> Int32 {
        while !finished {
            guard outputsLetItGoOn() else {
                await stop(because: "the log file cannot be written", terminated: false)
                break
            }
            var wanted: [pollfd] = []
            var owners: [Int] = []
            for (index, source) in sources.enumerated() {
                for interest in source.interests() {
                    wanted.append(interest)
                    owners.append(index)
                }
            }
            var timeout: Int32 = -1
            if let due = sources.compactMap(\.nextDue).min() {
                let now = clock.now()
                timeout = due <= now ? 0 : Int32(min((due - now + 999_999) / 1_000_000, 60_000))
            }
            output.flush()
            // What is ready already (a client's next line, sent while this event was written out) is
            // taken here; only a loop with nothing to do waits on the poll thread, whose hand-offs
            // cost about a dozen system calls and three thread wake-ups.
            var ready = wanted
            if timeout == 0 || Glibc.poll(&ready, nfds_t(ready.count), 0) <= 0 {
                ready = await Poller.poll(wanted, timeout: timeout)
            }
            var stimuli: [LiveStimulus] = []
            for (index, entry) in ready.enumerated() where entry.revents != 0 {
                stimuli += sources[owners[index]].ready(entry.fd, events: entry.revents)
            }
            let now = clock.now()
            for source in sources {
                if let due = source.nextDue, due <= now { stimuli += source.due(now: now) }
            }
            for stimulus in stimuli {
                await handle(stimulus)
            }
        }
        return output.logFileFailure == nil ? ExitStatus.success : ExitStatus.usage
    }

    /// Delivers what `stimulus` asks for, as the application's state allows.
    func handle(_ stimulus: LiveStimulus) async {
        switch stimulus {
        case .answer(let line, let reply):
            reply(line)
        case .call(let call, let source, let reply):
            guard !finished else {
                reply?(ControlSocketServer.errorLine("the app has terminated; \(call.event.name) not delivered"))
                return
            }
            let outcome = await deliver(call, source: source)
            if let outcome { reply?(JSONLines.event(outcome)) }
            if host.applicationState == .terminated { await stop(because: "willTerminate from the \(source)", terminated: true) }
        case .reload(let name, let reply):
            reply(reload(name))
        case .stop(let reason):
            await stop(because: reason, terminated: false)
        case .suspend(let reason):
            // A stop signal already on its way decides (the relay saw it before the loop read it).
            guard !finished, !stopPending() else { return }
            await moveToBackground(source: Self.source(of: reason))
            notifier.status("\(host.application.name) is stopped (\(reason)); SIGCONT continues it")
            output.flush()
            stopProcess()
        case .resume(let reason):
            // systemd stops a stopped service with SIGTERM then SIGCONT: the app is not brought back first.
            guard !finished, !stopPending() else { return }
            guard host.applicationState == .background else {
                output.note("\(reason) ignored: the app is \(host.applicationState), not in the background")
                return
            }
            for call in foreground(fromBackground: true) { await deliver(call, source: Self.source(of: reason)) }
            notifier.status("\(host.application.name) is active (\(reason))")
        case .memoryWarning(let reason):
            guard !finished, [.active, .inactive, .background].contains(host.applicationState) else { return }
            output.note("memory warning: \(reason)")
            await deliver(NotificationCall.didReceiveMemoryWarning.erased, source: Self.source(of: reason, else: "memory pressure"))
        case .timeChange(let reason):
            guard !finished, [.active, .inactive, .background].contains(host.applicationState) else { return }
            output.note("significant time change: \(reason)")
            await deliver(NotificationCall.significantTimeChange.erased, source: Self.source(of: reason, else: "clock"))
        }
    }

    /// Reloads the isolated plugin named `name` (`apphost send --reload`) and says so on stderr; the
    /// reply: `{"reloaded": [files], "subscribers": [names]}` (with `"group"` when a whole isolation
    /// group's child restarted), or `{"error": "…"}`.
    private func reload(_ name: String) -> String {
        guard !finished else { return ControlSocketServer.errorLine("the app has terminated; \(name) not reloaded") }
        do {
            let done = try host.reloadPlugin(named: name, scanCache: scanCache)
            let group = done.group.map { " (isolation group \($0): its whole child restarted)" } ?? ""
            output.note("reloaded \(done.plugins.joined(separator: ", "))\(group): \(done.subscribers.joined(separator: ", ")) made anew")
            var reply: JSONObject = ["reloaded": .array(done.plugins.map { .string($0) }),
                                     "subscribers": .array(done.subscribers.map { .string($0) })]
            if let name = done.group { reply["group"] = .string(name) }
            return JSONValue.object(reply).serialized() + "\n"
        } catch {
            output.note(error.description)
            return ControlSocketServer.errorLine(error.description)
        }
    }

    /// Resign active and enter the background, as far as the state still needs.
    private func moveToBackground(source: String) async {
        if host.applicationState == .active {
            await deliver(scene.map { NotificationCall.sceneWillResignActive(scene: $0).erased } ?? NotificationCall.willResignActive.erased,
                          source: source)
        }
        if host.applicationState == .inactive {
            await deliver(scene.map { NotificationCall.sceneDidEnterBackground(scene: $0).erased } ?? NotificationCall.didEnterBackground.erased,
                          source: source)
        }
    }

    /// What makes the app active: didBecomeActive (after willEnterForeground from the background), or
    /// in a scene-based app its scene's willEnterForeground and didBecomeActive.
    private func foreground(fromBackground: Bool) -> [AnyEventCall] {
        if let scene { return [NotificationCall.sceneWillEnterForeground(scene: scene).erased, NotificationCall.sceneDidBecomeActive(scene: scene).erased] }
        return (fromBackground ? [NotificationCall.willEnterForeground.erased] : []) + [NotificationCall.didBecomeActive.erased]
    }

    /// What a recording names as the source of a stimulus given for `reason`: `signal SIGTERM` for a
    /// signal, else `other` (or the reason itself).
    static func source(of reason: String, else other: String? = nil) -> String {
        reason.hasPrefix("SIG") ? "signal " + reason : other ?? reason
    }

    /// The way out: resign, background, terminate (what the state still needs) within the
    /// termination deadline, STOPPING=1; the loop then ends.
    private func stop(because reason: String, terminated: Bool) async {
        guard !finished else { return }
        finished = true
        notifier.send(["STOPPING=1", "STATUS=\(host.application.name) is stopping (\(reason))"])
        output.note("stopping: \(reason)")
        output.flush()
        let alarm = Self.armTerminationDeadline(terminationDeadline, clock: clock)
        defer { alarm.cancel() }
        if !terminated {
            let source = Self.source(of: reason)
            await moveToBackground(source: source)
            // Never launched (a stop before the launch): nothing to terminate.
            if host.applicationState != .terminated, host.applicationState != .notRunning {
                await deliver(NotificationCall.willTerminate.erased, source: source)
            }
        }
        for source in sources { source.close() }
    }

    /// Arms the termination deadline: if the way out is not over `nanoseconds` from now (a subscriber
    /// that does not return), one line on stderr and exit status 1.
    nonisolated static func armTerminationDeadline(_ nanoseconds: UInt64, clock: LiveClock) -> LiveAlarm {
        clock.alarm(after: nanoseconds) {
            let line = Array("apphost: the termination deadline (\(nanoseconds / 1_000_000) ms) passed on the way out; exiting with status 1\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            _exit(1)
        }
    }

    /// Delivers `call`, asked for by `source`, and writes its outcome (recorded first, with
    /// `--record`); nil when the outcome never came.
    @discardableResult
    private func deliver(_ call: AnyEventCall, source: String) async -> AnyEventOutcome? {
        if let warning = recorder?.record(call, source: source) { output.note(warning) }
        output.starts(call)
        let outcome = await host.dispatch(call)
        output.write(outcome, call: call)
        return outcome
    }
}

/// poll(2) on another thread, so that the main actor stays free while the loop waits.
enum Poller {
    private final class Box: @unchecked Sendable {
        var fds: [pollfd]
        init(_ fds: [pollfd]) { self.fds = fds }
    }
    private static let queue = DispatchQueue(label: "apphost.live.poll")

    /// `fds` with their `revents` filled (all zero after a timeout).
    static func poll(_ fds: [pollfd], timeout: Int32) async -> [pollfd] {
        let box = Box(fds)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                while Glibc.poll(&box.fds, nfds_t(box.fds.count), timeout) < 0, errno == EINTR {}
                continuation.resume()
            }
        }
        return box.fds
    }
}
