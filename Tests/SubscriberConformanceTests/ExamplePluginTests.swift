import Foundation
import Testing
import SubscriberConformance
import SubscriberKit
import SubscriberEventModel

/// Every plugin the package builds outside Plugins/Broken (``ShippedPlugins``: the examples, the
/// benchmark's, the frozen-ABI fixture) passes every check, with the command's default options.
/// Warnings are allowed (they only flag timing close to a budget, which a busy machine can cause);
/// failures are not, nor skips but a C plugin's of the Swift-symbol check.
@Suite("Example plugins pass")
struct ExamplePluginTests {
    @Test("every plugin the package builds outside Plugins/Broken passes every check", arguments: ShippedPlugins.names)
    func passesEverything(plugin: String) async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin(plugin)], options: kitOptions())
        let table = ConformanceKit.table(report)
        #expect(report.problem == nil, "\(table)")
        let checked = try #require(report.plugins.first)
        #expect(checked.results.map(\.id) == ConformanceKit.checks.map(\.id))
        #expect(checked.failures.isEmpty, "\(table)")
        let skipped = checked.results.filter { $0.status == .skip }
        #expect(skipped.map(\.id).allSatisfy(cPluginSkips.contains), "\(table)")
        #expect(skipped.allSatisfy { $0.verdict.evidence.found.hasPrefix("a C plugin") }, "\(table)")
        #expect(report.exitCode == 0)
        #expect(checked.identity?.subscribers.isEmpty == false)
    }

    @Test("the plugins checked are read from the build folder: every plugin folder outside Plugins/Broken is among them")
    func everyPluginFolderIsChecked() {
        let expected = ShippedPlugins.folders(in: "Plugins").filter { $0 != "Broken" && $0 != "Fixtures" }
            + ShippedPlugins.folders(in: "Plugins/Fixtures").filter { !$0.hasPrefix("ABI-") }
        #expect(expected.count >= 10, "\(ShippedPlugins.packageRoot.path)")
        #expect(Set(expected).subtracting(ShippedPlugins.names).isEmpty, "built: \(ShippedPlugins.names)")
        #expect(ShippedPlugins.names.contains("BenchSubscribers"))
        #expect(!ShippedPlugins.names.contains { ShippedPlugins.folders(in: "Plugins/Broken").contains($0) })
    }

    @Test("a plugin file writable by others fails load.rtld-now unless allowed")
    func writableFile() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("libExtensionGuard.so").path
        try FileManager.default.copyItem(atPath: Built.plugin("ExtensionGuard"), toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: copy)

        let refused = await ConformanceKit.run(plugins: [copy], options: kitOptions { $0.only = ["load"] })
        let verdict = try #require(refused.plugins.first?.result("load.rtld-now")?.verdict)
        #expect(verdict.status == .fail)
        #expect(verdict.evidence.found.contains("writable by group and others"), "\(verdict.evidence.found)")

        let allowed = await ConformanceKit.run(plugins: [copy], options: kitOptions {
            $0.only = ["load"]
            $0.allowWritable = true
        })
        #expect(allowed.passed, "\(ConformanceKit.table(allowed))")
    }

    @Test("a file that is not a shared library fails load.rtld-now with dlopen's reason")
    func notALibrary() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("libGarbage.so").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("not an ELF file\n".utf8),
                                               attributes: [.posixPermissions: 0o644]))
        let report = await ConformanceKit.run(plugins: [file], options: kitOptions())
        let plugin = try #require(report.plugins.first)
        #expect(plugin.failures.map(\.id) == ["load.rtld-now"])
        #expect(plugin.result("load.rtld-now")?.verdict.evidence.found.contains("could not load library") == true)
        #expect(plugin.count(.skip) == ConformanceKit.checks.count - 1)
        #expect(plugin.identity == nil)
    }

    @Test("load.scan-time fails when the scan exceeds its budget (a zero budget: any scan exceeds it)")
    func scanTimeBudget() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")], options: kitOptions {
            $0.only = ["load.scan-time"]
            $0.scanBudget = .zero
        })
        let result = try #require(report.plugins.first?.result("load.scan-time"))
        #expect(result.status == .fail)
        #expect(result.verdict.evidence.found.hasPrefix("scanned in "))
    }
}

/// A Swift subscriber responds only to the events whose protocols it adopts: the kit exercises, and
/// names, exactly those.
@Suite("Swift plugins respond to what they implement")
struct RespondingEventsTests {
    @Test("Greeter adopts 2 event protocols: the kit runs and names those 2 events, not all 29")
    func greeterRespondsToTwoEvents() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("Greeter")], options: kitOptions())
        #expect(report.passed, "\(ConformanceKit.table(report))")
        let canonical = try #require(report.plugins.first?.result("events.canonical"))
        // As many calls as the two events have canonical inputs.
        let calls = LifecycleEvent.didBecomeActive.row.canonicalCalls.count + LifecycleEvent.openURL.row.canonicalCalls.count
        #expect(canonical.verdict.evidence.found
                == "Greeter: \(calls) calls over 2 responding events (didBecomeActive, openURL) returned")
    }
}
