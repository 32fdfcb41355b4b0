import SubscriberHost
import SubscriberKit

/// What one event call did at once: its return value, and the completion it was handed.
struct Invocation {
    /// The returned answer as JSON (`null` for no opinion); nil for events that return nothing.
    var answer: JSONValue?
    /// The completion handed to the call, for events that answer through one.
    var probe: CompletionProbe?
    /// Whether the contract obliges the subscriber to call the completion exactly once: it did not
    /// decline (continueUserActivity: it returned true). False for events without a completion.
    var owesCompletion: Bool
    /// Why no completion is owed, for evidence: "declined", or "did not return true" for a handler
    /// that answers at once and completes only after true (restoration).
    var whyNotOwed = "declined"
}

/// Calls one event's handler (``CSubscriber/handler(for:)``) directly on one subscriber, as the
/// dispatcher would but without reconciling, deadlines or other subscribers: the checks judge one
/// subscriber alone. How to call it follows from the handler's answer kind, not from the event.
@MainActor
enum EventInvoker {
    /// Calls `call` on `subscriber`; nothing happens (and nothing is owed) when it does not respond to
    /// the event. Launch events record the launch classification in `application`, as the host does,
    /// for this and later calls.
    static func invoke(_ call: EventCall, on subscriber: CSubscriber, application: inout Application) -> Invocation {
        if call.event.row.arguments == .launchOptions {
            application.launchInvocation = LaunchInvocation(classifying: call.arguments.launchOptions)
        }
        guard let handler = subscriber.handler(for: call.event) else {
            return Invocation(answer: nil, probe: nil, owesCompletion: false)
        }
        let app = application
        let arguments = call.arguments
        switch handler {
        case .notify(let notify):
            notify(app, arguments)
            return Invocation(answer: nil, probe: nil, owesCompletion: false)
        case .bool(let ask):
            return answer(ask(app, arguments).map { .bool($0) })
        case .orientationMask(let ask):
            return answer(ask(app, arguments).map { .number(Double($0.rawValue)) })
        case .configurationName(let ask):
            return answer(ask(app, arguments).map { .string($0) })
        case .fetch(let fetch):
            return completing { fetch(app, arguments, $0.handler { .string($0.name) }) }
        case .done(let perform):
            return completing { perform(app, arguments, $0.handler { (_: Void) in .null }) }
        case .boolCompletion(let perform):
            return completing { perform(app, arguments, $0.handler { .bool($0) }) }
        case .dictionary(let reply):
            return completing { reply(app, arguments, $0.handler { .object($0) }) }
        case .restoration(let restore):
            let probe = CompletionProbe()
            let handled = restore(app, arguments, probe.handler { (ids: [String]) in .array(ids.map { .string($0) }) })
            return Invocation(answer: handled.map { .bool($0) } ?? .null, probe: probe, owesCompletion: handled == true,
                              whyNotOwed: "did not return true")
        }
    }

    /// An answer returned at once; `nil` is no opinion.
    private static func answer(_ value: JSONValue?) -> Invocation {
        Invocation(answer: value ?? .null, probe: nil, owesCompletion: false)
    }

    /// A completion event: hands `body` a fresh probe; owed unless declined before returning.
    private static func completing(_ body: (CompletionProbe) -> Void) -> Invocation {
        let probe = CompletionProbe()
        body(probe)
        return Invocation(answer: nil, probe: probe, owesCompletion: !probe.declined)
    }
}
