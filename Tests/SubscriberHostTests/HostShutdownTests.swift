import Testing
import SubscriberABI
import SubscriberKit
@testable import SubscriberHost

/// Real C fixture plugins loaded through the loader: log lines at destroy, hostile lengths and tokens.
@MainActor
@Suite("Host: shutdown keeps every log line; hostile C plugins are reported, not trapped on", .timeLimit(.minutes(10)))
struct HostShutdownTests {
    private func host(_ plugin: String) throws -> PluginHost {
        let json: JSONValue = [
            "app": ["name": "News", "bundleIdentifier": "com.example.news", "version": "1.0"],
            "plugins": [["path": .string(BuiltPlugins.path(plugin)), "subscribers": [.string(plugin)]]],
        ]
        let manifest = try Manifest(json: json, file: "m.json", directory: BuiltPlugins.directory)
        let host = try PluginHost(manifest: manifest, options: HostOptions(allowWritable: true))
        host.dispatchAtOnce(.didFinishLaunching())
        return host
    }

    // Was: shutDown() returned nothing and the lines were drained from host.log afterwards. It now
    // returns them (its leftovers), so the log has nothing left to drain.
    @Test func everyLineLoggedBeforeDestroyReturnsIsInTheLeftovers() throws {
        let host = try host("LogsAtDestroy")
        #expect(host.takeLogs().isEmpty)
        let leftovers = host.shutDown()
        #expect(host.isShutDown)
        let lines = leftovers.logs.map(\.message)
        // 2,000 lines from the plugin's thread while destroy waits for it, then its last line.
        #expect(lines.count == 2_001)
        #expect(lines.first == "line 0")
        #expect(lines.dropLast().last == "line 1999")
        #expect(lines.last == "destroyed")
        #expect(leftovers.logs.allSatisfy { $0.subscriber == "LogsAtDestroy" })
        #expect(leftovers.reports.isEmpty)
        #expect(host.log.drain().isEmpty)
        // Idempotent: nothing destroyed twice, nothing new to return.
        let again = host.shutDown()
        #expect(again.logs.isEmpty && again.reports.isEmpty)
    }

    @Test func shutDownReturnsTheRecordsNoOutcomeCarriedAndLateReports() async throws {
        let host = try host("HostileLengths")
        let active = await host.dispatch(.didBecomeActive)
        #expect(active.logs.count == 6)  // handed out with the outcome: not left over
        let leftovers = host.shutDown()
        #expect(!leftovers.logs.contains { active.logs.contains($0) })
        #expect(host.shutDown() == PluginHost.Leftovers(reports: [], logs: [], requests: []))
    }

    @Test func aCPluginsSizeMaxLengthsAreReportedAndItsForgedTokenBlamesOnlyIt() async throws {
        let host = try host("HostileLengths")
        defer { host.shutDown() }
        let problem = "expected a string of at most 64 MiB with data, found length 18446744073709551615"
        _ = host.dispatcher.dispatchAtOnce(.didBecomeActive)
        #expect(host.log.drain().map(\.description) == [
            "[HostileLengths] error: log: \(problem)",
            "[HostileLengths] error: log_event name: \(problem)",
            "[HostileLengths] error: logEvent(opened) attributes: \(problem); read as {}",
            "[HostileLengths] event opened",
            "[HostileLengths] error: log_error: \(problem)",
            "[HostileLengths] info: still here",
        ])
        // Read as no opinion: the dispatcher's default; reported with the outcome.
        let configured = host.dispatcher.dispatchAtOnce(.configurationForConnecting(sceneRole: "role"))
        #expect(configured.result == "Default Configuration")
        #expect(configured.reports == [.invalidAnswer(subscriber: "HostileLengths", event: .configurationForConnecting,
                                                      problem: "\(problem); read as no opinion")])
        let reply = await host.dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: ["q": 1]))
        #expect(reply.result == [:])
        #expect(reply.reports == [.invalidAnswer(subscriber: "HostileLengths", event: .handleWatchKitExtensionRequest,
                                                 problem: "reply: \(problem); read as {}")])
        #expect(host.log.drain().isEmpty)
        let fetch = await host.dispatcher.dispatch(.performFetch)
        #expect(fetch.result == .newData)
        #expect(fetch.reports == [.forgedCompletion(subscriber: "HostileLengths", event: .performFetch)])
    }
}
