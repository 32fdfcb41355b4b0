import Foundation
import Testing
import BuiltProducts
import GeneratedPlugin
import SubscriberKit
@testable import SubscriberHost

/// One suite, each test run twice: every plugin in-process, then every plugin isolated in a child
/// (`PluginIsolation.Mode.process`). The same body asserts the same outcomes both ways — results,
/// answers, reports, log lines — for every event of the table under every reconciler that fits it,
/// for every completion rule and for every scene event. An isolated plugin differs from an in-process
/// one only by its failures, and none of these plugins fails.
///
/// Serialized and modest: an isolated host waits for its children on the main thread, and the
/// machine is small. Deadlines are on a ``ManualHostClock``: one passes only where a test advances it.
@MainActor
@Suite("Isolation parity: in-process and isolated plugins give identical outcomes", .serialized, .timeLimit(.minutes(10)))
struct IsolationParityTests {
    nonisolated static let modes: [PluginIsolation.Mode] = [.inProcess, .process]

    struct Plugin {
        var source: ManifestPlugin.Source
        var subscribers: [String] = []
        var options: JSONValue = [:]
    }

    /// A host of `plugins`, each in `mode`, on `clock`, with `reconcilers` chosen per event.
    static func host(_ mode: PluginIsolation.Mode, _ plugins: [Plugin], reconcilers: [LifecycleEvent: ReconcilerChoice] = [:],
                     clock: ManualHostClock = ManualHostClock()) throws -> PluginHost {
        let entries = plugins.enumerated().map { index, plugin in
            var entry = ManifestPlugin(index: index, source: plugin.source, subscribers: plugin.subscribers, options: plugin.options)
            // The patient budget: a child starved of CPU for 2 s on a loaded machine is not what this suite
            // compares (hangs have their own tests), and it would report `hung` where in-process has nothing.
            entry.isolation = PluginIsolation(mode: mode, callBudgetMilliseconds: Isolated.patientBudget)
            return entry
        }
        let manifest = Manifest(file: "(isolation parity test)", directory: BuiltProducts.directory,
                                app: Application(name: "Parity", bundleIdentifier: "dev.test.parity", version: "1"),
                                reconcilers: reconcilers, plugins: entries)
        // allowWritable: the generated plugin is compiled at test time into a temporary folder.
        let host = try PluginHost(manifest: manifest, options: HostOptions(extraSearchDirectories: [BuiltProducts.directory],
                                                                           allowWritable: true, clock: clock))
        // Not vacuous: isolated, every plugin is in a child of its own, and none in-process.
        #expect(host.isolationGroups.count == (mode == .process ? plugins.count : 0))
        return host
    }

    /// `outcome` as text, without timings: the event, its reconciled result, each answer, the reports
    /// and what each subscriber logged meanwhile.
    static func describe(_ outcome: AnyEventOutcome, logs withLogs: Bool = true) -> String {
        let row = outcome.event.row
        let answers = outcome.answers.map { "\($0.subscriber)=\($0.answer.map { row.json(answer: $0).serialized() } ?? "nil")" }
        let logs = withLogs ? outcome.logs.map { "\($0.subscriber) \($0.level): \($0.message)" } : ["(compared over the run)"]
        return "\(outcome.event) → \(row.json(result: outcome.result).serialized()) [\(answers.joined(separator: ", "))]"
            + (outcome.invocation.map { " \($0)" } ?? "")
            + (outcome.isDelivered ? "" : " refused") + " state \(outcome.applicationState)" + (outcome.scene.map { " scene \($0)" } ?? "")
            + " bridged \(outcome.bridged.map { describe($0, logs: withLogs) })"
            + " reports \(outcome.reports.map(\.description)) logs \(logs) requests \(outcome.requests.map { "\($0)" })"
    }

