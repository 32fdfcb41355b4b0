#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

/// The feed a run plays its events from: a checked list, or a stream read line by line.
@Suite("Event feeds")
struct EventFeedTests {
    @Test("a checked list's calls are played in order, then nothing, however often asked")
    func checkedList() throws {
        let calls = [EventCall.didBecomeActive.erased, EventCall.performFetch.erased, EventCall.willTerminate.erased]
        var feed = EventFeed(calls: calls)
        var played: [AnyEventCall] = []
        while let call = try feed.next() { played.append(call) }
        #expect(played == calls)
        #expect(try feed.next() == nil)
        var empty = EventFeed(calls: [])
        #expect(try empty.next() == nil)
    }

    @Test("a stream's lines are played as they are read, comments skipped; a bad line stops it after the calls before it, its number named")
    func stream() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let text = "{\"event\": \"didBecomeActive\"}\n# a comment\n\n{\"event\": \"performFetch\"}\n{\"event\": \"nope\"}\n{\"event\": \"willTerminate\"}\n"
        let written = Array(text.utf8).withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        defer { close(fds[0]) }
        #expect(written == text.utf8.count)
        var feed = EventFeed(streaming: LineReader(fd: fds[0], name: "<stdin>", totalLimit: nil))
        #expect(try feed.next() == EventCall.didBecomeActive.erased)
        #expect(try feed.next() == EventCall.performFetch.erased)
        do {
            _ = try feed.next()
            Issue.record("a bad line was played")
        } catch {
            #expect(error.file == "<stdin>" && error.line == 5)
        }
        // The feed keeps its place past the bad line (the run stops there; the feed does not go back).
        #expect(try feed.next() == EventCall.willTerminate.erased)
        #expect(try feed.next() == nil)
    }
}
