#if canImport(Glibc)
import Glibc
#endif
import SubscriberKit
import SubscriberEventModel

/// The live host's control socket: event-script lines in, one JSON line out per line (the event's
/// outcome as `--json` writes it, or `{"error": "…"}` for a bad line, after which the connection
/// goes on).
///
/// Bounded: a line may have at most ``EventScript/lineLimit`` bytes (a longer one is answered with
/// an error and skipped to its end), at most ``maxClients`` connections are served at once (one
/// more gets an error line and is closed), and at most ``outputLimit`` bytes of replies wait for a
/// client: a client that does not read is closed, never waited for. Every client socket is
/// non-blocking, so no client blocks the host or another client. Peers of another uid are refused
/// (SO_PEERCRED).
@MainActor
final class ControlSocketServer: LiveSource {
    let name = "control socket"
    /// The most connections served at once.
    static let maxClients = 128
    /// The most reply bytes that may wait for one client.
    static let outputLimit = 1 << 20
    /// How errors name a connection's lines.
    static let lineSource = "<socket>"

    let path: String
    private let listener: Int32
    private var clients: [Int32: Client] = [:]
    /// Whether ``close()`` ran (it runs once: a descriptor is never closed twice).
    private var closed = false
    /// Clients closed because they did not read their replies, for the host's lines.
    private(set) var dropped = 0
    /// Notes for the host to say (a stale socket replaced).
    private(set) var notes: [String] = []

    /// `struct ucred` (SO_PEERCRED), which Glibc's module leaves out without _GNU_SOURCE.
    private struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    private final class Client {
        let fd: Int32
        var input: [UInt8] = []
        var output: [UInt8] = []
        var outputStart = 0
        var lineNumber = 0
        /// Skipping the rest of a line that was too long.
        var discarding = false
        /// The peer closed its writing side: close once its replies are out.
        var peerDone = false
        /// Lines handed to the host whose reply has not come yet.
        var pending = 0
        var dead = false
        init(fd: Int32) { self.fd = fd }
        var waiting: Int { output.count - outputStart }
    }