    /// Dispatches `call` and waits (bounded, generously) for its delivery: at once for an event
    /// answered at once; for a completion, when the last one arrives — from the child's connection
    /// when isolated. With `passing`, the deadline is let pass once it is armed.
    static func deliver(_ call: AnyEventCall, to host: PluginHost, clock: ManualHostClock,
                        passing deadline: Duration? = nil) async -> AnyEventOutcome? {
        let deliveries = Deliveries<any Sendable>()
        let armed = clock.armedTimerCount
        // What is logged before the call returns goes with the outcome at once when a completion is
        // still awaited: kept, ahead of the delivered outcome's lines.
        let immediate = host.dispatchAtOnce(call, whenDelivered: deliveries.handler)
        if let deadline, deliveries.outcomes.isEmpty {
            await clock.advance(by: deadline, onceArmed: armed + 1)
        }
        guard var outcome = await deliveries.first() else { return nil }
        outcome.logs = immediate.logs + outcome.logs
        return outcome
    }

    // MARK: every event, every reconciler

    /// The plugins every event is played to: the generated one (every event of every family, an
    /// answer of its own per event) and the demo plugins, whose answers differ from it.
    static func everyEventPlugins() async throws -> [Plugin] {
        [Plugin(source: .path(try await GeneratedPlugin.library())),
         Plugin(source: .library("DeepLinkRouter")),
         Plugin(source: .library("NotificationFetcher"), options: ["fetchResult": "noData", "delayMs": 1]),
         Plugin(source: .library("OrientationLock")),
         Plugin(source: .library("QuietHours")),
         Plugin(source: .library("SceneGreeterC"))]
    }

    /// The reconciler of pass `pass` for each event: its `pass`-th fitting one, where it has that many.
    static func reconcilers(pass: Int) -> [LifecycleEvent: ReconcilerChoice] {
        var chosen: [LifecycleEvent: ReconcilerChoice] = [:]
        for row in EventTable.rows where pass < row.fittingReconcilers.count {
            chosen[row.event] = row.fittingReconcilers[pass]
        }
        return chosen
    }

    /// Every canonical call of every row, in table order, each after bringing the app (and its
    /// scene) into a state the row may come in, to a host made with pass `pass`'s reconcilers.
    /// Returns the transcript and the events delivered.
    static func playEveryEvent(_ mode: PluginIsolation.Mode, pass: Int) async throws -> (lines: [String], delivered: Set<LifecycleEvent>) {
        let clock = ManualHostClock()
        let host = try host(mode, try await everyEventPlugins(), reconcilers: reconcilers(pass: pass), clock: clock)
        var lines = ["subscribers \(host.subscriberNames)"]
        var delivered: Set<LifecycleEvent> = []
        var logs: [LogRecord] = []
        // willTerminate last: nothing comes after it. A launch event is dispatched whatever the state:
        // the first one is delivered, every later one refused (a refusal is an outcome too).
        let rows = EventTable.rows.filter { $0.event != .willTerminate } + EventTable.rows.filter { $0.event == .willTerminate }
        for row in rows {
            for call in row.canonicalCalls {
                let launch = if case .launch = row.state { true } else { false }
                guard launch || host.dispatcher.prepare(for: call.event) else {
                    lines.append("\(call.event): cannot come now")
                    continue
                }
                guard let outcome = await deliver(call, to: host, clock: clock) else { break }
                // Which outcome a line logged from a plugin's thread goes with races with that thread
                // (in-process too): log lines are compared over the whole run, below.
                lines.append(describe(outcome, logs: false))
                logs += outcome.logs
                if outcome.answers.contains(where: { $0.subscriber == "EveryEvent" }) { delivered.insert(call.event) }
            }
        }
        logs += host.takeLogs()
        let leftovers = host.shutDown()
        logs += leftovers.logs
        lines.append("leftovers \(leftovers.reports.map(\.description))")
        // Each distinct line: a line logged from a plugin's thread after the last event may come
        // before or after shutdown (in-process too), and the events dispatched to prepare a state
        // log lines of their own.
        lines += Set(logs.map { "log \($0.subscriber) \($0.level): \($0.message)" }).sorted()
        return (lines, delivered)
    }

