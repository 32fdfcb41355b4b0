import Foundation
import SubscriberABI
import SubscriberKit
import Testing
@testable import SubscriberHost

@MainActor
@Suite("Bridge adapter: CSubscriber over a C vtable", .timeLimit(.minutes(10)))
struct BridgeAdapterTests {
    private func handBuilt(_ name: String, sink: RecordingSink = RecordingSink()) -> CSubscriber? {
        CSubscriber(descriptor: HandBuilt.descriptor, name: name, context: bridgeContext(name, sink: sink))
    }

    // Was: an exported Bystander (overriding nothing) responded to every event. A subscriber now
    // responds to exactly the events whose protocols its type adopts, and its vtable says so.
    @Test func exportedSubscribersRespondToTheEventsTheirTypesAdopt() throws {
        let oracle = try bridged(Oracle.self, sink: RecordingSink())
        defer { oracle.destroy() }
        // Exactly the events Oracle's type adopts, as the same type in process responds to.
        let direct = SubscriberRegistration(name: "Oracle", subscriber: Oracle(context: bridgeContext("Oracle", sink: RecordingSink())))
        #expect(oracle.respondingEvents == direct.respondingEvents)
        #expect(oracle.respondingEvents.contains(.handleWatchKitExtensionRequest))
        let fetcher = try bridged(LateDecliner.self, sink: RecordingSink())
        defer { fetcher.destroy() }
        #expect(fetcher.respondingEvents == [.performFetch])
        let bystander = try bridged(Bystander.self, sink: RecordingSink())
        defer { bystander.destroy() }
        #expect(bystander.respondingEvents.isEmpty)
    }

    // Was: calling a NULL entry's method gave the default (nil, or a declined completion). Now a NULL
    // entry has no handler at all, so the dispatcher never calls it.
    @Test func nullEntriesHaveNoHandler() async throws {
        let adapter = try #require(handBuilt("sparse"))
        defer { adapter.destroy() }
        #expect(Set(adapter.respondingEvents) == [.didBecomeActive, .openURL, .performFetch])
        for event in LifecycleEvent.allCases {
            #expect((adapter.entries[event.index] != nil) == adapter.respondingEvents.contains(event), "\(event)")
        }
        let solo = Solo(adapter)
        #expect(solo.dispatcher.responderNames(for: .willTerminate).isEmpty)
        #expect(solo.dispatcher.dispatchAtOnce(.willTerminate).answers.isEmpty)  // NULL: nothing happens, nothing crashes
        #expect(await solo.deliver(.performActionForShortcutItem(ShortcutItem(type: "t"))).answers.isEmpty)
    }

    @Test func entriesBeyondStructSizeAreNeitherListedNorCalled() async throws {
        let adapter = try #require(handBuilt("short"))
        defer { adapter.destroy() }
        #expect(adapter.respondingEvents == [.didBecomeActive])
        #expect(adapter.entries[LifecycleEvent.openURL.index] == nil)
        #expect(adapter.entries[LifecycleEvent.performFetch.index] == nil)
        let solo = Solo(adapter)
        #expect(solo.answer(.openURL(url: URL(string: "news://x")!)) == nil)
        #expect(await solo.deliver(.performFetch).answers.isEmpty)
        #expect(HandBuilt.trapped.isEmpty)
    }

