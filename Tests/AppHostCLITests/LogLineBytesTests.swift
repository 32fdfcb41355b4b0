import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import SubscriberValues
@testable import AppHostCLI

@Suite("Log lines as bytes")
struct LogLineBytesTests {
    /// The line as it was made before: the record's description, made safe for a terminal.
    static func ordinary(_ record: LogRecord) -> String { TerminalText.line(record.description) + "\n" }

    @Test("every kind of record is written byte for byte as its description, made safe, is")
    func sameAsDescription() {
        let long = String(repeating: "a", count: TerminalText.lineLimit + 10)
        let records = [
            LogRecord(subscriber: "Analytics", kind: .log, level: .info, message: "started"),
            LogRecord(subscriber: "Analytics", kind: .log, level: .debug, message: "not ours: https://elsewhere/é"),
            LogRecord(subscriber: "A", kind: .event, level: .info, message: "session_started",
                      attributes: ["timestamp": .number(1_795_788_093.4646502), "n": .number(3), "s": .string("q\"\\")]),
            LogRecord(subscriber: "A", kind: .event, level: .info, message: "empty"),
            LogRecord(subscriber: "A", kind: .error, level: .error, message: "failed", attributes: ["code": .number(4608)]),
            LogRecord(subscriber: "A", kind: .error, level: .error, message: "plain"),
            // To escape: control characters in any field, and what may start one (0xC2: U+0080…U+009F).
            LogRecord(subscriber: "Tab\tName", kind: .log, level: .warning, message: "line\nbreak \u{1B}[2J"),
            LogRecord(subscriber: "A", kind: .event, level: .info, message: "e", attributes: ["k": .string("\u{85}next")]),
            LogRecord(subscriber: "A", kind: .log, level: .info, message: "café \u{7F}"),
            // Too long: cut as TerminalText.line cuts it.
            LogRecord(subscriber: "A", kind: .log, level: .info, message: long),
            LogRecord(subscriber: "A", kind: .event, level: .info, message: "big", attributes: ["v": .string(long)]),
        ] + LogLevel.allCases.map { LogRecord(subscriber: "Every", kind: .log, level: $0, message: "at \($0)") }
        for record in records {
            var bytes: [UInt8] = Array("kept".utf8)
            LogLineBytes.appendTerminalLine(record, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "kept" + Self.ordinary(record), "\(record.message.prefix(20))")
        }
        // Written in place (what the crash stager keeps): the same bytes, or nil for a line to
        // escape or cut, attributes the host built, or too little room.
        let plugin = LogRecord(subscriber: "SessionAnalytics", kind: .event, level: .info, message: "session_ended",
                               attributesText: Self.text(#"{"startedAt":1795788093.4646502,"duration":0.25}"#))
        let pluginError = LogRecord(subscriber: "S", kind: .error, level: .error, message: "no", attributesText: Self.text(#"{"a":[1,"é"]}"#))
        for record in records + [plugin, pluginError] {
            let ordinary = Self.ordinary(record)
            let plain = ordinary == record.description + "\n" && (record.kind == .log || !record.hasAttributes || record.attributesText != nil)
            for room in [2 * TerminalText.lineLimit, ordinary.utf8.count, ordinary.utf8.count - 1, 1] {
                let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { buffer in
                    LogLineBytes.writeTerminalLine(record, into: buffer.baseAddress!, capacity: room).map {
                        String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<$0]), as: UTF8.self)
                    }
                }
                if plain && room >= ordinary.utf8.count {
                    #expect(written == ordinary, "\(record.message.prefix(20)) in \(room)")
                } else {
                    #expect(written == nil, "\(record.message.prefix(20)) in \(room)")
                }
            }
        }
    }

    @Test("a line written in place finds a byte to escape in any piece, at any place, of any length")
    func inPlaceFindsEveryByte() {
        // Each piece is copied a word at a time (fewer than eight bytes one by one) and tested as
        // it passes: every length around a word, the byte at every place, in the name, the message
        // and the attributes.
        for length in 1...20 {
            for position in 0..<length {
                for byte: UInt8 in [0x09, 0x1B, 0x7F] {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    text[position] = byte
                    let piece = String(decoding: text, as: UTF8.self)
                    let records = [
                        LogRecord(subscriber: piece, kind: .log, level: .info, message: "m"),
                        LogRecord(subscriber: "S", kind: .log, level: .info, message: piece),
                        LogRecord(subscriber: "S", kind: .event, level: .info, message: "e",
                                  attributesText: Self.text(#"{"k":"\#(byte == 0x7F ? piece : "a")"}"#)),
                    ]
                    for record in records where record.kind == .log || byte == 0x7F {
                        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
                            LogLineBytes.writeTerminalLine(record, into: buffer.baseAddress!, capacity: 256)
                        }
                        #expect(written == nil, "length \(length), position \(position), byte \(byte)")
                    }
                    // The same pieces without the byte: written, as the ordinary line.
                    let plain = LogRecord(subscriber: String(repeating: "n", count: length), kind: .log, level: .info,
                                          message: String(repeating: "m", count: length))
                    let line = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
                        LogLineBytes.writeTerminalLine(plain, into: buffer.baseAddress!, capacity: 256).map {
                            String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<$0]), as: UTF8.self)
                        }
                    }
                    #expect(line == Self.ordinary(plain))
                }
            }
        }
    }

    @Test("a line written in place: a two-byte letter at any place is shown as is, a C1 control (U+0085) refused")
    func inPlaceNonASCII() {
        // 0xC3 passes the word test and is looked at byte by byte (shown, as the ordinary line
        // shows it); 0xC2 may start U+0080…U+009F, which the ordinary line escapes (nil here).
        for length in 2...20 {
            for position in 0..<(length - 1) {
                for (pair, shown) in [([UInt8(0xC3), 0xA9], true), ([UInt8(0xC2), 0x85], false)] {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    text[position] = pair[0]
                    text[position + 1] = pair[1]
                    let piece = String(decoding: text, as: UTF8.self)
                    for record in [LogRecord(subscriber: piece, kind: .log, level: .info, message: "m"),
                                   LogRecord(subscriber: "S", kind: .log, level: .info, message: piece)] {
                        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
                            LogLineBytes.writeTerminalLine(record, into: buffer.baseAddress!, capacity: 256).map {
                                String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<$0]), as: UTF8.self)
                            }
                        }
                        #expect(written == (shown ? Self.ordinary(record) : nil), "length \(length), position \(position), \(pair)")
                    }
                }
            }
        }
    }

    /// Attributes as a plugin sends them, checked.
    static func text(_ json: String) -> JSONObjectText {
        Array(json.utf8).withUnsafeBufferPointer { JSONObjectText(checking: $0) }!
    }

    @Test("the word-at-a-time scan finds every byte that may be a control character, at every position")
    func scanFindsEveryByte() {
        func simple(_ bytes: [UInt8]) -> Bool { !bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 } }
        for length in [0, 1, 7, 8, 9, 16, 23, 24, 31, 40] {
            for position in 0..<max(length, 1) where length > 0 {
                // Neighbours that could carry or borrow into the byte tested, in a word.
                for neighbour: UInt8 in [0x61, 0x20, 0x7E, 0x80, 0xFF] {
                    var mismatches = 0
                    for byte in UInt8.min...UInt8.max {
                        var bytes = [UInt8](repeating: neighbour, count: length)
                        bytes[position] = byte
                        let found = bytes.withUnsafeBufferPointer { LogLineBytes.mayShowAsIs($0) }
                        if found != simple(bytes) { mismatches += 1 }
                    }
                    #expect(mismatches == 0, "length \(length), position \(position), neighbour \(neighbour)")
                }
            }
        }
        #expect(LogLineBytes.mayShowAsIs(UnsafeBufferPointer(start: nil, count: 0)))
    }
}
