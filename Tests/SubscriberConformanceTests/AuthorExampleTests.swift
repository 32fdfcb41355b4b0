import Testing
import SubscriberConformance

// The README's "test your plugin" snippet, verbatim apart from the plugin's name: a plugin author's
// whole conformance test. Run from the package root (as `swift test` does); the checks run in this
// test binary, re-executed (nothing else needs building).
@Test func extensionGuardConforms() async {
    let report = await ConformanceKit.run(plugins: [".build/debug/libExtensionGuard.so"])
    #expect(report.passed, "\(ConformanceKit.table(report))")
}
