import SubscriberHost
import SubscriberKit

/// A log record's line on stderr with `--json` (`TerminalText.line(record.description)` and a
/// newline), written straight into bytes: one line per record a plugin logs, on the hot path of
/// `apphost --json`. Building the description by string interpolation and escaping it as a String
/// cost about 5,500 instructions per record; this costs a fraction. A line with anything to escape
/// or cut is rendered the ordinary way, so the bytes are always exactly the ordinary line's.
enum LogLineBytes {
    /// Appends `TerminalText.line(record.description) + "\n"` to `bytes`.
    static func appendTerminalLine(_ record: LogRecord, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(UInt8(ascii: "["))
        appendUTF8(record.subscriber, to: &bytes)
        switch record.kind {
        case .log:
            append(separator(record.level), to: &bytes)
            appendUTF8(record.message, to: &bytes)
        case .event:
            append("] event ", to: &bytes)
            appendUTF8(record.message, to: &bytes)
            appendAttributes(of: record, to: &bytes)
        case .error:
            append("] error: ", to: &bytes)
            appendUTF8(record.message, to: &bytes)
            appendAttributes(of: record, to: &bytes)
        }
        // TerminalText.line's own test: short enough, and nothing that may be a control character.
        let plain = bytes.count - start <= TerminalText.lineLimit && bytes.withUnsafeBufferPointer { all in
            mayShowAsIs(UnsafeBufferPointer(rebasing: all[start...]))
        }
        if plain {
            bytes.append(UInt8(ascii: "\n"))
        } else {
            bytes.removeSubrange(start...)
            bytes.append(contentsOf: (TerminalText.line(record.description) + "\n").utf8)
        }
    }

