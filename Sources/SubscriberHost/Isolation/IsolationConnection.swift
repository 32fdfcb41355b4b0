#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import ChildProcessEntry
import Dispatch
import Foundation
import SubscriberDelivery
import SubscriberKit
import SubscriberEventModel
import Synchronization

/// How a child's process ended, as the host saw it.
package enum ChildEnding: Sendable, Equatable, CustomStringConvertible {
    /// Killed by a signal (its name: "SIGSEGV"), or exited with a status, as its reaper reported.
    case crashed(String)
    /// Its synchronous call passed the budget; the host killed its process group.
    case hung(budgetMilliseconds: Int)
    /// It wrote something that is not a message of the protocol; the host killed it. The line says what.
    case malformed(String)

    package var description: String {
        switch self {
        case .crashed(let how): how
        case .hung(let budget): "no reply within the call budget of \(budget) ms (killed)"
        case .malformed(let what): "a malformed frame: \(what) (killed)"
        }
    }
}

/// One running isolation child as the host sees it: its process, its channel, and a reader thread
/// for its standard output and error (line by line), its reaper's report, and its channel between
/// calls. A synchronous call reads its reply on the calling thread
/// (``roundTrip(_:seq:budgetMilliseconds:)``): it writes the request, then `poll`s the channel
/// itself, the call budget as the timeout, and handles every frame that comes before the reply
/// (logs, requests, earlier events' completions) in the order the child wrote them. Between calls
/// the reader thread reads the channel: a completion, a log or a request that comes then is handled
/// at once, as it arrives. The two never read at once: the channel's reader (its buffer) is behind a
/// mutex that a call holds from its request to its reply, and the reader thread's interest in the
/// channel (`EPOLLONESHOT`) is disarmed for the call and armed again after it, so a reply wakes only
/// the caller. Nothing the child writes is trusted: a frame without the run's secret, over the size
/// limit, of an unknown type, with JSON that does not read, naming a subscriber or a sequence the
/// host never gave, ends the child as ``ChildEnding/malformed(_:)``.
package final class IsolationConnection: @unchecked Sendable {
    // @unchecked: `state` is behind its mutex; the rest is immutable.
    /// A completion the host waits for: the handler once the transport gave it, or the answer when it
    /// arrived first (the child runs a whole batch before the host calls the later responders).
    enum Pending {
        case handler(@Sendable (JSONObject) throws(IsolationWireError) -> Void)
        case arrived(JSONObject)
    }

    /// What an owed completion is handed when its child ended before it arrived.
    static let crashedMessage: JSONObject = ["k": "c"]

    struct Key: Hashable { let seq: UInt64; let subscriber: Int }

    struct State {
        /// The sequence of the call under way (0: the hello), nil between calls.
        var awaited: UInt64?
        var reply: JSONObject?
        var ending: ChildEnding?
        var ended = false
        /// The reader is about to reap the child: ``kill()`` no longer signals its group's number.
        var reaping = false
        var pending: [Key: Pending] = [:]
        /// The child said farewell to the host's goodbye: its end is the one asked for, not a crash.
        var saidFarewell = false
        /// The highest sequence sent: a completion for a later one was never asked for.
        var lastSent: UInt64 = 0
        var subscriberCount: Int?
        /// The last lines the child wrote on standard error, for a child that ends before its hello.
        var lastWords: [String] = []
    }

    let child: StartedChild
    private let state = Mutex(State())
    /// Signalled once, when the reader thread saw the child end.
    private let wake = DispatchSemaphore(value: 0)
    /// The channel's reader: whoever holds it reads the channel (a call, or the reader thread).
    private let channelReader = Mutex(ChannelReader())
    /// The reader thread's epoll set: the channel (one-shot, armed between calls), the reaper and
    /// the standard streams. Closed with the connection, never before (a call may still arm it).
    private let poller: Int32
    private let log: HostLogRecorder
    /// Who standard output and error lines are attributed to, and the subscribers' names by index.
    private let names: Mutex<[String]>
    private let outputName: String

    /// Starts a child playing the isolation role, sends it `setup`, and starts reading.
    init(setup: JSONObject, environment: [String: String], log: HostLogRecorder, outputName: String) throws(ChildProcessError) {
        let launch = ChildLaunch(executable: "/proc/self/exe", environment: environment, role: "isolation",
                                 firstMessages: [IsolationWire.payload(.setup, setup)], timeout: .seconds(0))
        let poller = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard poller >= 0 else {
            throw ChildProcessError(executable: launch.executable, reason: "epoll_create1: \(String(cString: strerror(errno)))")
        }
        do { child = try ChildProcess.start(launch) } catch {
            close(poller)
            throw error
        }
        self.poller = poller
        self.log = log
        self.outputName = outputName
        names = Mutex([])
        // Registered before the first call (the hello's), so that a call always finds the channel to disarm.
        for (index, fd) in [child.channel, child.reaper, child.output, child.errors].enumerated() {
            _ = adh_poller_add(poller, fd, UInt32(index), index == 0 ? 1 : 0)
        }
        let thread = Thread { [self] in read() }
        thread.start()
    }

    deinit {
        // The reader thread holds the connection while it runs: it is done with both by now.
        close(child.channel)
        if poller >= 0 { close(poller) }
    }

    /// Arms (or disarms) the reader thread's one-shot interest in the channel.
    private func armChannel(_ armed: Bool) {
        _ = adh_poller_arm(poller, child.channel, 0, armed ? 1 : 0)
    }

    /// The child's process id (the reaper's; its worker is a fork in the same process group).
    package var pid: pid_t { child.pid }

    /// Whether the child ended (crashed, hung, malformed, or was stopped).
    var hasEnded: Bool { state.withLock { $0.ended } }

    /// Who the child's standard output and error lines are attributed to: its first subscriber once
    /// known, its first plugin's file before.
    private var streamName: String { names.withLock { $0.first } ?? outputName }

    /// The last lines it wrote on standard error (at most three).
    var lastWords: [String] { state.withLock { $0.lastWords } }

    /// How it ended, once it did.
    var ending: ChildEnding? { state.withLock { $0.ending } }

    /// Sets the subscribers' names once the hello arrived: logs name them by index from then on.
    func setNames(_ list: [String]) {
        names.withLock { $0 = list }
        state.withLock { $0.subscriberCount = list.count }
    }

    /// Kills the child's process group (the reader thread reaps it); false, and no signal, once the
    /// reader is reaping it: after that the number may name another process group.
    @discardableResult
    func kill() -> Bool {
        state.withLock { state in
            guard !state.reaping else { return false }
            return killpg(child.pid, SIGKILL) == 0
        }
    }

    // MARK: Round trips

    enum Outcome {
        case reply(JSONObject)
        case ended(ChildEnding)
    }

    /// Sends `payload` (a message numbered `seq`) and reads its reply on this thread, waiting at most
    /// the budget; past it, the child is killed and reported hung. Waits for the hello with `seq` 0.
    /// Frames before the reply (logs, requests, completions of earlier events) are handled here, in
    /// order; those after it in the same read too, the rest by the reader thread.
    func roundTrip(_ payload: [UInt8]?, seq: UInt64, budgetMilliseconds: Int) -> Outcome {
        state.withLock {
            $0.awaited = seq
            $0.reply = nil
            $0.lastSent = max($0.lastSent, seq)
        }
        let call: Call = channelReader.withLock { reader in
            armChannel(false)
            if let payload, !ChildChannel.writeAll(ChildChannel.frame(payload), to: child.channel) { return .closed }
            let deadline = MonotonicClock.now() &+ UInt64(max(0, budgetMilliseconds)) &* 1_000_000
            while true {
                if let reply = takeReply(seq) { return .reply(reply) }
                // A malformed frame: the child is being killed, the reader thread sees it end.
                if state.withLock({ $0.ending }) != nil { return .closed }
                let now = MonotonicClock.now()
                guard now < deadline else { return .timedOut }
                let left = deadline - now
                var polled = pollfd(fd: child.channel, events: Int16(POLLIN), revents: 0)
                let ready = poll(&polled, 1, Int32(clamping: (left + 999_999) / 1_000_000))
                if ready < 0 && errno != EINTR { return .closed }
                if ready <= 0 { continue }
                switch reader.read(child.channel) {
                case .frames(let frames):
                    for frame in frames { receive(frame) }
                case .malformed(let failure):
                    malformed(failure)
                    return .closed
                case .again:
                    continue
                case .closed:
                    return .closed
                }
            }
        }
        // Between calls the reader thread reads the channel again (at once, if something is there).
        armChannel(true)
        switch call {
        case .reply(let reply):
            return .reply(reply)
        case .closed:
            // The child is gone or going: its reader sees the end and says how.
            return waitForEnd(orFallBackTo: .crashed("the channel closed"))
        case .timedOut:
            let ending = ChildEnding.hung(budgetMilliseconds: budgetMilliseconds)
            state.withLock { if $0.ending == nil { $0.ending = ending } }
            kill()
            _ = waitForEnd(orFallBackTo: ending)
            return .ended(ending)
        }
    }

    /// How a call's reading ended.
    private enum Call {
        case reply(JSONObject)
        case closed
        case timedOut
    }

    private func takeReply(_ seq: UInt64) -> JSONObject? {
        state.withLock { state in
            guard let reply = state.reply, state.awaited == seq else { return nil }
            state.reply = nil
            state.awaited = nil
            return reply
        }
    }

    /// Waits until the reader saw the child end (bounded: it is dying or dead), and says how.
    private func waitForEnd(orFallBackTo fallback: ChildEnding) -> Outcome {
        let limit = DispatchTime.now() + .seconds(10)
        while !hasEnded {
            if wake.wait(timeout: limit) == .timedOut {
                kill()
                break
            }
        }
        return .ended(ending ?? fallback)
    }

    /// Registers the completion handler of `subscriber` for event `seq`; runs it now when its answer
    /// arrived first. A handler that throws (an answer that does not read) ends the child.
    func awaitCompletion(seq: UInt64, subscriber: Int,
                         _ handler: @escaping @Sendable (JSONObject) throws(IsolationWireError) -> Void) {
        let key = Key(seq: seq, subscriber: subscriber)
        let arrived: JSONObject? = state.withLock { state in
            guard !state.ended else { return Self.crashedMessage }
            if case .arrived(let message)? = state.pending[key] {
                state.pending[key] = nil
                return message
            }
            state.pending[key] = .handler(handler)
            return nil
        }
        if let arrived { complete(arrived, handler) }
    }

    private func complete(_ message: JSONObject, _ handler: @Sendable (JSONObject) throws(IsolationWireError) -> Void) {
        do throws(IsolationWireError) { try handler(message) } catch { malformed(error.description) }
    }

    // MARK: The reader thread

    private func malformed(_ what: String) {
        state.withLock { if $0.ending == nil { $0.ending = .malformed(what) } }
        kill()
    }

    /// Reads the reaper's report, the standard streams, and the channel between calls, until the
    /// child ended.
    private func read() {
        var reaperFrames = ChildFrameDecoder(limit: 4_096)
        var report: ReaperReport?
        var lines = [LineSplitter(), LineSplitter()]
        var fds = [child.channel, child.reaper, child.output, child.errors]
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var channelClosedAt: DispatchTime?
        var tags = [UInt32](repeating: 0, count: 4)
        while fds[0] >= 0 || fds[1] >= 0 {
            // After the channel closed, the reaper reports at once; one that does not is killed.
            let timeout: Int32 = channelClosedAt == nil ? -1 : 1_000
            let ready = adh_poller_wait(poller, &tags, Int32(tags.count), timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { break }
            if ready == 0, let closedAt = channelClosedAt, DispatchTime.now() > closedAt + .seconds(5) { kill() }
            for tag in tags.prefix(Int(max(0, ready))) {
                let index = Int(tag)
                guard index < fds.count, fds[index] >= 0 else { continue }
                if index == 0 {
                    // Between calls (a call disarmed this interest and holds the reader): read, hand on, re-arm.
                    let closed: Bool = channelReader.withLock { reader in
                        switch reader.read(child.channel) {
                        case .frames(let frames):
                            for frame in frames { receive(frame) }
                        case .malformed(let failure):
                            malformed(failure)
                        case .again:
                            break
                        case .closed:
                            return true
                        }
                        armChannel(true)
                        return false
                    }
                    if closed {
                        channelClosedAt = .now()
                        _ = adh_poller_remove(poller, fds[0])
                        fds[0] = -1  // closed with the connection: a call may still poll it
                    }
                    continue
                }
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fds[index], $0.baseAddress, $0.count) }
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if count <= 0 {
                    _ = adh_poller_remove(poller, fds[index])
                    close(fds[index])
                    fds[index] = -1
                    continue
                }
                switch index {
                case 1:
                    for frame in reaperFrames.feed(chunk[0..<count]) where report == nil { report = ChildProcess.reaperReport(frame) }
                default:
                    let level: LogLevel = index == 2 ? .info : .error
                    for line in lines[index - 2].feed(chunk[0..<count]) {
                        log.log(subscriber: streamName, level: level, message: line)
                        if index == 3 { state.withLock { $0.lastWords = Array(($0.lastWords + [line]).suffix(3)) } }
                    }
                }
            }
        }
        // Whatever the worker left is killed with its group; what it wrote last is read briefly.
        kill()
        for index in 2...3 where fds[index] >= 0 {
            _ = adh_poller_remove(poller, fds[index])
            var polled = [pollfd(fd: fds[index], events: Int16(POLLIN), revents: 0)]
            while poll(&polled, 1, 100) > 0 {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fds[index], $0.baseAddress, $0.count) }
                if count <= 0 { break }
                for line in lines[index - 2].feed(chunk[0..<count]) { log.log(subscriber: streamName, level: index == 2 ? .info : .error, message: line) }
            }
            if let rest = lines[index - 2].rest { log.log(subscriber: streamName, level: index == 2 ? .info : .error, message: rest) }
            close(fds[index])
        }
        var status: Int32 = 0
        state.withLock { $0.reaping = true }
        while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
        let how: String
        switch report?.ending {
        case .signaled(let signal)?: how = "killed by \(ChildProcess.signalName(signal))"
        case .exited(let code)?: how = "exited with status \(code)"
        default: how = "killed (no report from its reaper)"
        }
        let owed: [@Sendable (JSONObject) throws(IsolationWireError) -> Void] = state.withLock { state in
            if state.ending == nil { state.ending = .crashed(how) }
            state.ended = true
            defer { state.pending = [:] }
            // After a farewell the host is shutting down: what is still owed is the shutdown's to
            // settle, as for an in-process subscriber destroyed with a completion owed. Settling it
            // here would be a completion the plugin never called, reported after delivery.
            if state.saidFarewell { return [] }
            return state.pending.values.compactMap { if case .handler(let handler) = $0 { handler } else { nil } }
        }
        wake.signal()
        // Completions still owed are settled now, once, as the completion rules settle a missed one.
        for handler in owed { try? handler(Self.crashedMessage) }
    }

    /// One frame from the child: checked, then routed.
    private func receive(_ frame: [UInt8]) {
        // After a malformed frame nothing more from this child is believed: it is being killed.
        if state.withLock({ $0.ending }) != nil { return }
        guard child.isSigned(frame) else { return malformed("a frame without the run's secret") }
        do throws(IsolationWireError) {
            let (type, message) = try IsolationWire.read(frame[ChildSecret.size...])
            switch type {
            case .hello, .reply, .farewell:
                let seq = type == .hello ? 0 : UInt64(message["seq"]?.intValue ?? -1)
                let expected = state.withLock { $0.awaited }
                guard let expected, seq == expected else {
                    throw IsolationWireError("expected a reply to \(expected.map { "message \($0)" } ?? "nothing"), found a \(type) for \(message["seq"].map { "\($0)" } ?? "none")")
                }
                state.withLock {
                    $0.reply = message
                    if type == .farewell { $0.saidFarewell = true }
                }
            case .completion:
                let (seq, subscriber) = try completionKey(message)
                let handler: (@Sendable (JSONObject) throws(IsolationWireError) -> Void)? = state.withLock { state in
                    let key = Key(seq: seq, subscriber: subscriber)
                    if case .handler(let handler)? = state.pending[key] {
                        state.pending[key] = nil
                        return handler
                    }
                    state.pending[key] = .arrived(message)
                    return nil
                }
                if let handler { complete(message, handler) }
            case .log:
                let name = try subscriberName(message)
                if let line = message["m"]?.stringValue {
                    let level = message["level"]?.intValue.flatMap { LogLevel(rawValue: Int32(clamping: $0)) } ?? .info
                    log.log(subscriber: name, level: level, message: line)
                } else if let event = message["event"]?.stringValue {
                    log.logEvent(subscriber: name, name: event, attributes: message["attributes"]?.objectValue ?? [:])
                } else if let error = message["error"]?.stringValue {
                    log.logError(subscriber: name, message: error, attributes: message["attributes"]?.objectValue ?? [:])
                } else {
                    throw IsolationWireError("expected a log message with m, event or error, found none of them")
                }
            case .request:
                let name = try subscriberName(message)
                guard let request = SubscriberRequest.allCases.first(where: { $0.name == message["r"]?.stringValue }) else {
                    throw IsolationWireError("expected a known request, found \(message["r"].map { "\($0)" } ?? "nothing")")
                }
                log.request(request, from: name)
            case .setup, .event, .goodbye:
                throw IsolationWireError("expected a message from a child, found \(type), which only the host sends")
            }
        } catch {
            malformed(error.description)
        }
    }

    /// A completion's sequence and subscriber, checked against what the host sent.
    private func completionKey(_ message: JSONObject) throws(IsolationWireError) -> (UInt64, Int) {
        let (lastSent, count) = state.withLock { ($0.lastSent, $0.subscriberCount ?? 0) }
        let seq = try IsolationWire.index(message, "seq", below: Int(clamping: lastSent) &+ 1, in: .completion)
        guard seq > 0 else { throw IsolationWireError("expected completion.seq of an event sent, found 0") }
        return (UInt64(seq), try IsolationWire.index(message, "s", below: count, in: .completion))
    }

    /// The subscriber a log or request names: an index in the hello's list (or, before the hello, a name).
    private func subscriberName(_ message: JSONObject) throws(IsolationWireError) -> String {
        let list = names.withLock { $0 }
        if list.isEmpty, let name = message["s"]?.stringValue { return name }
        if let name = message["s"]?.stringValue, list.contains(name) { return name }
        return list[try IsolationWire.index(message, "s", below: list.count, in: .log)]
    }
}

