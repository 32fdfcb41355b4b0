import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The test plugin: this test image's own subscribers, exported through SubscriberPlugin.export
/// exactly as a plugin's entry function would (no dlopen: both sides live in this image, but every
/// call still crosses the C vtable).
@MainActor
func bridgeTestDescriptor() -> UnsafePointer<adh_plugin_descriptor> {
    SubscriberPlugin.export(id: "com.example.bridge-tests", name: "Bridge tests", version: "1.0",
                            vendor: "AppDelegateHost", subscribers: bridgeTestSubscriberTypes)
        .assumingMemoryBound(to: adh_plugin_descriptor.self)
}

/// `type` made through the test plugin and wrapped in a CSubscriber.
@MainActor
func bridged(_ type: any InstantiableSubscriber.Type, sink: RecordingSink,
             options: JSONValue = bridgeTestOptions) throws -> CSubscriber {
    try #require(CSubscriber(descriptor: bridgeTestDescriptor(), name: type.subscriberName,
                             context: bridgeContext(type.subscriberName, sink: sink, options: options)))
}

@MainActor
@Suite("Bridge round trip: direct and through C give the same answers", .timeLimit(.minutes(10)))
struct BridgeRoundTripTests {
    /// The script's lines and the sink's lines for `type`, used directly and through C.
    private func both(_ type: any ScriptedSubscriber.Type) async throws
        -> (direct: [String], bridged: [String], directLog: [String], bridgedLog: [String])
    {
        let directSink = RecordingSink(), bridgedSink = RecordingSink()
        let direct = type.init(context: bridgeContext(type.subscriberName, sink: directSink))
        let adapter = try bridged(type, sink: bridgedSink)
        defer { adapter.destroy() }
        let directLines = await BridgeScript.run(Solo(direct, name: type.subscriberName), calls: type.callsPerCompletion)
        let bridgedLines = await BridgeScript.run(Solo(adapter), calls: type.callsPerCompletion)
        return (directLines, bridgedLines, directSink.lines, bridgedSink.lines)
    }

    @Test(arguments: ["Oracle", "Contrarian", "Bystander", "DoubleCaller"])
    func sameAnswersAndLogs(_ name: String) async throws {
        let type = try #require(bridgeTestSubscriberTypes.first { $0.subscriberName == name } as? any ScriptedSubscriber.Type)
        let run = try await both(type)
        #expect(run.bridged.count == run.direct.count)
        for (direct, bridged) in zip(run.direct, run.bridged) {
            #expect(bridged == direct)
        }
        #expect(run.bridgedLog == run.directLog)
    }

    @Test func oracleAnswersAreDistinctive() async throws {
        // Guards the round trip against passing vacuously: the script really produces these answers.
        let run = try await both(Oracle.self)
        let expected = [
            "willFinish -> true", "willFinish -> false", "willFinish -> nil",
            "didFinish -> false",
            "configuration(main) -> \"main/blue/deepLink(https://example.com/article/42?ref=mail)\"",
            "configuration(main) -> \"main/blue/notification({\\\"aps\\\":{\\\"alert\\\":\\\"Breaking\\\"},\\\"id\\\":7})\"",
            "configuration(main) -> \"main/blue/background(bluetooth)\"",
            "configuration(main) -> \"main/blue/appIconClick\"",
            "configuration(main) -> \"main/blue/unknown\"",
            "remoteNotification({\"result\":\"failed\"}) -> called \"failed\"",
            "remoteNotification({\"other\":true}) -> declined",
            "performFetch -> called \"newData\"",
            "backgroundSession(com.example.session) -> called \"done\"",
            "backgroundSession(decline) -> declined",
            "openURL(news://article/42) -> true",
            "openURL(https://example.com/%C3%A9?q=1) -> false",
            "openURL(file:///tmp/a.txt) -> nil",
            "continue(NSUserActivityTypeBrowsingWeb) -> true restored [\"https://example.com/a\",\"b\",\"a\"]",
            "continue(com.example.reading) -> true restored []",
            "continue(org.other.thing) -> false restored nothing",
            "shortcut(com.example.news.search) -> called true",
            "shortcut(com.example.news.compose) -> called false",
            "orientations(pad) -> [\"portrait\",\"portraitUpsideDown\",\"landscapeLeft\",\"landscapeRight\"]",
            "orientations(tv) -> []",
            "orientations(mac) -> nil",
            "configuration(none) -> nil",
            "configuration() -> \"\"",
            "watchKit({\"ask\":\"weather\",\"units\":[\"c\",\"f\"]}) -> called {\"echo\":{\"ask\":\"weather\",\"units\":[\"c\",\"f\"]},\"app\":\"News\"}",
            "watchKit({}) -> declined",
        ]
        #expect(run.direct.first?.hasPrefix("responds: [willFinishLaunching, didFinishLaunching") == true)
        for line in expected {
            #expect(run.direct.contains(line), "direct run lacks \(line)")
            #expect(run.bridged.contains(line), "bridged run lacks \(line)")
        }
    }

    @Test func oracleLogsArriveWithItsNameThroughEveryLogCall() async throws {
        let run = try await both(Oracle.self)
        let expected = [
            "[Oracle] info: created with options {\"flavor\":\"blue\",\"limit\":3} in News com.example.news 1.0",
            "[Oracle] event memory_warning {\"level\":\"critical\",\"count\":2}",
            "[Oracle] error: time jumped {\"by\":3600}",
            "[Oracle] event locked {}",
            "[Oracle] critical: terminate",
            "[Oracle] info: token de:ad:0:1",
            "[Oracle] error: no network {\"domain\":\"com.example.push\",\"code\":-3}",
            "[Oracle] error: cannot continue com.example.reading {\"error\":\"NSCocoaErrorDomain 4: gone\"}",
        ]
        for line in expected {
            #expect(run.bridgedLog.contains(line), "bridged log lacks \(line)")
        }
    }

    @Test func respondingEventsAreTheAdoptedOnesBothWays() async throws {
        let bystander = try await both(Bystander.self)
        #expect(bystander.direct.first == "responds: []")
        #expect(bystander.bridged.first == "responds: []")
        let doubleCaller = try await both(DoubleCaller.self)
        let adopted: [LifecycleEvent] = [.didReceiveRemoteNotification, .performFetch, .handleEventsForBackgroundURLSession,
                                         .continueUserActivity, .performActionForShortcutItem, .handleWatchKitExtensionRequest]
        #expect(doubleCaller.bridged.first == "responds: \(adopted)")
    }

    @Test func aSecondCallIsReportedAndTheFirstCounts() async throws {
        let run = try await both(DoubleCaller.self)
        #expect(run.bridged.contains("performFetch -> called \"noData\"; called again"))
        #expect(run.bridged.contains("shortcut(com.example.news.search) -> called true; called again"))
        #expect(run.bridged.contains("continue(com.example.reading) -> true restored [\"first\"]; called again"))
    }
}
