#if canImport(Glibc)
import Glibc
#endif
import ChildProcess
import Synchronization

/// The worker's channel to the parent, kept where a plugin is unlikely to close it, and the
/// descriptors that tell when a plugin closed descriptors it did not open.
///
/// A plugin that closes every descriptor it finds (`for fd in 3..<4096 { close(fd) }` in a
/// constructor, a careless "close what I inherited") takes the kit's descriptors with it. Before, the
/// channel sat at a random number below the descriptor limit, so whether such a sweep hit it — and
/// which check then failed, with "exited with status 0" — changed from run to run. Now, before any
/// plugin code runs:
///
/// - the channel moves to a random number in the top half of what the hard descriptor limit allows,
///   above the soft limit when the hard one leaves room (a sweep bounded by `sysconf(_SC_OPEN_MAX)`
///   stops below it), so that an ordinary sweep leaves it open and the verdict still arrives;
/// - the kit holds a pipe at the lowest free numbers (3 and 4 in a fresh child), which every sweep
///   from 3 up closes first.
///
/// Each step announced, and the verdict, first looks at both (`fstat`: still the same objects). When
/// the pipe or the channel is gone, the check ends at once with a failing verdict naming what was
/// closed and during which step — the same on every run. When the channel itself is gone, nothing can
/// be sent: the worker says so on stderr and exits with ``ChildWire/channelLostStatus``, which the
/// parent reports as the channel closed, naming the last step it heard of.
final class KitChannel: Sendable {
    /// What a descriptor referred to when the kit took it: closed, or replaced by another file at
    /// the same number, it no longer matches.
    struct Identity: Sendable, Equatable {
        var fd: Int32
        var device: UInt64
        var inode: UInt64

        /// The object `fd` refers to now; nil when it is closed.
        static func of(_ fd: Int32) -> Identity? {
            var info = stat()
            guard fstat(fd, &info) == 0 else { return nil }
            return Identity(fd: fd, device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }

        /// Whether `fd` still refers to the same object.
        var isIntact: Bool { Identity.of(fd) == self }
    }

    private let endpoint: ChildEndpoint
    private let channel: Identity?
    /// The pipe's two ends; empty when it could not be made (then only the channel is watched).
    private let watch: [Identity]
    /// The step last announced, for the evidence.
    private let step = Mutex<String?>(nil)

    /// Takes over `fd` (the channel, from the child entry) with the run's secret: moves it high,
    /// makes the watched pipe. Call before any plugin code runs.
    init(channel fd: Int32, secret: UnsafePointer<UInt8>?, length: Int) {
        let moved = Self.moveHigh(fd)
        endpoint = ChildEndpoint(channel: moved, secret: secret, length: length)
        channel = Identity.of(moved)
        var ends: [Int32] = [-1, -1]
        // No other thread runs yet: close-on-exec right after is as good as pipe2's flag.
        if pipe(&ends) == 0 {
            ends.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
            watch = ends.compactMap(Identity.of)
        } else {
            watch = []
        }
    }

    /// The channel's descriptor number.
    var descriptor: Int32 { endpoint.descriptor }

    /// Reads the parent's next frame (the request, before any plugin code runs).
    func receive() -> [UInt8]? { endpoint.receive() }

    /// Sends `payload` as it is (the handshake), without looking at the descriptors.
    func sendUnchecked(_ payload: [UInt8]) { endpoint.send(payload) }

    /// Announces `step`, after making sure that nothing closed the kit's descriptors during the
    /// previous one. [any-thread]
    func announce(_ step: String) {
        verify()
        self.step.withLock { $0 = step }
        endpoint.send(ChildWire.progress(step))
    }

    /// Ends the check when a plugin closed the kit's descriptors during the step last announced:
    /// with a failing verdict when the channel survived, else with ``ChildWire/channelLostStatus``.
    /// Returns when nothing was closed. [any-thread]
    func verify() {
        guard let closed = closedDescriptors() else { return }
        let during = step.withLock { $0 }.map { " during " + $0 } ?? ""
        let what = "the plugin (or a library it loaded) closed descriptors it did not open\(during): "
        guard closed.channel == false else {
            let line = "conformance child: " + what + "the kit's private channel (fd \(descriptor))"
                + (closed.pipe.isEmpty ? "" : " and \(Self.pipeText(closed.pipe))") + "; no verdict can be sent\n"
            let bytes = Array(line.utf8)
            _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            _exit(ChildWire.channelLostStatus)
        }
        let found = what + Self.pipeText(closed.pipe) + "; the kit's private channel, kept at a high number, survived"
        endpoint.send(ChildWire.verdict(.fail(expected: Self.expectation, found: found), identity: nil))
        _exit(0)
    }

    /// Sends the verdict, after making sure that nothing closed the kit's descriptors meanwhile.
    func sendVerdict(_ verdict: Verdict, identity: PluginIdentity?) {
        verify()
        endpoint.send(ChildWire.verdict(verdict, identity: identity))
    }

    /// What every check expects of a plugin's descriptors.
    static let expectation = "a plugin closes no descriptor it did not open (in a host: the host's own files, pipes "
        + "and sockets, and other plugins')"

    /// The watched pipe's descriptors that were closed, and whether the channel was.
    private func closedDescriptors() -> (pipe: [Int32], channel: Bool)? {
        let pipe = watch.filter { !$0.isIntact }.map(\.fd)
        let channel = channel.map { !$0.isIntact } ?? false
        return pipe.isEmpty && !channel ? nil : (pipe, channel)
    }

    private static func pipeText(_ fds: [Int32]) -> String {
        let numbers = fds.map(String.init).joined(separator: " and ")
        return "fd\(fds.count == 1 ? "" : "s") \(numbers) (a pipe the kit holds at the lowest free numbers to notice this)"
    }

    /// Moves `fd` to a random number in the top half of the numbers the hard limit allows (at most
    /// 65,536), above the soft limit when there is room, close-on-exec; returns the new number, or
    /// `fd` when it cannot move. The soft limit is raised only for the move: a descriptor above it
    /// stays valid, and code that sweeps up to `sysconf(_SC_OPEN_MAX)` never reaches it.
    static func moveHigh(_ fd: Int32) -> Int32 {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return fd }
        let ceiling = min(limit.rlim_max, 65_536)  // RLIM_INFINITY is the largest value
        let soft = limit.rlim_cur
        let floor = soft < ceiling ? max(soft, ceiling / 2) : ceiling / 2
        guard ceiling >= 128, floor < ceiling else { return fd }
        var raised = limit
        raised.rlim_cur = ceiling
        if soft < ceiling {
            guard setrlimit(resource, &raised) == 0 else { return fd }
        }
        defer { if soft < ceiling { _ = setrlimit(resource, &limit) } }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, Int32(UInt.random(in: floor..<ceiling)))
        guard moved >= 0 else { return fd }
        close(fd)
        return moved
    }
}
