import Foundation
import Glibc
import SubscriberABI
import Testing
@testable import SubscriberKit
@testable import SubscriberEventModel

/// Answers openURL with whether the URL's host is "yes"; names its options in configurationForConnecting.
/// Adopts exactly those two event protocols.
private final class Echo: InstantiableSubscriber, OpenURLSubscriber, ConfigurationForConnectingSubscriber {
    static let subscriberName = "Echo"
    let context: SubscriberContext
    init(context: SubscriberContext) { self.context = context }
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? {
        url.host == "yes"
    }
    func application(_ application: Application, configurationForConnecting sceneRole: String) -> String? {
        "\(sceneRole) \(context.options) \(application.name)"
    }
}

/// Opens URLs and presents notifications: one event of each family.
private final class Presenter: InstantiableSubscriber, OpenURLSubscriber, WillPresentNotificationSubscriber {
    init(context: SubscriberContext) {}
    func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { nil }
    func userNotificationCenter(_ application: Application, willPresent notification: UserNotification,
                                withCompletionHandler completionHandler: CompletionHandler<NotificationPresentationOptions>) {
        completionHandler([.banner])
    }
}

/// Answers performFetch with a result per depth: the first call (depth 0) first calls the same
/// entry of its own subscriber again (a nested call of the same event, as a host dispatching from
/// inside a subscriber's method would), then answers; the nested call answers at once.
private final class Refetcher: InstantiableSubscriber, PerformFetchSubscriber {
    static let subscriberName = "Refetcher"
    static var me: UnsafePointer<adh_subscriber>?
    static var depth = 0
    init(context: SubscriberContext) {}
    func application(_ application: Application,
                     performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        guard Refetcher.depth == 0, let me = Refetcher.me else { return completionHandler(.noData) }
        Refetcher.depth += 1
        _ = me.pointee.perform_fetch!(me, FetchCalls.completion(context: 2))
        Refetcher.depth -= 1
        completionHandler(.newData)
    }
}

/// What the C completions of `Refetcher`'s calls received: (context, result), in order.
@MainActor
private enum FetchCalls {
    static var calls: [String] = []
    static func completion(context: Int) -> adh_fetch_completion {
        adh_fetch_completion(call: { context, result in
            let line = "\(Int(bitPattern: context)): \(result)"
            MainActor.assumeIsolated { FetchCalls.calls.append(line) }
        }, context: UnsafeMutableRawPointer(bitPattern: context))
    }
}

final class Other: InstantiableSubscriber {
    init(context: SubscriberContext) {}
}

/// The base-class style: the subclass declares the subscriber protocol and one event protocol itself.
private final class BaseActive: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber {
    func applicationDidBecomeActive(_ application: Application) { log("active in \(application.name)") }
}

/// Has the didBecomeActive method, word for word, but does not adopt its protocol: not a handler.
private final class Lookalike: InstantiableSubscriber {
    init(context: SubscriberContext) {}
    func applicationDidBecomeActive(_ application: Application) {}
}

/// A host written by hand: static app info and options, log lines kept in `lines`.
@MainActor
private enum TestHost {
    static var lines: [String] = []
    static var appInfo = ABIBytes("{\"name\":\"News\",\"bundleIdentifier\":\"b\",\"version\":\"2\"}")
    static var options = ABIBytes("{\"k\":1}")

    static let host: UnsafePointer<adh_host> = {
        let host = UnsafeMutablePointer<adh_host>.allocate(capacity: 1)
        host.initialize(to: adh_host(
            struct_size: UInt32(MemoryLayout<adh_host>.size), abi_major: 1, abi_minor: 0, host_data: nil,
            log: { _, level, message in
                let line = "\(level) \(message.string ?? "")"
                MainActor.assumeIsolated { TestHost.lines.append(line) }
            },
            log_event: { _, _, _ in }, log_error: { _, _, _ in },
            app_info_json: { _ in MainActor.assumeIsolated { UncheckedSendable(TestHost.appInfo.string) }.value },
            options_json: { _ in MainActor.assumeIsolated { UncheckedSendable(TestHost.options.string) }.value },
            get_extension: { _, _ in nil }))
        return UnsafePointer(host)
    }()
}

@MainActor
private func descriptor(_ id: String = "com.example.export-tests",
                        _ subscribers: [any InstantiableSubscriber.Type] = [Echo.self, Other.self])
    -> UnsafePointer<adh_plugin_descriptor>
{
    SubscriberPlugin.export(id: id, name: "Export tests", version: "0.1", subscribers: subscribers)
        .assumingMemoryBound(to: adh_plugin_descriptor.self)
}

@MainActor
private func make(_ name: String, in descriptor: UnsafePointer<adh_plugin_descriptor> = descriptor())
    -> UnsafePointer<adh_subscriber>?
{
    name.withCString { descriptor.pointee.create!($0, TestHost.host) }
}