/// The channel's reading end on the host: one `recv` takes what is there (up to 64 KiB), the
/// decoder cuts it into frames and keeps an unfinished one for the next read. Lengths are bounded
/// by the decoder's limit, never trusted.
struct ChannelReader {
    private var decoder = ChildFrameDecoder()
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    enum Read {
        case frames([[UInt8]])
        case malformed(String)
        /// Nothing there after all (another reader took it).
        case again
        case closed
    }

    /// Reads once from `fd` without blocking.
    mutating func read(_ fd: Int32) -> Read {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .again }
            if count <= 0 { return .closed }
            let frames = decoder.feed(chunk[0..<count])
            if let failure = decoder.failure { return .malformed(failure) }
            return .frames(frames)
        }
    }
}

/// Cuts a stream into lines, each at most ``limit`` bytes (longer ones are cut), for a child's
/// standard output and error.
struct LineSplitter {
    static let limit = 4_096
    private var buffer: [UInt8] = []

    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") || buffer.count >= Self.limit {
                lines.append(String(decoding: buffer, as: UTF8.self))
                buffer.removeAll(keepingCapacity: true)
                if byte == UInt8(ascii: "\n") { continue }
            }
            buffer.append(byte)
        }
        return lines
    }

    /// An unfinished last line, if any.
    var rest: String? { buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self) }
}
