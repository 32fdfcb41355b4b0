import Foundation
import Testing
@testable import SubscriberEventModel

/// The event protocols' witnesses make their handlers through the event model's makers
/// (`notificationHandler(_:_:)`, `immediateHandler`, `completionEventHandler`, `restorationHandler`),
/// never by naming a handler class with concrete shapes: such a name is looked up by its mangled
/// name at a plugin's first `create`, and the runtime checks the class's requirement
/// (`NoArguments: ArgumentShape`) by scanning every loaded image's conformance records, so loading
/// N plugins would cost O(N²). The instruction counts are in docs/performance.md; this guards the
/// source, which is what decides it.
@Suite("Witnesses make their handlers without a conformance lookup")
struct HandlerMakingTests {
    static let subscriberSources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/SubscriberKit/Subscriber")

    /// Every Swift file of the kit's event protocols, with its text.
    static func sources() throws -> [(name: String, text: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: subscriberSources.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { ($0, try String(contentsOf: subscriberSources.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test func noWitnessNamesAHandlerClassWithConcreteShapes() throws {
        let pattern = try Regex(#"\b(NotificationHandler|ImmediateHandler|CompletionEventHandler|RestorationHandler)<"#)
        let files = try Self.sources()
        #expect(!files.isEmpty, "\(Self.subscriberSources.path): expected the event protocols' sources, found none")
        for (name, text) in files {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(pattern) {
                let found = line.trimmingCharacters(in: .whitespaces)
                let message = "Sources/SubscriberKit/Subscriber/\(name):\(number + 1): expected a handler made through "
                    + "notificationHandler/immediateHandler/completionEventHandler/restorationHandler, "
                    + "found a handler class named with concrete shapes: \(found)"
                Issue.record(Comment(rawValue: message))
            }
        }
    }

    @Test func everyRowsWitnessGoesThroughAMaker() throws {
        let pattern = try Regex(#"_EventWitness\([\w.]+, (notificationHandler|immediateHandler|completionEventHandler|restorationHandler)\("#)
        let made = try Self.sources().reduce(0) { $0 + $1.text.matches(of: pattern).count }
        #expect(made == EventTable.rows.count,
                "Sources/SubscriberKit/Subscriber: expected one witness made through a handler maker per event row (\(EventTable.rows.count)), found \(made)")
    }
}
