#if canImport(Glibc)
import Glibc
#endif
import SubscriberHost
import SubscriberKit

/// The client side of a live host's control socket, for `apphost send` and `apphost open`.
enum ControlSocketClient {
    /// Where the host for `manifestFile` listens: the manifest's bundle identifier's place.
    static func place(manifestFile: String) throws(LiveError) -> (ControlSocketPlace, Manifest) {
        let manifest: Manifest
        do {
            manifest = try Manifest(contentsOfFile: manifestFile)
        } catch {
            throw LiveError(ErrorLine.text(for: error))
        }
        return (try ControlSocketPlace(bundleIdentifier: manifest.app.bundleIdentifier, manifestFile: manifest.file,
                                    environment: ProcessEnvironment.current), manifest)
    }

    /// The outcome of an exchange: the replies, how many of them were errors or refusals, and how
    /// many the lines sent called for.
    struct Exchange {
        var replies = 0
        var failures = 0
        /// Replies owed: the lines sent that the host answers (every line but blank and comment lines).
        var expected = 0
        /// Input left unsent because the host closed the connection first.
        var unsent = false

        /// Whether the host closed before answering every line: fewer replies than lines sent, or
        /// input it never took.
        var closedEarly: Bool { replies < expected || unsent }

        /// The one line saying so, naming the socket at `socket`; nil when every line was answered.
        func shortfall(socket: String) -> String? {
            guard closedEarly else { return nil }
            let rest = unsent ? " (and input was left unsent)" : ""
            return "\(socket): expected \(expected) answer\(expected == 1 ? "" : "s"), found \(replies): "
                + "the host closed the connection before answering every line sent\(rest)"
        }
    }

    /// The most lines sent and not answered yet. The host closes a client whose replies pile up
    /// unread (1 MiB of them); a client whose own output is slow (a full pipe, a slow terminal) reads
    /// no replies meanwhile, so it sends no more than this many lines ahead of their replies.
    static let window = 32

