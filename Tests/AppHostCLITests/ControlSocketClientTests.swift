import Foundation
import Glibc
import Synchronization
import Testing
@testable import AppHostCLI

/// `apphost send`'s side of the control socket against a fake host on the other end of a socket
/// pair that behaves as the live host does: it reads whatever lines have come (up to 1 MiB at a
/// wake-up), answers each at once with a reply several times its size, never waits for a client,
/// and closes one whose replies pile up unread. No timing: the fake host waits only on its socket
/// (bounded: 60 s without progress ends it), and the client's loop is the one under test.
@Suite("apphost send: the client side of the control socket")
struct ControlSocketClientTests {
    /// A reply of about 300 bytes, as the demo host's to a memory warning.
    static let reply = Array((#"{"event":"didReceiveMemoryWarning","result":null,"answers":["# + String(repeating: #"{"subscriber":"SessionAnalytics","answer":null,"ms":0.012},"#, count: 4) + #"{"subscriber":"QuietHours","answer":null,"ms":0.003}],"reports":[]}"# + "\n").utf8)

    /// The fake host on `fd`: answers the first `answerAtMost` lines (blank and comment lines get no
    /// answer, and a line of this test is never bad), and once it has read
    /// `closeAfter` lines sends what it holds and closes; drops the client (closes at once) once
    /// more than `pileLimit` reply bytes wait unsent. Returns the lines read, the lines answered and
    /// whether it dropped the client.
    static func fakeHost(_ fd: Int32, answerAtMost: Int = .max, closeAfter: Int = .max,
                         pileLimit: Int = 256 << 10) -> (lines: Int, answered: Int, dropped: Bool) {
        _ = makeNonBlocking(fd)
        var lines = 0, answered = 0
        var out: [UInt8] = [], outStart = 0
        var closing = false
        var line: [UInt8] = []
        defer { _ = close(fd) }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        func flush() {
            while outStart < out.count {
                let sent = out.withUnsafeBytes { send(fd, $0.baseAddress! + outStart, out.count - outStart, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                guard sent > 0 else { break }
                outStart += sent
            }
        }
        while true {
            if closing && outStart == out.count { return (lines, answered, false) }
            var poller = pollfd(fd: fd, events: (closing ? 0 : Int16(POLLIN)) | (outStart < out.count ? Int16(POLLOUT) : 0), revents: 0)
            guard poll(&poller, 1, 60_000) == 1 else { return (lines, answered, false) }
            if poller.revents & Int16(POLLERR) != 0 { return (lines, answered, false) }
            flush()
            guard !closing, poller.revents & Int16(POLLIN | POLLHUP) != 0 else { continue }
            // As the live host: up to 1 MiB read at a wake-up, every line in it answered at once.
            reading: for _ in 0..<16 {
                let count = read(fd, &chunk, chunk.count)
                if count == 0 { closing = true; break }
                if count < 0 { break }
                for byte in chunk[0..<count] {
                    guard byte == 10 else { line.append(byte); continue }
                    defer { line.removeAll(keepingCapacity: true) }
                    // Blank and comment lines get no reply, as the live host reads them.
                    guard (try? EventScript.entry(in: line[...], number: lines + 1, file: "<socket>")) != nil else { continue }
                    lines += 1
                    if answered < answerAtMost {
                        answered += 1
                        out += reply
                        flush()
                        if out.count - outStart > pileLimit { return (lines, answered, true) }
                    }
                    if lines == closeAfter { closing = true; break reading }
                }
            }
            if outStart > 1 << 20 { out.removeFirst(outStart); outStart = 0 }
        }
    }

    /// Runs the fake host on one end of a socket pair (its own thread) and the client on the other.
    static func exchange(lines: [UInt8]?, input: Int32 = 0, host: @escaping @Sendable (Int32) -> (lines: Int, answered: Int, dropped: Bool))
        -> (ControlSocketClient.Exchange, printed: [String], host: (lines: Int, answered: Int, dropped: Bool))
    {
        var ends: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let hostEnd = ends[1]
        let result = Mutex<(lines: Int, answered: Int, dropped: Bool)?>(nil)
        let thread = Thread { result.withLock { $0 = host(hostEnd) } }
        let done = DispatchSemaphore(value: 0)
        let finished = Thread { while result.withLock({ $0 == nil }) { usleep(1_000) }; done.signal() }
        thread.start()
        let printed = Mutex<[String]>([])
        let output = TextOutput { text in printed.withLock { $0 += text.split(separator: "\n").map(String.init) } }
        let exchange = ControlSocketClient.exchange(fd: ends[0], lines: lines, input: input, output: output)
        _ = close(ends[0])
        finished.start()
        _ = done.wait(timeout: .now() + 60)
        return (exchange, printed.withLock { $0 }, result.withLock { $0 } ?? (-1, -1, true))
    }

    static let memoryWarnings = 20_000
    static var script: [UInt8] { Array(String(repeating: #"{"event": "didReceiveMemoryWarning"}"# + "\n", count: memoryWarnings).utf8) }

    @Test("20,000 lines to a host that answers each at once and drops a client whose replies pile up: every answer read, none dropped")
    func everyAnswerArrives() {
        let (exchange, printed, host) = Self.exchange(lines: Self.script) { Self.fakeHost($0) }
        #expect(!host.dropped, "the fake host dropped the client: its replies piled up unread (the client wrote lines without reading replies)")
        #expect(host.lines == Self.memoryWarnings)
        #expect(exchange.replies == Self.memoryWarnings, "\(exchange.replies) of \(Self.memoryWarnings) answers read")
        #expect(printed.count == Self.memoryWarnings)
        #expect(exchange.failures == 0)
    }

    @Test("standard input as it comes, its last line without a newline: every line answered, the last one too")
    func inputWithoutAFinalNewline() throws {
        let path = FileManager.default.temporaryDirectory.path + "/apphost-send-input-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var text = Self.script
        text.removeLast()  // no newline after the last line
        // Blank and comment lines get no answer, and are not waited for.
        text = Array("\n# a comment\n  // another\n \r\n".utf8) + text
        try Data(text).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let input = open(path, O_RDONLY)
        defer { _ = close(input) }
        let (exchange, printed, host) = Self.exchange(lines: nil, input: input) { Self.fakeHost($0) }
        #expect(!host.dropped)
        #expect(exchange.expected == Self.memoryWarnings && exchange.replies == Self.memoryWarnings && !exchange.closedEarly)
        #expect(printed.count == Self.memoryWarnings)
    }

    @Test("a host that closes before answering every line: the exchange says so, expected N answers, found M")
    func anEarlyCloseIsAFailure() {
        let lines = Array(String(repeating: #"{"event": "didReceiveMemoryWarning"}"# + "\n", count: 20).utf8)
        let (exchange, printed, _) = Self.exchange(lines: lines) { Self.fakeHost($0, answerAtMost: 7, closeAfter: 20) }
        #expect(exchange.replies == 7 && printed.count == 7)
        #expect(exchange.closedEarly)
        #expect(exchange.shortfall(socket: "/run/x.sock")
                == "/run/x.sock: expected 20 answers, found 7: the host closed the connection before answering every line sent")
    }

    @Test("lines the host answers: every line but blank and comment ones, and any line too long")
    func replyCounter() {
        func counted(_ text: String) -> Int {
            var counter = ReplyCounter()
            return Array(text.utf8).filter { counter.take($0) }.count
        }
        #expect(counted("\n \n\t\n#x\n  # x\n//x\n \t// x\n\r\n  \r\n#\r\n") == 0)
        #expect(counted("{}\n /x\n/\r\n\r\r\nx\n  {\"event\": 1}\r\n") == 6)
        #expect(counted("#" + String(repeating: " ", count: EventScript.lineLimit) + "\n") == 1)
    }
}
