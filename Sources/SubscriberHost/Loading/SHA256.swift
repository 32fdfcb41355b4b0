#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SHA-256 (FIPS 180-4), used to check a plugin file against the manifest's pin. Streaming.
///
/// Feed bytes with `update`, in pieces of any size, then call `finalize` once.
/// The state is fixed-size: eight words of chaining value, a 64-byte block buffer
/// and a length counter; blocks are compressed straight from the caller's memory
/// when they are whole, and no block allocates.
package struct SHA256: Sendable {
    /// The chaining value H0...H7.
    private var h0: UInt32 = 0x6a09_e667
    private var h1: UInt32 = 0xbb67_ae85
    private var h2: UInt32 = 0x3c6e_f372
    private var h3: UInt32 = 0xa54f_f53a
    private var h4: UInt32 = 0x510e_527f
    private var h5: UInt32 = 0x9b05_688c
    private var h6: UInt32 = 0x1f83_d9ab
    private var h7: UInt32 = 0x5be0_cd19

    /// A partial block: 64 bytes of inline storage, of which the first `bufferCount` are used.
    private var buffer: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var bufferCount: Int = 0

    /// Total message length so far, in bytes.
    private var byteCount: UInt64 = 0

    /// An empty message: the initial state of FIPS 180-4 §5.3.3, ready for ``update(_:)``.
    package init() {}

    /// Adds bytes to the message.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var input = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        byteCount &+= UInt64(remaining)

        // Top up a partial block first.
        if bufferCount > 0 {
            let take = min(64 - bufferCount, remaining)
            let filled = bufferCount
            withUnsafeMutableBytes(of: &buffer) { buf in
                buf.baseAddress!.advanced(by: filled).copyMemory(from: input, byteCount: take)
            }
            bufferCount += take
            input += take
            remaining -= take
            guard bufferCount == 64 else { return }
            var block = buffer
            withUnsafeBytes(of: &block) { compress($0.baseAddress!, blocks: 1) }
            bufferCount = 0
        }

        // Whole blocks straight from the input.
        let whole = remaining / 64
        if whole > 0 {
            compress(input, blocks: whole)
            input += whole * 64
            remaining -= whole * 64
        }

        // Keep the tail.
        if remaining > 0 {
            let tail = remaining
            withUnsafeMutableBytes(of: &buffer) { buf in
                buf.baseAddress!.copyMemory(from: input, byteCount: tail)
            }
            bufferCount = tail
        }
    }

    /// Adds bytes to the message (convenience over any byte collection).
    package mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Pads the message, processes the last block(s) and returns the digest.
    package consuming func finalize() -> SHA256Digest {
        let bitLength = byteCount &* 8
        // 0x80, then zeros up to 56 mod 64 (padLength bytes in all), then the 64-bit big-endian bit length.
        let padLength = bufferCount < 56 ? 56 - bufferCount : 120 - bufferCount
        var tail: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                   UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &tail) { pad in
            pad[0] = 0x80
            pad.storeBytes(of: bitLength.bigEndian, toByteOffset: padLength, as: UInt64.self)
        }
        let total = padLength + 8
        withUnsafeBytes(of: &tail) { pad in
            update(UnsafeRawBufferPointer(rebasing: pad[0..<total]))
        }
        precondition(bufferCount == 0, "SHA256: padding did not end on a block boundary")

        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: h0.bigEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: h1.bigEndian, toByteOffset: 4, as: UInt32.self)
            raw.storeBytes(of: h2.bigEndian, toByteOffset: 8, as: UInt32.self)
            raw.storeBytes(of: h3.bigEndian, toByteOffset: 12, as: UInt32.self)
            raw.storeBytes(of: h4.bigEndian, toByteOffset: 16, as: UInt32.self)
            raw.storeBytes(of: h5.bigEndian, toByteOffset: 20, as: UInt32.self)
            raw.storeBytes(of: h6.bigEndian, toByteOffset: 24, as: UInt32.self)
            raw.storeBytes(of: h7.bigEndian, toByteOffset: 28, as: UInt32.self)
        }
        return SHA256Digest(uncheckedBytes: out)
    }

    /// One-shot hash of a byte collection.
    package static func hash<C: Collection>(_ bytes: C) -> SHA256Digest where C.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Hashes a file, reading it in 64 KiB chunks with open/read (Glibc). Throws SHA256FileError naming the path and errno text.
    package static func hash(fileAtPath path: String) throws(SHA256FileError) -> SHA256Digest {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        if fd < 0 {
            throw SHA256FileError(path: path, reason: "open: " + errnoText(errno))
        }
        defer { _ = close(fd) }
        return try hash(fileDescriptor: fd, path: path)
    }

    /// Hashes everything in the open file `fd`, from its first byte to its end, in 64 KiB chunks
    /// (`pread`: the descriptor's own offset is neither used nor moved). `path` names it in errors.
    package static func hash(fileDescriptor fd: Int32, path: String) throws(SHA256FileError) -> SHA256Digest {
        let chunkSize = 64 * 1024
        var hasher = SHA256()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        var offset: off_t = 0
        while true {
            let n = pread(fd, chunk.baseAddress, chunkSize, offset)
            if n > 0 {
                hasher.update(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
                offset += off_t(n)
            } else if n == 0 {
                break
            } else {
                let code = errno
                if code == EINTR { continue }
                throw SHA256FileError(path: path, reason: "read: " + errnoText(code))
            }
        }
        return hasher.finalize()
    }

    private static func errnoText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text) + " (errno \(code))"
    }

    // MARK: - Compression

    /// Round constants K0...K63 (FIPS 180-4 §4.2.2).
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
        (x &>> n) | (x &<< (32 &- n))
    }

    /// Compresses `blocks` consecutive 64-byte blocks starting at `data` (any alignment).
    private mutating func compress(_ data: UnsafeRawPointer, blocks: Int) {
        var a0 = h0, b0 = h1, c0 = h2, d0 = h3, e0 = h4, f0 = h5, g0 = h6, hh0 = h7
        Self.k.withUnsafeBufferPointer { kb in
            let k = kb.baseAddress!
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { wb in
                let w = wb.baseAddress!
                var p = data
                for _ in 0..<blocks {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t &- 15], y = w[t &- 2]
                        let s0 = Self.rotr(x, 7) ^ Self.rotr(x, 18) ^ (x &>> 3)
                        let s1 = Self.rotr(y, 17) ^ Self.rotr(y, 19) ^ (y &>> 10)
                        w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                    }
                    var a = a0, b = b0, c = c0, d = d0, e = e0, f = f0, g = g0, h = hh0
                    for t in 0..<64 {
                        let s1 = Self.rotr(e, 6) ^ Self.rotr(e, 11) ^ Self.rotr(e, 25)
                        let ch = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ ch &+ k[t] &+ w[t]
                        let s0 = Self.rotr(a, 2) ^ Self.rotr(a, 13) ^ Self.rotr(a, 22)
                        let maj = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ maj
                        h = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ t2
                    }
                    a0 &+= a; b0 &+= b; c0 &+= c; d0 &+= d
                    e0 &+= e; f0 &+= f; g0 &+= g; hh0 &+= h
                    p += 64
                }
            }
        }
        h0 = a0; h1 = b0; h2 = c0; h3 = d0; h4 = e0; h5 = f0; h6 = g0; h7 = hh0
    }
}

