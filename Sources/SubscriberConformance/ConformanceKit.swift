import Dispatch
import Foundation
import SubscriberKit
import SubscriberEventModel

/// The plugin conformance kit (docs/conformance-kit.md): checks that a subscriber plugin keeps the
/// binary contract, from a plugin author's test suite or through `apphost check`.
///
/// Every check runs in a child process of its own: the kit re-runs the running executable (any
/// executable that links the kit, a test binary included, becomes a conformance child when started
/// so; nothing else needs building), one check on one plugin per child, with a timeout. A plugin
/// that crashes, hangs, exits or leaves processes behind inside a check gets a failing verdict
/// naming the check (and what was running), and the kit goes on. The verdict travels on a private
/// channel, so nothing a plugin prints can forge or break it. A check whose prerequisite failed is
/// skipped.
///
/// ```swift
/// let report = await ConformanceKit.run(plugins: [".build/debug/libMyPlugin.so"])
/// #expect(report.passed, "\(ConformanceKit.table(report))")
/// ```
public enum ConformanceKit {
    /// Every check, in run order.
    public static var checks: [CheckDescription] {
        CheckRegistry.all.map { CheckDescription(id: $0.id, summary: $0.summary, requires: $0.requires) }
    }

    /// The checks `only` and `skip` select (ids or groups such as `events`), in run order; throws for
    /// a name that is neither.
    public static func selectChecks(only: [String] = [], skip: [String] = []) throws(ConformanceSetupError) -> [CheckDescription] {
        try CheckRegistry.select(only: only, skip: skip).map {
            CheckDescription(id: $0.id, summary: $0.summary, requires: $0.requires)
        }
    }

    /// Runs the selected checks on each plugin file, one child process per check, plugins in order.
    /// Never throws: when the kit itself cannot run, the report's ``ConformanceReport/problem`` says
    /// why (and ``ConformanceReport/exitCode`` is 2).
    public static func run(plugins: [String], options: ConformanceOptions = ConformanceOptions()) async -> ConformanceReport {
        let clock = ContinuousClock()
        let start = clock.now
        let seed = options.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        do throws(ConformanceSetupError) {
            let checks = try CheckRegistry.select(only: options.only, skip: options.skip)
            try options.validate(plugins: plugins)
            let executable = try ChildExecutable.resolve(options.childExecutable)
            var reports: [PluginReport] = []
            for plugin in plugins {
                let runner = PluginRunner(plugin: plugin, checks: checks, executable: executable, seed: seed, options: options)
                reports.append(try await runner.run())
            }
            return ConformanceReport(plugins: reports, seed: seed, duration: clock.now - start)
        } catch {
            return ConformanceReport(plugins: [], seed: seed, duration: clock.now - start, problem: error.description)
        }
    }

    /// The report as a human table (see ``TableRenderer``).
    public static func table(_ report: ConformanceReport) -> String { TableRenderer.render(report) }
    /// The report as JSON text.
    public static func json(_ report: ConformanceReport) -> String { JSONRenderer.render(report) }
    /// The report as JUnit XML, which CI systems read.
    public static func junit(_ report: ConformanceReport) -> String { JUnitRenderer.render(report) }
}
