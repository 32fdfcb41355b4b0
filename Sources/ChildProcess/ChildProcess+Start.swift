#if canImport(Glibc)
import Glibc
#endif
import ChildProcessEntry

/// A child started by ``ChildProcess/start(_:)`` that keeps running: the caller owns its descriptors
/// and its process (process isolation serves events from one for as long as the host runs).
package struct StartedChild: Sendable {
    /// The started process (the reaper); the leader of the process group the layer made for it.
    package let pid: pid_t
    /// The parent's ends: standard output, standard error, worker channel, reaper channel (close-on-exec).
    package let output: Int32
    package let errors: Int32
    package let channel: Int32
    package let reaper: Int32
    /// The run's secret: every frame the worker sends starts with it.
    package let secret: ChildSecret

    /// Whether `frame` starts with the run's secret.
    package func isSigned(_ frame: [UInt8]) -> Bool { secret.signs(frame) }
}

extension ChildProcess {
    /// Starts `launch` (its `timeout` and `silence` are not used: the caller watches the child),
    /// sends the run's secret and `launch.firstMessages`, and returns at once. The caller reads the
    /// descriptors, kills the process group (`killpg(pid, SIGKILL)`) when done, and reaps `pid`.
    package static func start(_ launch: ChildLaunch) throws(ChildProcessError) -> StartedChild {
        let secret = ChildSecret.random()
        let (pid, output, errors, channel, reaper) = try spawn(launch)
        let first = ChildChannel.frame(secret.bytes) + launch.firstMessages.flatMap(ChildChannel.frame)
        guard ChildChannel.writeAll(first, to: channel) else {
            killpg(pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            [output, errors, channel, reaper].forEach { _ = close($0) }
            throw ChildProcessError(executable: launch.executable, reason: "the child closed its channel before it started")
        }
        return StartedChild(pid: pid, output: output, errors: errors, channel: channel, reaper: reaper, secret: secret)
    }

    /// Reads a reaper's report frame (ChildProcessEntry.h); nil for anything else.
    package static func reaperReport(_ frame: [UInt8]) -> ReaperReport? { ReaperReport(json: frame) }
}