    /// Sends `lines` (nil: the file descriptor `input`, standard input, as it comes) on connection
    /// `fd`, reading the host's replies as they come and writing each reply line to `output`, until
    /// the host closes. One poll loop, the socket non-blocking: lines are written when the socket
    /// takes them, replies read when they come, at most ``window`` lines ahead of their replies, and
    /// what `output` holds is written out before each wait. A last line without a newline gets one.
    static func exchange(fd: Int32, lines: [UInt8]?, input: Int32 = 0, output: TextOutput) -> Exchange {
        var exchange = Exchange()
        _ = makeNonBlocking(fd)
        /// Input read, not yet moved to `outgoing` (waiting for the window).
        var inbox: [UInt8] = lines ?? []
        var inboxStart = 0
        /// Bytes to send, from `outgoingStart`.
        var outgoing: [UInt8] = []
        var outgoingStart = 0
        var inputOpen = lines == nil
        var sendingOpen = true
        var counter = ReplyCounter()
        var replies: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let chunkLimit = chunk.count

        /// Moves whole lines (and the line begun) from the inbox to the outgoing bytes, while the
        /// window allows a new line and the outgoing bytes are few.
        func move() {
            if outgoingStart >= chunkLimit {
                outgoing.removeFirst(outgoingStart)
                outgoingStart = 0
            }
            while inboxStart < inbox.count, outgoing.count - outgoingStart < chunkLimit {
                if counter.atLineStart, exchange.expected - exchange.replies >= window { break }
                let end = inbox[inboxStart...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? inbox.count
                let piece = inbox[inboxStart..<end]
                outgoing += piece
                for byte in piece where counter.take(byte) { exchange.expected += 1 }
                inboxStart = end
            }
            if inboxStart == inbox.count {
                inbox.removeAll(keepingCapacity: true)
                inboxStart = 0
            }
            if !inputOpen, inbox.isEmpty, !counter.atLineStart {
                // The last line had no newline: the host answers a line once it ends.
                outgoing.append(UInt8(ascii: "\n"))
                if counter.take(UInt8(ascii: "\n")) { exchange.expected += 1 }
            }
        }

        while true {
            if sendingOpen { move() }
            let sending = sendingOpen && outgoingStart < outgoing.count
            if sendingOpen, !sending, !inputOpen, inbox.isEmpty {
                // Everything sent: the host closes once its replies are out.
                shutdown(fd, Int32(SHUT_WR))
                sendingOpen = false
            }
            let wantsInput = sendingOpen && inputOpen && inbox.isEmpty && outgoing.count - outgoingStart < chunkLimit
            var fds = [pollfd(fd: fd, events: Int16(POLLIN) | (sending ? Int16(POLLOUT) : 0), revents: 0)]
            if wantsInput { fds.append(pollfd(fd: input, events: Int16(POLLIN), revents: 0)) }
            // A reader of the output sees each reply before this waits.
            TextOutput.flushPending()
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if wantsInput, fds[1].revents != 0 {
                let count = read(input, &chunk, chunk.count)
                if count > 0 {
                    inbox += chunk[0..<count]
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    inputOpen = false
                }
            }
            if sending, fds[0].revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
                let sent = outgoing.withUnsafeBytes {
                    send(fd, $0.baseAddress! + outgoingStart, outgoing.count - outgoingStart, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if sent > 0 {
                    outgoingStart += sent
                    if outgoingStart == outgoing.count {
                        outgoing.removeAll(keepingCapacity: true)
                        outgoingStart = 0
                    }
                } else if sent < 0, errno != EINTR, errno != EAGAIN, errno != EWOULDBLOCK {
                    // The host closed: what it sent is still read below.
                    sendingOpen = false
                    exchange.unsent = true
                }
            }
            if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                let count = read(fd, &chunk, chunk.count)
                if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
                if count <= 0 { break }
                replies += chunk[0..<count]
                var start = 0
                while let newline = replies[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = replies[start..<newline]
                    exchange.replies += 1
                    if isFailure(line) { exchange.failures += 1 }
                    output.write(bytes: Array(replies[start...newline]))
                    start = newline + 1
                }
                replies.removeFirst(start)
            }
        }
        if sendingOpen, inputOpen || !inbox.isEmpty || outgoingStart < outgoing.count { exchange.unsent = true }
        if !replies.isEmpty {
            exchange.replies += 1
            exchange.failures += 1
            output.write(bytes: replies + [UInt8(ascii: "\n")])
        }
        TextOutput.flushPending()
        return exchange
    }

    /// Whether a reply says the line failed: `{"error": …}`, or an event refused (`"refused"`).
    static func isFailure(_ line: ArraySlice<UInt8>) -> Bool {
        let value = line.withUnsafeBytes { try? JSONValue(parsing: $0) }
        guard case .object(let object)? = value else { return true }
        if object["error"] != nil { return true }
        if let refused = object["refused"], refused != .null { return true }
        return false
    }
}

/// Counts, byte by byte, the lines the live host answers: every line but a blank one and a comment
/// (`#` or `//` after leading spaces and tabs, a final carriage return dropped), as
/// ``EventScript/entry(in:number:file:)`` reads them; a line longer than an event script line may
/// be is answered (with an error) whatever it holds. Constant memory, however long a line.
struct ReplyCounter {
    /// Bytes of the current line so far, without its newline.
    private var length = 0
    /// Bytes after the leading spaces and tabs, and the first two of them, and the last byte.
    private var restCount = 0
    private var first: UInt8 = 0
    private var second: UInt8 = 0
    private var last: UInt8 = 0

    /// Whether no byte of a line was taken since the last newline.
    var atLineStart: Bool { length == 0 }

    /// Takes one byte; true when it ends a line the host answers.
    mutating func take(_ byte: UInt8) -> Bool {
        guard byte == UInt8(ascii: "\n") else {
            length += 1
            if restCount > 0 || (byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")) {
                if restCount == 0 { first = byte } else if restCount == 1 { second = byte }
                restCount += 1
            }
            last = byte
            return false
        }
        defer { self = ReplyCounter() }
        if length > EventScript.lineLimit { return true }
        let content = restCount - (restCount > 0 && last == UInt8(ascii: "\r") ? 1 : 0)
        if content == 0 || first == UInt8(ascii: "#") { return false }
        if content >= 2, first == UInt8(ascii: "/"), second == UInt8(ascii: "/") { return false }
        return true
    }
}
