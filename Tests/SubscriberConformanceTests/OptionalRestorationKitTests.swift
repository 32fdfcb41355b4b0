import Testing
import SubscriberConformance

/// The kit on a plugin that answers continueUserActivity true and never calls the restoration handler
/// (Plugins/Broken/NeverRestores, a faithful Expo port): UIKit's handler is optional, so
/// `events.completion` passes and its evidence says so rather than "never called".
@Suite("Kit: the optional restoration handler is no defect")
struct OptionalRestorationKitTests {
    @Test("NeverRestores passes events.completion; the evidence calls the handler optional")
    func passes() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("NeverRestores")],
                                              options: kitOptions { $0.only = ["events.completion"]; $0.completionDeadline = .milliseconds(200) })
        let result = try #require(report.plugins.first?.result("events.completion"))
        #expect(result.status == .pass, "\(ConformanceKit.table(report))")
        let found = result.verdict.evidence.found
        #expect(found.contains("optional restoration handler"), "\(found)")
        #expect(found.contains("or never, as UIKit allows"), "\(found)")
        #expect(!found.contains("never called within"), "\(found)")
    }
}
