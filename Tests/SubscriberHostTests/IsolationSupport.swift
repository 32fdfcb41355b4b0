import Glibc
import Testing
import BuiltProducts
import SubscriberKit
@testable import SubscriberHost

/// Hosts of isolated fixture plugins, built in code, on a manual clock (no test waits for time to pass).
@MainActor
enum Isolated {
    struct Plugin {
        var library: String
        var options: JSONValue = [:]
        var group: String? = nil
        var optional = false
    }

    /// The call budget of tests that are not about hangs: far beyond what one event takes on a busy
    /// machine, so that no test depends on answering in time (a hang test passes its own, with a
    /// fixture that blocks for ever), yet short: these hosts wait on the test runner's main thread,
    /// and a child that went quiet without ending would hold every main-actor suite for its budget.
    static let patientBudget = 30_000

    static func manifest(_ plugins: [Plugin], budget: Int = patientBudget, restart: PluginIsolation.RestartPolicy = .init(),
                         limits: PluginIsolation.Limits = .init()) -> Manifest {
        let entries = plugins.enumerated().map { index, plugin in
            var entry = ManifestPlugin(index: index, source: .library(plugin.library), options: plugin.options,
                                       optional: plugin.optional)
            entry.isolation = PluginIsolation(mode: .process, group: plugin.group, callBudgetMilliseconds: budget,
                                              restart: restart, limits: limits)
            return entry
        }
        return Manifest(file: "(isolation test)", directory: BuiltProducts.directory,
                        app: Application(name: "Isolation", bundleIdentifier: "dev.test.isolation", version: "1"), plugins: entries)
    }

    static func host(_ plugins: [Plugin], budget: Int = patientBudget, restart: PluginIsolation.RestartPolicy = .init(),
                     limits: PluginIsolation.Limits = .init(), clock: ManualHostClock = ManualHostClock()) throws -> PluginHost {
        try PluginHost(manifest: manifest(plugins, budget: budget, restart: restart, limits: limits),
                       options: HostOptions(extraSearchDirectories: [BuiltProducts.directory], clock: clock))
    }

    /// Waits (bounded, generously: the machine may be busy) until `condition` holds.
    static func wait(_ what: String, upTo seconds: Int = 20, _ condition: () -> Bool) async {
        let end = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            if ContinuousClock.now > end {
                Issue.record("waited \(seconds) s for \(what)")
                return
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Whether process `pid` is gone (or a zombie no one reaped yet).
    nonisolated static func isGone(_ pid: pid_t) -> Bool {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return true }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, 512, file) != nil else { return true }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return true }
        let state = text[text.index(after: close)...].trimmingPrefix(" ").first
        return state == "Z" || state == "X"
    }

    /// The kinds of `reports`, in order.
    static func kinds(_ reports: [DispatchReport]) -> [String] { reports.map(\.kind) }
}
