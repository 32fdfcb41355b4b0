import Foundation
import Glibc
import Testing
import SubscriberKit
import SubscriberEventModel

/// A coarse soak of the live host: many events through its control socket in one connection, each
/// reply awaited, with the host's resident memory read from /proc at 10 % of the events and at the end. It bounds memory,
/// never time: every wait is on the replies (each bounded generously), so a busy machine only makes
/// it slower. The benchmark's soak (`subscriber-bench --only live`) runs 100,000 events and reports
/// the figures; this guard catches a store that grows with every event.
@Suite("apphost run: a soak through the control socket")
struct CLILiveSoakTests {
    static let news = AppHostProcess.manifest("news.json")
    /// Events sent in the one connection.
    static let events = 20_000
    /// Events before the first sample: the host's buffers and caches have grown to their working size.
    static let warmUp = events / 10
    /// The most the host's RSS may grow from the first sample to the last. A store kept per event
    /// grows it by more: 250 bytes an event over the 18,000 events between the samples is 4.3 MiB.
    static let growthBoundKilobytes = 4 << 10

    /// Event `index` of the soak, valid from the active state: a cycle of 11 that leaves the app
    /// active again, URLs carrying the cycle number so that every payload is new.
    static func line(_ index: Int) -> String {
        let cycle = index / 11
        switch index % 11 {
        case 0: return #"{"event": "openURL", "url": "news://article/\#(cycle)", "options": {"sourceApplication": "com.apple.mobilesafari"}}"#
        case 1: return #"{"event": "openURL", "url": "https://elsewhere.example.org/page/\#(cycle)"}"#
        case 2: return #"{"event": "willContinueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb"}"#
        case 3: return #"{"event": "continueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://news.example.com/article/\#(cycle)"}"#
        case 4: return #"{"event": "supportedInterfaceOrientations", "idiom": "pad"}"#
        case 5: return #"{"event": "shouldAllowExtensionPointIdentifier", "identifier": "com.example.share"}"#
        case 6: return #"{"event": "didReceiveMemoryWarning"}"#
        case 7: return #"{"event": "willResignActive"}"#
        case 8: return #"{"event": "didEnterBackground"}"#
        case 9: return #"{"event": "willEnterForeground"}"#
        default: return #"{"event": "didBecomeActive"}"#
        }
    }

    /// The resident set of process `pid` in KiB (/proc/PID/statm's second field, in pages); nil if unreadable.
    static func residentKilobytes(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE)) / 1024
    }

    @Test("20,000 events through the control socket in one connection, each reply awaited: every one delivered, the host's RSS bounded from 10 % to the end")
    func soakBoundsResidentMemory() throws {
        let host = try LiveHostChild(["run", "--manifest", Self.news])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "no READY=1: \(host.stderr)")
        let client = try SocketClient(host.socketPath)
        defer { client.close() }

        var early: Int?
        var delivered = 0
        var firstProblem: String?
        for index in 0..<Self.events {
            try client.write(Array((Self.line(index) + "\n").utf8))
            // Each reply awaited (bounded: 60 s each), so the host's RSS is read between events.
            guard let reply = client.readLine() else {
                firstProblem = firstProblem ?? "no reply to event \(index + 1): \(host.stderr)"
                break
            }
            // Delivered: the event's outcome, neither an error line nor a refusal.
            if reply.hasPrefix(#"{"event":"#) && !reply.contains(#""result":null,"refused":"#) {
                delivered += 1
            } else {
                firstProblem = firstProblem ?? "event \(index + 1): \(reply)"
            }
            if index + 1 == Self.warmUp { early = Self.residentKilobytes(host.pid) }
        }
        // Every reply is in: the host has served every event and waits, idle.
        let late = Self.residentKilobytes(host.pid)

        #expect(delivered == Self.events, "\(delivered) of \(Self.events) delivered; first problem: \(firstProblem ?? "none")")
        let before = try #require(early, "/proc/\(host.pid)/statm unreadable")
        let after = try #require(late, "/proc/\(host.pid)/statm unreadable")
        #expect(after - before <= Self.growthBoundKilobytes,
                "the host's RSS grew from \(before) KiB at \(Self.warmUp) events to \(after) KiB at \(Self.events): more than \(Self.growthBoundKilobytes) KiB")

        // The host is still up and answers another client afterwards, and stops cleanly.
        let reply = try AppHostProcess.run(["send", "--manifest", Self.news, #"{"event": "didReceiveMemoryWarning"}"#],
                                           environment: host.environment)
        #expect(reply.status == 0, "\(reply.stderr)")
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
    }

    @Test("10,000 continueUserActivity through the control socket: the host's RSS bounded (the token table keeps no collector per event)")
    func restorationsAreNotKept() throws {
        let host = try LiveHostChild(["run", "--manifest", Self.news])
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "no READY=1: \(host.stderr)")
        let client = try SocketClient(host.socketPath)
        defer { client.close() }
        let events = 10_000
        var early: Int?
        var delivered = 0
        for index in 0..<events {
            // A universal link DeepLinkRouter routes: a loaded responder, so each event issues a completion token.
            try client.write(Array(#"{"event": "continueUserActivity", "activityType": "NSUserActivityTypeBrowsingWeb", "webpageURL": "https://news.example.com/article/\#(index)"}"#.utf8) + [10])
            guard let reply = client.readLine() else { break }
            if reply.hasPrefix(#"{"event":"continueUserActivity""#) { delivered += 1 }
            if index + 1 == events / 10 { early = Self.residentKilobytes(host.pid) }
        }
        let late = Self.residentKilobytes(host.pid)
        #expect(delivered == events)
        let before = try #require(early), after = try #require(late)
        // Each retired token kept its event's collector (about 630 bytes an event: 5.5 MiB over these
        // 9,000); now a slot of 16 bytes and one shared sink per event (about 25 bytes an event).
        #expect(after - before <= 2048, "RSS \(before) KiB at \(events / 10) events, \(after) KiB at \(events)")
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0, "\(host.stderr)")
    }
}
