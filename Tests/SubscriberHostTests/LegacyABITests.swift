import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// A plugin built for ABI 1.0 in a host of the current ABI: LegacyABI10 (Plugins/Fixtures), compiled
/// against the frozen 1.0 headers only, loads through a manifest beside a current plugin (QuietHours),
/// answers what it implements and is never asked for an extension: right past its 1.0 struct, where
/// `get_extension` now lives, it keeps a tripwire that logs an error if called.
@MainActor
@Suite("Legacy ABI 1.0 plugin in the current host", .serialized)
struct LegacyABITests {
    static let fixtures = IntegrationTests.packageRoot + "/Plugins/Fixtures"
    static let tripwire = "get_extension called past struct_size"

    /// The frozen headers, as released at commit bcad813 (`git show bcad813:Sources/SubscriberABI/include/…`).
    static let frozenHeaders: [String: String] = [
        "SubscriberABI.h": "5eb52886c2277c533c659a8b3672d63e6f522293411cd964741b1d96f16c5305",
        "adh/completion.h": "7b492c398961426787b555db66d35222fc028afaa7c34ea0a6e7bc880f690b58",
        "adh/host.h": "eb494c519a56f38aeac7924a27b294b39e5c92c6a62255c7001c12fc193162fd",
        "adh/payloads.h": "582ebb6696d7697dc5b4cd1bef283c4ad8aef3836b83ba3214658a7b337d199a",
        "adh/plugin.h": "f12bee4136552a699a847470df090a1e2fd1e2cefc075e2160ae4f33ac684407",
        "adh/subscriber.h": "4fb045ab6d2596a703a9ec913a730313f884724471d590b3db8da220e3fe134d",
        "adh/types.h": "33723f555f03bcf10dba942e004ef66b5c4bc7e4e90624d87564a7aec16e9eff",
        "adh/version.h": "c3614d5a3db45b973b010d509ae2e8783a1361506b53dc585704e9e83524379f",
    ]

    /// A host over LegacyABI10 and QuietHours (quiet), launched and active, every record collected.
    func loadBoth() throws -> (PluginHost, LogCollector) {
        let (host, logs) = try loadHost(manifest: """
            {"app": {"name": "Old and New", "bundleIdentifier": "com.example.old-and-new"},
             "plugins": [{"library": "LegacyABI10"}, {"library": "QuietHours", "options": {"quietHours": true}}]}
            """)
        host.launch()
        return (host, logs)
    }

    @Test("the frozen ABI 1.0 headers are the released ones, byte for byte, and nothing was added")
    func frozenHeadersUnchanged() throws {
        let root = Self.fixtures + "/ABI-1.0/include"
        let files = try #require(FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String })
        #expect(Set(files.filter { $0.hasSuffix(".h") }) == Set(Self.frozenHeaders.keys))
        for (file, digest) in Self.frozenHeaders {
            #expect(try SHA256.hash(fileAtPath: root + "/" + file) == SHA256Digest(hex: digest),
                    "\(file) was edited: the frozen copy must stay as released")
        }
    }

    @Test("it loads through a manifest as ABI 1.0, beside a plugin of the current ABI")
    func loadsAsOneZero() throws {
        let (host, _) = try loadBoth()
        defer { host.shutDown() }
        let images = host.plugins.plugins.map(\.image)
        #expect(images.map(\.name) == ["LegacyABI10", "QuietHours"])
        #expect(images.map { "\($0.abiMajor).\($0.abiMinor)" } == ["1.0", "\(ABI.major).\(ABI.minor)"])
        #expect(images.allSatisfy { $0.isCPlugin })
    }

    @Test("its subscriber is a 1.0 struct: the events it implements, no extension, get_extension never read")
    func respondingEvents() throws {
        let (host, logs) = try loadBoth()
        defer { host.shutDown() }
        let legacy = try #require(host.subscribers.first { $0.name == "LegacyABI10" })
        #expect(Int(legacy.me.pointee.struct_size) == MemoryLayout<adh_subscriber>.offset(of: \.get_extension)!)
        #expect(!legacy.speaksExtensions)
        #expect(legacy.respondingEvents == LifecycleEvent.allCases.filter { [.didBecomeActive, .openURL, .performFetch].contains($0) })
        let current = try #require(host.subscribers.first { $0.name == "QuietHours" })
        #expect(current.speaksExtensions)
        #expect(current.respondingEvents == EventFamily.notificationCenter.events)
        // Asked once, at creation: the tripwire would have logged then.
        #expect(!logs.all.contains { $0.message.contains(Self.tripwire) }, "\(logs.all)")
    }

    @Test("it answers: its log line (with the host's version), openURL for its scheme, fetch with newData")
    func answers() async throws {
        let (host, logs) = try loadBoth()
        defer { host.shutDown() }
        #expect(logs.all.filter { $0.subscriber == "LegacyABI10" }.map(\.message)
                == ["active; host speaks ABI \(ABI.major).\(ABI.minor)"])
        let mine = host.dispatchAtOnce(.openURL(url: URL(string: "legacy:open/1")!))
        #expect(mine.result == true)
        #expect(mine.answers.map(\.subscriber) == ["LegacyABI10"] && mine.answers(as: Bool.self) == [true])
        let other = host.dispatchAtOnce(.openURL(url: URL(string: "news://article/1")!))
        #expect(other.answers(as: Bool.self) == [nil])
        let fetch = await host.dispatch(.performFetch)
        #expect(fetch.result == .newData)
        #expect(fetch.answers.map(\.subscriber) == ["LegacyABI10"])
        #expect(fetch.reports.isEmpty)
    }

    @Test("every notification-center event reaches the 1.1 plugin only; nothing crashes, the tripwire stays silent")
    func notificationCenterEventsSkipIt() async throws {
        let (host, logs) = try loadBoth()
        defer { host.shutDown() }
        let calls = EventFamily.notificationCenter.events.flatMap(\.row.canonicalCalls)
        #expect(Set(calls.map(\.event)) == Set(EventFamily.notificationCenter.events))
        for call in calls {
            #expect(!host.dispatcher.responderNames(for: call.event).contains("LegacyABI10"))
            let outcome = await host.dispatcher.dispatch(call)
            #expect(outcome.answers.map(\.subscriber).allSatisfy { $0 == "QuietHours" }, "\(call.event)")
            #expect(outcome.reports.isEmpty, "\(call.event): \(outcome.reports)")
        }
        #expect(logs.all.filter { $0.subscriber == "LegacyABI10" && $0.level >= .warning }.isEmpty,
                "\(logs.all)")
        // It still answers after them.
        #expect(host.dispatchAtOnce(.openURL(url: URL(string: "legacy:again")!)).result == true)
    }
}
