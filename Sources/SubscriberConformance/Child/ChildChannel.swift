#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The framing of a child process's private channel (a socket the plugin is not told about): each
/// message is a 4-byte big-endian length, then that many bytes. The child layer moves frames; what
/// they mean belongs to whoever runs the child (the kit: ``ChildWire``).
enum ChildChannel {
    /// The largest frame either side accepts. Everything the kit sends fits well under it (the
    /// child cuts long texts before sending), so a bigger one is a broken channel.
    static let frameLimit = 4 << 20

    /// `payload` framed.
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(clamping: payload.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + payload
    }

    /// Writes all of `bytes` to `fd` (blocking); false when the other end is gone.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Reads one frame from `fd` (blocking); nil at end of file, on an error, or past `limit` bytes.
    static func readFrame(from fd: Int32, limit: Int = frameLimit) -> [UInt8]? {
        guard let header = readExactly(4, from: fd) else { return nil }
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard length <= limit else { return nil }
        return readExactly(length, from: fd)
    }

    private static func readExactly(_ count: Int, from fd: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let read = bytes[offset...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if read < 0 && errno == EINTR { continue }
            if read <= 0 { return nil }
            offset += read
        }
        return bytes
    }
}

/// Cuts a byte stream into frames as it arrives, keeping at most one partial frame.
struct ChildFrameDecoder {
    /// Why the stream is no longer readable, once it is not.
    private(set) var failure: String?
    private var buffer: [UInt8] = []
    let limit: Int

    init(limit: Int = ChildChannel.frameLimit) {
        self.limit = limit
    }

    /// Adds `bytes`; returns the frames they complete. After a frame over the limit, nothing more.
    mutating func feed(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
        guard failure == nil else { return [] }
        buffer += bytes
        var frames: [[UInt8]] = []
        var start = 0
        while buffer.count - start >= 4 {
            let length = Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            if length > limit {
                failure = "a frame of \(length) bytes, over the limit of \(limit)"
                buffer = []
                return frames
            }
            guard buffer.count - start - 4 >= length else { break }
            frames.append(Array(buffer[(start + 4)..<(start + 4 + length)]))
            start += 4 + length
        }
        buffer.removeFirst(start)
        return frames
    }
}

/// The child's end of the channel: whole frames, one writer at a time (several threads may write).
final class ChildChannelWriter: Sendable {
    private let fd: Mutex<Int32>

    init(fd: Int32) {
        self.fd = Mutex(fd)
    }

    /// Sends `payload` as one frame.
    func send(_ payload: [UInt8]) {
        let frame = ChildChannel.frame(payload)
        fd.withLock { _ = ChildChannel.writeAll(frame, to: $0) }
    }
}