/// The entries a subscriber struct has, by the names its family's header gives them, read through
/// the event rows as a host reads them (extensions through `get_extension`), in table order.
enum Entries {
    static func filled(in subscriber: UnsafePointer<adh_subscriber>) -> [String] {
        let vtable = ABI.readCovered(subscriber)
        return EventTable.rows.filter { row in
            guard let id = row.family.extensionID else { return row.entry(in: subscriber) != nil }
            guard let familyVTable = vtable.get_extension?(subscriber, id) else { return false }
            return row.entry(in: familyVTable) != nil
        }.map(\.cSlot)
    }
}

@MainActor
@Suite("Plugin exporter")
struct ExportTests {
    @Test func theDescriptorIsBuiltOncePerIDAndDescribesThePlugin() {
        let plugin = descriptor()
        #expect(plugin == descriptor())
        let d = plugin.pointee
        #expect(d.struct_size == 80)
        #expect(d.abi_major == UInt32(ADH_ABI_MAJOR) && d.abi_minor == UInt32(ADH_ABI_MINOR))
        #expect(String(cString: d.id) == "com.example.export-tests")
        #expect(String(cString: d.name) == "Export tests")
        #expect(String(cString: d.version) == "0.1")
        #expect(String(cString: d.vendor) == "")
        #expect(String(cString: d.swift_version) == SubscriberPlugin.swiftCompilerVersion)
        let names = (0..<Int(d.subscriber_count)).map { String(cString: d.subscriber_names[$0]!) }
        #expect(names == ["Echo", "Other"])
    }

    @Test func theCompilerVersionIsMajorDotMinor() {
        #if compiler(>=6.3) && !compiler(>=6.4)
        #expect(SubscriberPlugin.swiftCompilerVersion == "6.3")
        #endif
        #expect(SubscriberPlugin.swiftCompilerVersion.split(separator: ".").map { Int($0) != nil } == [true, true])
        #expect(SubscriberPlugin.entrySymbol == "adh_plugin_entry")
    }

    @Test func createMakesOnlyListedNames() throws {
        #expect(make("Nobody") == nil)
        #expect(descriptor().pointee.create!(nil, TestHost.host) == nil)
        #expect("Echo".withCString { descriptor().pointee.create!($0, nil) } == nil)
        // Another descriptor of the same image does not make this one's subscribers.
        let elsewhere = descriptor("com.example.export-tests.other", [Other.self])
        #expect(make("Echo", in: elsewhere) == nil)

        let echo = try #require(make("Echo"))
        defer { echo.pointee.destroy!(echo) }
        #expect(echo.pointee.struct_size == UInt32(MemoryLayout<adh_subscriber>.size))
    }

    @Test func aTypeAdoptingTwoEventProtocolsGetsExactlyThoseTwoEntries() throws {
        let echo = try #require(make("Echo"))
        defer { echo.pointee.destroy!(echo) }
        #expect(echo.pointee.instance != nil && echo.pointee.destroy != nil)
        #expect(Entries.filled(in: echo) == ["open_url", "configuration_for_connecting"])
    }

    @Test func aBaseClassSubclassGetsTheEntryOfTheProtocolItDeclares() throws {
        let plugin = descriptor("com.example.export-tests.base", [BaseActive.self, Lookalike.self])
        let active = try #require(make("BaseActive", in: plugin))
        defer { active.pointee.destroy!(active) }
        #expect(Entries.filled(in: active) == ["did_become_active"])
        TestHost.lines = []
        active.pointee.did_become_active!(active)
        #expect(TestHost.lines == ["2 active in News"])
    }

    @Test func aTypeInTwoFamiliesGetsTheCoreEntryAndOneExtensionWithItsEntry() throws {
        let plugin = descriptor("com.example.export-tests.families", [Presenter.self])
        let presenter = try #require(make("Presenter", in: plugin))
        defer { presenter.pointee.destroy!(presenter) }
        #expect(Entries.filled(in: presenter) == ["open_url", "will_present"])
        let vtable = presenter.pointee
        let center = try #require(vtable.get_extension?(presenter, ADH_EXT_NOTIFICATION_CENTER))
        #expect(center.load(as: UInt32.self) == UInt32(MemoryLayout<adh_notification_center>.size))
        // The same pointer each time, as the host may keep it; NULL for an id it does not implement.
        #expect(vtable.get_extension?(presenter, ADH_EXT_NOTIFICATION_CENTER) == center)
        #expect(vtable.get_extension?(presenter, "adh.notification-center/2") == nil)
        #expect(vtable.get_extension?(presenter, "adh.unknown/1") == nil)
        #expect(vtable.get_extension?(presenter, nil) == nil)
    }

    @Test func aTypeInOneFamilyHasNoExtensionVTable() throws {
        let echo = try #require(make("Echo"))
        defer { echo.pointee.destroy!(echo) }
        #expect(echo.pointee.get_extension?(echo, ADH_EXT_NOTIFICATION_CENTER) == nil)
    }

