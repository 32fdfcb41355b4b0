import EmbeddingExample
import Foundation
import SubscriberHost
import Testing

/// docs/embedding.md's example, run as written: the demo manifest's plugins plus one in-process
/// subscriber, real events forwarded, and a shutdown that hands back what was logged.
@Suite("Embedding example")
@MainActor
struct EmbeddingExampleTests {
    @Test("loads the plugins beside its own subscriber, forwards events, shuts down")
    func runsAsDocumented() async throws {
        let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("manifests/news.json").path
        var lines: [String] = []
        try await EmbeddedNewsApp.run(manifest: manifest) { lines.append($0) }

        #expect(lines.contains("launched: true, from urlScheme(news://article/42)"))
        // The in-process router (priority 20) is asked before DeepLinkRouter (priority 10), and answers.
        #expect(lines.contains("news-app://settings handled: true, first asked: AppRouter"))
        #expect(lines.contains("background fetch: newData"))
        // Its own log line travels with the event it was written in.
        #expect(lines.contains { $0.hasPrefix("log: ") && $0.contains("AppRouter") && $0.contains("saving the reading list") })
        #expect(lines.last?.hasPrefix("shut down: ") == true)
    }
}
