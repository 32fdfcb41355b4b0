import SubscriberKit
import SubscriberEventModel

/// One subscriber of an isolation child, as the dispatcher reaches it: one more kind of responder
/// beside a loaded plugin's and an in-process one, with the same answers, reconcilers and outcome
/// types. Its calls go to its ``IsolationGroup``, which makes one round trip per event for all the
/// child's responders. A subscriber whose child ended or is disabled answers nothing (no opinion;
/// a completion event is declined).
@MainActor
final class IsolatedTransport: ResponderTransport {
    let group: IsolationGroup
    /// Its index in the child's hello.
    let local: Int

    init(group: IsolationGroup, local: Int) {
        self.group = group
        self.local = local
    }

    func responds(to event: LifecycleEvent) -> Bool { group.responds(local, to: event) }

    private func answer<A: ArgumentShape>(_ value: A.Value, _ subscriber: Int, _ context: DeliveryContext, _: A.Type) -> JSONObject? {
        group.answer(for: local, subscriber: subscriber, context) {
            context.event.row.scriptMembers(of: AnyEventCall(context.event, value: value))
        }
    }

    func notify<A: ArgumentShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext, _: A.Type) {
        _ = answer(value, subscriber, context, A.self)
    }

    func answer<A: ArgumentShape, R: ImmediateAnswerShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext,
                                                           into slot: inout R.Answer?, _: A.Type, _: R.Type) {
        guard let reply = answer(value, subscriber, context, A.self), reply["k"] == "a", let json = reply["v"] else { return }
        do { slot = try R.answer(json: json, path: "answer") } catch {
            group.malformed("expected \(context.event)'s answer, found \(error)", local: local, context)
        }
    }

    func complete<A: ArgumentShape, R: CompletionAnswerShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext,
                                                              completion: CompletionHandler<R.Answer>, _: A.Type, _: R.Type) {
        guard let reply = answer(value, subscriber, context, A.self) else { return completion.decline() }
        switch reply["k"]?.stringValue {
        case "a":
            guard let json = reply["v"] else { return }
            do { completion(try R.answer(json: json, path: "answer")) } catch {
                group.malformed("expected \(context.event)'s answer, found \(error)", local: local, context)
            }
        case "d":
            completion.decline()
        case "p":
            let late = context.policy.lateAnswer as? R.Answer
            let event = context.event
            let (names, reports) = (group.names, context.lateReports)
            group.awaitCompletion(local) { (message: JSONObject) throws(IsolationWireError) in
                // What the child's collection noticed, before the completion can deliver the event.
                for report in try IsolationWire.reports(message["r"], names: names, in: .completion) { reports.append(report) }
                switch message["k"]?.stringValue {
                case "a":
                    guard let json = message["v"] else { throw IsolationWireError("expected a completion's value, found none") }
                    do { completion(try R.answer(json: json, path: "completion")) } catch {
                        throw IsolationWireError("expected \(event)'s answer, found \(error)")
                    }
                case "c":
                    // Its child ended first: settled now as a missed completion counts (failed, false),
                    // or left to the deadline where a missed one counts as nothing.
                    if let late { completion(late) }
                case "d", "n", "x":
                    break  // declined late, nothing, or settled by the child's own far deadline: the host's rules apply
                default:
                    throw IsolationWireError("expected a completion kind, found \(message["k"].map { "\($0)" } ?? "none")")
                }
            }
        default:
            break  // no opinion, held to the deadline as an in-process subscriber that never completes
        }
    }

    func restore<A: ArgumentShape>(_ value: A.Value, subscriber: Int, _ context: DeliveryContext, into slot: inout Bool?,
                                   restoration: CompletionHandler<[String]>, _: A.Type) {
        guard let reply = answer(value, subscriber, context, A.self) else { return }
        if reply["k"] == "a" { slot = reply["v"]?.boolValue }
        if let lists = reply["l"]?.arrayValue {
            restoration(lists.compactMap(\.stringValue))
        } else if reply["p"] == true {
            let (names, reports) = (group.names, context.lateReports)
            group.awaitCompletion(local) { (message: JSONObject) throws(IsolationWireError) in
                for report in try IsolationWire.reports(message["r"], names: names, in: .completion) { reports.append(report) }
                if message["k"] == "a", let lists = message["v"]?.arrayValue { restoration(lists.compactMap(\.stringValue)) }
            }
        }
    }
}
