import Foundation
import Synchronization
import Testing
@testable import SubscriberConformance

@Suite("Choosing checks and running the kit")
struct SelectionTests {
    @Test("groups and ids select checks, --skip removes them, order stays the run order")
    func selection() throws {
        let all = ConformanceKit.checks.map(\.id)
        #expect(all.count == 16)
        #expect(try ConformanceKit.selectChecks().map(\.id) == all)
        #expect(try ConformanceKit.selectChecks(only: ["load"]).map(\.id)
                == ["load.rtld-now", "load.entry-symbol", "load.abi-version", "load.swift-version", "load.descriptor",
                    "load.scan-time"])
        #expect(try ConformanceKit.selectChecks(only: ["events.fuzz", "load.rtld-now"]).map(\.id)
                == ["load.rtld-now", "events.fuzz"])
        #expect(try ConformanceKit.selectChecks(skip: ["events", "subscriber.memory"]).map(\.id)
                == ["load.rtld-now", "load.entry-symbol", "load.abi-version", "load.swift-version", "load.descriptor",
                    "load.scan-time", "subscriber.create-destroy", "subscriber.responds-to-events", "subscriber.unknown-name"])
        // A prefix that is not a whole group does not match.
        #expect(throws: ConformanceSetupError.self) { try ConformanceKit.selectChecks(only: ["event"]) }
        // Nothing left to run: refused, never a pass of no check.
        #expect(throws: ConformanceSetupError.badOption(name: "--skip", expected: "at least one check left to run",
                                                        found: "every check that --only chose skipped")) {
            try ConformanceKit.selectChecks(only: ["load.rtld-now"], skip: ["load"])
        }
        #expect(throws: ConformanceSetupError.badOption(name: "--skip", expected: "at least one check left to run",
                                                        found: "every check skipped")) {
            try ConformanceKit.selectChecks(skip: ["load", "subscriber", "events"])
        }
    }

    @Test("an unknown check id is a kit problem (exit 2) naming the option and the ids")
    func unknownCheck() async {
        let report = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")],
                                              options: kitOptions { $0.skip = ["events.fuz"] })
        #expect(report.exitCode == 2)
        #expect(report.plugins.isEmpty)
        #expect(report.problem?.contains("--skip: expected a check id or group") == true)
        #expect(report.problem?.contains("found 'events.fuz'") == true)
    }

    @Test("a child executable that does not speak the protocol is a kit problem, not a verdict")
    func notAChild() async {
        let report = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")],
                                              options: kitOptions { $0.childExecutable = "/bin/true" })
        #expect(report.exitCode == 2)
        #expect(report.problem?.contains("expected /bin/true to answer as a conformance child") == true, "\(report.problem ?? "")")
    }

    @Test("the checks run in the running executable (this test binary): nothing else built, no variable read")
    func runsInTheRunningExecutable() async throws {
        #expect(try ChildExecutable.resolve(nil) == "/proc/self/exe")
        // The variable the kit used to need is not even read: pointing it at a program that is no
        // conformance child changes nothing.
        setenv("APPHOST_EXECUTABLE", "/bin/false", 1)
        defer { unsetenv("APPHOST_EXECUTABLE") }
        let report = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")], options: kitOptions {
            $0.only = ["load.descriptor", "events.canonical"]
        })
        #expect(report.passed, "\(ConformanceKit.table(report))")
        #expect(report.plugins.first?.results.count == 2)
    }

    @Test("a missing child executable is a kit problem")
    func noChild() async {
        let report = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")],
                                              options: kitOptions { $0.childExecutable = "/nonexistent/apphost" })
        #expect(report.exitCode == 2)
        #expect(report.problem?.contains("/nonexistent/apphost") == true)
    }

    @Test("only the selected checks run and appear in the report, with the seed passed through")
    func onlySelected() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("DeepLinkRouter")],
                                              options: kitOptions { $0.only = ["events.fuzz"] })
        let plugin = try #require(report.plugins.first)
        #expect(plugin.results.map(\.id) == ["events.fuzz"])
        #expect(plugin.results.first?.status == .pass, "\(ConformanceKit.table(report))")
        #expect(plugin.results.first?.verdict.evidence.found.contains("(seed 20240601)") == true)
        #expect(report.seed == 20_240_601)
    }

    @Test("every result is reported to onResult as it arrives, in order")
    func progressCallback() async {
        let seen = Collected()
        let report = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")], options: kitOptions {
            $0.only = ["load"]
            $0.onResult = { plugin, result in seen.append("\(plugin.hasSuffix("libExtensionGuard.so")) \(result.id)") }
        })
        #expect(seen.items == report.plugins[0].results.map { "true \($0.id)" })
    }
}

/// A thread-safe list for callbacks.
final class Collected: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ item: String) { storage.withLock { $0.append(item) } }
    var items: [String] { storage.withLock { $0 } }
}