    @Test func unknownNamesAndBrokenVtablesGiveNil() {
        #expect(CSubscriber(descriptor: bridgeTestDescriptor(), name: "Nobody",
                            context: bridgeContext("Nobody", sink: RecordingSink())) == nil)
        #expect(handBuilt("nobody") == nil)
        let sink = RecordingSink()
        #expect(handBuilt("nodestroy", sink: sink) == nil)
        #expect(sink.lines.contains { $0.hasPrefix("[nodestroy] error: create returned a subscriber without destroy") })
    }

    @Test func anUndestroyableInstanceKeepsAWorkingHostInterface() throws {
        let sink = RecordingSink()
        #expect(handBuilt("nodestroy", sink: sink) == nil)
        // The instance lives on, so must the interface it was given (weakly observed here).
        try #require(HandBuilt.nodestroyHost != nil)
        let host = try #require(UnsafePointer<adh_host>(bitPattern: HandBuilt.nodestroyHostAddress))
        withABIString("still here") { host.pointee.log!(host, adh_log_level(ADH_LOG_NOTICE), $0) }
        #expect(sink.lines.last == "[nodestroy] notice: still here")
    }

    @Test func destroyIsIdempotentAndLeavesOnlyDefaults() throws {
        let before = HandBuilt.destroyed
        let adapter = try #require(handBuilt("sparse"))
        adapter.destroy()
        adapter.destroy()
        #expect(HandBuilt.destroyed == before + 1)
        let serials = HandBuilt.serials.count
        // Still says what it responded to; but no entry is left to call.
        #expect(Set(adapter.respondingEvents) == [.didBecomeActive, .openURL, .performFetch])
        #expect(adapter.entries.allSatisfy { $0 == nil })
        #expect(Solo(adapter).answer(.openURL(url: URL(string: "news://gone")!)) == nil)
        #expect(HandBuilt.serials.count == serials)

        do { _ = handBuilt("sparse") }  // dropped at once: deinit destroys it
        #expect(HandBuilt.destroyed == before + 2)
    }

    @Test func hostInterfaceGivesAppInfoOptionsAndAttributedLogs() throws {
        let sink = RecordingSink()
        let adapter = try #require(handBuilt("logger", sink: sink))
        defer { adapter.destroy() }
        _ = Solo(adapter).answer(.didBecomeActive)
        let lines = sink.lines
        try #require(lines.count == 7)
        #expect(lines[0] == "[logger] notice: app {\"name\":\"News\",\"bundleIdentifier\":\"com.example.news\","
                 + "\"version\":\"1.0\"} options {\"flavor\":\"blue\",\"limit\":3}")
        // Said, then logged at the nearest level.
        #expect(lines[1] == "[logger] error: log: level 99, expected 0 (ADH_LOG_TRACE) to 6 (ADH_LOG_CRITICAL); logged as critical")
        #expect(lines[2] == "[logger] critical: level out of range")
        #expect(lines[3] == "[logger] event opened {\"screen\":\"home\"}")
        // The parser's own words follow; they are its business.
        #expect(lines[4].hasPrefix("[logger] warning: logEvent(bad attributes) attributes: expected a JSON object, "
                                   + "found invalid JSON (line 1, column 4"))
        #expect(lines[4].hasSuffix("); read as {}"))
        #expect(lines[5] == "[logger] event bad attributes {}")
        #expect(lines[6] == "[logger] error: failed {}")
    }

    @Test func answersOutsideTheHeaderAreReportedAndReadConservatively() async throws {
        let sink = RecordingSink()
        let adapter = try #require(handBuilt("weird", sink: sink))
        defer { adapter.destroy() }
        let solo = Solo(adapter)
        let opened = solo.dispatcher.dispatchAtOnce(.openURL(url: URL(string: "news://x")!))
        #expect(opened.answers.first?.answer == nil)
        #expect(opened.reports == [.invalidAnswer(subscriber: "weird", event: .openURL,
                                                  problem: "returned 5, expected -1 (no opinion), 0 (false) or 1 (true); read as no opinion")])
        let oriented = solo.dispatcher.dispatchAtOnce(.supportedInterfaceOrientations(idiom: .pad))
        #expect(oriented.answers.first?.answer == nil)
        #expect(oriented.reports == [.invalidAnswer(subscriber: "weird", event: .supportedInterfaceOrientations,
                                                    problem: "returned 1099511627776, expected a 32-bit mask or a negative value "
                                                        + "(no opinion); read as no opinion")])
        let fetched = await solo.deliver(.performFetch)
        #expect(fetched.answers.first?.answer(as: BackgroundFetchResult.self) == .failed)
        #expect(fetched.result == .failed)
        // Reported, not logged: a run with one ends with status 1, and the kit fails the plugin.
        #expect(fetched.reports == [
            .invalidAnswer(subscriber: "weird", event: .performFetch,
                           problem: "completion called with 9, expected 0 (newData), 1 (noData) or 2 (failed); read as failed"),
            .invalidAnswer(subscriber: "weird", event: .performFetch,
                           problem: "returned 7, expected 0 (declines) or 1 (responds); read as responds"),
        ].reduce(into: DispatchReportList()) { $0.append($1) }.reports)
        #expect(fetched.reports.first?.description == "invalid answer: weird, performFetch: completion called with 9, expected "
                + "0 (newData), 1 (noData) or 2 (failed); read as failed (2 times, the first shown)")
        #expect(sink.lines.isEmpty)
    }

    /// The Bool and presentation-options completions outside the header, made inside the entry on its
    /// own thread (the typed integer path, `CompletionTokens.deliver(_:integer:)` unlocked): reported
    /// once each and read as the header says (false; the known bits).
    @Test func integerCompletionsOutsideTheHeaderAreReportedOnTheTypedPath() async throws {
        let sink = RecordingSink()
        let adapter = try #require(handBuilt("weird", sink: sink))
        defer { adapter.destroy() }
        let solo = Solo(adapter)
        let performed = await solo.deliver(.performActionForShortcutItem(ShortcutItem(type: "x")))
        #expect(performed.answers.first?.answer(as: Bool.self) == false)
        #expect(performed.result == false)
        #expect(performed.reports == [.invalidAnswer(subscriber: "weird", event: .performActionForShortcutItem,
                                                     problem: "completion called with 2, expected 0 (false) or 1 (true); read as false")])
        let presented = await solo.deliver(.willPresentNotification(UserNotification(identifier: "n", userInfo: [:])))
        #expect(presented.answers.first?.answer(as: NotificationPresentationOptions.self) == .badge)
        #expect(presented.result == .badge)
        #expect(presented.reports == [.invalidAnswer(subscriber: "weird", event: .willPresentNotification,
                                                     problem: "completion called with 1048577, expected a combination of the "
                                                         + "ADH_PRESENTATION_* bits; unknown bits ignored")])
        #expect(sink.lines.isEmpty)
    }

    @Test func aDeclineAfterReturningIsReportedAndIgnored() async throws {
        let sink = RecordingSink()
        let adapter = try bridged(LateDecliner.self, sink: sink)
        defer { adapter.destroy() }
        let solo = Solo(adapter)
        async let fetched = solo.deliver(.performFetch)
        while LateDecliner.kept == nil { await Task.yield() }
        let kept = try #require(LateDecliner.kept)
        kept.decline()
        #expect(sink.lines == ["[LateDecliner] warning: LateDecliner: performFetch declined its completion handler "
                               + "after the method returned; ignored"])
        kept(.newData)
        // The decline changed nothing: the answer counts.
        #expect(await fetched.result == .newData)
    }
}
