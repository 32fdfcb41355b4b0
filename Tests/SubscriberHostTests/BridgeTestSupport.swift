import Foundation
import Synchronization
import Testing
import SubscriberABI
import SubscriberKit
@testable import SubscriberHost

/// A log sink that keeps every line, attributed, in order: "[Oracle] info: message",
/// "[Oracle] event name {attributes}", "[Oracle] error: message {attributes}".
final class RecordingSink: SubscriberLogSink {
    private let stored = Mutex<[String]>([])

    /// The lines so far.
    var lines: [String] { stored.withLock { $0 } }

    func log(subscriber: String, level: LogLevel, message: String) {
        stored.withLock { $0.append("[\(subscriber)] \(level): \(message)") }
    }

    func logEvent(subscriber: String, name: String, attributes: JSONObject) {
        stored.withLock { $0.append("[\(subscriber)] event \(name) \(JSONValue.object(attributes))") }
    }

    func logError(subscriber: String, message: String, attributes: JSONObject) {
        stored.withLock { $0.append("[\(subscriber)] error: \(message) \(JSONValue.object(attributes))") }
    }
}

/// Records what a subscriber did with one completion handler: its calls (from any thread) and
/// whether it declined. Waiting for calls suspends until they arrive; no clocks.
final class Recorder<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var declined = false
        var waiters: [(count: Int, continuation: CheckedContinuation<[Value], Never>)] = []
    }

    private let state = Mutex(State())

    /// The handler to give the subscriber.
    var handler: CompletionHandler<Value> {
        CompletionHandler({ [self] value in
            let ready = state.withLock { state -> [(CheckedContinuation<[Value], Never>, [Value])] in
                state.values.append(value)
                let values = state.values
                let ready = state.waiters.filter { $0.count <= values.count }
                state.waiters.removeAll { $0.count <= values.count }
                return ready.map { ($0.continuation, values) }
            }
            for (continuation, values) in ready { continuation.resume(returning: values) }
        }, onDecline: { [self] in state.withLock { $0.declined = true } })
    }

    /// Whether the subscriber declined.
    var declined: Bool { state.withLock { $0.declined } }
    /// The calls so far.
    var values: [Value] { state.withLock { $0.values } }

    /// The calls, once there are at least `count` of them.
    func values(count: Int) async -> [Value] {
        await withCheckedContinuation { continuation in
            let values: [Value]? = state.withLock { state in
                if state.values.count >= count { return state.values }
                state.waiters.append((count, continuation))
                return nil
            }
            if let values { continuation.resume(returning: values) }
        }
    }

    /// "declined", or the first `expected` calls once they arrived, each shown by `describe`.
    func outcome(expecting expected: Int, describe: @Sendable (Value) -> String = { "\($0)" }) async -> String {
        func list(_ values: [Value]) -> String { "[" + values.map(describe).joined(separator: ", ") + "]" }
        if declined { return "declined, calls \(list(values))" }
        return "called \(list(await values(count: expected)))"
    }
}

/// The app every bridge test runs in.
let bridgeTestApplication = Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0")

/// The options every bridge test subscriber gets.
let bridgeTestOptions: JSONValue = ["flavor": "blue", "limit": 3]

/// A context for subscriber `name` with `sink`.
func bridgeContext(_ name: String, sink: RecordingSink, options: JSONValue = bridgeTestOptions) -> SubscriberContext {
    SubscriberContext(subscriberName: name, application: bridgeTestApplication, options: options, sink: sink)
}

/// One subscriber driven alone, one event at a time, through the dispatcher's own call path (a
/// dispatcher of one whose state machine lets any event through): for tests that drive a single
/// subscriber, in-process or loaded through C, and look at what it answered.
@MainActor
struct Solo {
    let dispatcher: LifecycleDispatcher

    /// An in-process subscriber: the events of the protocols its type adopts.
    init(_ subscriber: any AppDelegateSubscriber, name: String = "Solo") {
        dispatcher = Self.dispatcher(SubscriberRegistration(name: name, subscriber: subscriber))
    }

    /// A subscriber loaded through C: its non-NULL entries.
    init(_ subscriber: CSubscriber) {
        dispatcher = Self.dispatcher(SubscriberRegistration(subscriber))
    }

    private static func dispatcher(_ registration: SubscriberRegistration) -> LifecycleDispatcher {
        var configuration = DispatchConfiguration(application: bridgeTestApplication)
        configuration.measuresSubscribers = true
        // A clock that never moves: an event waits for its completions however busy the machine is
        // (on the wall clock, a test starved of the main actor for 30 s saw its fetch delivered at
        // the deadline, as failed). No test of a lone subscriber waits for a deadline.
        configuration.clock = ManualHostClock()
        return LifecycleDispatcher(subscribers: [registration], configuration: configuration, state: ApplicationStateCell(),
                                   enforcesApplicationState: false)
    }

    /// The events it responds to, in table order.
    var respondingEvents: [LifecycleEvent] { dispatcher.subscribers[0].respondingEvents }

    /// Delivers `call` and waits for its completion (or its deadline).
    func deliver<Immediate, Final>(_ call: EventCall<Immediate, Final>) async -> EventOutcome<Final> {
        await dispatcher.dispatch(call)
    }

    /// Whether the subscriber called the completion of `outcome`'s event a second time: reported with
    /// the outcome, or later (from another thread), once every counted call from a thread was made
    /// (``CompletionsOnTheirWay``), then waited for up to two seconds more.
    func duplicateReported<Final>(in outcome: EventOutcome<Final>) async -> Bool {
        func isDuplicate(_ report: DispatchReport) -> Bool {
            if case .duplicateCompletion = report { true } else { false }
        }
        if outcome.reports.contains(where: isDuplicate) { return true }
        // The test subscribers' calls from other threads are counted: wait until each was made.
        _ = await waitPatiently { CompletionsOnTheirWay.none }
        for _ in 0..<200 {
            if dispatcher.takeLateReports().contains(where: isDuplicate) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Delivers `call` and returns what it answered at once (nil: no opinion, or not responding).
    func answer<Immediate, Final>(_ call: EventCall<Immediate, Final>) -> (any Sendable)? {
        dispatcher.dispatchAtOnce(call).answers.first?.answer
    }
}
