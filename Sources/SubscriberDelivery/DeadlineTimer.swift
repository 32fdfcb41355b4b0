import Dispatch
import SubscriberKit
import SubscriberEventModel

/// A one-shot timer on a global queue: a completion event's deadline. Dispatch sources are
/// thread-safe, so the handle may be cancelled from whichever thread delivers first.
package struct DeadlineTimer: @unchecked Sendable {
    // @unchecked: a dispatch source may be used from any thread.
    private let source: any DispatchSourceTimer

    /// Starts a timer that runs `fire` once, `nanoseconds` from now, unless cancelled.
    package init(after nanoseconds: UInt64, fire: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler(handler: fire)
        source.schedule(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)))
        source.activate()
    }

    /// Stops the timer and releases its handler.
    package func cancel() { source.cancel() }
}
