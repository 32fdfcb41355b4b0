import Testing
import SubscriberKit
@testable import SubscriberHost

/// `ManySubscribers`' subscriber `index`: "Many0042".
private func manyName(_ index: Int) -> String {
    let digits = String(index)
    return "Many" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// Loading costs time linear in the manifest, however its entries share plugins. The sizes here take
/// well under a minute loaded linearly and hours quadratically; nothing is timed.
@MainActor
@Suite("Loader: linear in the entries, also when they name subscribers of one plugin")
struct LoaderScaleTests {
    @Test("4,096 entries, each naming another subscriber of one plugin that declares 4,096: all load, once each, in order")
    func entriesNamingOnePlugin() throws {
        let count = 4096
        let entries = (0..<count).map { #"{"library": "ManySubscribers", "subscribers": ["\#(manyName($0))"]}"# }
        let (host, _) = try loadHost(manifest: withApp(#""plugins": [\#(entries.joined(separator: ", "))]"#))
        defer { _ = host.shutDown() }
        #expect(host.subscribers.count == count)
        #expect(host.subscribers.map(\.name) == (0..<count).map(manyName))
        let image = try #require(host.plugins.plugins.first?.image)
        #expect(image.subscriberNames.count == count)
        #expect(host.plugins.plugins.allSatisfy { $0.image === image }, "one image for every entry of the file")
        #expect(host.dispatcher.responderNames(for: .didBecomeActive).count == count)
    }

    @Test("one entry making 4,096 subscribers, each with options of its own laid over the entry's")
    func optionsForEverySubscriber() throws {
        let count = 4096
        let own = (0..<count).map { #""\#(manyName($0))": {"index": \#($0)}"# }.joined(separator: ", ")
        let (host, _) = try loadHost(manifest: withApp(#"""
            "plugins": [{"library": "ManySubscribers", "options": {"shared": true, "index": -1}, "subscriberOptions": {\#(own)}}]
            """#))
        defer { _ = host.shutDown() }
        #expect(host.subscribers.count == count)
        for index in [0, 1, 2048, count - 1] {
            #expect(host.subscribers[index].context.options == ["shared": true, "index": .number(Double(index))])
        }
    }
}
