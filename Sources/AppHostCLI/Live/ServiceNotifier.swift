#if canImport(Glibc)
import Glibc
#endif

/// The service manager's notification socket (systemd's `sd_notify` protocol, without the
/// library): one datagram per message to the AF_UNIX socket `$NOTIFY_SOCKET` names, a path or an
/// abstract name written `@name`. `READY=1` after launch, `STATUS=` lines a person can read in
/// `systemctl status`, `WATCHDOG=1` at half of `$WATCHDOG_USEC`, `STOPPING=1` on the way out.
///
/// Without `$NOTIFY_SOCKET`, every message is dropped silently (not run by a service manager). A
/// send never waits: a socket nobody reads (its queue full) loses the message rather than holding
/// the host's loop; the first message lost is said once (``onFirstFailure``).
final class ServiceNotifier {
    private let fd: Int32
    private var address = sockaddr_un()
    private let addressLength: socklen_t
    /// The keep-alive interval (half of `$WATCHDOG_USEC`), nil without a watchdog.
    let watchdogInterval: UInt64?
    /// What was wrong with `$NOTIFY_SOCKET`, said once at start; nil when fine or unset.
    private(set) var problem: String?
    /// Whether the messages go anywhere.
    var isActive: Bool { fd >= 0 }
    /// Called once, with a line, when a message first could not be sent; later ones are not said.
    var onFirstFailure: ((String) -> Void)?
    private var failed = false

    /// Reads `$NOTIFY_SOCKET`, `$WATCHDOG_USEC` and `$WATCHDOG_PID` from `environment`.
    init(environment: [String: String]) {
        var interval: UInt64?
        if let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0,
           environment["WATCHDOG_PID"].map({ $0 == String(getpid()) }) ?? true {
            // Half of it, in nanoseconds; beyond what nanoseconds hold (584 years), as good as none.
            let nanoseconds = usec.multipliedReportingOverflow(by: 1_000)
            interval = nanoseconds.overflow ? nil : nanoseconds.partialValue / 2
        }
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty else {
            fd = -1
            addressLength = 0
            watchdogInterval = nil
            return
        }
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path keeps a byte for its terminating zero; an abstract name (its leading zero counted) may fill it.
        let refusal: String? = if !abstract && bytes.first != UInt8(ascii: "/") {
            "NOTIFY_SOCKET: expected an absolute path or an @abstract name, found the relative path \(ErrorLine.value(path))"
        } else if bytes.count > capacity - (abstract ? 0 : 1) {
            "NOTIFY_SOCKET: expected at most \(capacity - 1) bytes \(abstract ? "after the @" : "in the path"), found \(bytes.count - (abstract ? 1 : 0))"
        } else {
            nil
        }
        if let refusal {
            fd = -1
            addressLength = 0
            watchdogInterval = nil
            problem = refusal
            return
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        // An abstract name's length is exact; a path's counts its terminating zero.
        addressLength = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        watchdogInterval = fd >= 0 ? interval : nil
        if fd < 0 { problem = "NOTIFY_SOCKET: cannot make a datagram socket: \(String(cString: strerror(errno)))" }
    }

    deinit { if fd >= 0 { _ = Glibc.close(fd) } }

    /// Sends `lines` as one datagram (`READY=1\nSTATUS=…`); false when it could not be sent.
    @discardableResult
    func send(_ lines: [String]) -> Bool {
        guard fd >= 0 else { return false }
        let message = Array(lines.joined(separator: "\n").utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes {
                    sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), socketAddress, addressLength)
                }
            }
        }
        if sent != message.count, !failed {
            failed = true
            let reason = sent < 0 ? String(cString: strerror(errno)) : "\(sent) of \(message.count) bytes sent"
            let first = lines.first.map { String($0.prefix { $0 != "=" }) } ?? "a message"
            onFirstFailure?("service manager: \(first) not sent to NOTIFY_SOCKET (\(reason)); expected a socket that "
                            + "reads, found none; messages that cannot be sent are dropped, not said again")
        }
        return sent == message.count
    }

    /// `STATUS=text` on one line (line breaks become spaces).
    func status(_ text: String) {
        send(["STATUS=" + text.map { $0.isNewline ? " " : $0 }.map(String.init).joined()])
    }
}

/// `WATCHDOG=1` every half of `$WATCHDOG_USEC`, as a timer on the host's loop.
@MainActor
final class WatchdogSource: LiveSource {
    let name = "watchdog"
    private let notifier: ServiceNotifier
    private let interval: UInt64
    private let clock: LiveClock
    private(set) var nextDue: UInt64?

    init(notifier: ServiceNotifier, interval: UInt64, clock: LiveClock) {
        self.notifier = notifier
        self.interval = interval
        self.clock = clock
        nextDue = clock.now() + interval
    }

    func interests() -> [pollfd] { [] }
    func ready(_ fd: Int32, events: Int16) -> [LiveStimulus] { [] }

    func due(now: UInt64) -> [LiveStimulus] {
        notifier.send(["WATCHDOG=1"])
        nextDue = now + interval
        return []
    }
}
