import Dispatch
import SubscriberDelivery

/// Makes libdispatch create, once and early, the file descriptors and threads its timers need, so
/// that a plugin holding every descriptor cannot make a later timer trap inside libdispatch.
///
/// Completion events' deadlines wait on one dispatch timer (`DeadlineSchedule`), and plugins may use
/// timers of their own. libdispatch creates what timers run on when the first one is armed: its
/// epoll and wake-up descriptors (a failure there is a deliberate crash, SIGILL, inside
/// libdispatch), one timerfd per clock — uptime (`DispatchTime`), wall (`DispatchWallTime`) and
/// continuous (Swift concurrency's `Task.sleep`) — the manager thread and a worker thread. It keeps
/// them for the life of the process. Arming one timer on each clock before any plugin is loaded
/// (`PluginHost` calls ``prepareTimers()`` first thing) makes every later timer reuse them: running
/// out of descriptors afterwards no longer reaches libdispatch. What is not covered: worker threads
/// are made on demand (an idle one exits after a few seconds), so a plugin that also holds every
/// thread the system allows can still delay a deadline until one can be made.
package enum DispatchWarmUp {
    /// Arms one timer on each clock and waits (at most a second each) for them to fire; the first call only.
    package static func prepareTimers() {
        _ = warmedUp
    }

    /// Whether every warm-up timer fired in time.
    private static let warmedUp: Bool = {
        // The deadlines' own timer, made now rather than at the first event that waits.
        _ = DeadlineSchedule.shared
        let fired = DispatchSemaphore(value: 0)
        // As DeadlineSchedule makes its timer: a source on a global queue; 1 ms ahead, so that each is
        // really armed (a deadline already past fires without programming the clock).
        let uptime = DispatchSource.makeTimerSource(queue: .global())
        uptime.setEventHandler { fired.signal() }
        uptime.schedule(deadline: .now() + .milliseconds(1))
        let wall = DispatchSource.makeTimerSource(queue: .global())
        wall.setEventHandler { fired.signal() }
        wall.schedule(wallDeadline: .now() + .milliseconds(1))
        uptime.activate()
        wall.activate()
        Task.detached {
            try? await Task.sleep(for: .milliseconds(1))
            fired.signal()
        }
        var all = true
        for _ in 0..<3 where fired.wait(timeout: .now() + .seconds(1)) != .success { all = false }
        uptime.cancel()
        wall.cancel()
        return all
    }()
}
