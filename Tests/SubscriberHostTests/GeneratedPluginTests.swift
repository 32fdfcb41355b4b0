import Dispatch
import Foundation
import Testing
@testable import SubscriberHost
import SubscriberKit
import GeneratedPlugin

@MainActor
@Suite("A plugin generated from the table: every event, every family, through the SDK and the host")
struct GeneratedPluginTests {
    @Test func aSubscriberAdoptingEveryProtocolRespondsToEveryEventThroughTheCABI() async throws {
        let library = try GeneratedPlugin.library()

        let image = try PluginLoader(allowWritable: true).loadImage(at: library)
        let sink = HostLogRecorder()
        let subscriber = try CSubscriber(creating: "EveryEvent", from: image.descriptor,
                                         context: sink.context(for: "EveryEvent", application: testApplication))
        defer { subscriber.destroy() }
        #expect(subscriber.speaksExtensions)
        // Every entry of every family is set: the witnesses, the vtables and get_extension agree.
        #expect(subscriber.respondingEvents == LifecycleEvent.allCases)

        // Each entry, called with its row's canonical input, reaches the subscriber's method and
        // comes back with what it answered: no opinion, or a declined completion.
        let solo = Solo(subscriber)
        for row in EventTable.rows {
            for call in row.canonicalCalls {
                let outcome = await solo.deliver(call)
                switch row.timing {
                case .notification:
                    #expect(outcome.answerNames == ["EveryEvent"], "\(row.name) was called")
                case .immediate, .restoration:
                    #expect(outcome.answers.count == 1 && outcome.answers[0].answer == nil, "\(row.name): no opinion")
                case .completion:
                    #expect(outcome.answers.isEmpty, "\(row.name): declined, so no answer row")
                }
                #expect(outcome.reports.isEmpty, "\(row.name): \(outcome.reports)")
            }
        }
        #expect(sink.drain().filter { $0.level >= .warning }.isEmpty)
    }
}
