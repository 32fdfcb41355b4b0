import Foundation
import Synchronization
import Testing
import SubscriberKit
@testable import SubscriberHost

/// Handles every activity, logs, and keeps the optional restoration handler; calls it from its next
/// performFetch, whose own completion comes later (from a task): the restoration's outcome is
/// delivered while the fetch still waits.
final class KeepsRestorationHandler: AppDelegateSubscriberBase, InstantiableSubscriber, ContinueUserActivitySubscriber,
                                     PerformFetchSubscriber {
    nonisolated(unsafe) var kept: CompletionHandler<[String]>?

    func application(_ application: Application, continue userActivity: UserActivity,
                     restorationHandler: CompletionHandler<[String]>) -> Bool? {
        log("continuing \(userActivity.activityType)")
        context.registerForRemoteNotifications()
        kept = restorationHandler
        return true
    }

    func application(_ application: Application, performFetchWithCompletionHandler completionHandler: CompletionHandler<BackgroundFetchResult>) {
        log("fetching")
        kept?(["article/42"])
        kept = nil
        Task { @MainActor in completionHandler(.newData) }
    }
}

/// Logs `lines` lines in didBecomeActive, all in the call.
final class LogsManyLines: AppDelegateSubscriberBase, InstantiableSubscriber, DidBecomeActiveSubscriber {
    nonisolated(unsafe) static var lines = 0

    func applicationDidBecomeActive(_ application: Application) {
        for index in 0..<Self.lines { log("line \(index)") }
    }
}

@MainActor
@Suite("Host: logs and requests go with their own event's outcome", .serialized, .timeLimit(.minutes(10)))
struct HostEventLogTests {
    @Test("a continueUserActivity waiting for its optional handler keeps its lines and requests; the next event's lines stay the next event's")
    func pendingRestorationKeepsItsLines() async throws {
        let host = try PluginHost(application: testApplication, inProcess: [InProcessSubscriber(KeepsRestorationHandler.self)])
        defer { host.shutDown() }
        _ = host.takeLogs()
        _ = await host.dispatch(.didFinishLaunching())
        var delivered: EventOutcome<ContinueUserActivityResult>?
        let immediate = host.dispatchAtOnce(.continueUserActivity(UserActivity(activityType: "com.example.reading"))) {
            delivered = $0
        }
        #expect(immediate.result == true)
        #expect(immediate.logs.map(\.message) == ["continuing com.example.reading"])
        #expect(immediate.requests.map(\.request) == [.registerForRemoteNotifications])
        #expect(delivered == nil)
        // The fetch calls the kept handler, then waits for its own completion: the restoration's
        // outcome is delivered meanwhile, and must not take the fetch's line.
        let fetch = await host.dispatch(.performFetch)
        let restored = try #require(delivered)
        #expect(restored.result.restorableObjects == ["article/42"])
        #expect(!restored.logs.contains { $0.message == "fetching" })
        #expect(fetch.logs.map(\.message) == ["fetching"])
    }

    @Test("many threads logging at once: the handler sees every record in the order kept, before it is taken")
    func stormIsHandedOverInOrder() throws {
        let seen = Mutex<[String]>([])
        // A handler that takes a moment (it renders the line), as an output's does.
        let log = HostLogRecorder(handler: { record in
            let rendered = record.description
            seen.withLock { $0.append(String(rendered.dropFirst("[Storm] info: ".count))) }
        })
        let threads = 4, lines = 20_000
        let done = Atomic<Int>(0)
        for thread in 0..<threads {
            Thread.detachNewThread {
                for line in 0..<lines { log.log(subscriber: "Storm", level: .info, message: "\(thread).\(line)") }
                done.add(1, ordering: .releasing)
            }
        }
        var taken: [String] = []
        var mismatches = 0
        while true {
            let finished = done.load(ordering: .acquiring) == threads
            let drained = log.drain().map(\.message)
            // Every record taken was handed to the handler first, in the same order.
            let before = taken.count
            let handedFirst = seen.withLock { handed in
                handed.count >= before + drained.count && handed[before..<(before + drained.count)].elementsEqual(drained)
            }
            if !handedFirst { mismatches += 1 }
            taken += drained
            if finished { break }
        }
        #expect(mismatches == 0)
        #expect(taken.count == threads * lines)
        #expect(Set(taken).count == threads * lines)
    }

