#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberHost
import SubscriberKit

/// An event script (`--events FILE|-`): JSON Lines, one event per line,
/// `{"event": "<wire name>", …arguments named as in UIKit}` (see ``EventCall/init(json:path:)``).
///
/// Blank lines, and lines whose first non-blank characters are `#` or `//`, are skipped (comments);
/// line numbers still count them. A line may have at most ``lineLimit`` bytes, a script file at
/// most ``fileLimit``. A script file is read and checked whole before anything is played, so a bad
/// line 7 means no event at all is played. Standard input (`-`) is played as it streams: each line
/// is checked just before it is played, so a bad line stops the run there, after the events before it.
package enum EventScript {
    /// How errors name standard input (`--events -`).
    package static let standardInputName = "<stdin>"
    /// The most bytes one line may have (1 MiB), its newline not counted.
    package static let lineLimit = 1 << 20
    /// The most bytes a script file may have (64 MiB); standard input has no limit.
    package static let fileLimit = 64 << 20

    /// The events to play from `source`: a file path, checked whole now, or `-` for standard
    /// input, read and checked line by line as the events are played.
    static func feed(from source: String) throws(EventScriptError) -> EventFeed {
        if source == "-" { return EventFeed(streaming: LineReader(fd: 0, name: standardInputName, totalLimit: nil)) }
        return EventFeed(calls: try read(from: source))
    }

    /// Reads and checks the whole script at `source`: a file path, or `-` for standard input.
    package static func read(from source: String) throws(EventScriptError) -> [AnyEventCall] {
        if source == "-" { return try readAll(LineReader(fd: 0, name: standardInputName, totalLimit: fileLimit)) }
        let fd = open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw EventScriptError(file: source, line: nil, location: "", expected: "a readable event script",
                                   found: code == ENOENT ? "nothing at that path" : code == EISDIR ? "a directory" : String(cString: strerror(code)))
        }
        defer { _ = close(fd) }
        return try readAll(LineReader(fd: fd, name: source, totalLimit: fileLimit))
    }

    /// Checks every line of `text`, named `file` in errors, and returns the calls in order.
    package static func parse(_ text: String, file: String) throws(EventScriptError) -> [AnyEventCall] {
        try parse(Array(text.utf8), file: file)
    }

    /// Checks every line of `bytes` (UTF-8), named `file` in errors, and returns the calls in order.
    package static func parse(_ bytes: [UInt8], file: String) throws(EventScriptError) -> [AnyEventCall] {
        var calls: [AnyEventCall] = []
        var lineNumber = 0
        var lines = ScriptLineReader()
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            guard line.count <= lineLimit else { throw lineTooLong(file: file, line: lineNumber) }
            if let call = try call(in: line, number: lineNumber, file: file, using: &lines) { calls.append(call) }
        }
        return calls
    }

    /// The call on line `number` of `file`, or nil for a blank or comment line; read with `lines`,
    /// the run's reader of lines.
    static func call(in rawLine: ArraySlice<UInt8>, number: Int, file: String, using lines: inout ScriptLineReader)
        throws(EventScriptError) -> AnyEventCall?
    {
        try entry(in: rawLine, number: number, file: file, using: &lines)?.call
    }

    /// The call on line `number` of `file` and the line's `"source"` (a recorded session's), or nil
    /// for a blank or comment line.
    static func entry(in rawLine: ArraySlice<UInt8>, number: Int, file: String) throws(EventScriptError)
        -> (call: AnyEventCall, source: String?)?
    {
        var lines = ScriptLineReader()
        return try entry(in: rawLine, number: number, file: file, using: &lines)
    }

    /// ``entry(in:number:file:)`` with `lines`, the run's reader of lines.
    static func entry(in rawLine: ArraySlice<UInt8>, number: Int, file: String, using lines: inout ScriptLineReader)
        throws(EventScriptError) -> (call: AnyEventCall, source: String?)?
    {
        guard let line = content(of: rawLine) else { return nil }
        // Most lines: read straight from their bytes; anything that path cannot read, or finds
        // wrong, is read the ordinary way, which says what is wrong and where.
        if let entry = lines.entry(line) { return entry }
        return try ordinaryEntry(line, number: number, file: file)
    }

    /// ``entry(in:number:file:)`` without the fast path: the line parsed, then read (the tests
    /// hold the fast path against it).
    static func entry(inOrdinaryWay rawLine: ArraySlice<UInt8>, number: Int, file: String) throws(EventScriptError)
        -> (call: AnyEventCall, source: String?)?
    {
        guard let line = content(of: rawLine) else { return nil }
        return try ordinaryEntry(line, number: number, file: file)
    }

    /// Whether `line` holds an event (not blank, not a comment): the rule the reader skips lines by.
    package static func isEventLine(_ line: String) -> Bool {
        content(of: ArraySlice(line.utf8)) != nil
    }

    /// The line without a CR at its end; nil for a blank or comment line. Read through a pointer:
    /// the slice's generic `drop(while:)` and `starts(with:)` cost about 140 instructions a line.
    private static func content(of rawLine: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let (end, start) = rawLine.withUnsafeBufferPointer { bytes -> (Int, Int) in
            var end = bytes.count
            if end > 0, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            var index = 0
            while index < end, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            return (end, index)
        }
        let base = rawLine.startIndex
        guard start < end else { return nil }
        let first = rawLine[base + start]
        if first == UInt8(ascii: "#") { return nil }
        if first == UInt8(ascii: "/"), start + 1 < end, rawLine[base + start + 1] == UInt8(ascii: "/") { return nil }
        return rawLine[base..<(base + end)]
    }

    /// The line parsed, then read; errors name the line and where in it.
    private static func ordinaryEntry(_ line: ArraySlice<UInt8>, number: Int, file: String) throws(EventScriptError)
        -> (call: AnyEventCall, source: String?)
    {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: line)
        } catch {
            throw EventScriptError(file: file, line: number, location: "column \(error.column)",
                                   expected: error.expected, found: error.found)
        }
        do {
            return try AnyEventCall.readingSource(json: json)
        } catch {
            throw EventScriptError(file: file, line: number, location: error.path.isEmpty ? "(root)" : error.path,
                                   expected: error.expected, found: error.found)
        }
    }

    /// `events.jsonl:1: expected a line of at most 1 MiB, found more`.
    static func lineTooLong(file: String, line: Int) -> EventScriptError {
        EventScriptError(file: file, line: line, location: "", expected: "a line of at most \(lineLimit >> 20) MiB", found: "more")
    }

    /// Every call `reader` yields, each line checked.
    private static func readAll(_ reader: LineReader) throws(EventScriptError) -> [AnyEventCall] {
        var reader = reader
        var calls: [AnyEventCall] = []
        var lines = ScriptLineReader()
        while let line = try reader.nextLine() {
            if let call = try call(in: line, number: reader.lineNumber, file: reader.name, using: &lines) { calls.append(call) }
        }
        return calls
    }
}

