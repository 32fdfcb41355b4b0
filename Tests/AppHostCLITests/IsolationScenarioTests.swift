import Testing
import BuiltProducts
@testable import AppHostCLI
@testable import SubscriberHost
import SubscriberKit

/// Process isolation changes nothing but failures: the demo manifest with every plugin in a child
/// process gives the outcomes, answers, reports and log lines it gives in-process, for every event
/// of the default scenario (the scenario's own list, not one kept here).
@MainActor
@Suite("Isolation: the demo, every plugin isolated, plays as in-process", .serialized)
struct IsolationScenarioTests {
    /// Each event's outcome as text: result, each answer by subscriber, reports, log lines.
    static func play(_ file: String, isolated: Bool, grouped: Bool = false) async throws -> [String] {
        var manifest = try Manifest(contentsOfFile: AppHostProcess.packageRoot + "/manifests/" + file)
        if isolated {
            for index in manifest.plugins.indices {
                manifest.plugins[index].isolation.mode = .process
                if grouped { manifest.plugins[index].isolation.group = "all" }
            }
        }
        let host = try PluginHost(manifest: manifest, options: HostOptions(extraSearchDirectories: [BuiltProducts.directory]))
        defer { host.shutDown() }
        #expect(host.isolationGroups.count == (isolated ? (grouped ? 1 : manifest.plugins.count) : 0))
        var lines: [String] = ["subscribers: \(host.subscriberNames)"]
        for call in DefaultScenario.calls {
            let outcome = await host.dispatch(call)
            let row = call.event.row
            let answers = outcome.answers.map { "\($0.subscriber)=\($0.answer.map { row.json(answer: $0) } ?? .null)" }
            lines.append("\(call.event): result \(row.json(result: outcome.result)); answers \(answers); "
                         + "reports \(outcome.reports.map(\.description)); state \(outcome.applicationState); "
                         + "logs \(outcome.logs.map { "\($0.subscriber) \($0.level) \($0.message)" })")
        }
        return lines
    }

    @Test("news.json: each plugin in a child of its own, every event of the default scenario as in-process")
    func eachPluginIsolated() async throws {
        let inProcess = try await Self.play("news.json", isolated: false)
        let isolated = try await Self.play("news.json", isolated: true)
        #expect(inProcess.count == DefaultScenario.calls.count + 1)
        for (expected, found) in zip(inProcess, isolated) { #expect(found == expected) }
    }

    @Test("news.json: every plugin in one isolation group (one child), as in-process")
    func oneGroup() async throws {
        let inProcess = try await Self.play("news.json", isolated: false)
        let isolated = try await Self.play("news.json", isolated: true, grouped: true)
        for (expected, found) in zip(inProcess, isolated) { #expect(found == expected) }
    }
}
