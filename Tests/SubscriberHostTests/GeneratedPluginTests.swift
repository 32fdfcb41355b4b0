import Dispatch
import Foundation
import Testing
@testable import SubscriberHost
import SubscriberKit
import GeneratedPlugin

@MainActor
@Suite("A plugin generated from the table: every event, every family, through the SDK and the host")
struct GeneratedPluginTests {
    /// Both ways a Swift plugin gets the SDK: carrying its objects (this package's plugins), and
    /// linking the shared `libSubscriberKit.so` that the host provides (plugins of other packages).
    @Test(arguments: [GeneratedPlugin.SDKLinking.objects, .sharedLibrary])
    func aSubscriberAdoptingEveryProtocolRespondsToEveryEventThroughTheCABI(sdk: GeneratedPlugin.SDKLinking) async throws {
        // Each row's entry reaches that row's method: checked below by what each method logs and answers.
        let library = try await GeneratedPlugin.library(sdk: sdk)

        let image = try PluginLoader(allowWritable: true).loadImage(at: library)
        let sink = HostLogRecorder()
        let subscriber = try CSubscriber(creating: "EveryEvent", from: image.descriptor,
                                         context: sink.context(for: "EveryEvent", application: testApplication))
        defer { subscriber.destroy() }
        #expect(subscriber.speaksExtensions)
        // Every entry of every family is set: the witnesses, the vtables and get_extension agree.
        #expect(subscriber.respondingEvents == LifecycleEvent.allCases)

        // Each entry, called with its row's canonical input, reaches its own event's method — which
        // logs its event's wire name — and comes back with what that method answered (made from its
        // event's index and name): a row wired to another event's method logs and answers that one's.
        let solo = Solo(subscriber)
        _ = sink.drain()
        for row in EventTable.rows {
            let (immediate, completion) = GeneratedPlugin.answers(of: row)
            for call in row.canonicalCalls {
                let outcome = await solo.deliver(call)
                #expect(sink.drain().map(\.message) == [row.name], "\(row.name) reached its own method")
                #expect(outcome.answerNames == ["EveryEvent"], "\(row.name) was answered")
                let answer = outcome.answers.first?.answer
                switch row.timing {
                case .notification:
                    #expect(answer == nil, "\(row.name): nothing to answer")
                case .immediate:
                    let expected = try #require(immediate, "\(row.name): the generated method answers")
                    #expect(answer.map { row.json(answer: $0) } == row.json(answer: expected), "\(row.name): its own answer")
                case .restoration:
                    // Handled, and its restoration handler called with its own list.
                    let list = try #require(completion as? [String], "\(row.name): the generated method restores")
                    let expected = JSONValue.object(["handled": .bool(true), "restorableObjects": .array(list.map { .string($0) })])
                    #expect(answer.map { row.json(answer: $0) } == expected, "\(row.name): its own answer and list")
                case .completion:
                    let expected = try #require(completion, "\(row.name): the generated method completes")
                    #expect(answer.map { row.json(answer: $0) } == row.json(answer: expected), "\(row.name): its own completion")
                }
                #expect(outcome.reports.isEmpty, "\(row.name): \(outcome.reports)")
            }
        }
        #expect(sink.drain().filter { $0.level >= .warning }.isEmpty)
    }
}