    /// The in-process transcript of each pass, played once per test process: what the isolated run
    /// is held against.
    static var inProcessTranscripts: [Int: [String]] = [:]

    @Test("every event of the table, under each reconciler that fits it: the same results, answers, reports and logs",
          arguments: modes)
    func everyEventEveryReconciler(mode: PluginIsolation.Mode) async throws {
        let passes = EventTable.rows.map(\.fittingReconcilers.count).max() ?? 0
        #expect(passes > 1)
        for pass in 0..<max(passes, 1) {
            let (lines, delivered) = try await Self.playEveryEvent(mode, pass: pass)
            let reference: [String]
            if let kept = Self.inProcessTranscripts[pass] {
                reference = kept
            } else {
                reference = try await Self.playEveryEvent(.inProcess, pass: pass).lines
                Self.inProcessTranscripts[pass] = reference
            }
            #expect(lines.count == reference.count, "pass \(pass)")
            for (line, expected) in zip(lines, reference) {
                #expect(line == expected, "pass \(pass), \(mode)")
            }
            // Not vacuous: every event but the launch ones after the first reached the generated plugin.
            let missed = EventTable.rows.map(\.event).filter { event in
                if case .launch = event.row.state { return false }
                return !delivered.contains(event)
            }
            #expect(missed.isEmpty, "pass \(pass): never delivered \(missed)")
        }
    }

    // MARK: every completion rule

    /// A completion rule and the fixture subscriber that follows it on `performFetch`.
    enum Rule: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case inTheCall, fromAnotherThread, lateAtTheDeadline, twice, declined, afterTheDeadline

        var testDescription: String { rawValue }

        var plugin: Plugin {
            switch self {
            case .inTheCall: Plugin(source: .library("BenchSubscribers"), subscribers: ["SyncFetcher"])
            case .fromAnotherThread: Plugin(source: .library("BenchSubscribers"), subscribers: ["AsyncFetcher"])
            case .lateAtTheDeadline: Plugin(source: .library("NeverCompletes"))
            case .twice: Plugin(source: .library("CompletesTwice"))
            case .declined: Plugin(source: .library("DeclinesByDefault"))
            case .afterTheDeadline: Plugin(source: .library("CompletesLate"))
            }
        }

        /// The event the rule is played on.
        var call: AnyEventCall {
            self == .afterTheDeadline ? EventCall.didReceiveRemoteNotification(userInfo: ["id": 1]).erased : EventCall.performFetch.erased
        }

        /// Whether the event's deadline must pass before it is delivered.
        var waitsForTheDeadline: Bool { self == .lateAtTheDeadline || self == .afterTheDeadline }

