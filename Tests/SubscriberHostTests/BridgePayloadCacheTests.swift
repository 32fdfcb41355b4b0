import Foundation
import SubscriberABI
import Testing
@testable import SubscriberHost
@testable import SubscriberKit

@MainActor
@Suite("Bridge payloads: encoded once per value, decoded once per serial", .timeLimit(.minutes(1)))
struct BridgePayloadCacheTests {
    // These tests are synchronous: on the main actor nothing else runs between their calls, so the
    // shared caches are theirs for the duration.

    @Test func equalPayloadsShareTheirBytesAndSerial() throws {
        let context = bridgeContext("sparse", sink: RecordingSink())
        let first = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "sparse", context: context))
        let second = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "sparse", context: context))
        defer { first.destroy(); second.destroy() }
        let app = bridgeTestApplication
        let url = URL(string: "news://serial/\(UUID().uuidString)")!
        let other = URL(string: "news://serial/other-\(UUID().uuidString)")!
        let encodes = PayloadEncodeCache.shared.encodeCount
        let start = HandBuilt.serials.count

        let (firstHandlers, secondHandlers) = (SubscriberHandlers(first), SubscriberHandlers(second))
        _ = firstHandlers.ask(.openURL(url: url), app)
        _ = secondHandlers.ask(.openURL(url: url), app)
        _ = firstHandlers.ask(.openURL(url: other), app)
        _ = secondHandlers.ask(.openURL(url: other), app)
        _ = firstHandlers.ask(.openURL(url: other, options: OpenURLOptions(openInPlace: true)), app)

        let serials = Array(HandBuilt.serials[start...])
        try #require(serials.count == 5)
        #expect(serials[0] == serials[1])
        #expect(serials[2] == serials[3])
        #expect(Set([serials[0], serials[2], serials[4]]).count == 3)
        #expect(serials.allSatisfy { $0 != 0 })
        #expect(PayloadEncodeCache.shared.encodeCount == encodes + 3)
    }

    @Test func manySubscribersInOneImageDecodeAPayloadOnce() throws {
        let sink = RecordingSink()
        let adapters = try (0..<5).map { _ in try bridged(Oracle.self, sink: sink) }
        defer { adapters.forEach { $0.destroy() } }
        let url = URL(string: "news://decode-once/\(UUID().uuidString)")!
        let decodes = PayloadDecodeCache.shared.decodeCount
        let encodes = PayloadEncodeCache.shared.encodeCount
        for adapter in adapters {
            #expect(SubscriberHandlers(adapter).ask(.openURL(url: url)) == true)
        }
        #expect(PayloadDecodeCache.shared.decodeCount == decodes + 1)
        #expect(PayloadEncodeCache.shared.encodeCount == encodes + 1)
        #expect(sink.lines.filter { $0.hasSuffix("open \(url.absoluteString) {}") }.count == 5)
    }

    @Test func aDirectCallDuringADispatchGetsItsOwnArgumentsNotTheEvents() throws {
        let sink = RecordingSink()
        let adapter = try bridged(Oracle.self, sink: sink)
        defer { adapter.destroy() }
        let event = URL(string: "news://during/event-\(UUID().uuidString)")!
        let direct = URL(string: "news://during/direct-\(UUID().uuidString)")!
        let meddler = Meddler(adapter: adapter, url: direct)
        let dispatcher = LifecycleDispatcher(
            subscribers: [SubscriberRegistration(adapter),
                          SubscriberRegistration(name: "Meddler", subscriber: meddler)],
            configuration: DispatchConfiguration(application: bridgeTestApplication))
        #expect(dispatcher.dispatchAtOnce(.openURL(url: event))!.answers.count == 2)
        let opened = sink.lines.filter { $0.contains("open news://during/") }
        #expect(opened == ["[Oracle] info: open \(event.absoluteString) {}", "[Oracle] info: open \(direct.absoluteString) {}"])
    }

    @Test func aDispatchedEventEncodesOncePerEventAndDirectCallsStillCompareValues() throws {
        let sink = RecordingSink()
        let adapters = try (0..<3).map { _ in try bridged(Oracle.self, sink: sink) }
        defer { adapters.forEach { $0.destroy() } }
        let dispatcher = LifecycleDispatcher(
            subscribers: adapters.enumerated().map { index, adapter in
                var registration = SubscriberRegistration(adapter)
                registration.name = "Oracle\(index)"
                return registration
            },
            configuration: DispatchConfiguration(application: bridgeTestApplication))
        let first = URL(string: "news://event-scope/\(UUID().uuidString)")!
        let second = URL(string: "news://event-scope/second-\(UUID().uuidString)")!
        let encodes = PayloadEncodeCache.shared.encodeCount

        #expect(dispatcher.dispatchAtOnce(.openURL(url: first))!.answers.count == 3)
        #expect(PayloadEncodeCache.shared.encodeCount == encodes + 1)
        #expect(dispatcher.dispatchAtOnce(.openURL(url: second))!.answers.count == 3)
        #expect(PayloadEncodeCache.shared.encodeCount == encodes + 2)
        // A direct call: the cached payload (second) is compared with the value, not trusted.
        #expect(SubscriberHandlers(adapters[0]).ask(.openURL(url: first)) == true)
        #expect(PayloadEncodeCache.shared.encodeCount == encodes + 3)
        let opened = sink.lines.filter { $0.contains("open news://event-scope/") }
        #expect(opened.filter { $0.contains(first.absoluteString) }.count == 4)
        #expect(opened.filter { $0.contains(second.absoluteString) }.count == 3)
    }
}

/// An in-process subscriber that, on openURL, calls a C subscriber's openURL handler directly with
/// another URL, in the middle of a dispatch.
@MainActor
final class Meddler: AppDelegateSubscriber, OpenURLSubscriber {
    let adapter: CSubscriber
    let url: URL

    init(adapter: CSubscriber, url: URL) {
        self.adapter = adapter
        self.url = url
    }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        SubscriberHandlers(adapter).ask(.openURL(url: self.url), application)
    }
}
