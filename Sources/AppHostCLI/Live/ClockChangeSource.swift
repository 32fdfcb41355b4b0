#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock and time-zone changes → `significantTimeChange`.
///
/// The wall clock: a `timerfd` on CLOCK_REALTIME armed far ahead with `TFD_TIMER_CANCEL_ON_SET`,
/// which the kernel cancels (read fails with ECANCELED) whenever the clock is set; it is then armed
/// again. The time zone: inotify on the folder holding `localtime` (`/etc`), for a `localtime` that is
/// written, replaced, created or removed (tools replace the symlink). Either part may be missing (said
/// at start); the source is unavailable only when both are.
@MainActor
final class ClockChangeSource: LiveSource {
    let name = "clock and time zone"
    private let timer: Int32
    private let watch: Int32
    private let folder: String
    private let fileName: String
    /// Whether the timer is armed.
    private var watchingClock = false
    /// What is watched, for the line said at start.
    private(set) var parts: [String] = []
    /// What is not, and why.
    private(set) var missing: [String] = []

    // timerfd is not in Swift's Glibc module: its two functions are looked up in the C library.
    private typealias TimerfdCreate = @convention(c) (Int32, Int32) -> Int32
    private typealias TimerfdSettime = @convention(c) (Int32, Int32, UnsafePointer<itimerspec>, UnsafeMutablePointer<itimerspec>?) -> Int32
    private static let timerfdCreate: TimerfdCreate? = dlsym(dlopen(nil, RTLD_NOW), "timerfd_create").map { unsafeBitCast($0, to: TimerfdCreate.self) }
    private static let timerfdSettime: TimerfdSettime? = dlsym(dlopen(nil, RTLD_NOW), "timerfd_settime").map { unsafeBitCast($0, to: TimerfdSettime.self) }
    // Linux's values (linux/timerfd.h): stable ABI.
    private static let timerAbsolute: Int32 = 1, cancelOnSet: Int32 = 2

    /// Watches the wall clock and `localtime` in `timeZoneFolder`.
    init(timeZoneFile: String = "/etc/localtime") throws(LiveError) {
        let slash = timeZoneFile.lastIndex(of: "/") ?? timeZoneFile.startIndex
        folder = slash == timeZoneFile.startIndex ? "/" : String(timeZoneFile[..<slash])
        fileName = String(timeZoneFile[timeZoneFile.index(after: slash)...])
        if let create = Self.timerfdCreate {
            timer = create(CLOCK_REALTIME, O_NONBLOCK | O_CLOEXEC)
        } else {
            timer = -1
        }
        if timer >= 0, Self.arm(timer) {
            watchingClock = true
            parts.append("timerfd TFD_TIMER_CANCEL_ON_SET")
        } else {
            missing.append("wall clock: no timerfd (\(timer < 0 ? String(cString: strerror(errno)) : "cannot arm it"))")
        }
        watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_ATTRIB)
        if watch >= 0, inotify_add_watch(watch, folder, mask) >= 0 {
            parts.append("inotify on \(timeZoneFile)")
        } else {
            missing.append("time zone: cannot watch \(folder) (\(String(cString: strerror(errno))))")
        }
        guard !parts.isEmpty else { throw LiveError(missing.joined(separator: "; ")) }
    }

    /// Arms the timer a year ahead, cancelled on a clock set.
    private static func arm(_ timer: Int32) -> Bool {
        guard let settime = timerfdSettime else { return false }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var spec = itimerspec()
        spec.it_value.tv_sec = now.tv_sec + 366 * 86_400
        return settime(timer, timerAbsolute | cancelOnSet, &spec, nil) == 0
    }

    func interests() -> [pollfd] {
        guard !closed else { return [] }
        var wanted: [pollfd] = []
        if watchingClock { wanted.append(pollfd(fd: timer, events: Int16(POLLIN), revents: 0)) }
        if watch >= 0 { wanted.append(pollfd(fd: watch, events: Int16(POLLIN), revents: 0)) }
        return wanted
    }

    func ready(_ fd: Int32, events: Int16) -> [LiveStimulus] {
        if fd == timer {
            var expirations: UInt64 = 0
            let count = read(timer, &expirations, 8)
            let cancelled = count < 0 && errno == ECANCELED
            _ = Self.arm(timer)
            return cancelled ? [.timeChange(because: "the wall clock was set")] : []
        }
        // inotify events: {wd, mask, cookie, len, name[len]}; one change for any about `localtime`.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var changed = false
        while true {
            let count = read(watch, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            while offset + 16 <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + 16)..<min(offset + 16 + length, count)].prefix(while: { $0 != 0 })
                if String(decoding: nameBytes, as: UTF8.self) == fileName { changed = true }
                offset += 16 + length
            }
        }
        return changed ? [.timeChange(because: "the time zone changed (\(folder == "/" ? "" : folder)/\(fileName))")] : []
    }

    func close() {
        guard !closed else { return }
        closed = true
        if timer >= 0 { _ = Glibc.close(timer) }
        if watch >= 0 { _ = Glibc.close(watch) }
    }
    /// Whether ``close()`` ran (a descriptor is never closed twice).
    private var closed = false
}
