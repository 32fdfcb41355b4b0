import SubscriberHost
import SubscriberKit

extension DispatchReport {
    /// As JSON: {"kind", "event" (null when none can be named), "subscriber"?, …, "message"}.
    package var json: JSONObject {
        var object: JSONObject = ["kind": .string(kind), "event": event.map { .string($0.name) } ?? .null]
        switch self {
        case .unattributedForgedCompletion(let count):
            if count > 1 { object["count"] = .number(Double(count)) }
        case .late(let subscriber, _), .ignoredDecline(let subscriber, _):
            object["subscriber"] = .string(subscriber)
        case .duplicateCompletion(let subscriber, _, let count), .completionAfterDelivery(let subscriber, _, let count),
             .completionAfterDecline(let subscriber, _, let count), .unexpectedRestoration(let subscriber, _, let count),
             .forgedCompletion(let subscriber, _, let count), .completionAfterShutdown(let subscriber, _, let count):
            object["subscriber"] = .string(subscriber)
            if count > 1 { object["count"] = .number(Double(count)) }
        case .invalidAnswer(let subscriber, _, let problem, let count):
            object["subscriber"] = .string(subscriber)
            object["problem"] = .string(problem)
            if count > 1 { object["count"] = .number(Double(count)) }
        case .orientationConflict(_, let answers, let fallback):
            object["answers"] = .array(answers.map {
                .object(["subscriber": .string($0.subscriber), "answer": .array($0.answer.names.map { .string($0) })])
            })
            object["fallback"] = .array(fallback.names.map { .string($0) })
        case .duplicateKey(let key, let subscriber, let keptFrom, _):
            object["subscriber"] = .string(subscriber)
            object["key"] = .string(key)
            object["keptFrom"] = .string(keptFrom)
        case .stateViolation(_, let state, let expected):
            object["state"] = .string(state.name)
            object["expected"] = .string(expected)
        case .sceneStateViolation(_, let scene, let sceneState, let expected):
            object["scene"] = .string(scene)
            object["sceneState"] = sceneState.map { .string($0.name) } ?? .null
            object["expected"] = .string(expected)
        case .crashed(let plugin, let subscriber, _, let found):
            object["plugin"] = .string(plugin)
            object["subscriber"] = subscriber.map { .string($0) } ?? .null
            object["found"] = .string(found)
        case .hung(let plugin, let subscriber, _, let budget):
            object["plugin"] = .string(plugin)
            object["subscriber"] = .string(subscriber)
            object["budgetMilliseconds"] = .number(Double(budget))
        case .restarted(let plugin, _, let restart, let max):
            object["plugin"] = .string(plugin)
            object["restart"] = .number(Double(restart))
            object["max"] = .number(Double(max))
        case .disabled(let plugin, _, let restarts, let within):
            object["plugin"] = .string(plugin)
            object["restarts"] = .number(Double(restarts))
            object["withinSeconds"] = .number(Double(within))
        }
        object["message"] = .string(description)
        return object
    }
}

extension DispatchReport {
    /// Why an event was refused, as `refused: …` says it: the state it came in and what was
    /// expected (``EventOutcome/refusal``); the description for any other report.
    package var refusalReason: String {
        switch self {
        case .stateViolation(_, let state, let expected):
            "the app is \(state); expected \(expected)"
        case .sceneStateViolation(_, let scene, let sceneState, let expected):
            "scene \"\(scene)\" is \(sceneState.map(\.name) ?? "not connected"); expected \(expected)"
        default:
            description
        }
    }
}
