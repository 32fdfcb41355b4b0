import Foundation
import Glibc
import Synchronization
import Testing
@testable import AppHostCLI
import SubscriberHost
import SubscriberKit

/// A clock the test moves by hand.
final class HandClock: LiveClock, @unchecked Sendable {
    var time: UInt64 = 1_000_000_000
    func now() -> UInt64 { time }
    func alarm(after nanoseconds: UInt64, _ action: @escaping @Sendable () -> Void) -> LiveAlarm { NoAlarm() }
    struct NoAlarm: LiveAlarm { func cancel() {} }
}

/// A source whose stimuli the test scripts: handed out once each time it comes due.
@MainActor
final class ScriptedSource: LiveSource {
    let name = "scripted"
    var script: [[LiveStimulus]]
    init(_ script: [[LiveStimulus]]) { self.script = script }
    func interests() -> [pollfd] { [] }
    func ready(_ fd: Int32, events: Int16) -> [LiveStimulus] { [] }
    var nextDue: UInt64? { script.isEmpty ? nil : 0 }
    func due(now: UInt64) -> [LiveStimulus] { script.isEmpty ? [] : script.removeFirst() }
}

/// The live host's engine and its sources through their seam, in this process: scripted stimuli
/// through the real loop and state machine; memory pressure and clock changes through each source.
@Suite("the live host's sources, through their seam") @MainActor
struct LiveSourceSeamTests {
    /// A host with no subscribers (the state machine is the host's), its JSON lines collected.
    static func engine(clock: LiveClock = HandClock()) throws -> (LiveHost, @Sendable () -> [String]) {
        let lines = Mutex<[String]>([])
        let output = TextOutput { text in lines.withLock { $0 += text.split(separator: "\n").map(String.init) } }
        let errors = TextOutput { text in lines.withLock { $0 += text.split(separator: "\n").map { "stderr: " + $0 } } }
        let host = try PluginHost(application: Application(name: "Seam", bundleIdentifier: "com.example.seam", version: "1"), inProcess: [])
        let live = LiveHost(host: host, output: EventOutput(host: host, json: true, output: output, errors: errors, logFile: nil),
                            notifier: ServiceNotifier(environment: [:]), clock: clock, terminationDeadline: 5_000_000_000)
        return (live, { lines.withLock { $0 } })
    }

    /// The events of the JSON lines, in order.
    static func events(_ lines: [String]) -> [String] {
        lines.compactMap { line -> String? in
            guard case .object(let object)? = try? JSONValue(parsing: line), case .string(let event)? = object["event"] else { return nil }
            return event
        }
    }

    @Test("a stop signal pending before the launch: nothing is delivered, no READY, and the stop terminates nothing never launched")
    func stopBeforeLaunch() async throws {
        let (live, lines) = try Self.engine()
        live.stopPending = { true }
        let launch = [EventCall.willFinishLaunching(options: LaunchOptions()).erased, EventCall.didFinishLaunching(options: LaunchOptions()).erased]
        #expect(await live.launch(launch))
        live.add(ScriptedSource([[.stop(because: "SIGTERM")]]))
        #expect(await live.run() == 0)
        #expect(Self.events(lines()).isEmpty, "\(lines())")
        #expect(lines().contains("stderr: apphost: stopping: SIGTERM"), "\(lines())")
    }

    @Test("a stop signal that comes during the launch ends it there: the stop takes the app down from where it got")
    func stopDuringLaunch() async throws {
        let (live, lines) = try Self.engine()
        var asked = 0
        // Pending from the second look on: after willFinishLaunching was delivered.
        live.stopPending = {
            asked += 1
            return asked > 1
        }
        let launch = [EventCall.willFinishLaunching(options: LaunchOptions()).erased, EventCall.didFinishLaunching(options: LaunchOptions()).erased]
        #expect(await live.launch(launch))
        live.add(ScriptedSource([[.stop(because: "SIGTERM")]]))
        #expect(await live.run() == 0)
        // As every stop from where the app is: background (it was not yet), then terminate; never didFinishLaunching.
        #expect(Self.events(lines()) == ["willFinishLaunching", "didEnterBackground", "willTerminate"], "\(lines())")
    }