    @Test("a handler that logs again: its line is handed over and kept right after the one it was handling, loose, in the latest event or in an older open one")
    func handlerLogsAgain() {
        final class Holder: @unchecked Sendable { weak var log: HostLogRecorder? }
        let holder = Holder()
        let handed = Mutex<[String]>([])
        let log = HostLogRecorder(handler: { record in
            handed.withLock { $0.append(record.message) }
            if !record.message.hasPrefix("again") { holder.log?.log(subscriber: "S", level: .info, message: "again after " + record.message) }
        })
        holder.log = log
        func lines(_ names: String...) -> [String] { names.flatMap { [$0, "again after " + $0] } }
        // Loose: no event open.
        log.log(subscriber: "S", level: .info, message: "a")
        #expect(log.take(event: nil, closing: false).logs.map(\.message) == lines("a"))
        // The latest event.
        log.open(event: 1)
        log.log(subscriber: "S", level: .info, message: "b")
        log.logEvent(subscriber: "S", name: "c", attributes: ["n": 1])
        #expect(log.take(event: 1, closing: false).logs.map(\.message) == lines("b", "c"))
        // An open event that is not the latest (event 2 opened after it).
        log.open(event: 2)
        log.open(event: 1)
        log.log(subscriber: "S", level: .info, message: "d")
        log.log(subscriber: "S", level: .info, message: "e")
        #expect(log.take(event: 1, closing: true).logs.map(\.message) == lines("d", "e"))
        #expect(handed.withLock { $0 } == lines("a", "b", "c", "d", "e"))
    }

    @Test("events without lines or requests between events with them: each outcome gets its own, the lines kept by a taker stay as they were")
    func quietEventsBetween() {
        let log = HostLogRecorder()
        var kept: [(event: Int, logs: [LogRecord])] = []
        for event in 1...12 {
            log.open(event: event)
            let lines = event % 3 == 0 ? 0 : event % 4 + 1
            for line in 0..<lines { log.log(subscriber: "S", level: .info, message: "event \(event) line \(line)") }
            if event % 5 == 0 { log.request(.registerForRemoteNotifications, from: "S") }
            let taken = log.take(event: event, closing: true)
            #expect(taken.logs.map(\.message) == (0..<lines).map { "event \(event) line \($0)" }, "\(event)")
            #expect(taken.requests.count == (event % 5 == 0 ? 1 : 0), "\(event)")
            if event % 2 == 1 { kept.append((event, taken.logs)) }
        }
        for (event, logs) in kept {
            let lines = event % 3 == 0 ? 0 : event % 4 + 1
            #expect(logs.map(\.message) == (0..<lines).map { "event \(event) line \($0)" }, "\(event)")
        }
        // A line after the last event's outcome goes with the next one taken.
        log.log(subscriber: "S", level: .info, message: "late")
        log.open(event: 13)
        #expect(log.take(event: 13, closing: true).logs.map(\.message) == ["late"])
    }

    @Test("200,000 lines logged in one event all go with its outcome (linear: a quadratic path would not finish in time)")
    func manyLinesInOneEvent() async throws {
        LogsManyLines.lines = 200_000
        let host = try PluginHost(application: testApplication, inProcess: [InProcessSubscriber(LogsManyLines.self)])
        defer { host.shutDown() }
        _ = await host.dispatch(.didFinishLaunching())
        let active = await host.dispatch(.didBecomeActive)
        #expect(active.logs.count == 200_000)
        #expect(active.logs.first?.message == "line 0" && active.logs.last?.message == "line 199999")
    }

    @Test("an event's lines handed out stay as they were while the next events' lines reuse the recorder's storage")
    func handedOutLinesStay() {
        let log = HostLogRecorder()
        var kept: [[LogRecord]] = []
        for event in 1...6 {
            log.open(event: event)
            for line in 0..<(event % 3 + 1) { log.log(subscriber: "S", level: .info, message: "event \(event) line \(line)") }
            let taken = log.take(event: event, closing: true).logs
            #expect(taken.map(\.message) == (0..<(event % 3 + 1)).map { "event \(event) line \($0)" })
            // Every other event's lines are kept by the taker (their storage cannot be reused), the
            // others let go (theirs is).
            if event % 2 == 0 { kept.append(taken) }
        }
        #expect(kept.map { $0.map(\.message) } == [2, 4, 6].map { event in (0..<(event % 3 + 1)).map { "event \(event) line \($0)" } })
    }
}