    /// Listens at `path`, replacing a stale socket a killed host left there (nothing answers it).
    init(path: String) throws(LiveError) {
        self.path = path
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw LiveError("\(path): expected the control socket or nothing, found a file that is not a socket")
            }
            if case .success(let fd) = connectUnix(path) {
                _ = Glibc.close(fd)
                throw LiveError("\(path): another host answers on this control socket")
            }
            unlink(path)
            notes.append("replaced a stale control socket left by a host that ended: \(path)")
        }
        guard let (bound, length) = unixAddress(path) else { throw LiveError("\(path): too long for a socket") }
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else { throw LiveError("control socket: \(String(cString: strerror(errno)))") }
        let status = withUnsafePointer(to: bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard status == 0, chmod(path, 0o600) == 0, listen(listener, 128) == 0 else {
            let code = errno
            _ = Glibc.close(listener)
            throw LiveError("\(path): cannot listen: \(String(cString: strerror(code)))")
        }
    }

    func interests() -> [pollfd] {
        guard !closed else { return [] }
        for client in clients.values where client.dead || (client.peerDone && client.pending == 0 && client.waiting == 0) {
            drop(client)
        }
        var wanted = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        for client in clients.values {
            var events: Int16 = client.peerDone ? 0 : Int16(POLLIN)
            if client.waiting > 0 { events |= Int16(POLLOUT) }
            wanted.append(pollfd(fd: client.fd, events: events, revents: 0))
        }
        return wanted
    }

    func ready(_ fd: Int32, events: Int16) -> [LiveStimulus] {
        if fd == listener {
            accept()
            return []
        }
        guard let client = clients[fd], !client.dead else { return [] }
        if events & Int16(POLLOUT) != 0 { flush(client) }
        if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { return read(client) }
        return []
    }

    func close() {
        guard !closed else { return }
        closed = true
        for client in clients.values { drop(client) }
        _ = Glibc.close(listener)
        unlink(path)
    }

    private func accept() {
        for _ in 0..<256 {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return }
            guard makeNonBlocking(fd) else { _ = Glibc.close(fd); continue }
            var credentials = PeerCredentials()
            var size = socklen_t(MemoryLayout<PeerCredentials>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials.uid == getuid() else {
                refuse(fd, Self.errorLine("the control socket: expected a peer of uid \(getuid()), found uid \(credentials.uid)"))
                continue
            }
            guard clients.count < Self.maxClients else {
                refuse(fd, Self.errorLine("the control socket: expected at most \(Self.maxClients) connections at once, found one more; try again"))
                continue
            }
            clients[fd] = Client(fd: fd)
        }
    }

    /// Writes `line` if the socket takes it at once, then closes.
    private func refuse(_ fd: Int32, _ line: String) {
        _ = Array(line.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        _ = Glibc.close(fd)
    }

    private func read(_ client: Client) -> [LiveStimulus] {
        var stimuli: [LiveStimulus] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        // At most 1 MiB per wake-up, so one busy client cannot hold the loop.
        var drained = false
        for _ in 0..<16 where !drained {
            let count = Glibc.read(client.fd, &chunk, chunk.count)
            if count == 0 {
                client.peerDone = true
                // A last line without a newline (the peer shut its side down after it) is a line,
                // as in a script file.
                if !client.input.isEmpty && !client.discarding { endLine(of: client, into: &stimuli) }
                break
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { client.peerDone = true }
                break
            }
            // A short read took everything there was: the next read would say EAGAIN.
            defer { if count < chunk.count { drained = true } }
            var start = 0
            while start < count {
                let newline = chunk[start..<count].firstIndex(of: UInt8(ascii: "\n"))
                let end = newline ?? count
                if client.discarding {
                    if newline != nil { client.discarding = false }
                } else if client.input.count + (end - start) > EventScript.lineLimit {
                    client.lineNumber += 1
                    client.input.removeAll()
                    client.discarding = newline == nil
                    stimuli.append(answer(client, Self.errorLine(ErrorLine.text(for: EventScript.lineTooLong(file: Self.lineSource, line: client.lineNumber)))))
                } else {
                    client.input += chunk[start..<end]
                    if newline != nil { endLine(of: client, into: &stimuli) }
                }
                start = end + 1
            }
        }
        return stimuli
    }

    /// The client's line in `input` is complete (its newline came, or the peer's end): counted, its
    /// stimulus added to `stimuli`, `input` emptied for the next.
    private func endLine(of client: Client, into stimuli: inout [LiveStimulus]) {
        client.lineNumber += 1
        if let stimulus = stimulus(for: client) { stimuli.append(stimulus) }
        client.input.removeAll(keepingCapacity: client.input.count < 4096)
    }

    /// The stimulus for the client's complete line in `input`: its call, or its error; nil for a
    /// blank or comment line.
    private func stimulus(for client: Client) -> LiveStimulus? {
        if let reload = reloadStimulus(for: client) { return reload }
        do {
            guard let (call, source) = try EventScript.entry(in: client.input[...], number: client.lineNumber, file: Self.lineSource)
            else { return nil }
            client.pending += 1
            // `apphost open` says so in its line ("source": "open"); any other line is the socket's.
            return .call(call, from: source == "open" ? "open" : name, reply: { [weak self, client] text in
                client.pending -= 1
                self?.enqueue(text, to: client)
            })
        } catch {
            return answer(client, Self.errorLine(ErrorLine.text(for: error)))
        }
    }

    /// The stimulus of a `{"reload": "NAME"}` line (`apphost send --reload`), or its error; nil for
    /// any other line (an event-script line). Only a line holding `"reload"` is parsed here.
    private func reloadStimulus(for client: Client) -> LiveStimulus? {
        let key = Array("\"reload\"".utf8)
        guard client.input.count >= key.count,
              client.input.indices.dropLast(key.count - 1).contains(where: { client.input[$0..<($0 + key.count)].elementsEqual(key) }),
              case .object(let object)? = client.input.withUnsafeBytes({ try? JSONValue(parsing: $0) }),
              let value = object["reload"], object["event"] == nil
        else { return nil }
        let place = "\(Self.lineSource):\(client.lineNumber): reload"
        guard case .string(let name) = value, !name.isEmpty, object.count == 1 else {
            let found = object.count == 1 ? ErrorLine.value("\(value)") : "more keys: " + object.keys.sorted().joined(separator: ", ")
            return answer(client, Self.errorLine("\(place): expected {\"reload\": \"<plugin or subscriber name>\"} alone, found \(found)"))
        }
        client.pending += 1
        return .reload(name, reply: { [weak self, client] text in
            client.pending -= 1
            self?.enqueue(text, to: client)
        })
    }

    /// A reply that needs no event, in its turn among the client's replies.
    private func answer(_ client: Client, _ line: String) -> LiveStimulus {
        client.pending += 1
        return .answer(line, reply: { [weak self, client] text in
            client.pending -= 1
            self?.enqueue(text, to: client)
        })
    }

    /// `{"error": "…"}` and a newline.
    static func errorLine(_ message: String) -> String {
        JSONValue.object(["error": .string(message)]).serialized() + "\n"
    }

    private func enqueue(_ text: String, to client: Client) {
        guard !client.dead else { return }
        if client.waiting + text.utf8.count > Self.outputLimit {
            // Not read: closed, never waited for.
            dropped += 1
            client.dead = true
            return
        }
        client.output += text.utf8
        flush(client)
    }

    private func flush(_ client: Client) {
        while client.waiting > 0 {
            let sent = client.output.withUnsafeBytes { raw in
                send(client.fd, raw.baseAddress! + client.outputStart, client.waiting, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 { client.outputStart += sent; continue }
            if sent < 0, errno == EINTR { continue }
            if sent < 0, errno != EAGAIN, errno != EWOULDBLOCK { client.dead = true }
            break
        }
        if client.waiting == 0 {
            client.output.removeAll(keepingCapacity: client.output.count < 65536)
            client.outputStart = 0
        } else if client.outputStart > 65536 {
            client.output.removeFirst(client.outputStart)
            client.outputStart = 0
        }
    }

    private func drop(_ client: Client) {
        clients[client.fd] = nil
        _ = Glibc.close(client.fd)
        client.dead = true
    }
}
