#if canImport(Glibc)
import Glibc
#endif
import SubscriberKit
import SubscriberEventModel

/// What a source asks the live host for. The host decides, from the application's state, what is
/// delivered: a `resume` while active is ignored, a `stop` in the background goes straight to
/// `willTerminate`.
enum LiveStimulus {
    /// Resign, background, terminate, then exit 0 (SIGTERM, SIGINT, SIGHUP, SIGQUIT).
    case stop(because: String)
    /// Resign and background, then really stop the process (SIGTSTP).
    case suspend(because: String)
    /// Foreground and active (SIGCONT after a stop).
    case resume(because: String)
    /// `didReceiveMemoryWarning` (SIGUSR1, memory pressure).
    case memoryWarning(because: String)
    /// `significantTimeChange` (the wall clock or the time zone changed).
    case timeChange(because: String)
    /// One event-script call (the control socket): its outcome goes to `reply` as one JSON line.
    case call(AnyEventCall, from: String, reply: (@MainActor (String) -> Void)?)
    /// Reload an isolated plugin's child from its file (`{"reload": NAME}` on the control socket,
    /// `apphost send --reload NAME`): one JSON line to `reply`, what was reloaded or the error.
    case reload(String, reply: @MainActor (String) -> Void)
    /// A reply that needs no event (a bad line's error), handed to `reply` in its turn.
    case answer(String, reply: @MainActor (String) -> Void)

    /// Whether `other` is a stimulus of the same case (whatever it carries).
    func sameKind(as other: LiveStimulus) -> Bool {
        switch (self, other) {
        case (.stop, .stop), (.suspend, .suspend), (.resume, .resume), (.memoryWarning, .memoryWarning),
             (.timeChange, .timeChange), (.call, .call), (.reload, .reload), (.answer, .answer):
            true
        default:
            false
        }
    }
}

/// One source of events for the live host: a small type behind this protocol, polled on the host's
/// one event loop (poll(2)). Tests inject events through the same seam.
@MainActor
protocol LiveSource: AnyObject {
    /// How the source is named in the host's lines (`signals`, `control socket`).
    var name: String { get }
    /// The descriptors to poll now, each with the events wanted (POLLIN, POLLOUT).
    func interests() -> [pollfd]
    /// Handles what poll said about `fd` (one of ``interests()``); returns what to deliver, in order.
    func ready(_ fd: Int32, events: Int16) -> [LiveStimulus]
    /// When the source next wants ``due(now:)`` called (monotonic nanoseconds), nil for never.
    var nextDue: UInt64? { get }
    /// The source's timer came due.
    func due(now: UInt64) -> [LiveStimulus]
    /// The host is stopping: release descriptors (the socket file is removed). Called at least
    /// once; only the first call does anything.
    func close()
}

extension LiveSource {
    var nextDue: UInt64? { nil }
    func due(now: UInt64) -> [LiveStimulus] { [] }
    func close() {}
}

/// Makes `fd` non-blocking and close-on-exec; false when fcntl failed.
@discardableResult
func makeNonBlocking(_ fd: Int32) -> Bool {
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else { return false }
    let fdFlags = fcntl(fd, F_GETFD)
    return fdFlags >= 0 && fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) == 0
}
