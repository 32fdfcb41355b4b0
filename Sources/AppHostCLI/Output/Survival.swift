#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SubscriberHost
import SubscriberKit
import Synchronization

/// Output that survives the end of the process: whatever ends a run, every event played is written
/// out, and what was under way is said (docs/cli.md, "When a run is cut short").
///
/// - **Signals that stop** (SIGTERM, SIGINT, SIGHUP, unless ignored when apphost started): the
///   outputs' buffers are written out, then the event under way (its heading in human output, the
///   lines logged so far) and one `apphost:` line on stderr naming the signal and the event; then
///   the signal is raised again with its default action, so the status is the conventional
///   128 + signal.
/// - **Crashes** (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS), on any thread: the
///   same, naming the plugin the crash happened in when the faulting address lies in one. A fault
///   returns to the faulting instruction, which faults again into the handler that was there before
///   (the Swift runtime's backtracer, or the default action); a signal that would not fault again
///   (a breakpoint trap, `raise`, `kill -SEGV` from outside) is handed to that handler, then raised
///   with its default action: the process always ends with it.
/// - **`exit()` called by a plugin** (an exit hook): the same, naming the plugin when one of its
///   functions is on the stack, and status 1 (2 while the plugins are loaded).
///
/// Lines a plugin logs are also rendered as they arrive into a fixed staging block per output
/// (``logged(_:)``), and dropped once the event they belong to was written the ordinary way: so the
/// lines of the event that ends the process are kept. Everything a handler touches is plain memory
/// allocated beforehand (``SignalSafeBuffer``, ``PublishedText``) and write(2): no lock, no
/// allocation. Where the kernel leaves no hook (`_exit`, SIGKILL, a stack overflow on a thread
/// without an alternate signal stack), a background thread writes buffered output out every
/// ``writeOutInterval``, so at most the events of that last moment are lost.
///
/// The writing out is done by a thread of apphost's own (the ending thread), never in the middle of
/// a write it interrupted: a handler hands it the cause and, for a stop signal, returns at once. It
/// waits for the writes in flight to end (``OutputClaims``; a write to a reader that stopped is
/// interrupted), so every byte is written once, and gives each output at most 2 s without progress
/// (``OutputWrite/bounded(_:to:timer:)``), so a stopped reader never keeps the process alive. What
/// it writes out and what the closing line says come from one view (``RunView``), sealed first: an
/// event is written whole and counted, or under way, even when the main thread, starved past the
/// wait for the writes in flight, goes on writing meanwhile. No
/// thread a plugin started is ever signalled. Nothing here runs unless ``installProcessHooks()`` was
/// called (the `apphost` executable does; tests running commands in process do not).
package enum Survival {
    /// How often, at most, buffered output waits during a run before it is written out (20 ms).
    package static let writeOutInterval: Duration = .milliseconds(20)

    // MARK: - Set up once per process

    /// Installs the signal handlers and the exit hook, gives this thread an alternate signal stack
    /// when it has none, starts the write-out and ending threads and ignores SIGXFSZ (a file past `ulimit -f`
    /// is then a failed write, `EFBIG`, reported as any other). Call once, first thing in `main`.
    package static func installProcessHooks() {
        guard !installed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Touch every global a handler reads, so none is first initialized inside a handler.
        _ = (view.state, ending.load(ordering: .relaxed), heading.capacity, scratch.capacity, pluginMap.count, eventNames.count)
        view.errorOutput.store(StandardDescriptors.error, ordering: .releasing)
        signal(SIGXFSZ, SIG_IGN)
        for number in fatalSignals { install(number, handler: { signal, info, context in Survival.fatal(signal, info, context) }) }
        for number in stopSignals {
            var current = sigaction()
            // A signal ignored when apphost started (nohup, a background job) stays ignored.
            guard sigaction(number, nil, &current) == 0,
                  unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) != unsafeBitCast(SIG_IGN, to: Int.self) else { continue }
            install(number, handler: { signal, info, context in Survival.stop(signal, info, context) })
        }
        // Delivered, whatever mask apphost was started with (a parent's libdispatch thread passes
        // one that blocks nearly everything): the threads made from now on inherit this one's.
        var handled = sigset_t()
        sigemptyset(&handled)
        OutputClaims.install()
        ThreadAltStacks.installOnThisThread()
        for number in fatalSignals + stopSignals + [OutputClaims.interruptSignal] where number > 0 { sigaddset(&handled, number) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        _ = on_exit({ status, _ in Survival.exiting(status: status) }, nil)
        Backtrace.prepare()
        startEndingThread()
        startWriteOutThread()
    }

    private static let installed = Atomic<Bool>(false)
    private static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS]
    private static let stopSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    /// The actions in place before ours, by signal number.
    private nonisolated(unsafe) static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    private static func install(_ number: Int32,
                                handler: @escaping @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handler
        sigemptyset(&action.sa_mask)
        // On the thread's alternate stack when it has one: a stack overflow leaves no stack to run on.
        action.sa_flags = Int32(truncatingIfNeeded: SA_SIGINFO | SA_ONSTACK | SA_RESTART)
        sigaction(number, &action, previous + Int(number))
    }

    // MARK: - Buffers the handlers write out

    /// The buffers a handler writes out and where the run is, as one view (``RunView``).
    static let view = RunView()

    /// A buffer of ``TextOutput/bufferLimit`` bytes for the buffered output at `fd`, which a handler
    /// writes out; nil when all ``RunView/heldCapacity`` are taken (the output then writes unbuffered).
    static func registerBuffer(for fd: Int32) -> SignalSafeBuffer? {
        let buffer = SignalSafeBuffer(capacity: TextOutput.bufferLimit)
        return view.register(buffer, for: fd) ? buffer : nil
    }

    // MARK: - Where the run is

    private typealias Phase = RunState.Phase
    /// Every event, by index (``LifecycleEvent/allCases`` once, not once per log line).
    private static let allEvents = LifecycleEvent.allCases
    /// Every event's name, by index, for the handlers.
    private static let eventNames: [SignalSafeBuffer] = {
        var names = [SignalSafeBuffer](repeating: SignalSafeBuffer(capacity: 1), count: LifecycleEvent.allCases.count)
        for event in LifecycleEvent.allCases {
            let name = SignalSafeBuffer(capacity: event.name.utf8.count)
            var text = event.name
            text.withUTF8 { _ = name.append($0) }
            names[event.index] = name
        }
        return names
    }()
    /// Human output only: how the heading of the event under way starts and ends around its name
    /// (`▸ ` and a newline, with the colour escapes when the output has colour).
    private static let heading = PublishedText(capacity: 64)
    private static let headingEnd = PublishedText(capacity: 64)

    private static var isInstalled: Bool { installed.load(ordering: .relaxed) }

    /// A run starts loading its plugins: logs are staged for `output` (human) or `errors`
    /// (`--json`), as the run will print them.
    package static func runStarts(json: Bool, output: TextOutput, errors: TextOutput) {
        guard isInstalled else { return }
        let style = Style.for(output)
        let marker = style.cyan("▸") + " ", bold = style.bold("\u{1}")
        heading.publish(marker + String(bold.prefix { $0 != "\u{1}" }))
        headingEnd.publish(String(bold.drop { $0 != "\u{1}" }.dropFirst()) + "\n")
        view.humanOutput.store(json ? -1 : output.fileDescriptor ?? -1, ordering: .releasing)
        view.errorOutput.store(errors.fileDescriptor ?? StandardDescriptors.error, ordering: .releasing)
        if json {
            stage(errors, terminalLines: true) { record, _, bytes in LogLineBytes.appendTerminalLine(record, to: &bytes) }
        } else {
            let renderer = HumanRenderer(style: style, subscriberNames: [])
            stage(output) { record, _, bytes in bytes.append(contentsOf: (renderer.logLine(record) + "\n").utf8) }
        }
        view.publish(.loading)
    }

    /// The plugins are loaded: makes again apphost's copies of standard output and error that one
    /// closed (before the command opens a file that could take their numbers), and remembers where
    /// each plugin's code lies, to name it in a crash or an exit.
    @MainActor
    package static func pluginsLoaded(_ host: PluginHost) {
        StandardDescriptors.remakeClosedCopies()
        guard isInstalled else { return }
        pluginMap.load(host.plugins.plugins.map { ("\($0.entry.keyPath) \(TerminalText.escaped($0.image.name))", $0.image.realPath) })
    }

    /// Also stages every log line for `logFile`, rendered as it will be written there.
    package static func stageLogs(for logFile: TextOutput) {
        guard isInstalled else { return }
        stage(logFile) { record, event, bytes in bytes.append(contentsOf: JSONLines.log(record, during: event).utf8) }
    }

    /// Event `number` (from 1) starts: which it is is published for the handlers (a few atomic
    /// stores: it runs for every event; human output's partial heading is its name alone).
    package static func eventStarts(_ call: AnyEventCall, number: Int) {
        guard isInstalled else { return }
        view.publish(.event, event: call.event.index, number: number)
    }

    /// The `count` log lines rendered the ordinary way (an event's, or those before the first event
    /// or after the last) are no longer held for a handler.
    package static func logsWritten(_ count: Int) {
        guard isInstalled, count > 0 else { return }
        OutputClaims.withClaim {
            staging.withLock { state in for stager in state.stagers where !stager.shared { stager.drop(count) } }
        }
    }

    /// Writes `records` (the lines of an event, or those before the first or after the last) to
    /// `output` as `render` renders them: with the bytes staged for them as they arrived, when
    /// `output` stages lines, so that each line is rendered once (a record not found staged is
    /// rendered here). Staging then costs a run nothing more than writing its lines did.
    package static func write(_ records: [LogRecord], during event: LifecycleEvent?, to output: TextOutput,
                              render: (LogRecord) -> String) {
        guard isInstalled, !records.isEmpty, let fd = output.fileDescriptor else {
            for record in records { output.write(render(record)) }
            return
        }
        // One claim for the copy and the forgetting: the ending thread never sees a line both
        // written and still staged.
        OutputClaims.withClaim { staging.withLock { state in
            guard let stager = state.stagers.first(where: { $0.fd == fd }) else {
                for record in records { output.write(render(record)) }
                return
            }
            stager.shared = true
            // The usual case: the records are the first lines staged, in order, each whole: their
            // bytes follow one another, written at once (one write into the output a line cost
            // about 310 instructions: its claim, its lock, its append). Only into a buffered output:
            // a write straight to a terminal that the ending thread cuts short would leave every
            // line of it staged, and the ending thread would write them all again.
            if !(output.isBuffered && stager.writeFirst(matching: records, during: event, to: output)) {
                // By index: a record (strings, attributes) is not copied out of the array to be found staged.
                for index in records.indices where !stager.write(time: records[index].time, during: event, to: output) {
                    output.write(render(records[index]))
                }
            }
            // Staged lines not written from here (a thread's line staged as "between events" and
            // drained with the next one) are not held any longer than the lines written with them.
            if let last = records.last?.time {
                var stale = 0
                while stale < stager.count && stager.entries[stager.head + stale].time <= last { stale += 1 }
                stager.drop(stale)
            }
        } }
    }

    /// Runs `body`, which writes an event's lines and block and calls ``eventWritten(_:number:logs:)``
    /// (or the lines before the first event or after the last, and calls ``logsWritten(_:)``), as
    /// one: the process ending meanwhile writes out either none of it, its lines as under way, or
    /// all of it as written — never the event's line without "event N written", nor the other way
    /// round, whichever thread is starved (a section of ``RunView``).
    package static func writingAtOnce(_ body: () -> Void) {
        guard isInstalled else { return body() }
        OutputClaims.withClaim {
            // The process is ending (the state was sealed first): nothing more is written.
            guard view.beginSection() else { OutputClaims.park() }
            body()
            view.endSection(written: false)
        }
    }

    /// Event `number` was written the ordinary way, with its `logs` lines: said in the same change
    /// that lets its bytes go (``RunView/endSection(written:)``).
    package static func eventWritten(_ call: AnyEventCall, number: Int, logs: Int) {
        guard isInstalled else { return }
        logsWritten(logs)
        view.endSection(written: true)
    }

    /// The subscribers are being destroyed.
    package static func shutdownStarts() {
        guard isInstalled else { return }
        view.publish(.shuttingDown)
    }

    /// The run is over (whichever way it returns): from now on an `exit()` is the command's own, and
    /// a signal only writes out what is buffered.
    package static func runEnds() {
        guard isInstalled else { return }
        view.publish(.none)
    }

    // MARK: - Log lines staged for the handlers

    /// One output's staged lines: each record rendered as that output shows it, oldest first.
    /// Its state is changed under `staging`'s lock only, one access at a time: no run-time
    /// exclusivity checks (two a line staged, a few more a line written).
    private final class Stager: @unchecked Sendable {  // changed under `staging`'s lock only
        /// One staged record: where its bytes end in `buffer`, and what it was, to tell it when it
        /// is written the ordinary way.
        struct Entry {
            var end: Int
            var time: Date
            var event: LifecycleEvent?
        }

        let fd: Int32
        let buffer = SignalSafeBuffer(capacity: 64 << 10)
        /// Appends a record's bytes, as its output shows it.
        let render: @Sendable (LogRecord, LifecycleEvent?, inout [UInt8]) -> Void
        /// Whether the lines are `--json`'s terminal lines, written in place into the buffer when
        /// they can be (``LogLineBytes/writeTerminalLine(_:into:capacity:)``: the line rendered
        /// once, where it is kept), else rendered by ``render``. A flag, not a closure: called
        /// through a stored closure, a line went through two reabstraction thunks (about 50
        /// instructions).
        let writesTerminalLines: Bool
        /// The record being staged, rendered (reused: one allocation for the run).
        @exclusivity(unchecked) var scratch: [UInt8] = []
        /// The staged records from `head` to `tail`, oldest first (one that did not fit ends where
        /// the one before did); those before `head` are forgotten (kept to spare the array a shift
        /// each time), those from `tail` on are storage to reuse: emptied by moving `head` and
        /// `tail` back, not by the array's `removeAll(keepingCapacity:)` (about 85 instructions a
        /// line written).
        @exclusivity(unchecked) var entries: [Entry] = []
        @exclusivity(unchecked) var head = 0
        @exclusivity(unchecked) var tail = 0
        /// Whether the run writes this output's lines from here (``Survival/write(_:during:to:render:)``),
        /// rather than rendering them again and calling ``Survival/logsWritten(_:)``.
        @exclusivity(unchecked) var shared = false

        init(fd: Int32, terminalLines: Bool, render: @escaping @Sendable (LogRecord, LifecycleEvent?, inout [UInt8]) -> Void) {
            self.fd = fd
            writesTerminalLines = terminalLines
            self.render = render
        }

        func stage(_ record: LogRecord, during event: LifecycleEvent?) {
            // Written where it is kept, when it can be (a plain line that fits: nearly all).
            if writesTerminalLines,
               let end = buffer.append(writing: { LogLineBytes.writeTerminalLine(record, into: $0, capacity: $1) }) {
                return keep(Entry(end: end, time: record.time, event: event))
            }
            // Rendered after the lines before it, cleared once they fill 4 KB (clearing an array
            // for each line cost 80 instructions); a scratch grown past 64 KB by a long line is let go.
            if scratch.count >= 4096 { scratch.removeAll(keepingCapacity: scratch.capacity <= 64 << 10) }
            let start = scratch.count
            render(record, event, &scratch)
            scratch.withUnsafeBufferPointer { all in
                let bytes = UnsafeBufferPointer(rebasing: all[start...])
                // Room is made by moving what is held to the front (``SignalSafeBuffer/append(_:)``:
                // offsets do not move, the entries stay as they are); full (lines that were never
                // written the ordinary way pile up), the line is not kept.
                keep(Entry(end: buffer.append(bytes) ?? buffer.end, time: record.time, event: event))
            }
        }

        /// How many records are staged.
        var count: Int { tail - head }

        /// Appends `entry` after the staged ones.
        @inline(__always)
        private func keep(_ entry: Entry) {
            if tail < entries.count {
                entries[tail] = entry
            } else {
                entries.append(entry)
            }
            tail += 1
        }

        /// Where staged record `index` (from `head`) starts.
        func start(of index: Int) -> Int { index == head ? buffer.start : entries[index - 1].end }

        func drop(_ count: Int) {
            guard count > 0, head < tail else { return }
            head = min(head + count, tail)
            buffer.drop(before: entries[head - 1].end)
            if head == tail || buffer.count == 0 {
                head = 0
                tail = 0
            } else if head > 256 && head * 2 > tail {
                for index in head..<tail { entries[index - head] = entries[index] }
                tail -= head
                head = 0
            }
        }

        /// When `records` are the first staged records, in order, each staged whole: writes their
        /// bytes (which follow one another) to `output` at once, forgets them and returns true;
        /// else writes nothing and returns false. In the claim ``Survival/write(_:during:to:render:)``
        /// holds, as ``write(time:during:to:)``: no second one is taken (about 40 instructions).
        func writeFirst(matching records: [LogRecord], during event: LifecycleEvent?, to output: TextOutput) -> Bool {
            guard records.count <= count else { return false }
            var position = head
            for index in records.indices {
                guard entries[position].time == records[index].time, entries[position].event == event,
                      entries[position].end > start(of: position) else { return false }
                position += 1
            }
            buffer.withBytes(from: buffer.start, to: entries[position - 1].end) { output.writeInClaim($0) }
            drop(records.count)
            return true
        }

        /// Writes the record logged at `time` to `output` as staged, and forgets it; false when it is not among the
        /// first few staged (then it must be rendered). Staged records before it are forgotten.
        func write(time: Date, during event: LifecycleEvent?, to output: TextOutput) -> Bool {
            var position = head
            while position < min(tail, head + 4), entries[position].time != time || entries[position].event != event {
                position += 1
            }
            guard position < min(tail, head + 4), entries[position].end > start(of: position) else { return false }
            buffer.withBytes(from: start(of: position), to: entries[position].end) { output.writeInClaim($0) }
            drop(position - head + 1)
            return true
        }
    }

    private struct Staging {
        var stagers: [Stager] = []
    }

    private static let staging = Mutex(Staging())

    private static func stage(_ output: TextOutput, terminalLines: Bool = false,
                              render: @escaping @Sendable (LogRecord, LifecycleEvent?, inout [UInt8]) -> Void) {
        guard let fd = output.fileDescriptor else { return }
        OutputClaims.withClaim { staging.withLock { state in
            let stager = Stager(fd: fd, terminalLines: terminalLines, render: render)
            guard view.register(stager.buffer, for: fd, staged: true) else { return }
            state.stagers.append(stager)
        } }
    }

    /// Stages `record` for every output that will show it: the host's log handler. [any-thread]
    @Sendable
    package static func logged(_ record: LogRecord) {
        guard isInstalled else { return }
        let now = view.state
        let event = now.phase == .event ? allEvents[now.eventIndex] : nil
        // The lock first: a thread waiting for it holds no claim the ending thread would wait for.
        staging.withLock { state in OutputClaims.withClaim { for stager in state.stagers { stager.stage(record, during: event) } } }
    }

    // MARK: - The handlers

    /// 0 running, 1 the process is ending (its output being written out), 2 written out.
    private static let ending = Atomic<Int>(0)

    /// Whether the caller is the first to end the process: it has everything written out.
    private static func claimEnding() -> Bool {
        ending.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
    }

    /// Waits for everything to be written out, a bounded while (the ending thread gives each
    /// output ``OutputWrite/patienceMilliseconds`` without progress).
    private static func waitWrittenOut() {
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        for _ in 0..<15_000 where ending.load(ordering: .acquiring) != 2 { nanosleep(&pause, nil) }
    }

    /// What ended the process, for the closing lines.
    enum Cause {
        /// A crash signal; `code` is `si_code` (> 0: the CPU's or the kernel's), `sender` the sending
        /// process for a signal sent, `address` the faulting instruction (0 when unknown).
        case crash(signal: Int32, code: Int32, sender: pid_t, address: UInt)
        /// A signal that stops the command.
        case stop(signal: Int32)
        /// `exit(status)`, called from `plugin` (nil when unknown).
        case exit(status: Int32, plugin: PluginMap.Found?)
    }

    /// Has everything written out for `cause` and waits for it (a crash or an `exit()`: the calling
    /// thread then ends the process): by the ending thread when there is one, else right here.
    private static func writeOutAndWait(_ cause: Cause) {
        guard endingThreadReady.load(ordering: .acquiring) else {
            // No ending thread (none could be started): this one stops the writes in flight
            // first, as the ending thread would, so that none writes what it writes out.
            OutputClaims.beginEnding(handlerThread: UInt(pthread_self()))
            writeEverything(cause, timer: nil, interrupted: UInt(pthread_self()))
            ending.store(2, ordering: .releasing)
            return
        }
        pendingCause = cause
        // This thread waits in a handler: a claim it holds is not waited for.
        handlerThread.store(UInt(pthread_self()), ordering: .releasing)
        sem_post(wake)
        waitWrittenOut()
    }

    private static func fatal(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let code = info?.pointee.si_code ?? 0
        if claimEnding() {
            let sender = code <= 0 ? (info?.pointee._sifields._kill.si_pid ?? 0) : 0
            writeOutAndWait(.crash(signal: number, code: code, sender: sender, address: faultingAddress(context)))
        } else {
            // Another thread ends the process: let it finish writing before going on.
            waitWrittenOut()
        }
        // A fault (SIGSEGV, SIGBUS, SIGILL, SIGFPE from the CPU) returns to the faulting instruction:
        // it faults again, into the previous handler, with its own address and context (the
        // backtrace stays the plugin's). Anything else would return into the code that raised it.
        let refaults = code > 0 && (number == SIGSEGV || number == SIGBUS || number == SIGILL || number == SIGFPE)
        if refaults {
            sigaction(number, previous + Int(number), nil)
            return
        }
        // A signal a process sent (raise, kill: si_code <= 0) is not handed on: the Swift runtime's
        // backtracer, started for it from inside this handler, outlived the process (asleep for
        // hours, reading a socket nobody writes). A trap is the CPU's: its backtrace is shown.
        if code > 0 { callPrevious(number, info, context) }
        raiseWithDefaultAction(number)
    }

    /// SIGTERM, SIGINT, SIGHUP: hands the ending to the ending thread and returns at once, so that a
    /// write this thread was in goes on (its bytes counted, none written twice); the ending thread
    /// writes everything out, then raises the signal with its default action. A signal that
    /// arrives while the process is already ending changes nothing.
    private static func stop(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        guard claimEnding() else { return }
        if endingThreadReady.load(ordering: .acquiring) {
            pendingCause = .stop(signal: number)
            sem_post(wake)
            return
        }
        OutputClaims.beginEnding(handlerThread: UInt(pthread_self()))
        writeEverything(.stop(signal: number), timer: nil, interrupted: UInt(pthread_self()))
        ending.store(2, ordering: .releasing)
        raiseWithDefaultAction(number)
    }

    /// The exit hook (on_exit): an `exit()` during a run is not the command's.
    private static func exiting(status: Int32) {
        let current = view.state.phase
        guard current != .none, claimEnding() else { return }
        writeOutAndWait(.exit(status: status, plugin: pluginMap.plugin(atAny: Backtrace.callers())))
        _exit(current == .loading ? ExitStatus.usage : ExitStatus.failure)
    }

    // MARK: - The ending thread

    /// What the ending thread is asked to write out for, set before ``wake`` is posted.
    private nonisolated(unsafe) static var pendingCause: Cause = .stop(signal: 0)
    /// Posted (sem_post, async-signal-safe; no descriptor a plugin could close) to start the ending.
    private nonisolated(unsafe) static let wake: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()
    private static let endingThreadReady = Atomic<Bool>(false)
    /// The thread waiting in a handler for the ending thread (`pthread_self()`, 0: none).
    private static let handlerThread = Atomic<UInt>(0)

    /// Starts the thread that writes everything out when the process ends: a thread of apphost's
    /// own, so that what it writes can be bounded (a timer interrupts a write that makes no
    /// progress) and a handler never writes in the middle of a write it interrupted.
    /// Returns once the thread is ready to end the process (a bounded while: a thread that never
    /// starts leaves the ending to the handlers): a crash soon after start is then written out by
    /// it, with the writes in flight waited for, like any other.
    private static func startEndingThread() {
        _ = wake
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { _ in
            ThreadAltStacks.installOnThisThread()
            let timer = EndingTimer(thread: Survival.kernelThreadID())
            Survival.endingThreadReady.store(true, ordering: .releasing)
            while sem_wait(Survival.wake) != 0 {}
            Survival.endTheProcess(timer: timer)
        }, nil)
        guard started == 0 else { return }
        pthread_detach(thread)
        var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
        for _ in 0..<50_000 where !endingThreadReady.load(ordering: .acquiring) { nanosleep(&pause, nil) }
    }

    /// On the ending thread: waits for the writes in flight to stop (``OutputClaims``), writes
    /// everything out, then raises a stop signal with its default action (a crash's or an exit's
    /// handler ends the process itself).
    private static func endTheProcess(timer: EndingTimer?) -> Never {
        let cause = pendingCause
        let interrupted = handlerThread.load(ordering: .acquiring)
        OutputClaims.beginEnding(handlerThread: interrupted)
        writeEverything(cause, timer: timer, interrupted: interrupted)
        ending.store(2, ordering: .releasing)
        if case .stop(let number) = cause { raiseWithDefaultAction(number) }
        OutputClaims.park()
    }

    private typealias GetTID = @convention(c) () -> pid_t

    /// The calling thread's kernel id (glibc's gettid, found at run time: the Glibc module does not
    /// export it); 0 when unknown.
    static func kernelThreadID() -> pid_t {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gettid") else { return 0 }
        return unsafeBitCast(symbol, to: GetTID.self)()
    }

    /// Hands the signal to the handler that was there before ours (the Swift runtime's backtracer
    /// prints its report), unless that is the default action or ignoring it.
    private static func callPrevious(_ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
        let action = previous[Int(number)]
        if action.sa_flags & Int32(truncatingIfNeeded: SA_SIGINFO) != 0 {
            action.__sigaction_handler.sa_sigaction?(number, info, context)
        } else if let handler = action.__sigaction_handler.sa_handler {
            let raw = unsafeBitCast(handler, to: Int.self)
            if raw != unsafeBitCast(SIG_IGN, to: Int.self) && raw != 0 { handler(number) }
        }
    }

    /// Ends the process with `number` and its default action (a crash signal's core dump, 128 +
    /// signal for the shell).
    private static func raiseWithDefaultAction(_ number: Int32) -> Never {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(number, &action, nil)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, number)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        raise(number)
        _exit(128 + number)  // not reached: the default action of every signal handled here ends the process
    }

    /// The instruction that faulted, from the handler's context; 0 when unknown.
    private static func faultingAddress(_ context: UnsafeMutableRawPointer?) -> UInt {
        #if arch(x86_64) && canImport(Glibc)
        guard let context else { return 0 }
        return UInt(bitPattern: Int(context.assumingMemoryBound(to: ucontext_t.self).pointee.uc_mcontext.gregs.16))  // REG_RIP
        #else
        return 0
        #endif
    }

    // MARK: - Writing out

    /// Writes out every buffer, then what was under way, then the closing line; what the
    /// `interrupted` thread (stopped in a handler for good, 0: none) was writing out is written too.
    /// The run's state is sealed first, and what is written out is what it says was written
    /// (``RunView``): the closing line names the last event whose line is written, whatever the
    /// main thread does meanwhile (`between`, for tests, runs after the seal). Async-signal-safe.
    static func writeEverything(_ cause: Cause, timer: EndingTimer?, interrupted: UInt = 0, view: RunView = Survival.view,
                                between: (() -> Void)? = nil) {
        let state = view.seal()
        between?()
        // An event being written is not: its bytes (past the marks) stay unwritten, its staged
        // lines are written as under way. Unless some were written already (outputs sharing one
        // file keep their order): then that file's output is written out as held, its staged
        // lines from where they are.
        let section = state.inSection
        // (Nothing is written out but here once the state is sealed: what was past a mark stays so.)
        // An output with no buffer of its own (a terminal) wrote each line as it came: none is held.
        func heldBack(_ fd: Int32) -> Bool {
            guard section else { return false }
            var held = false
            for index in 0..<view.heldCount where view.held[index].fd == fd {
                if view.held[index].buffer.isPastMark { return false }
                held = true
            }
            return held
        }
        // A reader that stopped reading gets a few seconds without progress, not forever: the
        // process is ending (``OutputWrite/bounded(_:to:timer:)``).
        for index in 0..<view.heldCount {
            let buffer = view.held[index].buffer
            buffer.writeOutBounded(to: view.held[index].fd, timer: timer, interrupted: interrupted, toMark: section && !buffer.isPastMark)
        }
        let current = state.phase
        guard current != .none else { return }
        let human = view.humanOutput.load(ordering: .acquiring)
        let errors = view.errorOutput.load(ordering: .acquiring)
        for index in 0..<view.stagedCount {
            let stager = view.staged[index]
            if stager.fd == human && current == .event {
                scratch.reset()
                scratch.append(heading)
                if state.eventIndex < eventNames.count { eventNames[state.eventIndex].withBytes { scratch.append($0) } }
                scratch.append(headingEnd)
                scratch.writeOut(to: human, timer: timer)
            }
            stager.buffer.writeOutBounded(to: stager.fd, timer: timer, fromMark: heldBack(stager.fd))
            if stager.fd == human {
                scratch.reset()
                scratch.append("    ⚠ ")
                describe(cause)
                describe(state)
                scratch.append("\n\n")
                scratch.writeOut(to: human, timer: timer)
            }
        }
        scratch.reset()
        scratch.append("apphost: ")
        describe(cause)
        describe(state)
        if case .exit = cause {
            scratch.append("; exit status ")
            scratch.append(number: Int(current == .loading ? ExitStatus.usage : ExitStatus.failure))
        }
        scratch.append("\n")
        scratch.writeOut(to: errors, timer: timer)
    }

    /// `crashed: SIGSEGV in plugins[1] DiesOnEvent`, `stopped by SIGTERM`, `plugins[1] DiesOnEvent
    /// called exit(0)`, into ``scratch``.
    private static func describe(_ cause: Cause) {
        switch cause {
        case .crash(let number, let code, let sender, let address):
            scratch.append("crashed: ")
            scratch.append(signalName(number))
            let plugin = pluginMap.plugin(at: address)
            if code > 0 {
                if let plugin {
                    scratch.append(" in ")
                    pluginMap.appendName(plugin, to: scratch)
                }
            } else if sender == getpid() {
                scratch.append(" (raised by the process itself)")
            } else if sender > 0 {
                scratch.append(" (sent by process ")
                scratch.append(number: Int(sender))
                scratch.append(")")
            }
        case .stop(let number):
            scratch.append("stopped by ")
            scratch.append(signalName(number))
        case .exit(let status, let plugin):
            if let plugin {
                pluginMap.appendName(plugin, to: scratch)
                scratch.append(" called exit(")
            } else {
                scratch.append("exit(")
            }
            scratch.append(number: Int(status))
            scratch.append(plugin != nil ? ")" : ") was called, not by apphost")
        }
    }

    /// ` during didEnterBackground (event 6)`, ` while the plugins were loaded`, …, into ``scratch``.
    private static func describe(_ state: RunState) {
        switch state.phase {
        case .none: break
        case .loading: scratch.append(" while the plugins were loaded")
        case .event, .between:
            scratch.append(state.phase == .event ? " during " : " after ")
            if state.eventIndex < eventNames.count { eventNames[state.eventIndex].withBytes { scratch.append($0) } }
            scratch.append(" (event ")
            scratch.append(number: state.eventNumber)
            scratch.append(")")
        case .shuttingDown: scratch.append(" while the subscribers were destroyed")
        }
    }

    private static func signalName(_ number: Int32) -> StaticString {
        switch number {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGFPE: "SIGFPE"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGSYS: "SIGSYS"
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "a signal"
        }
    }

    /// Where the closing lines are composed (one handler at a time: ``claimEnding()``).
    static let scratch = PublishedText.Scratch(capacity: 8192)

    // MARK: - Which plugin

    /// Where each loaded plugin's code lies, to name the plugin an address belongs to.
    private static let pluginMap = PluginMap()

    // MARK: - Writing out during a run

    /// A thread that, every ``writeOutInterval`` while a run plays, writes buffered output out (so
    /// that an end without a hook — `_exit`, SIGKILL, a stack overflow on a plugin's own thread —
    /// loses at most that moment's events), off the main thread so that it costs the events nothing.
    /// It signals no thread.
    private static func startWriteOutThread() {
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { _ in
            ThreadAltStacks.installOnThisThread()
            OutputClaims.addWriteOutThread()
            let interval = Survival.writeOutInterval.components
            var pause = timespec(tv_sec: Int(interval.seconds), tv_nsec: Int(interval.attoseconds / 1_000_000_000))
            while true {
                nanosleep(&pause, nil)
                guard Survival.view.state.phase != .none else { continue }
                TextOutput.flushPendingIfFree()
            }
        }, nil)
        if started == 0 { pthread_detach(thread) }
    }
}

