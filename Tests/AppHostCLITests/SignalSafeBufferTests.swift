#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import AppHostCLI

/// Two threads may write one buffer out at once: the write-out thread, and a handler or the ending
/// thread as the process ends. Each byte must be written once. These interleave the two by hand,
/// running the second writer in the middle of the first one's write(2).
@Suite("Signal-safe buffer")
struct SignalSafeBufferTests {
    /// A pipe, and what was written to it once its write end is closed.
    final class Pipe {
        let read: Int32
        let write: Int32

        init() {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            (read, write) = (ends[0], ends[1])
        }

        func contents() -> String {
            close(write)
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = Glibc.read(read, &chunk, chunk.count)
                guard count > 0 else { break }
                bytes += chunk[0..<count]
            }
            close(read)
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    static let lines = (1...3).map { "{\"event\": \"event \($0)\"}\n" }.joined()

    static func filled() -> SignalSafeBuffer {
        let buffer = SignalSafeBuffer(capacity: 4096)
        var text = lines
        text.withUTF8 { _ = buffer.append($0) }
        return buffer
    }

    /// The crash of a plugin while the write-out thread was in its write(2): the ending thread
    /// wrote the held events out, then the write-out thread's write went on: every line twice.
    @Test("the ending thread writes out while the write-out thread's write(2) is in flight: each line once")
    func endingDuringWriteOut() {
        let buffer = Self.filled(), output = Pipe()
        var calls = 0
        let failure = buffer.writeOut(to: output.write, waitingAtMost: -1) { fd, bytes, count in
            calls += 1
            if calls == 1 { buffer.writeOutBounded(to: fd, timer: nil) }  // the ending thread, meanwhile
            return write(fd, bytes, count)
        }
        #expect(failure == nil)
        #expect(buffer.count == 0)
        #expect(output.contents() == Self.lines)
    }

    @Test("a second write-out between the parts of a short write: each line once, in order")
    func writeOutDuringShortWrite() {
        let buffer = Self.filled(), output = Pipe()
        var calls = 0
        let failure = buffer.writeOut(to: output.write, waitingAtMost: -1) { fd, bytes, count in
            calls += 1
            guard calls == 1 else { return write(fd, bytes, count) }
            let written = write(fd, bytes, count / 2)
            #expect(buffer.writeOut(to: fd) == nil)  // another writer, meanwhile: nothing is left to it
            return written
        }
        #expect(failure == nil)
        #expect(calls == 2)
        #expect(output.contents() == Self.lines)
    }

    /// `kill -SEGV` from outside, landing on the write-out thread after it took the bytes and
    /// before its write(2): that thread never goes on, so the ending thread writes them.
    @Test("a signal that stops the writing thread between taking its bytes and writing them: the ending thread writes them, once")
    func handlerOnTheWritingThread() {
        let buffer = Self.filled(), output = Pipe()
        var calls = 0
        _ = buffer.writeOut(to: output.write, waitingAtMost: -1) { fd, _, count in
            calls += 1
            // The handler on this thread hands the ending to the ending thread, which writes out
            // for good; this thread's write never happens (here: it pretends it did).
            buffer.writeOutBounded(to: fd, timer: nil, interrupted: UInt(pthread_self()))
            return count
        }
        #expect(calls == 1)
        #expect(output.contents() == Self.lines)
    }

    @Test("a write that fails gives its bytes back: held again, and written once by the next write-out")
    func failedWriteGivesBytesBack() {
        let buffer = Self.filled(), output = Pipe()
        let held = buffer.count
        let failure = buffer.writeOut(to: output.write, waitingAtMost: -1) { _, _, _ in
            errno = EIO
            return -1
        }
        #expect(failure == EIO)
        #expect(buffer.count == held)
        buffer.writeOutBounded(to: output.write, timer: nil)
        #expect(buffer.count == 0)
        #expect(output.contents() == Self.lines)
    }

    /// Offsets are positions in the stream of every byte appended: an offset kept from before the
    /// buffer was emptied or its bytes moved to the front still names the same bytes.
    @Test("an offset taken before the buffer was emptied or compacted names the same bytes after")
    func offsetsOnlyGrow() {
        let buffer = SignalSafeBuffer(capacity: 16)
        var first = "0123456789", second = "abcdefgh"
        let afterFirst = first.withUTF8 { buffer.append($0) }
        #expect(afterFirst == 10)
        buffer.drop(before: 10)
        let afterSecond = second.withUTF8 { buffer.append($0) }  // moved to the front to fit
        #expect(afterSecond == 18)
        var seen = ""
        buffer.withBytes(from: 10, to: 18) { seen = String(decoding: $0, as: UTF8.self) }
        #expect(seen == "abcdefgh" && buffer.start == 10 && buffer.count == 8)
        buffer.empty()
        #expect(buffer.start == 18 && buffer.end == 18 && buffer.count == 0)
    }

    @Test("marked: a write-out stops at the mark, the bytes appended since held back")
    func markedHeld() {
        let buffer = Self.filled(), output = Pipe()
        buffer.mark(keepingDropped: false)
        var more = "{\"event\": \"event 4\"}\n"
        _ = more.withUTF8 { buffer.append($0) }
        #expect(buffer.writeOut(to: output.write) == nil)
        #expect(buffer.count == more.utf8.count && !buffer.isPastMark)
        buffer.unmark()
        #expect(buffer.writeOut(to: output.write) == nil)
        #expect(buffer.count == 0)
        #expect(output.contents() == Self.lines + more)
    }

    @Test("marked staged lines: the ending thread writes them from the marked start, those dropped since included, each once")
    func markedStaged() {
        let buffer = Self.filled(), output = Pipe()
        buffer.mark(keepingDropped: true)
        buffer.drop(before: buffer.start + Self.lines.split(separator: "\n")[0].utf8.count + 1)  // the first line, written the ordinary way meanwhile
        buffer.writeOutBounded(to: output.write, timer: nil, fromMark: true)
        #expect(output.contents() == Self.lines)
    }

    @Test("marked output bytes: those written out before the end of the block leave their room, and what follows fits")
    func markedRoomMadeAgain() {
        let buffer = SignalSafeBuffer(capacity: 16), output = Pipe()
        func append(_ text: String) -> Int? { var text = text; return text.withUTF8 { buffer.append($0) } }
        #expect(append("0123456789") != nil)  // held before the event
        buffer.mark(keepingDropped: false)
        #expect(append("abcd") != nil)  // the event's first line
        #expect(buffer.writeOut(to: output.write) == nil)  // the bytes before the mark go
        #expect(buffer.count == 4)
        #expect(append("efgh") != nil)  // room made over the bytes written out: nothing lost
        buffer.unmark()
        #expect(buffer.writeOut(to: output.write) == nil)
        #expect(output.contents() == "0123456789abcdefgh")
    }
}