    /// Writes `TerminalText.line(record.description) + "\n"` at `destination` (room for `capacity`
    /// bytes) and returns its length, when the line is shown as it is (nothing to escape or cut)
    /// and fits; nil otherwise (what is at `destination` then means nothing), and the caller
    /// renders it with ``appendTerminalLine(_:to:)``. The pieces are copied in place: no array
    /// grown (three appends to one were about 270 instructions a line).
    static func writeTerminalLine(_ record: LogRecord, into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int? {
        let middle: StaticString
        switch record.kind {
        case .log: middle = separator(record.level)
        case .event: middle = "] event "
        case .error: middle = "] error: "
        }
        // A log line has no attributes: none looked for. Attributes the host built (not a
        // plugin's text) are serialized the ordinary way. The text is asked for once (each ask
        // copied it out of the record and released it again, about 60 instructions).
        guard record.kind != .log else {
            return write(record, middle, attributes: UnsafeBufferPointer(start: nil, count: 0), into: destination, capacity: capacity)
        }
        guard let text = record.attributesText else {
            guard !record.hasAttributes else { return nil }
            return write(record, middle, attributes: UnsafeBufferPointer(start: nil, count: 0), into: destination, capacity: capacity)
        }
        return text.bytes.withUnsafeBufferPointer { write(record, middle, attributes: $0, into: destination, capacity: capacity) }
    }

    /// ``writeTerminalLine(_:into:capacity:)`` with the attributes' bytes at hand (none: empty).
    @inline(__always)
    private static func write(_ record: LogRecord, _ middle: StaticString, attributes: UnsafeBufferPointer<UInt8>,
                              into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int? {
        let written = record.subscriber.utf8.withContiguousStorageIfAvailable { name in
            record.message.utf8.withContiguousStorageIfAvailable { message -> Int? in
                let extra = attributes.isEmpty ? 0 : 1 + attributes.count
                let line = 1 + name.count + middle.utf8CodeUnitCount + message.count + extra
                guard line <= TerminalText.lineLimit, line < capacity else { return nil }
                var at = destination
                at.pointee = UInt8(ascii: "[")
                at += 1
                // Copied a word at a time, each word tested as it passes (a copy, then a scan of the
                // line, were about 220 instructions a line): a word that may hold a byte to escape
                // has the line scanned exactly once it is whole (``mayShowAsIs(_:)``).
                var flagged: UInt64 = 0
                func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
                    guard let base = bytes.baseAddress else { return }
                    flagged |= copyFlagging(base, count: bytes.count, to: at)
                    at += bytes.count
                }
                copy(name)
                copy(UnsafeBufferPointer(start: middle.utf8Start, count: middle.utf8CodeUnitCount))
                copy(message)
                if !attributes.isEmpty {
                    at.pointee = UInt8(ascii: " ")
                    at += 1
                    copy(attributes)
                }
                guard flagged == 0 || mayShowAsIs(UnsafeBufferPointer(start: destination, count: line)) else { return nil }
                at.pointee = UInt8(ascii: "\n")
                return line + 1
            } ?? nil
        }
        return written ?? nil
    }

    /// `] LEVEL: `, the level as `LogLevel.name` names it: one append (three were about 270
    /// instructions a line).
    private static func separator(_ level: LogLevel) -> StaticString {
        switch level {
        case .trace: "] trace: "
        case .debug: "] debug: "
        case .info: "] info: "
        case .notice: "] notice: "
        case .warning: "] warning: "
        case .error: "] error: "
        case .critical: "] critical: "
        }
    }

    /// ` {…}` when there are attributes, as `description` writes them.
    /// A plugin's attributes are written as the text it sent (checked to be the serializer's form).
    private static func appendAttributes(of record: LogRecord, to bytes: inout [UInt8]) {
        guard record.hasAttributes else { return }
        bytes.append(UInt8(ascii: " "))
        if let text = record.attributesText {
            bytes.append(contentsOf: text.bytes)
        } else {
            JSONValue.object(record.attributes).appendSerialized(to: &bytes)
        }
    }

    /// Whether `bytes` hold no byte below 0x20, no 0x7F and no 0xC2 (the lead byte of the C1
    /// controls): eight bytes at a time, a word with any byte at or above 0x7F or below 0x20
    /// looked at byte by byte (most lines are ASCII text: about one instruction a byte).
    static func mayShowAsIs(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        // Sixteen bytes a step, their two words' tests joined (one branch and one step of the loop
        // for both); a step with a byte below 0x20 or at or above 0x7F: looked at one by one.
        while index + 16 <= count {
            if mayNeedEscaping(load(base + index), load(base + index + 8)) {
                for offset in 0..<16 where !isShown(base[index + offset]) { return false }
            }
            index += 16
        }
        if index + 8 <= count {
            if mayNeedEscaping(load(base + index)) {
                for offset in 0..<8 where !isShown(base[index + offset]) { return false }
            }
            index += 8
        }
        // The last few bytes: as the last eight, some of them looked at again (a line of eight or
        // more), else one by one.
        if index < count && count >= 8 {
            if mayNeedEscaping(load(base + count - 8)) {
                for offset in (count - 8)..<count where !isShown(base[offset]) { return false }
            }
            return true
        }
        while index < count {
            if !isShown(base[index]) { return false }
            index += 1
        }
        return true
    }

    /// Copies the `count` bytes at `source` to `destination` eight at a time (the last few as the
    /// last eight, some copied twice; fewer than eight one by one) and returns the flags of what
    /// was copied: 0 when no byte is below 0x20 or at or above 0x7F, else not 0 (``flags(_:)``).
    @inline(__always)
    private static func copyFlagging(_ source: UnsafePointer<UInt8>, count: Int, to destination: UnsafeMutablePointer<UInt8>) -> UInt64 {
        guard count >= 8 else {
            var flagged: UInt64 = 0
            for index in 0..<count {
                let byte = source[index]
                destination[index] = byte
                flagged |= byte < 0x20 || byte >= 0x7F ? 1 : 0
            }
            return flagged
        }
        var flagged: UInt64 = 0
        var index = 0
        while index + 8 <= count {
            let word = load(source + index)
            flagged |= flags(word)
            store(word, at: destination + index)
            index += 8
        }
        if index < count {
            let word = load(source + count - 8)
            flagged |= flags(word)
            store(word, at: destination + count - 8)
        }
        return flagged
    }

    /// Whether a word holds a byte below 0x20 or at or above 0x7F (then looked at byte by byte):
    /// `JSONWord.control` and `JSONWord.atOrAboveDEL` written here, with their constants as
    /// literals. Called across the module boundary they were three calls a word (and a global's
    /// read each), about 45 instructions for eight bytes; here a handful.
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool { flags(word) != 0 }

    /// Whether either of two words holds such a byte.
    @inline(__always)
    private static func mayNeedEscaping(_ first: UInt64, _ second: UInt64) -> Bool { flags(first) | flags(second) != 0 }

    /// The high bit of each byte of `word` that may be below 0x20 or at or above 0x7F (a byte
    /// before one that is may be flagged too: only the word's test is exact, then its bytes).
    @inline(__always)
    private static func flags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // Below 0x20: x - 0x20 borrows into its high bit while x's is clear. At or above 0x7F: the
        // high bit set, or x + 1 reaching it from below.
        let control = (word &- ones &* 0x20) & ~word
        let high = ((word & ~highs) &+ ones) | word
        return (control | high) & highs
    }

    /// The eight bytes at `pointer`, as one word (unaligned).
    @inline(__always)
    private static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
    }

    /// Stores `word` as the eight bytes at `pointer` (unaligned).
    @inline(__always)
    private static func store(_ word: UInt64, at pointer: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: word, as: UInt64.self)
    }

    @inline(__always)
    private static func isShown(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != 0x7F && byte != 0xC2 }

    @inline(__always)
    private static func appendUTF8(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
