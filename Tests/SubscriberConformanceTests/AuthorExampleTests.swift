import Foundation
import Testing
import SubscriberConformance

// The docs' "test your plugin" snippet, verbatim apart from the plugin's name: a plugin author's whole
// conformance test. The library is found beside the test binary, as this target's `Built.plugin`
// does, so it runs under any -c or --scratch-path; the checks run in this test binary, re-executed.

/// libExtensionGuard.so, built by `swift test` beside this test binary, whatever the build folder is.
let builtPlugin = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("libExtensionGuard.so").path

@Test func extensionGuardConforms() async {
    let report = await ConformanceKit.run(plugins: [builtPlugin])
    #expect(report.passed, "\(ConformanceKit.table(report))")
}
