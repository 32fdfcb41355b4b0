import Testing
import SubscriberConformance
import SubscriberKit
import SubscriberEventModel

/// `events.completion`'s evidence: one cause per late call, and a handler whose accepting path the
/// check never reached (it declined, or answered what nobody answering gives, every time) named.
@Suite("events.completion: what its evidence says")
struct CompletionEvidenceTests {
    @Test("a completion called after the deadline is reported once, as called after it, never also as never called")
    func lateCallHasOneCause() async throws {
        // CompletesLate calls each didReceiveRemoteNotification completion when the next event comes,
        // which the kit sends only once the deadline passed: late however busy the machine, yet called.
        let report = await ConformanceKit.run(plugins: [Built.plugin("CompletesLate")], options: kitOptions {
            $0.only = ["events.completion"]
            $0.completionDeadline = .milliseconds(200)
        })
        let result = try #require(report.plugins.first?.result("events.completion"))
        #expect(result.status == .fail)
        let calls = LifecycleEvent.didReceiveRemoteNotification.row.canonicalCalls.count
        let expected = (1...calls).map { "CompletesLate: didReceiveRemoteNotification #\($0): called after the deadline of 200 ms" }
        #expect(result.verdict.evidence.found.split(separator: "\n").map(String.init) == expected,
                "\(result.verdict.evidence.found)")
    }

    @Test("a completion never called is reported once, as never called")
    func neverCalledHasOneCause() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("NeverCompletes")], options: kitOptions {
            $0.only = ["events.completion"]
            $0.completionDeadline = .milliseconds(100)
        })
        let found = try #require(report.plugins.first?.result("events.completion")?.verdict.evidence.found)
        #expect(found == "NeverCompletes: performFetch #1: never called within 100 ms, and it did not decline", "\(found)")
    }

    @Test("a handler that declines every call under the options given is named; given the option it accepts, it is checked")
    func declinedEveryCall() async throws {
        let plugin = Built.plugin("DeclinesByDefault")
        let plain = await ConformanceKit.run(plugins: [plugin], options: kitOptions { $0.only = ["events.completion"] })
        let declined = try #require(plain.plugins.first?.result("events.completion"))
        #expect(declined.status == .pass)
        let lines = declined.verdict.evidence.found.split(separator: "\n").map(String.init)
        let calls = LifecycleEvent.performFetch.row.canonicalCalls.count
        let all = calls == 1 ? "its 1 call" : "all \(calls) calls"
        #expect(lines.contains("DeclinesByDefault: performFetch declined \(all): the handler's accepting path was not "
                               + "exercised (if it accepts only with options, pass them: --options or --plugin-options)"),
                "\(declined.verdict.evidence.found)")

        let accepting = await ConformanceKit.run(plugins: [plugin], options: kitOptions {
            $0.only = ["events.completion"]
            $0.subscriberOptions = ["fetch": .bool(true)]
        })
        let checked = try #require(accepting.plugins.first?.result("events.completion"))
        #expect(checked.status == .pass)
        #expect(checked.verdict.evidence.found.hasPrefix("\(calls) owed completion"), "\(checked.verdict.evidence.found)")
        #expect(!checked.verdict.evidence.found.contains("not exercised"), "\(checked.verdict.evidence.found)")
    }

    @Test("a handler that answers what nobody answering gives to every call is named (AsyncFetcher: noData)")
    func nobodysAnswerEveryCall() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("BenchSubscribers")],
                                              options: kitOptions { $0.only = ["events.completion"] })
        let result = try #require(report.plugins.first?.result("events.completion"))
        #expect(result.status == .pass)
        let lines = result.verdict.evidence.found.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("AsyncFetcher: performFetch answered noData to ") }, "\(lines)")
        // SyncFetcher answers newData: exercised, not named.
        #expect(!lines.contains { $0.hasPrefix("SyncFetcher:") }, "\(lines)")
    }
}

/// Every check gives one finding per line: several subscribers, several problems, never joined by "; ".
@Suite("Kit evidence: one finding per line")
struct FindingsPerLineTests {
    @Test("checks over several subscribers give one line each (BenchSubscribers: seven subscribers)")
    func oneLinePerSubscriber() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("BenchSubscribers")], options: kitOptions {
            $0.only = ["events.canonical", "subscriber.memory"]
            $0.createDestroyCycles = 20
        })
        let plugin = try #require(report.plugins.first)
        let names = try #require(plugin.identity?.subscribers)
        // VoidCounter, URLMatcher, SyncFetcher, AsyncFetcher, SceneURLMatcher, NotificationPresenter, LoadProbe.
        #expect(names.count == 7)
        for id in ["events.canonical", "subscriber.memory"] {
            let found = try #require(plugin.result(id)?.verdict.evidence.found)
            let lines = found.split(separator: "\n").map(String.init)
            #expect(lines.count == names.count, "\(id): \(found)")
            for (line, name) in zip(lines, names) {
                #expect(line.hasPrefix(name + ": "), "\(id): \(line)")
                #expect(!line.contains("; "), "\(id): \(line)")
            }
        }
    }

    @Test("a check with several problems gives one per line (UnknownNameNotNull: every unknown name)")
    func oneLinePerProblem() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("UnknownNameNotNull")],
                                              options: kitOptions { $0.only = ["subscriber.unknown-name"] })
        let found = try #require(report.plugins.first?.result("subscriber.unknown-name")?.verdict.evidence.found)
        #expect(found.split(separator: "\n").map(String.init) == [
            #"create("") returned a subscriber"#, #"create("NoSuchSubscriber.conformance") returned a subscriber"#,
            #"create("UnknownNameNotNullUnknown") returned a subscriber"#,
        ], "\(found)")
    }
}
