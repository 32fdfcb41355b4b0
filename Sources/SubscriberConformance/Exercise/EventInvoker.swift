import SubscriberHost
import SubscriberKit

/// What one event call did: its answer at once, and for an event answered through a completion what
/// became of it (``finish()``).
@MainActor
struct Invocation {
    /// The returned answer as JSON (`null` for no opinion); nil for events that return nothing.
    var answer: JSONValue?
    /// Whether the contract obliges the subscriber to call its completion exactly once: it did not
    /// decline. False for events without a completion, and for continueUserActivity, whose
    /// restoration handler is optional.
    var owesCompletion: Bool
    /// Whether the event has a completion at all.
    var completes: Bool
    /// Why no completion is owed, for evidence: "declined", "did not return true".
    var whyNotOwed: String
    /// The call in flight, finished by ``finish()``.
    let flight: InFlight
    let row: EventRow
    /// Where calls after delivery are reported (a second call after the first was delivered).
    let lateReports: LateReports

    /// Waits for the completion (or the deadline) and tells what became of it.
    func finish() async -> CompletionOutcome {
        let result = await flight.finish()
        let value: JSONValue? = result.answers.count == 0 ? nil : result.answers.answer(0).map(row.json(answer:))
        let after: Duration? = result.answers.count == 0 ? nil : .nanoseconds(Int64(clamping: result.answers.time(0)))
        return CompletionOutcome(value: value, after: after, reports: result.reports)
    }
}

/// What became of one call's completion: its value (as its row shows it), how long after the call it
/// came, and what the host noticed (late, duplicate, after a decline, forged).
struct CompletionOutcome {
    var value: JSONValue?
    var after: Duration?
    var reports: [DispatchReport]
}

/// Calls one event on one loaded subscriber exactly as the host does — the same call path, the same
/// completion handling — but alone: no other subscriber, no reconciling across subscribers, no
/// state machine. The checks judge one subscriber at a time.
@MainActor
enum EventInvoker {
    /// Calls `call` on `subscriber`; nil when it does not respond to the event. Launch events record
    /// the launch classification in `application`, as the host does, for this and later calls.
    static func invoke(_ call: AnyEventCall, on subscriber: CSubscriber, application: inout Application,
                       deadline: Duration = DispatchConfiguration.standardDeadline) -> Invocation? {
        let event = call.event
        let row = event.row
        if let invocation = row.launchInvocation(of: call) { application.launchInvocation = invocation }
        guard let entry = subscriber.entries[event.index] else { return nil }
        let lateReports = LateReports()
        let policy: EventPolicy
        do throws(ReconcilerMismatch) {
            policy = try row.policy(nil, settings: DeliverySettings())
        } catch {
            preconditionFailure("\(event): its own default reconciler does not fit (\(error.expected))")
        }
        let context = DeliveryContext(
            event: event, application: application, serial: PayloadSerials.next(), timed: true, names: [subscriber.name],
            policy: policy, deadline: deadline.nanosecondsSaturating, lateReports: lateReports,
            problem: { [name = subscriber.name] _, event, problem in
                lateReports.append(.invalidAnswer(subscriber: name, event: event, problem: problem))
            })
        let flight = row.deliver(call, to: ResponderList([Responder(.loaded(entry: entry, subscriber: subscriber.me),
                                                                    subscriber: 0)]), context)
        var invocation = Invocation(answer: nil, owesCompletion: false, completes: row.timing.completes, whyNotOwed: "",
                                    flight: flight, row: row, lateReports: lateReports)
        switch row.timing {
        case .notification:
            break
        case .immediate:
            invocation.answer = flight.settled?.answers.answer(0).map(row.json(answer:)) ?? .null
        case .completion:
            // A responder that declined has no row: nothing is owed.
            let declined = flight.settled.map { $0.answers.count == 0 } ?? false
            invocation.owesCompletion = !declined
            invocation.whyNotOwed = "declined"
        case .restoration:
            let handled = flight.immediate as? Bool
            invocation.answer = handled.map(JSONValue.bool) ?? .null
            invocation.whyNotOwed = handled == true ? "returned true (the restoration handler is optional)" : "did not return true"
        }
        return invocation
    }
}