        /// What the outcome's result and answers are, as text: the same both ways.
        var expected: String {
            switch self {
            case .inTheCall: "newData [SyncFetcher=\"newData\"]"
            case .fromAnotherThread: "noData [AsyncFetcher=\"noData\"]"
            case .lateAtTheDeadline: "failed [NeverCompletes=\"failed\"]"
            case .twice: "newData [CompletesTwice=\"newData\"]"
            case .declined: "noData []"
            case .afterTheDeadline: "failed [CompletesLate=\"failed\"]"
            }
        }
    }

    /// Plays `rule`: its event, then (for a completion kept past its deadline) a `performFetch` that
    /// makes the late call, then shutdown; the transcript of outcomes and leftover reports.
    static func play(_ rule: Rule, _ mode: PluginIsolation.Mode) async throws -> (lines: [String], summary: String, reports: [String]) {
        let clock = ManualHostClock()
        let host = try host(mode, [rule.plugin], clock: clock)
        host.dispatchAtOnce(.didFinishLaunching())
        var lines: [String] = []
        var reports: [String] = []
        let outcome = try #require(await deliver(rule.call, to: host, clock: clock,
                                                 passing: rule.waitsForTheDeadline ? .seconds(3_600) : nil))
        lines.append(describe(outcome))
        reports += outcome.reports.map(\.kind)
        let summary = "\(outcome.event.row.json(result: outcome.result).serialized().replacingOccurrences(of: "\"", with: ""))"
            + " [" + outcome.answers.map { "\($0.subscriber)=\($0.answer.map { outcome.event.row.json(answer: $0).serialized() } ?? "nil")" }
            .joined(separator: ", ") + "]"
        if rule == .afterTheDeadline, let next = await deliver(EventCall.performFetch.erased, to: host, clock: clock) {
            // CompletesLate calls the completion it kept first: reported late, with this event.
            lines.append(describe(next))
            reports += next.reports.map(\.kind)
        }
        if rule == .afterTheDeadline, !reports.contains("completionAfterDelivery") {
            // Isolated, the late call's report comes after the next event's outcome: wait for it.
            _ = await waitPatiently(for: .seconds(20)) {
                reports += host.dispatcher.takeLateReports().map(\.kind)
                return reports.contains("completionAfterDelivery")
            }
        }
        if rule == .twice, !reports.contains("duplicateCompletion") {
            // The second call may arrive after the delivery (from the child's connection): wait for its report.
            _ = await waitPatiently(for: .seconds(20)) {
                reports += host.dispatcher.takeLateReports().map(\.kind)
                return reports.contains("duplicateCompletion")
            }
        }
        let leftovers = host.shutDown()
        reports += leftovers.reports.map(\.kind)
        lines.append("leftovers \(leftovers.reports.map(\.description))")
        return (lines, summary, reports)
    }

    /// Every (mode, rule). `lateAtTheDeadline` isolated once differed under load: at shutdown the
    /// child's end settled the completion NeverCompletes still owed as a missed one, long after its
    /// deadline, and the host reported a call after delivery the plugin never made. After a
    /// farewell the connection leaves what is owed to the shutdown, as in process.
    nonisolated static let completionCases: [(PluginIsolation.Mode, Rule)] =
        Rule.allCases.map { (.inProcess, $0) } + Rule.allCases.map { (.process, $0) }

    @Test("every completion rule on performFetch (and a call after the deadline): the same result, answers and reports",
          arguments: completionCases)
    func completionRule(mode: PluginIsolation.Mode, rule: Rule) async throws {
        let (lines, summary, reports) = try await Self.play(rule, mode)
        #expect(summary == rule.expected)
        switch rule {
        case .inTheCall, .fromAnotherThread, .declined: #expect(reports.isEmpty)
        case .lateAtTheDeadline: #expect(reports == ["late"])
        case .twice: #expect(reports == ["duplicateCompletion"])
        case .afterTheDeadline: #expect(reports == ["late", "completionAfterDelivery"])
        }
        if mode == .process {
            let reference = try await Self.play(rule, .inProcess)
            #expect(reports == reference.reports)
            if rule == .afterTheDeadline {
                // The late call of the kept completion is made inside the next event's call: in-process
                // its report comes with that event's outcome; isolated it may come a little later, as a
                // late report. Compared: every line without its reports, and the run's reports in order.
                func withoutReports(_ lines: [String]) -> ArraySlice<String> {
                    lines.map { $0.replacing(#/ reports \[.*?\] logs/#, with: " logs") }.dropLast(1)
                }
                #expect(withoutReports(lines) == withoutReports(reference.lines))
            } else {
                #expect(lines == reference.lines)
            }
        }
    }

    // MARK: scenes

    /// Two scenes through their lives, with connection options, URLs and an activity, to the Swift and
    /// C scene greeters and the C plugin that logs its connection options.
    static func playScenes(_ mode: PluginIsolation.Mode) async throws -> [String] {
        let clock = ManualHostClock()
        let host = try host(mode, [Plugin(source: .library("SceneGreeter")), Plugin(source: .library("SceneGreeterC")),
                                   Plugin(source: .library("ConnectionEcho"))], clock: clock)
        let options = SceneConnectionOptions(urlContexts: [OpenURLContext(url: URL(string: "greeter://cold")!)],
                                             userActivity: UserActivity(activityType: "com.example.read"))
        let activity = UserActivity(activityType: "com.example.read", userInfo: ["page": 3])
        var calls: [AnyEventCall] = [EventCall.didFinishLaunching().erased, EventCall.didBecomeActive.erased]
        for scene in ["main", "second"] {
            calls += [EventCall.sceneWillConnect(scene: scene, role: scene == "main" ? nil : "external",
                                                 options: scene == "main" ? options : SceneConnectionOptions()).erased,
                      EventCall.sceneWillEnterForeground(scene: scene).erased,
                      EventCall.sceneDidBecomeActive(scene: scene).erased,
                      EventCall.sceneOpenURLContexts(scene: scene, urlContexts: [OpenURLContext(url: URL(string: "greeter://\(scene)")!)]).erased,
                      EventCall.sceneOpenURLContexts(scene: scene, urlContexts: [OpenURLContext(url: URL(string: "news://1")!)]).erased,
                      EventCall.sceneWillContinueUserActivity(scene: scene, activityType: activity.activityType).erased,
                      EventCall.sceneContinueUserActivity(scene: scene, activity).erased,
                      EventCall.sceneDidUpdateUserActivity(scene: scene, activity).erased]
        }
        for scene in ["second", "main"] {
            calls += [EventCall.sceneWillResignActive(scene: scene).erased, EventCall.sceneDidEnterBackground(scene: scene).erased,
                      EventCall.sceneDidDisconnect(scene: scene).erased]
        }
        // Refused: the scene is gone. The refusal is the same both ways.
        calls.append(EventCall.sceneDidBecomeActive(scene: "main").erased)
        var lines: [String] = []
        for call in calls {
            guard let outcome = await deliver(call, to: host, clock: clock) else { break }
            lines.append(describe(outcome))
        }
        lines.append("leftovers \(host.shutDown().reports.map(\.description))")
        return lines
    }

    @Test("two scenes through their lives: the same answers, logs, scene states and refusals", arguments: modes)
    func scenes(mode: PluginIsolation.Mode) async throws {
        let lines = try await Self.playScenes(mode)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("Hello from scene main of Parity!"))
        #expect(text.contains("Hello from C in scene second!"))
        #expect(text.contains("ConnectFirst info: main: greeter://cold, com.example.read, 1"))
        #expect(text.contains("Opening greeter://second in scene second."))
        #expect(lines.last(where: { $0.hasPrefix("scene.didBecomeActive") })?.contains("refused") == true)
        if mode == .process {
            let reference = try await Self.playScenes(.inProcess)
            #expect(lines.count == reference.count)
            for (line, expected) in zip(lines, reference) { #expect(line == expected) }
        }
    }

    /// Answers the header does not allow (HostileLengths: a configuration name and a reply of length
    /// `SIZE_MAX`): the same `invalidAnswer` reports, isolated as in process — the child's go to the host
    /// with its reply, each field checked there.
    @Test("answers the header does not allow: the same invalidAnswer reports, read the same way", arguments: modes)
    func invalidAnswers(mode: PluginIsolation.Mode) async throws {
        let host = try Self.host(mode, [Plugin(source: .library("HostileLengths"))])
        defer { host.shutDown() }
        let problem = "expected a string of at most 64 MiB with data, found length 18446744073709551615"
        _ = host.dispatcher.dispatchAtOnce(.didFinishLaunching())
        let configured = host.dispatcher.dispatchAtOnce(.configurationForConnecting(sceneRole: "role"))
        #expect(configured.result == "Default Configuration")
        #expect(configured.reports == [.invalidAnswer(subscriber: "HostileLengths", event: .configurationForConnecting,
                                                      problem: "\(problem); read as no opinion")])
        let replied = await host.dispatcher.dispatch(.handleWatchKitExtensionRequest(userInfo: ["q": 1]))
        #expect(replied.result == [:])
        #expect(replied.reports == [.invalidAnswer(subscriber: "HostileLengths", event: .handleWatchKitExtensionRequest,
                                                   problem: "reply: \(problem); read as {}")])
    }
}