/// A SHA-256 digest: 32 bytes, shown as 64 lowercase hex digits.
public struct SHA256Digest: Sendable, Hashable, CustomStringConvertible {
    /// The 32 digest bytes.
    public let bytes: [UInt8]

    init(uncheckedBytes: [UInt8]) {
        precondition(uncheckedBytes.count == 32, "SHA256Digest needs 32 bytes")
        self.bytes = uncheckedBytes
    }

    /// Parses exactly 64 hex digits (either case); nil for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 else { return nil }
        var out = [UInt8](repeating: 0, count: 32)
        for i in 0..<32 {
            guard let hi = Self.nibble(utf8[2 * i]), let lo = Self.nibble(utf8[2 * i + 1]) else { return nil }
            out[i] = hi << 4 | lo
        }
        self.bytes = out
    }

    /// Lowercase hex, 64 characters.
    public var hex: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var chars = [UInt8]()
        chars.reserveCapacity(64)
        for byte in bytes {
            chars.append(digits[Int(byte >> 4)])
            chars.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: chars, as: UTF8.self)
    }

    /// The same as ``hex``.
    public var description: String { hex }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Hashing a file failed: which file, and why (the errno text).
package struct SHA256FileError: Error, Sendable, CustomStringConvertible {
    /// The file that could not be hashed, as the caller named it.
    package let path: String
    /// Why: the system's text for the errno of the failed open or read.
    package let reason: String

    /// The failure to hash `path`, for `reason`.
    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `cannot hash '<path>': <reason>`.
    package var description: String { "cannot hash '\(path)': \(reason)" }
}