    @Test func aSameNamedMethodWithoutTheProtocolGetsNoEntry() throws {
        // The limit of the design: without the protocol, the method is invisible to the SDK. The
        // conformance kit's symbol check is what tells such an author.
        let plugin = descriptor("com.example.export-tests.base", [BaseActive.self, Lookalike.self])
        let lookalike = try #require(make("Lookalike", in: plugin))
        defer { lookalike.pointee.destroy!(lookalike) }
        #expect(Entries.filled(in: lookalike) == [])
        #expect(Lookalike(context: SubscriberContext.forTests).eventHandlers().allSatisfy { $0 == nil })
    }

    @Test func theSubscriberGetsAppInfoOptionsAndItsConfigurationBytesStay() throws {
        let echo = try #require(make("Echo"))
        defer { echo.pointee.destroy!(echo) }
        let answer = withABIString("main") { echo.pointee.configuration_for_connecting!(echo, $0) }
        #expect(answer.string == "main {\"k\":1} News")
    }

    @Test func aPayloadIsDecodedOncePerSerial() throws {
        let subscribers = try (0..<3).map { _ in try #require(make("Echo")) }
        defer { subscribers.forEach { $0.pointee.destroy!($0) } }
        func open(_ url: String, serial: UInt64) -> [adh_tristate] {
            withABIString(url) { url in
                var request = adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: serial, url: url,
                                           source_application: .absent, annotation_json: .absent, open_in_place: 0, event_attribution_json: .absent)
                return subscribers.map { $0.pointee.open_url!($0, &request) }
            }
        }
        let serial = UInt64.max - UInt64(UInt32.random(in: 0..<UInt32.max))
        let before = DecodeCache.shared.decodeCount
        #expect(open("news://yes", serial: serial) == [1, 1, 1])
        #expect(DecodeCache.shared.decodeCount == before + 1)
        #expect(open("news://no", serial: serial - 1) == [0, 0, 0])
        #expect(DecodeCache.shared.decodeCount == before + 2)
        // Serial 0 means "not numbered": never cached.
        #expect(open("news://yes", serial: 0) == [1, 1, 1])
        #expect(DecodeCache.shared.decodeCount == before + 5)
    }

    @Test func aNestedCallOfTheSameEventAnswersThroughItsOwnCompletion() throws {
        let fetcher = try #require(make("Refetcher", in: descriptor("com.example.export-tests.refetch", [Refetcher.self])))
        defer { fetcher.pointee.destroy!(fetcher) }
        Refetcher.me = fetcher
        FetchCalls.calls = []
        // Twice: the second outer call reuses the receivers the first one left.
        for _ in 0..<2 {
            #expect(fetcher.pointee.perform_fetch!(fetcher, FetchCalls.completion(context: 1)) == adh_response(ADH_RESPONDS))
        }
        // The nested call's answer went to its own completion, the outer one's to the outer's.
        #expect(FetchCalls.calls == ["2: 1", "1: 0", "2: 1", "1: 0"])
    }

    @Test func badHostJSONAndBadURLsAreReportedNotFatal() throws {
        TestHost.options = ABIBytes("{oops")
        defer { TestHost.options = ABIBytes("{\"k\":1}") }
        TestHost.lines = []
        let echo = try #require(make("Echo"))
        defer { echo.pointee.destroy!(echo) }
        let answer = withABIString("not a url") { url in
            var request = adh_open_url(struct_size: UInt32(MemoryLayout<adh_open_url>.size), serial: 0, url: url,
                                       source_application: .absent, annotation_json: .absent, open_in_place: 0, event_attribution_json: .absent)
            return echo.pointee.open_url!(echo, &request)
        }
        #expect(answer == -1)
        #expect(TestHost.lines.count == 2)
        #expect(TestHost.lines.first?.hasPrefix("4 Echo: the host's options_json: expected JSON, found invalid JSON") == true)
        #expect(TestHost.lines.last == "4 Echo: openURL: expected an absolute URL, found \"not a url\"; not delivered (no opinion)")
    }
}

// The export line exactly as a plugin author writes it (under another symbol name: the test
// executable is not a plugin). It must compile in Swift 6 mode, outside any actor.
@_cdecl("export_tests_plugin_entry")
public func exportTestsPluginEntry() -> UnsafeRawPointer {
    SubscriberPlugin.export(id: "com.example.export-tests.entry", name: "Entry", version: "1.0",
                            subscribers: [Other.self])
}

@Suite("Plugin entry line")
struct PluginEntryLineTests {
    @Test @MainActor func theEntryReturnsTheSameDescriptorEveryTime() {
        let first = exportTestsPluginEntry()
        #expect(first == exportTestsPluginEntry())
        let descriptor = first.assumingMemoryBound(to: adh_plugin_descriptor.self).pointee
        #expect(String(cString: descriptor.id) == "com.example.export-tests.entry")
        #expect(descriptor.subscriber_count == 1)
    }
}
