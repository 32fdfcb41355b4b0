#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import CoreFoundation
import Dispatch
import Foundation
import SubscriberABI
import SubscriberKit
import SubscriberEventModel
import Synchronization

/// The child of an isolation group (the "isolation" role of ChildProcessEntry.h): loads the
/// group's plugin files with the same checks as the host, makes their subscribers and serves
/// events on its channel until the host says goodbye or goes away. Any executable that links
/// SubscriberHost can be this child: the host starts itself again (/proc/self/exe).
///
/// Threads: the main thread reads the host's frames and serves each where it read it, as plugins
/// expect of their `[main-thread]` entries; between frames it runs the main dispatch queue (the
/// main actor's jobs, `DispatchQueue.main`) and one pass of Foundation's main run loop (its timers),
/// waiting on the channel and on the queue's wake-up descriptor at once until the next timer is due,
/// as a run loop does.
enum IsolationChild {
    static func enter(_ endpoint: ChildEndpoint) -> Never {
        // The setup arrives before any plugin code runs: nothing else can have read it.
        guard let frame = endpoint.receive(),
              let (type, setup) = try? IsolationWire.read(frame[...]), type == .setup
        else { refuse("expected the setup message first on the channel, found none or a malformed one") }
        guard setup["wire"]?.intValue == IsolationWire.version else {
            refuse("expected the wire's version \(IsolationWire.version) in the setup, found \(setup["wire"].map { "\($0)" } ?? "none")")
        }
        applyLimits(setup["limits"]?.objectValue ?? [:])
        // This is the main thread, before `main`: the main actor's. It never returns: goodbye, or the
        // host's end, ends the process.
        MainActor.assumeIsolated {
            let server = IsolationServer(endpoint: endpoint)
            server.load(setup)
            server.serve()
        }
        _exit(0)  // not reached: serving ends the process
    }

    /// The manifest's `limits` as setrlimit, before any plugin is loaded (soft and hard alike, so a
    /// plugin cannot raise them again).
    static func applyLimits(_ limits: JSONObject) {
        func set(_ resource: Int32, _ value: Int?, scale: Int) {
            guard let value, value > 0 else { return }
            let amount = rlim_t(value) * rlim_t(scale)
            var limit = rlimit(rlim_cur: amount, rlim_max: amount)
            _ = setrlimit(__rlimit_resource_t(UInt32(resource)), &limit)
        }
        set(Int32(RLIMIT_AS.rawValue), limits["memoryMiB"]?.intValue, scale: 1 << 20)
        set(Int32(RLIMIT_CPU.rawValue), limits["cpuSeconds"]?.intValue, scale: 1)
        set(Int32(RLIMIT_NOFILE.rawValue), limits["openFiles"]?.intValue, scale: 1)
    }