/// A text the main thread replaces now and then and a signal handler may write out at any moment:
/// two blocks, the one published chosen by an atomic, so a reader never sees one half-written.
final class PublishedText: Sendable {
    private let blocks: [SignalSafeBuffer]
    private let current = Atomic<Int>(0)
    /// The most bytes it holds; a longer text is cut.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        blocks = [SignalSafeBuffer(capacity: capacity), SignalSafeBuffer(capacity: capacity)]
    }

    /// Replaces the text (from one thread at a time).
    func publish(_ text: String) {
        let next = 1 - current.load(ordering: .relaxed)
        blocks[next].empty()
        var text = text
        text.withUTF8 { bytes in
            // Cut at a character boundary: a UTF-8 continuation byte never starts the cut-off part.
            var count = min(bytes.count, capacity)
            while count < bytes.count && count > 0 && bytes[count] & 0xC0 == 0x80 { count -= 1 }
            blocks[next].append(UnsafeBufferPointer(rebasing: bytes[0..<count]))
        }
        current.store(next, ordering: .releasing)
    }

    /// Writes the published text to `fd`, without forgetting it. Async-signal-safe.
    func writeOut(to fd: Int32, timer: EndingTimer?) {
        blocks[current.load(ordering: .acquiring)].withBytes { _ = OutputWrite.bounded($0, to: fd, timer: timer) }
    }

    /// Calls `body` with the published bytes. Async-signal-safe.
    func withBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        blocks[current.load(ordering: .acquiring)].withBytes(body)
    }

    /// A line composed in a signal handler: a fixed block appended to without allocating.
    final class Scratch: @unchecked Sendable {  // used by one handler at a time
        private let base: UnsafeMutablePointer<UInt8>
        private var count = 0
        /// The most bytes a line holds; more is cut.
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        func reset() { count = 0 }

        func append(_ text: StaticString) {
            append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let source = bytes.baseAddress else { return }
            let taken = min(bytes.count, capacity - count)
            (base + count).update(from: source, count: taken)
            count += taken
        }

        func append(_ text: PublishedText) {
            text.withBytes { append($0) }
        }

        /// `number` in decimal, without allocating.
        func append(number: Int) {
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &digits) { digits in
                var value = number.magnitude
                var first = digits.count
                repeat {
                    first -= 1
                    digits[first] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                } while value > 0 && first > 1
                if number < 0 {
                    first -= 1
                    digits[first] = UInt8(ascii: "-")
                }
                append(UnsafeBufferPointer(rebasing: digits.bindMemory(to: UInt8.self)[first...]))
            }
        }

        func writeOut(to fd: Int32, timer: EndingTimer?) {
            _ = OutputWrite.bounded(UnsafeBufferPointer(start: base, count: count), to: fd, timer: timer)
        }

        /// The line so far, as text (not async-signal-safe: for tests).
        var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }
    }
}
