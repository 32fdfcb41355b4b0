import Testing
@testable import SubscriberHost

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("SHA-256")
struct SHA256Tests {
    // MARK: NIST FIPS 180-2 / 180-4 example vectors

    @Test("empty message")
    func emptyMessage() {
        #expect(SHA256.hash([UInt8]()).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("\"abc\" (one block)")
    func abc() {
        #expect(SHA256.hash(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("448-bit message (two blocks)")
    func twoBlockMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hash(message.utf8).hex == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("896-bit message")
    func longMessage() {
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(SHA256.hash(message.utf8).hex == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("one million 'a'")
    func oneMillionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hash(message).hex == expected)

        // And fed 1000 bytes at a time, as the NIST monte-carlo style description does.
        var hasher = SHA256()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(thousand) }
        #expect(hasher.finalize().hex == expected)
    }

    // MARK: Padding edge cases (expected values from sha256sum / hashlib)

    @Test("padding boundaries: 55, 56, 63, 64 bytes of 'a'", arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func paddingBoundaries(length: Int, expected: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(SHA256.hash(message).hex == expected)
    }

    // MARK: Streaming

    @Test("streaming in odd-sized pieces equals one-shot", arguments: [1, 3, 7, 55, 56, 63, 64, 65, 127, 128, 129, 1000])
    func streamingMatchesOneShot(pieceSize: Int) {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let expected = "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"
        #expect(SHA256.hash(message).hex == expected)

        var hasher = SHA256()
        var start = 0
        while start < message.count {
            let end = min(start + pieceSize, message.count)
            hasher.update(message[start..<end])
            start = end
        }
        #expect(hasher.finalize().hex == expected)
    }

    @Test("streaming in mixed piece sizes, including empty pieces and raw buffers")
    func streamingMixedPieces() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let sizes = [0, 1, 63, 64, 65, 0, 2, 127, 128, 129, 5]
        var hasher = SHA256()
        var start = 0
        var i = 0
        while start < message.count {
            let end = min(start + sizes[i % sizes.count], message.count)
            message[start..<end].withUnsafeBytes { hasher.update($0) }
            start = end
            i += 1
        }
        #expect(hasher.finalize() == SHA256.hash(message))
    }

    @Test("non-contiguous collections hash like their bytes")
    func nonContiguousCollection() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        let lazyBytes = message.utf8.lazy.map { $0 }
        #expect(SHA256.hash(lazyBytes) == SHA256.hash(Array(message.utf8)))
    }

    // MARK: Files

    @Test("hashing a file equals hashing its bytes (spans more than one 64 KiB chunk)")
    func fileMatchesBytes() throws {
        var bytes = [UInt8]()
        for _ in 0..<300 { bytes.append(contentsOf: (0...255).map { UInt8($0) }) }  // 76,800 bytes

        let path = try Self.writeTempFile(bytes)
        defer { _ = unlink(path) }

        let digest = try SHA256.hash(fileAtPath: path)
        #expect(digest == SHA256.hash(bytes))
        #expect(digest.hex == "f8b0585eb91f58c007a5634362c9f90d8543822c113f702523bc7b73408a9392")
    }

    @Test("hashing an empty file gives the empty-message digest")
    func emptyFile() throws {
        let path = try Self.writeTempFile([])
        defer { _ = unlink(path) }
        #expect(try SHA256.hash(fileAtPath: path).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("a missing file throws, naming the path")
    func missingFile() {
        let path = "/nonexistent-dir-\(getpid())/no-such-plugin.so"
        do {
            _ = try SHA256.hash(fileAtPath: path)
            Issue.record("expected hashing a missing file to throw")
        } catch {
            #expect(error.path == path)
            #expect(error.description.contains(path))
            #expect(!error.reason.isEmpty)
            #expect(error.reason.contains(String(cString: strerror(ENOENT))))
        }
    }

    @Test("a directory throws rather than hashing")
    func directoryThrows() {
        #expect(throws: SHA256FileError.self) { try SHA256.hash(fileAtPath: "/") }
    }

    // MARK: Digest

    @Test("digest hex round-trips and is lowercase")
    func digestHex() {
        let digest = SHA256.hash(Array("abc".utf8))
        #expect(digest.bytes.count == 32)
        #expect(digest.description == digest.hex)
        #expect(digest.hex.count == 64)
        #expect(digest.hex == digest.hex.lowercased())
        #expect(SHA256Digest(hex: digest.hex) == digest)
    }

    @Test("SHA256Digest(hex:) accepts upper case, rejects wrong length and non-hex")
    func digestParsing() {
        let lower = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        let upper = lower.uppercased()
        let parsed = SHA256Digest(hex: upper)
        #expect(parsed != nil)
        #expect(parsed == SHA256Digest(hex: lower))
        #expect(parsed?.hex == lower)
        #expect(parsed == SHA256.hash(Array("abc".utf8)))

        #expect(SHA256Digest(hex: String(lower.dropLast())) == nil)         // 63 digits
        #expect(SHA256Digest(hex: lower + "0") == nil)                      // 65 digits
        #expect(SHA256Digest(hex: "") == nil)
        #expect(SHA256Digest(hex: String(lower.dropLast()) + "g") == nil)   // non-hex
        #expect(SHA256Digest(hex: " " + String(lower.dropLast())) == nil)   // whitespace
        #expect(SHA256Digest(hex: "0x" + String(lower.dropLast(2))) == nil) // prefix
        #expect(SHA256Digest(hex: String(lower.dropLast()) + "é") == nil)   // non-ASCII
    }

    // MARK: Helpers

    struct TempFileError: Error { let reason: String }

    static func writeTempFile(_ bytes: [UInt8]) throws -> String {
        var template = Array("/tmp/sha256-test-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TempFileError(reason: String(cString: strerror(errno))) }
        defer { _ = close(fd) }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buf in
                write(fd, buf.baseAddress! + written, buf.count - written)
            }
            guard n > 0 else { throw TempFileError(reason: String(cString: strerror(errno))) }
            written += n
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