    @Test("every stimulus goes through the state machine: resume while active is ignored, suspend and resume, memory, time, stop")
    func stimuliThroughTheLoop() async throws {
        let (live, lines) = try Self.engine()
        var stopped = 0
        live.stopProcess = { stopped += 1 }
        let launch = [EventCall.willFinishLaunching(options: LaunchOptions()).erased, EventCall.didFinishLaunching(options: LaunchOptions()).erased]
        #expect(await live.launch(launch))
        live.add(ScriptedSource([
            [.resume(because: "SIGCONT")],
            [.memoryWarning(because: "test"), .suspend(because: "SIGTSTP")],
            [.suspend(because: "SIGTSTP again")],
            [.resume(because: "SIGCONT"), .timeChange(because: "test")],
            [.stop(because: "SIGTERM"), .memoryWarning(because: "after the stop")],
        ]))
        #expect(await live.run() == 0)
        #expect(stopped == 2)
        #expect(Self.events(lines()) == ["willFinishLaunching", "didFinishLaunching", "didBecomeActive",
                                         "didReceiveMemoryWarning", "willResignActive", "didEnterBackground",
                                         "willEnterForeground", "didBecomeActive", "significantTimeChange",
                                         "willResignActive", "didEnterBackground", "willTerminate"])
        #expect(lines().contains("stderr: apphost: SIGCONT ignored: the app is active, not in the background"))
    }

    @Test("a socket line the state forbids gets its refusal in the reply; willTerminate from the socket ends the loop")
    func callsAreGuarded() async throws {
        let (live, _) = try Self.engine()
        #expect(await live.launch([EventCall.willFinishLaunching(options: LaunchOptions()).erased]))
        var replies: [String] = []
        let launchAgain = try AnyEventCall(json: ["event": "didFinishLaunching", "launchOptions": [:]])
        live.add(ScriptedSource([[.call(launchAgain, from: "test", reply: { replies.append($0) }),
                                  .call(NotificationCall.willTerminate.erased, from: "test", reply: { replies.append($0) })]]))
        #expect(await live.run() == 0)
        #expect(replies.count == 2)
        #expect(replies.first?.contains(#""refused":"#) == true)
        #expect(replies.last?.hasPrefix(#"{"event":"willTerminate""#) == true)
    }

    @Test("memory pressure by polling avg10: a warning at the threshold, rate-limited, none below")
    func memoryPressurePolling() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("memory", "some avg10=55.00 avg60=1.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n")
        let clock = HandClock()
        let source = try MemoryPressureSource(path: file, clock: clock, forcePolling: true)
        #expect(source.description.hasPrefix("polling avg10 of \(file) every 5 s"))
        clock.time += MemoryPressureSource.pollInterval
        guard case .memoryWarning(let reason)? = source.due(now: clock.time).first else {
            Issue.record("no warning at avg10 55 %")
            return
        }
        #expect(reason == "memory pressure (avg10 55.0 % in \(file))")
        clock.time += MemoryPressureSource.pollInterval
        #expect(source.due(now: clock.time).isEmpty, "rate-limited: 5 s after the last warning")
        clock.time += MemoryPressureSource.pollInterval + 1
        #expect(source.due(now: clock.time).count == 1)
        try directory.write("memory", "some avg10=0.50 avg60=1.00 avg300=0.00 total=1\n")
        clock.time += 2 * source.minimumInterval
        #expect(source.due(now: clock.time).isEmpty)
        #expect(throws: LiveError.self) { try MemoryPressureSource(path: directory.path + "/none", clock: clock, forcePolling: true) }
    }

    @Test("an ordinary file named as the PSI file (MEMORY_PRESSURE_WATCH) is polled and never written: no trigger in it")
    func ordinaryFileNeverWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let text = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
        let file = try directory.write("memory.pressure", text)
        let source = try MemoryPressureSource(path: file, clock: HandClock())
        defer { source.close() }
        guard case .polling(_, let why) = source.mechanism else {
            Issue.record("an ordinary file got a trigger: \(source.description)")
            return
        }
        #expect(why.contains("not a kernel pressure file"), "\(why)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == text, "the file was written")
        #expect(!MemoryPressureSource.isKernelPressureFile(file))
        #expect(MemoryPressureSource.isKernelPressureFile("/proc/pressure/memory") == (access("/proc/pressure/memory", F_OK) == 0))
        // A FIFO (or a terminal) named there: refused at once, never waited on.
        let fifo = directory.path + "/pressure.fifo"
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(throws: LiveError.self) { try MemoryPressureSource(path: fifo, clock: HandClock()) }
        // Not a PSI file at all: refused before anything is written.
        let other = try directory.write("notes", "hello\n")
        #expect(throws: LiveError.self) { try MemoryPressureSource(path: other, clock: HandClock()) }
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "hello\n")
    }

    @Test("a real PSI trigger where the kernel allows it; the fallback named where it does not")
    func realPressureFile() throws {
        for path in MemoryPressureSource.cgroupPressureFiles() + ["/proc/pressure/memory"] where access(path, R_OK) == 0 {
            let source = try MemoryPressureSource(path: path, clock: MonotonicClock())
            defer { source.close() }
            switch source.mechanism {
            case .trigger: #expect(source.interests().count == 1, "the trigger's descriptor is polled for POLLPRI")
            case .polling(_, let why): print("\(path): trigger not allowed here, polling instead (\(why))")
            }
            return
        }
        print("skipped: no PSI file on this machine")
    }

    @Test("a time-zone change: localtime replaced in the watched folder is one significantTimeChange")
    func timeZoneChange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try ClockChangeSource(timeZoneFile: directory.path + "/localtime")
        defer { source.close() }
        try directory.write("localtime.new", "TZif")
        #expect(rename(directory.path + "/localtime.new", directory.path + "/localtime") == 0)
        var stimuli: [LiveStimulus] = []
        for _ in 0..<10 where stimuli.isEmpty {
            var fds = source.interests()
            guard poll(&fds, nfds_t(fds.count), 60_000) > 0 else { break }
            for entry in fds where entry.revents != 0 { stimuli += source.ready(entry.fd, events: entry.revents) }
        }
        guard case .timeChange(let reason)? = stimuli.first else {
            Issue.record("no time change")
            return
        }
        #expect(reason == "the time zone changed (\(directory.path)/localtime)")
    }

    @Test("a real timerfd cancel when the clock can be set here (skipped with the reason otherwise)")
    func wallClockSet() throws {
        let source = try ClockChangeSource()
        defer { source.close() }
        #expect(source.parts.contains("timerfd TFD_TIMER_CANCEL_ON_SET"))
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard clock_settime(CLOCK_REALTIME, &now) == 0 else {
            print("skipped: cannot set the clock here (\(String(cString: strerror(errno))))")
            return
        }
        var fds = source.interests()
        #expect(poll(&fds, nfds_t(fds.count), 60_000) > 0)
        let stimuli = fds.filter { $0.revents != 0 }.flatMap { source.ready($0.fd, events: $0.revents) }
        guard case .timeChange(let reason)? = stimuli.first else {
            Issue.record("no time change after the clock was set")
            return
        }
        #expect(reason == "the wall clock was set")
    }
}
