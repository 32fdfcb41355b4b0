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
        return (try ControlSocketPlace(bundleIdentifier: manifest.app.bundleIdentifier, environment: ProcessEnvironment.current), manifest)
    }

    /// The outcome of an exchange: the replies, and how many of them were errors or refusals.
    struct Exchange {
        var replies = 0
        var failures = 0
    }

    /// Sends `lines` (nil: standard input, as it comes) on connection `fd`, then reads every reply
    /// until the host closes, writing each reply line to `output`.
    static func exchange(fd: Int32, lines: [UInt8]?, output: TextOutput) -> Exchange {
        var exchange = Exchange()
        var pending: [UInt8] = []
        var reading = lines == nil
        if let lines { writeAll(fd, lines) }
        if !reading { shutdown(fd, Int32(SHUT_WR)) }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if reading { fds.append(pollfd(fd: 0, events: Int16(POLLIN), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { break }
            if reading, fds.count > 1, fds[1].revents != 0 {
                let count = read(0, &chunk, chunk.count)
                if count > 0 {
                    writeAll(fd, Array(chunk[0..<count]))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    reading = false
                    shutdown(fd, Int32(SHUT_WR))
                }
            }
            if fds[0].revents != 0 {
                let count = read(fd, &chunk, chunk.count)
                if count <= 0 {
                    if count < 0, errno == EINTR || errno == EAGAIN { continue }
                    break
                }
                pending += chunk[0..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    exchange.replies += 1
                    if isFailure(line) { exchange.failures += 1 }
                    output.write(bytes: line + [UInt8(ascii: "\n")])
                }
            }
        }
        if !pending.isEmpty {
            exchange.replies += 1
            exchange.failures += 1
            output.write(bytes: pending + [UInt8(ascii: "\n")])
        }
        return exchange
    }

    /// Whether a reply says the line failed: `{"error": …}`, or an event refused (`"refused"`).
    static func isFailure(_ line: [UInt8]) -> Bool {
        let value = line.withUnsafeBytes { try? JSONValue(parsing: $0) }
        guard case .object(let object)? = value else { return true }
        if object["error"] != nil { return true }
        if let refused = object["refused"], refused != .null { return true }
        return false
    }

    /// Writes all of `bytes` to `fd` (blocking); stops at an error.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var start = 0
        while start < bytes.count {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + start, bytes.count - start, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            start += written
        }
    }
}
