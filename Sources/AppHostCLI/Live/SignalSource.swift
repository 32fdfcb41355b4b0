#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// The signals a live host turns into events, through a self-pipe: the handler only writes the
/// signal's number to a pipe (async-signal-safe, errno kept); the event loop reads it and acts.
/// Nothing else happens inside a handler, whichever thread the kernel picks.
///
/// SIGTERM / SIGINT / SIGHUP / SIGQUIT → stop; SIGTSTP → suspend (resign, background, then SIGSTOP);
/// SIGCONT → resume; SIGUSR1 → memory warning. A signal ignored when apphost started (`nohup`, a
/// background job) stays ignored. What one read of the pipe brings is coalesced: a stop ends it
/// (a SIGCONT that systemd sends after SIGTERM to a stopped service does not bring the app back
/// first), and a burst of SIGUSR1 is one memory warning.
@MainActor
final class SignalSource: LiveSource {
    let name = "signals"
    /// The signals handled, in the order the docs list them.
    static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGUSR1]
    /// The signals that stop the host.
    nonisolated static let stopping: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]

    /// Set by the handler of the first stop signal, before its byte is written: a resume or a
    /// suspend the loop reads first is then not acted on (the stop that follows decides). [any-thread]
    nonisolated static var stopRequested: Bool { stopSeen.load(ordering: .acquiring) != 0 }
    /// The first stop signal's number; 0 before one came. A lock-free atomic: stored from a handler.
    nonisolated private static let stopSeen = Atomic<Int32>(0)

    /// The handler pipe's write end, for the handler (set once, before any handler is installed).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    /// What the loop reads: the relay's pipe.
    private let readEnd: Int32

    /// Opens the pipes, starts the relay and installs the handlers. The handler writes to one
    /// pipe; a relay thread reads it, calls `onStop` at the first stop signal (so a deadline runs
    /// from the signal, even while the loop is held by a subscriber that does not return), and
    /// passes every signal on to the pipe the loop reads.
    init(onStop: @escaping @Sendable () -> Void = {}) throws(LiveError) {
        var handler: [Int32] = [-1, -1], relay: [Int32] = [-1, -1]
        guard pipe(&handler) == 0, pipe(&relay) == 0, makeNonBlocking(handler[1]), makeNonBlocking(relay[0]),
              makeNonBlocking(relay[1]) else {
            throw LiveError("signals: cannot make the self-pipe: \(String(cString: strerror(errno)))")
        }
        // The relay reads blocking; only close-on-exec for its end.
        _ = fcntl(handler[0], F_SETFD, FD_CLOEXEC)
        readEnd = relay[0]
        Self.writeEnd = handler[1]
        let (from, to) = (handler[0], relay[1])
        let thread = Thread {
            var stopped = false
            var byte: UInt8 = 0
            while true {
                let count = read(from, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                let number = Int32(byte)
                if !stopped, SignalSource.stopping.contains(number) {
                    stopped = true
                    onStop()
                }
                _ = write(to, &byte, 1)
            }
        }
        thread.name = "apphost signal relay"
        thread.start()
        // Made now, not inside a handler (a static's first use runs its initializer).
        _ = Self.stopSeen.load(ordering: .relaxed)
        var installed: [Int32] = []
        for number in Self.handled {
            var current = sigaction()
            // Ignored when apphost started (nohup, a background job): stays ignored.
            if sigaction(number, nil, &current) == 0,
               unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            installed.append(number)
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let saved = errno
                if number == SIGTERM || number == SIGINT || number == SIGHUP || number == SIGQUIT {
                    _ = SignalSource.stopSeen.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing)
                }
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalSource.writeEnd, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_RESTART)
            sigaction(number, &action, nil)
        }
        // Whatever a parent left blocked, these are delivered now.
        var set = sigset_t()
        sigemptyset(&set)
        for number in installed { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Keeps `alarm` for the life of the process (armed by the relay thread).
    nonisolated static func keep(_ alarm: LiveAlarm) { kept.withLock { $0.append(alarm) } }
    nonisolated private static let kept = Mutex<[LiveAlarm]>([])

    func interests() -> [pollfd] { [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)] }

    func ready(_ fd: Int32, events: Int16) -> [LiveStimulus] {
        var bytes = [UInt8](repeating: 0, count: 64)
        var stimuli: [LiveStimulus] = []
        while true {
            let count = read(readEnd, &bytes, bytes.count)
            guard count > 0 else { break }
            for byte in bytes[0..<count] { stimuli += Self.stimulus(for: Int32(byte)) }
        }
        // A stop whose byte the relay could not pass on (the loop's pipe full of a SIGUSR1 flood
        // while a subscriber held the loop) is not lost: its handler noted it.
        let first = Self.stopSeen.load(ordering: .acquiring)
        if first != 0, !stimuli.contains(where: { if case .stop = $0 { true } else { false } }) {
            stimuli.append(.stop(because: Self.signalName(first)))
        }
        return Self.coalesced(stimuli)
    }

    /// `stimuli` as one read brought them, coalesced: the first stop alone when there is one; else
    /// one memory warning at most (where the first was), and no suspend or resume repeated back to back.
    static func coalesced(_ stimuli: [LiveStimulus]) -> [LiveStimulus] {
        if let stop = stimuli.first(where: { if case .stop = $0 { true } else { false } }) { return [stop] }
        var result: [LiveStimulus] = []
        var warned = false
        for stimulus in stimuli {
            switch stimulus {
            case .memoryWarning:
                if warned { continue }
                warned = true
            case .suspend, .resume:
                if let last = result.last, last.sameKind(as: stimulus) { continue }
            default:
                break
            }
            result.append(stimulus)
        }
        return result
    }

    /// What signal `number` asks for.
    static func stimulus(for number: Int32) -> [LiveStimulus] {
        let name = signalName(number)
        switch number {
        case SIGTERM, SIGINT, SIGHUP, SIGQUIT: return [.stop(because: name)]
        case SIGTSTP: return [.suspend(because: name)]
        case SIGCONT: return [.resume(because: name)]
        case SIGUSR1: return [.memoryWarning(because: name)]
        default: return []
        }
    }

    /// `SIGTERM`, or `signal N`.
    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        case SIGTSTP: "SIGTSTP"
        case SIGCONT: "SIGCONT"
        case SIGUSR1: "SIGUSR1"
        default: "signal \(number)"
        }
    }
}

/// A live-host failure: one line, already worded.
struct LiveError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