/// The events a run plays, one at a time: a list checked before the first is played (a script
/// file, the default scenario), or standard input, each line checked as it arrives.
struct EventFeed {
    /// A checked list's calls (empty for a stream), and the position of the next one to play:
    /// read in place, where an enum holding the list's iterator was copied out and back for every
    /// call (about 170 instructions a call).
    private var calls: [AnyEventCall]
    private var position = 0
    /// A stream's reader; nil for a checked list.
    private var stream: LineReader?
    /// The run's reader of a stream's lines.
    private var lines = ScriptLineReader()

    /// The calls, in order.
    init(calls: [AnyEventCall]) {
        self.calls = calls
    }

    /// The calls on `reader`'s lines, read as they are asked for.
    init(streaming reader: LineReader) {
        calls = []
        stream = reader
    }

    /// The next call, or nil at the end. Throws for a bad line of a stream (its line number
    /// named): the events before it were played.
    mutating func next() throws(EventScriptError) -> AnyEventCall? {
        if position < calls.count {
            defer { position += 1 }
            return calls[position]
        }
        guard var reader = stream else { return nil }
        // Take the reader out so its buffer is not copied when it reads on.
        stream = nil
        defer { stream = reader }
        while let line = try reader.nextLine() {
            if let call = try EventScript.call(in: line, number: reader.lineNumber, file: reader.name, using: &lines) { return call }
        }
        return nil
    }
}
