import SubscriberHost
import SubscriberKit

/// The report as one JSON object: the run (seed as a string, since a JSON number cannot hold every
/// UInt64; duration; counts; exit code; problem), then one object per plugin with one per check.
enum JSONRenderer {
    static func render(_ report: ConformanceReport) -> String {
        var object: JSONObject = [
            "seed": .string(String(report.seed)),
            "durationMs": milliseconds(report.duration),
            "passed": .bool(report.passed),
            "exitCode": .number(Double(report.exitCode)),
            "counts": counts(report.count),
        ]
        if let problem = report.problem { object["problem"] = .string(problem) }
        object["plugins"] = .array(report.plugins.map(plugin))
        return JSONValue.object(object).serialized(pretty: true) + "\n"
    }

    private static func plugin(_ plugin: PluginReport) -> JSONValue {
        var object: JSONObject = ["path": .string(plugin.path)]
        if let identity = plugin.identity {
            object["id"] = .string(identity.id)
            object["name"] = .string(identity.name)
            object["version"] = .string(identity.version)
            object["subscribers"] = .array(identity.subscribers.map { .string($0) })
        }
        object["durationMs"] = milliseconds(plugin.duration)
        object["counts"] = counts(plugin.count)
        object["checks"] = .array(plugin.results.map { result in
            .object([
                "id": .string(result.id), "summary": .string(result.summary), "status": .string(result.status.rawValue),
                "expected": .string(result.verdict.evidence.expected), "found": .string(result.verdict.evidence.found),
                "durationMs": milliseconds(result.duration),
            ])
        })
        return .object(object)
    }

    private static func counts(_ count: (VerdictStatus) -> Int) -> JSONValue {
        .object(JSONObject(VerdictStatus.allCases.map { ($0.rawValue, .number(Double(count($0)))) }))
    }

    private static func milliseconds(_ duration: Duration) -> JSONValue {
        .number((duration.milliseconds * 1_000).rounded() / 1_000)
    }
}
