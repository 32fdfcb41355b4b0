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

/// One subscriber's event handlers, called one event at a time the way the dispatcher calls them:
/// for tests that drive a single subscriber (in-process or loaded through C) without a dispatcher.
///
/// An event the subscriber does not respond to gets what a non-responder gives: `nil`, or a declined
/// completion. A handler of the wrong kind for its event is recorded as a test issue.
@MainActor
struct SubscriberHandlers {
    /// The handlers by event index.
    let handlers: [EventHandler?]

    /// The handlers of an in-process subscriber: those of the event protocols its type adopts.
    init(_ subscriber: any AppDelegateSubscriber) { handlers = subscriber.eventHandlers() }

    /// The handlers of a subscriber loaded through C: those of its non-NULL entries.
    init(_ subscriber: CSubscriber) { handlers = LifecycleEvent.allCases.map { subscriber.handler(for: $0) } }

    /// The events with a handler, in table order.
    var respondingEvents: [LifecycleEvent] { LifecycleEvent.allCases.filter { handlers[$0.index] != nil } }

    private func handler(_ call: EventCall) -> EventHandler? { handlers[call.event.index] }

    private func wrongKind(_ call: EventCall, _ handler: EventHandler) {
        Issue.record("\(call.event) has a \(handler.answerKind) handler, expected \(call.event.row.answer)")
    }

    /// A notification.
    func notify(_ call: EventCall, _ application: Application = bridgeTestApplication) {
        switch handler(call) {
        case nil: return
        case .notify(let notify)?: notify(application, call.arguments)
        case let other?: wrongKind(call, other)
        }
    }

    /// A `Bool?` answer.
    func ask(_ call: EventCall, _ application: Application = bridgeTestApplication) -> Bool? {
        switch handler(call) {
        case nil: return nil
        case .bool(let ask)?: return ask(application, call.arguments)
        case let other?: wrongKind(call, other); return nil
        }
    }

    /// Orientations.
    func orientations(_ call: EventCall, _ application: Application = bridgeTestApplication) -> InterfaceOrientationMask? {
        switch handler(call) {
        case nil: return nil
        case .orientationMask(let ask)?: return ask(application, call.arguments)
        case let other?: wrongKind(call, other); return nil
        }
    }

    /// A scene configuration name.
    func configuration(_ call: EventCall, _ application: Application = bridgeTestApplication) -> String? {
        switch handler(call) {
        case nil: return nil
        case .configurationName(let ask)?: return ask(application, call.arguments)
        case let other?: wrongKind(call, other); return nil
        }
    }

    /// A fetch result through `completion`.
    func fetch(_ call: EventCall, _ application: Application = bridgeTestApplication,
               completion: CompletionHandler<BackgroundFetchResult>) {
        switch handler(call) {
        case nil: completion.decline()
        case .fetch(let perform)?: perform(application, call.arguments, completion)
        case let other?: wrongKind(call, other)
        }
    }

    /// "Done" through `completion`.
    func done(_ call: EventCall, _ application: Application = bridgeTestApplication, completion: CompletionHandler<Void>) {
        switch handler(call) {
        case nil: completion.decline()
        case .done(let perform)?: perform(application, call.arguments, completion)
        case let other?: wrongKind(call, other)
        }
    }

    /// A Bool through `completion`.
    func boolCompletion(_ call: EventCall, _ application: Application = bridgeTestApplication,
                        completion: CompletionHandler<Bool>) {
        switch handler(call) {
        case nil: completion.decline()
        case .boolCompletion(let perform)?: perform(application, call.arguments, completion)
        case let other?: wrongKind(call, other)
        }
    }

    /// A dictionary through `completion`.
    func reply(_ call: EventCall, _ application: Application = bridgeTestApplication,
               completion: CompletionHandler<JSONObject>) {
        switch handler(call) {
        case nil: completion.decline()
        case .dictionary(let reply)?: reply(application, call.arguments, completion)
        case let other?: wrongKind(call, other)
        }
    }

    /// A `Bool?`, and when true the restoration identifiers through `completion`.
    func restore(_ call: EventCall, _ application: Application = bridgeTestApplication,
                 completion: CompletionHandler<[String]>) -> Bool? {
        switch handler(call) {
        case nil: return nil
        case .restoration(let perform)?: return perform(application, call.arguments, completion)
        case let other?: wrongKind(call, other); return nil
        }
    }
}
