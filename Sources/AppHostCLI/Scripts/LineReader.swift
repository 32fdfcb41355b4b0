#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads an event script from a file descriptor one line at a time, never holding more than one
/// line (at most ``EventScript/lineLimit`` bytes) and one read's worth of bytes, so `/dev/zero`
/// fails at the line limit and an endless pipe is read as it arrives.
struct LineReader {
    /// The descriptor read from (not closed by the reader).
    let fd: Int32
    /// How errors name the script.
    let name: String
    /// The most bytes the whole script may have; nil for a stream read as it is played.
    let totalLimit: Int?
    /// The number of the line last returned (1-based; comments and blank lines count).
    private(set) var lineNumber = 0

    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// How far `buffer` is known to hold no newline: each byte is searched once.
    private var scanned = 0
    private var total = 0
    private var atEnd = false
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// A reader of `fd`, named `name` in errors.
    init(fd: Int32, name: String, totalLimit: Int?) {
        self.fd = fd
        self.name = name
        self.totalLimit = totalLimit
    }

    /// The next line without its newline, or nil at the end. Throws when the line is longer
    /// than the limit, the script longer than its limit, or the descriptor cannot be read.
    mutating func nextLine() throws(EventScriptError) -> ArraySlice<UInt8>? {
        while true {
            if let newline = newline(from: scanned) {
                return try take(upTo: newline, skipping: 1)
            }
            scanned = buffer.count
            if buffer.count - start > EventScript.lineLimit {
                lineNumber += 1
                throw EventScript.lineTooLong(file: name, line: lineNumber)
            }
            if atEnd { return start < buffer.count ? try take(upTo: buffer.count, skipping: 0) : nil }
            try fill()
        }
    }

    /// The index of the first newline in `buffer` from `index`, or nil: found with `memchr` (a
    /// slice's `firstIndex(of:)` went byte by byte, about 390 instructions a script line).
    private func newline(from index: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard index < bytes.count, let base = bytes.baseAddress else { return nil }
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\n")), bytes.count - index) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The line from `start` to `end`, the reader moved past it and `skipping` more bytes.
    private mutating func take(upTo end: Int, skipping: Int) throws(EventScriptError) -> ArraySlice<UInt8> {
        lineNumber += 1
        guard end - start <= EventScript.lineLimit else { throw EventScript.lineTooLong(file: name, line: lineNumber) }
        let line = buffer[start..<end]
        start = end + skipping
        scanned = start
        return line
    }

    /// Reads what is there (blocking until something is), after dropping the lines already taken.
    /// The output is written out first: whoever feeds a stream sees the answers to what it sent
    /// before it is asked for more.
    private mutating func fill() throws(EventScriptError) {
        TextOutput.flushPending()
        if start > 0 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                total += count
                if let totalLimit, total > totalLimit {
                    throw EventScriptError(file: name, line: nil, location: "",
                                           expected: "an event script of at most \(totalLimit >> 20) MiB", found: "more")
                }
                return
            } else if count == 0 {
                atEnd = true
                return
            } else if errno != EINTR {
                // A directory opens, and says so at its first read.
                throw EventScriptError(file: name, line: nil, location: "", expected: "a readable event script",
                                       found: errno == EISDIR ? "a directory" : String(cString: strerror(errno)))
            }
        }
    }
}
