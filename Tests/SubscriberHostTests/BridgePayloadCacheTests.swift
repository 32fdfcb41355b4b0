import Foundation
import SubscriberABI
import Testing
@testable import SubscriberHost
@testable import SubscriberKit
@testable import SubscriberEventModel

@MainActor
@Suite("Bridge payloads: encoded once per event, decoded once per serial", .timeLimit(.minutes(10)))
struct BridgePayloadCacheTests {
    // These tests are synchronous: on the main actor nothing else runs between their calls, so the
    // image's decode cache is theirs for the duration.

    @Test func theSubscribersOfOneEventShareItsPayloadAndSerial() throws {
        let context = bridgeContext("sparse", sink: RecordingSink())
        let first = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "sparse", context: context))
        let second = try #require(CSubscriber(descriptor: HandBuilt.descriptor, name: "sparse", context: context))
        defer { first.destroy(); second.destroy() }
        var registrations = [SubscriberRegistration(first), SubscriberRegistration(second)]
        registrations[1].name = "sparse2"
        let dispatcher = LifecycleDispatcher(subscribers: registrations,
                                             configuration: DispatchConfiguration(application: bridgeTestApplication),
                                             state: ApplicationStateCell(), enforcesApplicationState: false)
        let url = URL(string: "news://serial/\(UUID().uuidString)")!
        let start = HandBuilt.serials.count
        dispatcher.dispatchAtOnce(.openURL(url: url))
        dispatcher.dispatchAtOnce(.openURL(url: url))
        let serials = Array(HandBuilt.serials[start...])
        try #require(serials.count == 4)
        #expect(serials[0] == serials[1] && serials[2] == serials[3], "one payload per event")
        #expect(serials[0] != serials[2], "each event its own serial, even with equal arguments")
        #expect(serials.allSatisfy { $0 != 0 })
    }

    @Test func manySubscribersInOneImageDecodeAPayloadOnce() throws {
        let sink = RecordingSink()
        let adapters = try (0..<5).map { _ in try bridged(Oracle.self, sink: sink) }
        defer { adapters.forEach { $0.destroy() } }
        let dispatcher = LifecycleDispatcher(
            subscribers: adapters.enumerated().map { index, adapter in
                var registration = SubscriberRegistration(adapter)
                registration.name = "Oracle\(index)"
                return registration
            },
            configuration: DispatchConfiguration(application: bridgeTestApplication), state: ApplicationStateCell(),
            enforcesApplicationState: false)
        let url = URL(string: "news://decode-once/\(UUID().uuidString)")!
        let decodes = DecodeCache.shared.decodeCount
        #expect(dispatcher.dispatchAtOnce(.openURL(url: url)).result == true)
        #expect(DecodeCache.shared.decodeCount == decodes + 1)
        #expect(sink.lines.filter { $0.hasSuffix("open \(url.absoluteString) {}") }.count == 5)
        // The next event: decoded again, once.
        #expect(dispatcher.dispatchAtOnce(.openURL(url: url)).result == true)
        #expect(DecodeCache.shared.decodeCount == decodes + 2)
    }

    @Test func aCallOnAnotherDispatcherDuringADispatchGetsItsOwnArguments() throws {
        let sink = RecordingSink()
        let adapter = try bridged(Oracle.self, sink: sink)
        defer { adapter.destroy() }
        let event = URL(string: "news://during/event-\(UUID().uuidString)")!
        let direct = URL(string: "news://during/direct-\(UUID().uuidString)")!
        let meddler = Meddler(adapter: adapter, url: direct)
        let dispatcher = LifecycleDispatcher(
            subscribers: [SubscriberRegistration(adapter), SubscriberRegistration(name: "Meddler", subscriber: meddler)],
            configuration: DispatchConfiguration(application: bridgeTestApplication), state: ApplicationStateCell(),
            enforcesApplicationState: false)
        #expect(dispatcher.dispatchAtOnce(.openURL(url: event)).answers.count == 2)
        let opened = sink.lines.filter { $0.contains("open news://during/") }
        #expect(opened == ["[Oracle] info: open \(event.absoluteString) {}", "[Oracle] info: open \(direct.absoluteString) {}"])
    }
}

extension BridgePayloadCacheTests {
    /// A subscriber served the cached payload borrows it: a call of the same event with another
    /// payload made from inside its call (a nested dispatch) decodes its own and leaves the cached
    /// one alone (its subscriber still reads it, and the event's later subscribers are served it).
    @Test func aNestedCallWithAnotherPayloadLeavesTheBorrowedOneAlone() throws {
        let sink = RecordingSink()
        let first = try bridged(Oracle.self, sink: sink), nester = try bridged(Nester.self, sink: sink)
        let last = try bridged(Oracle.self, sink: sink), other = try bridged(Oracle.self, sink: sink)
        defer { [first, nester, last, other].forEach { $0.destroy() } }
        var registrations = [SubscriberRegistration(first), SubscriberRegistration(nester), SubscriberRegistration(last)]
        registrations[2].name = "Oracle2"
        let dispatcher = LifecycleDispatcher(
            subscribers: registrations, configuration: DispatchConfiguration(application: bridgeTestApplication),
            state: ApplicationStateCell(), enforcesApplicationState: false)
        let event = URL(string: "news://nested/event-\(UUID().uuidString)")!
        let nested = URL(string: "news://nested/inner-\(UUID().uuidString)")!
        Nester.during = { _ = Solo(other).answer(.openURL(url: nested)) }
        defer { Nester.during = nil }
        let decodes = DecodeCache.shared.decodeCount
        #expect(dispatcher.dispatchAtOnce(.openURL(url: event)).answers.count == 3)
        // The first Oracle decoded the event's payload, Nester and the last were served it from the
        // cache, the nested call decoded its own (and did not take the event's place in the cache).
        #expect(DecodeCache.shared.decodeCount == decodes + 2)
        #expect(sink.lines.filter { $0.contains("news://nested/") } == [
            "[Oracle] info: open \(event.absoluteString) {}", "[Nester] info: open \(event.absoluteString)",
            "[Oracle] info: open \(nested.absoluteString) {}", "[Nester] info: still \(event.absoluteString)",
            "[Oracle] info: open \(event.absoluteString) {}",
        ])
    }
}

/// An in-process subscriber that, on openURL, sends a C subscriber an openURL of its own through
/// another dispatcher, in the middle of a dispatch.
@MainActor
final class Meddler: AppDelegateSubscriber, OpenURLSubscriber {
    let adapter: CSubscriber
    let url: URL

    init(adapter: CSubscriber, url: URL) {
        self.adapter = adapter
        self.url = url
    }

    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        Solo(adapter).answer(.openURL(url: self.url)) as? Bool
    }
}
