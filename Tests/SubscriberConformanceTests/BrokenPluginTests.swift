import Testing
import SubscriberConformance

/// One broken plugin per check (Plugins/Broken/README.md): each fails its check, with evidence that
/// names the defect, and no other check.
@Suite("Broken plugins fail their check")
struct BrokenPluginTests {
    /// Plugin, the check it must fail, and a phrase the evidence must contain.
    static let cases: [(plugin: String, check: String, evidence: String)] = [
        ("BrokenUnresolved", "load.rtld-now", "undefined symbol: adh_broken_unresolved_function"),
        ("BrokenNoEntry", "load.entry-symbol", "no symbol adh_plugin_entry"),
        ("BrokenABIMajor", "load.abi-version", "expected ABI 1.x (the host's), found 2.0"),
        ("BrokenStructSize", "load.abi-version", "struct_size of at least 80 (ABI 1.0), found 16"),
        ("BrokenSwiftVersion", "load.swift-version", "found 5.9"),
        ("BrokenDescriptor", "load.descriptor", "id: expected a non-empty string"),
        ("BrokenUTF8Name", "load.descriptor", "name: expected valid UTF-8, found the bytes 42 72 6f 6b 65 6e ff fe"),
        ("BrokenDuplicateNames", "load.descriptor", "\"Alpha\" again"),
        ("SlowScan", "load.scan-time", "in a fresh process"),
        ("NoDestroy", "subscriber.create-destroy", "create(\"NoDestroy\") returned a subscriber without destroy"),
        ("ZeroStructSize", "subscriber.create-destroy",
         "create(\"ZeroStructSize\") returned a subscriber whose struct_size is 0, below the 24 bytes up to destroy"),
        ("RespondsToNothing", "subscriber.responds-to-events",
         "RespondsToNothing responds to no event: set the vtable entry of each event it handles"),
        ("UnknownNameNotNull", "subscriber.unknown-name", "create(\"\") returned a subscriber"),
        ("LeakyCreate", "subscriber.memory", "after 1000 cycles"),
        ("CrashOnEvent", "events.canonical", "crashed with SIGSEGV during CrashOnEvent: didBecomeActive #1"),
        ("SlowHandler", "events.budget", "over budget: SlowHandler: didEnterBackground"),
        ("NeverCompletes", "events.completion", "performFetch #1: never called"),
        ("CompletesTwice", "events.completion", "performFetch #1: called 2 times"),
        ("CompletesLate", "events.completion", "didReceiveRemoteNotification #1: called after the deadline of 2.00 s"),
        ("Nondeterministic", "events.deterministic", "openURL #1 answered"),
        ("FuzzCrash", "events.fuzz", "crashed with SIGABRT during FuzzCrash: openURL case"),
    ]

    @Test("fails its own check and no other", arguments: cases.map(\.plugin))
    func failsItsCheck(plugin: String) async throws {
        let expected = try #require(Self.cases.first { $0.plugin == plugin })
        let report = await ConformanceKit.run(plugins: [Built.plugin(plugin)], options: kitOptions())
        #expect(report.problem == nil)
        let result = try #require(report.plugins.first?.result(expected.check))
        #expect(result.status == .fail, "\(ConformanceKit.table(report))")
        #expect(result.verdict.evidence.found.contains(expected.evidence), "\(result.verdict.evidence.found)")
        #expect(report.failures.map(\.result.id) == [expected.check], "\(ConformanceKit.table(report))")
        #expect(report.exitCode == 1)
    }

    @Test("a hanging plugin is killed at the timeout, gets a verdict naming the event, and the run completes")
    func hangGetsAVerdict() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("HangOnEvent"), Built.plugin("ExtensionGuard")],
                                              options: kitOptions { $0.checkTimeout = .seconds(3) })
        let hang = try #require(report.plugins.first)
        let canonical = try #require(hang.result("events.canonical"))
        #expect(canonical.status == .fail)
        #expect(canonical.verdict.evidence.found.contains("(killed) during HangOnEvent: openURL #1"),
                "\(canonical.verdict.evidence.found)")
        #expect(hang.failures.map(\.id) == ["events.canonical"])
        // Checks that need the hung one are skipped, and say why.
        #expect(hang.result("events.fuzz")?.status == .skip)
        #expect(hang.result("events.fuzz")?.verdict.evidence.found == "needs events.canonical, which failed")
        // The kit went on to the next plugin.
        #expect(report.plugins.count == 2)
        #expect(report.plugins[1].failures.isEmpty, "\(ConformanceKit.table(report))")
    }

    @Test("a crashing plugin gets a verdict and the run goes on to the next check and plugin")
    func crashGetsAVerdict() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("CrashOnEvent"), Built.plugin("AppLifecycleDelegate")],
                                              options: kitOptions())
        let crash = try #require(report.plugins.first)
        #expect(crash.result("events.canonical")?.status == .fail)
        // Checks that do not need the crashed one still ran.
        #expect(crash.result("subscriber.memory")?.status == .pass)
        #expect(crash.result("events.budget")?.status == .skip)
        #expect(report.plugins.count == 2)
        #expect(report.plugins[1].failures.isEmpty, "\(ConformanceKit.table(report))")
    }
}