    static func refuse(_ message: String) -> Never {
        let bytes = Array(("isolation child: " + message + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        _exit(2)
    }
}

/// The main dispatch queue's wake-up descriptor (an eventfd on Linux): readable when the queue has
/// work. What a CoreFoundation run loop waits on for the same purpose (libdispatch's entry for it).
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func mainQueueHandle() -> Int32

/// Runs what the main dispatch queue holds, on this thread (the main thread), and returns.
@_silgen_name("_dispatch_main_queue_callback_4CF")
private func drainMainQueue(_ message: UnsafeMutableRawPointer?)

/// The child's subscribers and how it answers the host's messages. [main-thread]
@MainActor
final class IsolationServer {
    private let endpoint: ChildEndpoint
    private let cell = ApplicationStateCell()
    private var application = Application(name: "", bundleIdentifier: "", version: "")
    private var registrations: [SubscriberRegistration] = []
    private var subscribers: [CSubscriber] = []
    private var names: [String] = []
    private let lateReports = LateReports()
    private lazy var policies: [EventPolicy?] = EventTable.rows.map { try? $0.policy(nil, settings: DeliverySettings()) }

    init(endpoint: ChildEndpoint) { self.endpoint = endpoint }

    private func send(_ type: IsolationMessage, _ object: JSONObject) {
        if !endpoint.send(IsolationWire.payload(type, object)) { _exit(0) }  // the host is gone
    }

    /// Loads every plugin of the setup and makes its subscribers, then says hello: the subscribers'
    /// names, which plugin each is of, and the events each responds to. A failure says why instead,
    /// in one line, and exits.
    func load(_ setup: JSONObject) {
        application = Application(infoJSON: setup["app"]?.objectValue ?? [:])
        let sink = ForwardingSink(endpoint: endpoint)
        let loader = PluginLoader(allowWritable: setup["allowWritable"]?.boolValue ?? false)
        var hello: [JSONValue] = []
        for (pluginIndex, plugin) in (setup["plugins"]?.arrayValue ?? []).enumerated() {
            let path = plugin["path"]?.stringValue ?? ""
            do throws(PluginLoadError) {
                let image = try loader.loadImage(at: path, sha256: plugin["sha256"]?.stringValue.flatMap(SHA256Digest.init(hex:)))
                let requested = (plugin["subscribers"]?.arrayValue ?? []).compactMap(\.stringValue)
                let made = try image.subscribers(requested: requested, path: path)
                for name in made {
                    let options = plugin["options"]?[name] ?? plugin["sharedOptions"] ?? [:]
                    let context = sink.context(for: name, application: application, options: options)
                    let subscriber: CSubscriber
                    do {
                        subscriber = try CSubscriber(creating: name, from: image.descriptor, context: context, state: cell)
                    } catch {
                        // As the loader says it in process (PluginSet+Create.swift).
                        if case .unreadableStruct(let source, let expected, let found) = error {
                            throw PluginLoadError.unreadableStruct(path: path, name: name, source: source, expected: expected, found: found)
                        }
                        throw PluginLoadError.createFailed(path: path, name: name, reason: error.description)
                    }
                    sink.names.withLock { $0.append(name) }
                    subscribers.append(subscriber)
                    registrations.append(SubscriberRegistration(subscriber))
                    names.append(name)
                    hello.append(["name": .string(name), "plugin": .number(Double(pluginIndex)),
                                  "events": .array(subscriber.respondingEvents.map { .string($0.row.name) })])
                }
            } catch {
                subscribers.reversed().forEach { $0.destroy() }
                // The load-time check that failed and its line, as the host's own loader would say them.
                send(.hello, ["error": .string(error.description), "check": .number(Double(error.check)),
                              "plugin": .number(Double(pluginIndex))])
                _exit(3)
            }
        }
        send(.hello, ["subscribers": .array(hello)])
    }

    /// Serves the host's frames on this thread (the main thread) until goodbye or the host's end:
    /// one `read` takes what the channel has (a frame, or several), each frame is handled where it
    /// was read, and the main queue runs whenever it has work, so that tasks and blocks a plugin put
    /// on the main actor run as they would in the host.
    func serve() -> Never {
        let channel = endpoint.descriptor
        let mainQueue = mainQueueHandle()
        var decoder = ChildFrameDecoder()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var polled = [pollfd(fd: channel, events: Int16(POLLIN), revents: 0),
                      pollfd(fd: mainQueue, events: Int16(POLLIN), revents: 0)]
        drainMainQueue(nil)  // what loading put there
        while true {
            let ready = poll(&polled, nfds_t(mainQueue >= 0 ? 2 : 1), Self.runLoopTimeout())
            if ready < 0 {
                if errno == EINTR { continue }
                _exit(0)
            }
            if polled[1].revents != 0 {
                var count: UInt64 = 0
                _ = Glibc.read(mainQueue, &count, MemoryLayout<UInt64>.size)
                drainMainQueue(nil)
            }
            guard polled[0].revents != 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(channel, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count <= 0 { _exit(0) }  // the host closed the channel, or died
            let frames = decoder.feed(chunk[0..<count])
            if let failure = decoder.failure { IsolationChild.refuse("expected a frame from the host, found \(failure)") }
            for frame in frames { handle(frame) }
        }
    }

    /// Foundation's main run loop, as `apphost`'s main thread runs it in process: when one of its
    /// timers is due (a `Timer` on `RunLoop.main`, `perform(_:afterDelay:)`), one pass of it, which
    /// fires them (and runs the blocks given to `RunLoop.main.perform` meanwhile). Returns how long the
    /// channel may be waited on until its next timer is due, in milliseconds for `poll`: -1 when no
    /// timer is scheduled (a frame or main-queue work wakes the thread), else at most a second (a
    /// timer added from another thread meanwhile is then late by a second at most; with none
    /// scheduled, it is seen at the next wake-up). Reading the next fire date makes no system call;
    /// a pass makes about nine, so it is made only when a timer is due.
    private static func runLoopTimeout() -> Int32 {
        let mainLoop = CFRunLoopGetMain()
        var next = CFRunLoopGetNextTimerFireDate(mainLoop, kCFRunLoopDefaultMode)
        guard next != 0 else { return -1 }
        if next <= CFAbsoluteTimeGetCurrent() {
            _ = RunLoop.main.limitDate(forMode: .default)
            next = CFRunLoopGetNextTimerFireDate(mainLoop, kCFRunLoopDefaultMode)
            guard next != 0 else { return -1 }
        }
        let seconds = next - CFAbsoluteTimeGetCurrent()
        guard seconds > 0 else { return 0 }
        return Int32(min(1_000, (seconds * 1_000).rounded(.up)))
    }

    private func handle(_ frame: [UInt8]) {
        guard let (type, message) = try? IsolationWire.read(frame[...]) else {
            IsolationChild.refuse("expected a message from the host, found a malformed frame")
        }
        switch type {
        case .event: event(message)
        case .goodbye:
            for subscriber in subscribers.reversed() { subscriber.destroy() }
            // Completion calls noticed since the last reply (during destroy too): the host's leftovers.
            var farewell: JSONObject = ["seq": message["seq"] ?? .null]
            forward(lateReports.drain(), into: &farewell)
            send(.farewell, farewell)
            _exit(0)
        default: IsolationChild.refuse("expected an event or goodbye, found \(type)")
        }
    }

    /// One event, to the listed subscribers in the host's order: one reply with every answer.
    private func event(_ message: JSONObject) {
        let seq = message["seq"] ?? .null
        guard let name = message["event"]?.stringValue, let row = IsolationWire.rowByName[name],
              let policy = policies[row.index] else {
            IsolationChild.refuse("expected a known event, found \(message["event"].map { "\($0)" } ?? "nothing")")
        }
        let call: AnyEventCall
        do {
            var reader = try JSONObjectReader(message["arguments"] ?? [:], path: "arguments")
            call = try row.call(reading: &reader)
        } catch {
            IsolationChild.refuse("expected \(name)'s arguments, found: \(error)")
        }
        if let raw = message["state"]?.intValue, let state = ApplicationState(rawValue: Int32(clamping: raw)) {
            application.applicationState = state
            cell.state = state
        }
        // How the app was launched: sent when it changed (null: not yet), read as in process, through
        // the application the Swift SDK hands over and adh.host.state/1's launch_invocation.
        if let launch = message["launch"] {
            application.launchInvocation = IsolationWire.launchInvocation(launch)
            cell.setInvocation(application.launchInvocation)
        }
        // The host settles deadlines; this one only bounds how long a flight is kept here: twice the
        // host's and 5 s, saturated (a deadline of UInt64.max nanoseconds arrives as 2^64, which no
        // UInt64 holds).
        let sent = message["deadline"]?.doubleValue ?? 0
        let hostDeadline: UInt64 = sent >= 0x1p64 ? .max : (sent > 0 ? UInt64(sent) : 0)
        let deadline = hostDeadline > (UInt64.max - 5_000_000_000) / 2 ? UInt64.max : hostDeadline * 2 + 5_000_000_000
        let clock = MonotonicHostClock()
        var answers: [JSONValue] = []
        for value in message["subscribers"]?.arrayValue ?? [] {
            guard let local = value.intValue, local >= 0, local < registrations.count else { continue }
            guard let target = registrations[local].target(for: row.event) else {
                answers.append(["s": .number(Double(local)), "k": "n"])
                continue
            }
            let problemNames = names
            let reports = lateReports
            // Forwarded with the reply (or the next one), as every report this child's calls make.
            let context = DeliveryContext(
                event: row.event, application: application, serial: PayloadSerials.next(), timed: false, names: names,
                policy: policy, deadline: deadline, clock: clock, lateReports: lateReports,
                problem: { index, event, problem in
                    reports.append(.invalidAnswer(subscriber: problemNames[index], event: event, problem: problem))
                })
            let start = clock.nanoseconds()
            let flight = row.deliver(call, to: ResponderList([Responder(target, subscriber: local)]), context)
            var answer: JSONObject = ["s": .number(Double(local))]
            // What this call's completion collection noticed (a second call, a call after a decline…),
            // for the host's outcome of this event, as in process.
            if let settled = flight.settled { forward(settled.reports, into: &answer) }
            switch row.timing {
            case .notification:
                answer["k"] = "n"
            case .immediate:
                let value = flight.settled?.answers.answer(0)
                answer["k"] = value == nil ? "n" : "a"
                if let value { answer["v"] = row.json(answer: value) }
            case .completion:
                if let settled = flight.settled {
                    if settled.answers.count == 0 {
                        answer["k"] = "d"
                    } else if let value = settled.answers.answer(0) {
                        answer["k"] = "a"
                        answer["v"] = row.json(answer: value)
                    } else {
                        answer["k"] = "n"
                    }
                } else {
                    answer["k"] = "p"
                    follow(flight, seq: seq, local: local, row: row, start: start, deadline: deadline, clock: clock)
                }
            case .restoration:
                // An explicit NO is an answer (its row in the record), as in process; no row is no opinion.
                if (flight.immediate as? Bool) == true {
                    answer["k"] = "a"
                    answer["v"] = true
                } else if let row = flight.settled?.answers.answer(0) as? ContinueUserActivityResult {
                    answer["k"] = "a"
                    answer["v"] = .bool(row.handled)
                } else {
                    answer["k"] = "n"
                }
                if let settled = flight.settled {
                    if let lists = (settled.answers.answer(0) as? ContinueUserActivityResult)?.restorableObjects {
                        answer["l"] = .array(lists.map { .string($0) })
                    }
                } else {
                    answer["p"] = true
                    follow(flight, seq: seq, local: local, row: row, start: start, deadline: deadline, clock: clock)
                }
            }
            answers.append(.object(answer))
            if message["stopsAtFirstYes"]?.boolValue == true, answer["v"] == .bool(true) { break }
        }
        var reply: JSONObject = ["seq": seq, "answers": .array(answers)]
        // Calls of completions that arrived after this child delivered them: for this event's outcome,
        // the next one the host makes, as the host's late reports are.
        forward(lateReports.drain(), into: &reply)
        send(.reply, reply)
    }

    /// Adds the reports the host forwards (``IsolationWire/forwardedReportKinds``) to `message` as `r`.
    private func forward(_ reports: [DispatchReport], into message: inout JSONObject) {
        let forwarded = reports.compactMap { IsolationWire.report($0, names: names) }
        if !forwarded.isEmpty { message["r"] = .array(forwarded) }
    }

    /// Sends the completion of a flight still waiting once it arrives: its answer, "declined",
    /// or "expired" when only this child's far deadline settled it (the host's settled it long before).
    private func follow(_ flight: InFlight, seq: JSONValue, local: Int, row: EventRow, start: UInt64, deadline: UInt64,
                        clock: MonotonicHostClock) {
        let endpoint = endpoint
        Task { @MainActor in
            let result = await flight.finish()
            var message: JSONObject = ["seq": seq, "s": .number(Double(local))]
            // With what its completion collection noticed, what arrived meanwhile (an invalid value in
            // this completion): in the host's outcome of this event, as in process.
            self.forward(result.reports + self.lateReports.drain(), into: &message)
            if clock.nanoseconds() &- start >= deadline {
                message["k"] = "x"
            } else if result.answers.count == 0 {
                message["k"] = "d"
            } else if row.timing == .restoration {
                let lists = (result.answers.answer(0) as? ContinueUserActivityResult)?.restorableObjects
                message["k"] = lists == nil ? "n" : "a"
                if let lists { message["v"] = .array(lists.map { .string($0) }) }
            } else if let value = result.answers.answer(0) {
                message["k"] = "a"
                message["v"] = row.json(answer: value)
            } else {
                message["k"] = "n"
            }
            _ = endpoint.send(IsolationWire.payload(.completion, message))
        }
    }
}

/// The child's log sink: every line, analytics event, error and request goes to the host as a
/// message, named by the subscriber's index in the hello. [any-thread]
final class ForwardingSink: SubscriberLogSink {
    let endpoint: ChildEndpoint
    /// The subscribers' names in hello order (appended as they are made).
    let names = Mutex<[String]>([])

    init(endpoint: ChildEndpoint) { self.endpoint = endpoint }

    private func index(_ subscriber: String) -> JSONValue {
        names.withLock { $0.firstIndex(of: subscriber) }.map { .number(Double($0)) } ?? .string(subscriber)
    }

    func log(subscriber: String, level: LogLevel, message: String) {
        _ = endpoint.send(IsolationWire.payload(.log, ["s": index(subscriber), "level": .number(Double(level.rawValue)),
                                                       "m": .string(message)]))
    }

    func logEvent(subscriber: String, name: String, attributes: JSONObject) {
        _ = endpoint.send(IsolationWire.payload(.log, ["s": index(subscriber), "event": .string(name),
                                                       "attributes": .object(attributes)]))
    }

    func logError(subscriber: String, message: String, attributes: JSONObject) {
        _ = endpoint.send(IsolationWire.payload(.log, ["s": index(subscriber), "error": .string(message),
                                                       "attributes": .object(attributes)]))
    }

    func request(_ request: SubscriberRequest, from subscriber: String) {
        _ = endpoint.send(IsolationWire.payload(.request, ["s": index(subscriber), "r": .string(request.name)]))
    }
}

/// The worker's entry, called by the constructor in ChildProcessEntry before `main` when the process
/// was started as an isolation child. Public only so that it is never stripped; not API.
@_cdecl("adh_isolation_child_main")
public func _isolationChildMain(_ channel: Int32, _ secret: UnsafePointer<UInt8>?, _ secretLength: Int) -> Int32 {
    IsolationChild.enter(ChildEndpoint(channel: channel, secret: secret, length: secretLength))
}
