import Foundation
import Testing
import SubscriberConformance

/// libAcmeWelcome.so, built by `swift test` beside this test binary, whatever the build folder is.
let builtPlugin = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("libAcmeWelcome.so").path

@Test func acmeWelcomeConforms() async {
    let report = await ConformanceKit.run(plugins: [builtPlugin])
    #expect(report.passed, "\(ConformanceKit.table(report))")
}
