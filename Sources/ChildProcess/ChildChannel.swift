#if canImport(Glibc)
import Glibc
#endif
import ChildProcessEntry
import Synchronization

/// The framing of a child's channels: each message is a 4-byte big-endian length, then that many
/// bytes. The layer moves frames and checks who wrote them (``ChildSecret``); what they mean belongs
/// to whoever runs the child.
package enum ChildChannel {
    /// The largest frame either side accepts. Everything the layer's users send fits well under it,
    /// so a bigger one is a broken channel.
    package static let frameLimit = 4 << 20

    /// `payload` framed.
    package static func frame(_ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(clamping: payload.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + payload
    }

    /// Writes all of `bytes` to `fd` (blocking); false when the other end is gone.
    package static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
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
    package static func readFrame(from fd: Int32, limit: Int = frameLimit) -> [UInt8]? {
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

/// The run's secret: random bytes the parent makes for each child and sends as the first frame on
/// its worker channel, before any code of the child's role runs. Every frame the worker sends starts
/// with it. The worker channel lives in the worker's process, where other code (a plugin) can find
/// and write to it; without the secret, what it writes is told apart and reported, never taken for
/// the worker's. Code that reads the secret out of the worker's memory is attacking the layer on
/// purpose: process isolation, not this check, is the defence against that.
package struct ChildSecret: Sendable, Hashable {
    /// Its bytes (``size`` of them).
    package let bytes: [UInt8]

    /// The size of a secret in bytes.
    package static let size = Int(ADH_CHILD_SECRET_SIZE)

    /// A fresh secret from the system's random source.
    package static func random() -> ChildSecret {
        var generator = SystemRandomNumberGenerator()
        return ChildSecret(bytes: (0..<size).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// A secret with these bytes (the worker's copy, from the child entry).
    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether `frame` starts with this secret.
    func signs(_ frame: [UInt8]) -> Bool {
        frame.count >= bytes.count && frame.prefix(bytes.count).elementsEqual(bytes)
    }
}

/// Cuts a byte stream into frames as it arrives, keeping at most one partial frame.
package struct ChildFrameDecoder {
    /// Why the stream is no longer readable, once it is not.
    package private(set) var failure: String?
    private var buffer: [UInt8] = []
    /// The largest frame accepted.
    package let limit: Int

    /// A decoder accepting frames of at most `limit` bytes.
    package init(limit: Int = ChildChannel.frameLimit) {
        self.limit = limit
    }

    /// Adds `bytes`; returns the frames they complete. After a frame over the limit, nothing more.
    package mutating func feed(_ bytes: ArraySlice<UInt8>) -> [[UInt8]] {
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

    /// Bytes of an unfinished frame left when the stream ended.
    package var pendingBytes: Int { buffer.count }
}

/// The worker's end of its channel: frames signed with the run's secret, one writer at a time
/// (several threads may send).
package final class ChildEndpoint: Sendable {
    private let fd: Mutex<Int32>
    private let secret: ChildSecret

    /// The endpoint on descriptor `fd`, signing with `secret`.
    package init(fd: Int32, secret: ChildSecret) {
        self.fd = Mutex(fd)
        self.secret = secret
    }

    /// The endpoint the child entry hands a role's main: `channel`, and the secret's bytes.
    package convenience init(channel: Int32, secret: UnsafePointer<UInt8>?, length: Int) {
        let bytes = secret.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
        self.init(fd: channel, secret: ChildSecret(bytes: bytes))
    }

    /// The descriptor, for the child's own tests.
    package var descriptor: Int32 { fd.withLock { $0 } }

    /// Sends `payload` as one signed frame; false when the parent is gone.
    @discardableResult
    package func send(_ payload: [UInt8]) -> Bool {
        let frame = ChildChannel.frame(secret.bytes + payload)
        return fd.withLock { ChildChannel.writeAll(frame, to: $0) }
    }

    /// Reads the parent's next frame (blocking); nil at end of file or past `limit` bytes.
    package func receive(limit: Int = ChildChannel.frameLimit) -> [UInt8]? {
        let descriptor = fd.withLock { $0 }
        return ChildChannel.readFrame(from: descriptor, limit: limit)
    }
}
