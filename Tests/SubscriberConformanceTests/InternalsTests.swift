import Foundation
import Testing
import SubscriberABI
@testable import SubscriberHost
@testable import SubscriberKit
@testable import SubscriberEventModel
@testable import SubscriberConformance

@Suite("Kit internals")
struct InternalsTests {
    @Test("canonical input: every event has at least one call, labels are unique")
    func canonicalCoverage() {
        let calls = CanonicalInput.calls
        #expect(Set(calls.map(\.event)) == Set(LifecycleEvent.allCases))
        #expect(Set(calls.map(\.label)).count == calls.count)
        #expect(calls.first?.label == "willFinishLaunching #1")
        #expect(CanonicalInput.calls(for: [.openURL]).map(\.label)
                == LifecycleEvent.openURL.row.canonicalCalls.indices.map { "openURL #\($0 + 1)" })
    }

    @Test("SplitMix64 gives the reference sequence, and named streams differ")
    func generator() {
        var zero = SeededGenerator(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
        #expect(zero.next() == 0x6E78_9E6A_A1B9_65F4)
        var a = SeededGenerator(seed: 7, stream: "A/openURL")
        var b = SeededGenerator(seed: 7, stream: "A/openURL")
        var c = SeededGenerator(seed: 7, stream: "A/willContinueUserActivity")
        let first = a.next()
        #expect(first == b.next())
        #expect(first != c.next())
    }

    /// The descriptions of `count` fuzz cases of `event` under `seed`, as the fuzz check draws them.
    private func cases(_ event: LifecycleEvent, seed: UInt64, count: Int) throws -> [String] {
        var generator = SeededGenerator(seed: seed, stream: "S/\(event)")
        var described: [String] = []
        for index in 0..<count {
            var draw: any FuzzDraw = FuzzValues(generator: generator, edge: index < FuzzValues.edgeCount ? index : nil)
            _ = event.row.fuzzedCall(&draw, serial: 1)
            let values = try #require(draw as? FuzzValues)
            described.append(values.described.joined(separator: "; "))
            generator = values.generator
        }
        return described
    }

    @Test("fuzz cases are reproducible from the seed and change with it")
    func fuzzReproducible() throws {
        let first = try cases(.openURL, seed: 42, count: 30)
        #expect(try cases(.openURL, seed: 42, count: 30) == first)
        #expect(try cases(.openURL, seed: 43, count: 30) != first)
        // The edge cases come first: every field empty, then huge, then invalid UTF-8.
        #expect(first[0].hasPrefix("url: empty; sourceApplication: empty"))
        #expect(first[1].hasPrefix("url: \(FuzzValues.hugeLength) bytes"))
        #expect(first[2].hasPrefix("url: invalid UTF-8"))
        #expect(first[3].hasPrefix("url: NUL inside"))
    }

    @Test("every event with arguments is fuzzed; an event without draws nothing")
    func fuzzTargets() throws {
        for row in EventTable.rows {
            var draw: any FuzzDraw = FuzzValues(generator: SeededGenerator(seed: 1), edge: nil)
            _ = row.fuzzedCall(&draw, serial: 1)
            let drawn = try #require(draw as? FuzzValues).described
            #expect(drawn.isEmpty == !FuzzTargets.takesInput(row.event), "\(row.name): \(drawn)")
        }
        #expect(!FuzzTargets.takesInput(.didBecomeActive) && !FuzzTargets.takesInput(.performFetch))
        #expect(FuzzTargets.takesInput(.openURL) && FuzzTargets.takesInput(.willPresentNotification))
    }

    @Test("every event's fuzzed call reaches its entry with the entry's C signature")
    @MainActor
    func fuzzedCallsReachEveryEntry() throws {
        // Every entry of every family set to a function that records which event was called.
        for family in EventFamily.all {
            for event in family.events {
                let vtable = family.makeVTable()
                defer { vtable.deallocate() }
                event.row.install(into: vtable)
                let entry = try #require(event.row.entry(in: vtable), "\(event)")
                var draw: any FuzzDraw = FuzzValues(generator: SeededGenerator(seed: 1), edge: 0)
                // A call needs a live subscriber: here the entries are the SDK's, and the subscriber
                // struct has no instance, so each entry returns at once (what a NULL instance answers).
                let subscriber = UnsafeMutablePointer<adh_subscriber>.allocate(capacity: 1)
                subscriber.initialize(to: adh_subscriber())
                defer { subscriber.deallocate() }
                event.row.fuzzedCall(&draw, serial: 1)(entry, subscriber)
            }
        }
    }


    @Test("fuzz JSON is always valid JSON, whatever its kind")
    func fuzzJSONValid() throws {
        for kind in FuzzValues.JSONKind.allCases where kind != .deep {
            var json = FuzzJSON(generator: SeededGenerator(seed: 5))
            let text = json.object(kind)
            #expect(throws: Never.self) { try JSONValue(parsing: text) }
        }
        // Deep is valid JSON too, just deeper than the SDK's parser accepts (it reports, not crashes).
        var json = FuzzJSON(generator: SeededGenerator(seed: 5))
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: json.object(.deep)) }
    }

    @Test("the child request survives its JSON trip, the seed exactly")
    func childRequest() throws {
        var options = ConformanceOptions()
        options.completionDeadline = .milliseconds(1_500)
        options.allowWritable = true
        options.fuzzCases = 3
        let request = ChildRequest(check: "events.fuzz", plugin: "/x/libA.so", seed: .max, options: options)
        let text = request.json.serialized()
        #expect(ChildRequest(json: try JSONValue(parsing: text)) == request)
        #expect(ChildRequest(json: ["check": "events.fuzz"]) == nil)
    }

    @Test("messages: texts cut with their length")
    func messageTexts() throws {
        #expect(ChildWire.cut("short", to: 10) == "short")
        #expect(ChildWire.cut("ééééé", to: 5) == "éé… (10 bytes)")
        let verdict = Verdict.fail(expected: "e", found: String(repeating: "y", count: 100_000))
        guard case .verdict(let parsed, nil)? = ChildWire.parse(ChildWire.verdict(verdict, identity: nil)) else {
            Issue.record("the verdict message does not parse back")
            return
        }
        #expect(parsed.evidence.found.hasSuffix("… (100000 bytes)"))
        #expect(ChildWire.parse(Array("@@adh-conformance verdict {}".utf8)) == nil)
        #expect(ChildWire.parse(ChildWire.hello()) == .hello(version: ChildWire.version))
    }

    @Test("XML escaping: markup, quotes, whitespace as references, forbidden characters replaced")
    func xmlEscaping() {
        #expect(XMLText.escape("<a href=\"x\">&'</a>") == "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;")
        #expect(XMLText.escape("a\tb\nc\rd") == "a&#9;b&#10;c&#13;d")
        #expect(XMLText.escape("\u{0}\u{1F}\u{FFFF}é") == "\u{FFFD}\u{FFFD}\u{FFFD}é")
    }

    @Test("determinism compares only events that answer")
    func answeringEvents() {
        #expect(DeterminismCheck.answers(.openURL))
        #expect(DeterminismCheck.answers(.performFetch))
        #expect(!DeterminismCheck.answers(.didBecomeActive))
        #expect(DeterminismCheck.answers(.willPresentNotification))
        #expect(!DeterminismCheck.answers(.willTerminate))
    }

    @Test("durations read as people write them")
    func readableDurations() {
        #expect(Duration.milliseconds(12.34).readable == "12.3 ms")
        #expect(Duration.milliseconds(250).readable == "250 ms")
        #expect(Duration.seconds(2).readable == "2.00 s")
        #expect(Duration.seconds(3).nanosecondsSaturating == 3_000_000_000)
    }

    @Test("the raw host checks every string of log, log_event and log_error with the host's check, and records the unreadable ones")
    func rawHostRecordsUnreadableStrings() throws {
        let problems = HostCallProblems()
        let host = RawHost(options: [:], problems: problems).pointer
        let log = try #require(host.pointee.log), logEvent = try #require(host.pointee.log_event)
        let logError = try #require(host.pointee.log_error)
        "endless".withCString { text in
            let endless = adh_string(data: text, length: Int(bitPattern: UInt.max))
            let fine = adh_string(data: text, length: 7)
            log(host, adh_log_level(ADH_LOG_INFO), fine)
            logEvent(host, fine, adh_string(data: text, length: 0))
            #expect(problems.stringEvidence == nil)
            log(host, adh_log_level(ADH_LOG_INFO), endless)
            logEvent(host, fine, endless)
            logError(host, adh_string(data: nil, length: 3), fine)
        }
        let problem = "expected a string of at most 64 MiB with data, found length 18446744073709551615"
        #expect(problems.stringEvidence == "3 strings the host cannot read:\nlog: \(problem)\nlog_event: \(problem)\n"
                + "log_error: expected a string of at most 64 MiB with data, found length 3 and NULL data")
    }

    /// Runs in a process of its own: the forged call goes to the process's one token table, and a
    /// call nobody can be blamed for is counted there for every dispatcher of C subscribers in the
    /// process to report, so in the shared test process it would show up in other suites' outcomes.
    @Test("a completion call with a token the host never issued, made outside any entry call, is counted as unknown")
    func unknownTokensAreCounted() async {
        await #expect(processExitsWith: .success) {
            let problems = HostCallProblems()
            // A token no ticket has (tag 0x1234, slot 1), called on a thread that runs no entry.
            CompletionTokens.shared.deliver(UnsafeMutableRawPointer(bitPattern: UInt(0x1234_0000_0001)), .integer(0))
            // Alone in this process: exactly this one.
            let count = problems.unknownTokenCalls
            let line = CompletionCheck.unknownTokenLine(problems)
            #expect(count == 1)
            #expect(line?.hasPrefix("1 completion call with a token the host never gave (unknown;") == true)
            guard count == 1, line?.hasPrefix("1 completion call with a token the host never gave (unknown;") == true else {
                FileHandle.standardError.write(Data("unknown token calls \(count), line \(line ?? "none")\n".utf8))
                exit(1)
            }
        }
    }
}
