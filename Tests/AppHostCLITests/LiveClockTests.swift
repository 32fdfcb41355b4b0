import Foundation
import Synchronization
import Testing
@testable import AppHostCLI
import SubscriberHost
import SubscriberKit

/// The live host's clock is the host's HostClock (`HostDrivenClock`): with a ManualHostClock, the live
/// host's alarms and the recording's times move only when that one clock is advanced.
@Suite("the live host's clock over the injected HostClock") @MainActor
struct LiveClockTests {
    @Test("now follows the host clock; an alarm fires when the host clock reaches it, not before, and never once cancelled")
    func alarms() {
        let manual = ManualHostClock(startingAt: 1_000)
        let clock = HostDrivenClock(manual)
        #expect(clock.now() == 1_000)
        let fired = Mutex(0), cancelledFired = Mutex(0)
        let alarm = clock.alarm(after: 5_000_000) { fired.withLock { $0 += 1 } }
        let cancelled = clock.alarm(after: 1_000_000) { cancelledFired.withLock { $0 += 1 } }
        #expect(manual.armedTimerCount == 2)
        cancelled.cancel()
        manual.advance(by: .milliseconds(4))
        #expect(clock.now() == 4_001_000)
        #expect(fired.withLock { $0 } == 0)
        manual.advance(by: .milliseconds(1))
        #expect(fired.withLock { $0 } == 1)
        #expect(cancelledFired.withLock { $0 } == 0)
        alarm.cancel()  // after it fired: nothing
        #expect(manual.armedTimerCount == 0)
    }

    @Test("a recording's times are the host clock's: at counts from the recorder's start on it")
    func recordingTimes() throws {
        let manual = ManualHostClock(startingAt: 7_000_000_000)
        let directory = try TemporaryDirectory()
        let path = directory.path + "/times.jsonl"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        #expect(fd >= 0)
        defer { close(fd) }
        let recorder = SessionRecorder(fd: fd, name: "--record times.jsonl", clock: HostDrivenClock(manual))
        _ = recorder.record(NotificationCall.didBecomeActive.erased, source: "launch")
        manual.advance(by: .milliseconds(1500))
        _ = recorder.record(NotificationCall.didReceiveMemoryWarning.erased, source: "signal SIGUSR1")
        let times = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try String($0).parsedJSON()["at"] }
        #expect(times == [.number(0), .number(1500)])
    }
}
