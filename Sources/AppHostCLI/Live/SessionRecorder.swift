#if canImport(Glibc)
import Glibc
#endif
import SubscriberKit
import SubscriberEventModel

/// `apphost run --record FILE`: every event the live host dispatches, from every source, as an event
/// script line with two more keys, `"source"` (what asked for it: `launch`, `control socket`, `open`,
/// `signal SIGTERM`, `memory pressure`, `clock`) and `"at"` (milliseconds on the host's clock since
/// it started), so that `apphost --manifest FILE --events FILE` replays the session (the script
/// reader accepts both keys and plays the events in order, without waiting).
///
/// Each line is written with one write(2) as the event starts, before its subscribers are called:
/// an event that brings the host down is in the file. Bounded: past ``limit`` bytes (an event
/// script file's own limit, so that the recording can always be replayed), recording stops with one
/// warning line; a write that fails stops it the same way. Never fatal to the host.
@MainActor
final class SessionRecorder {
    /// The most bytes recorded: what an event script file may have.
    static let limit = EventScript.fileLimit

    private let fd: Int32
    private let name: String
    private let clock: LiveClock
    private let start: UInt64
    private let limitBytes: Int
    private(set) var written = 0
    /// Why recording stopped; nil while it goes on.
    private(set) var stopped: String?

    /// Records to `fd` (already open for writing, truncated), named `name` in warnings; `at` counts
    /// from now on `clock`.
    init(fd: Int32, name: String, clock: LiveClock, limit: Int = SessionRecorder.limit) {
        self.fd = fd
        self.name = name
        self.clock = clock
        self.start = clock.now()
        self.limitBytes = limit
    }

    /// Records `call`, asked for by `source`. Returns the warning line when recording stops now
    /// (said once), nil otherwise.
    func record(_ call: AnyEventCall, source: String) -> String? {
        guard stopped == nil else { return nil }
        var object = call.scriptJSON
        object["source"] = .string(source)
        object["at"] = .number(Double((clock.now() &- start) / 1_000_000))
        let line = Array((JSONValue.object(object).serialized() + "\n").utf8)
        guard line.count - 1 <= EventScript.lineLimit else {
            return stop("\(name): \(call.event.name) makes a line of \(line.count - 1) bytes, more than an event script line may have "
                        + "(\(EventScript.lineLimit >> 20) MiB); recording stopped")
        }
        guard written + line.count <= limitBytes else {
            return stop("\(name): expected at most \(limitBytes) bytes of recording, found more at \(call.event.name); recording stopped")
        }
        var offset = 0
        while offset < line.count {
            let result = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, line.count - offset) }
            if result > 0 {
                offset += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return stop("\(name): cannot write: \(String(cString: strerror(errno))); recording stopped")
            }
        }
        written += line.count
        return nil
    }

    private func stop(_ warning: String) -> String {
        stopped = warning
        return warning
    }
}
