#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberHost
import SubscriberKit

/// An event script (`--events FILE|-`): JSON Lines, one event per line,
/// `{"event": "<wire name>", …arguments named as in SPEC §3}` (see ``EventCall/init(json:path:)``).
///
/// Blank lines, and lines whose first non-blank characters are `#` or `//`, are skipped (comments);
/// line numbers still count them. The whole script is read and checked before anything is played,
/// so a bad line 7 means no event at all is played.
public enum EventScript {
    /// How errors name standard input (`--events -`).
    public static let standardInputName = "<stdin>"

    /// Reads and checks the script at `source`: a file path, or `-` for standard input.
    public static func read(from source: String) throws(EventScriptError) -> [EventCall] {
        if source == "-" { return try parse(readScript(fd: 0, name: standardInputName), file: standardInputName) }
        let fd = open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw EventScriptError(file: source, line: nil, location: "", expected: "a readable event script",
                                   found: code == ENOENT ? "nothing at that path" : String(cString: strerror(code)))
        }
        defer { _ = close(fd) }
        return try parse(readScript(fd: fd, name: source), file: source)
    }

    /// Checks every line of `text`, named `file` in errors, and returns the calls in order.
    public static func parse(_ text: String, file: String) throws(EventScriptError) -> [EventCall] {
        try parse(Array(text.utf8), file: file)
    }

    /// Checks every line of `bytes` (UTF-8), named `file` in errors, and returns the calls in order.
    public static func parse(_ bytes: [UInt8], file: String) throws(EventScriptError) -> [EventCall] {
        var calls: [EventCall] = []
        var lineNumber = 0
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let content = line.drop(while: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
            if content.isEmpty || content.starts(with: [UInt8(ascii: "#")]) || content.starts(with: Array("//".utf8)) {
                continue
            }
            let json: JSONValue
            do {
                json = try JSONValue(parsing: line)
            } catch {
                throw EventScriptError(file: file, line: lineNumber, location: "column \(error.column)",
                                       expected: error.expected, found: error.found)
            }
            do {
                calls.append(try EventCall(json: json))
            } catch {
                throw EventScriptError(file: file, line: lineNumber, location: error.path.isEmpty ? "(root)" : error.path,
                                       expected: error.expected, found: error.found)
            }
        }
        return calls
    }
}

/// Every byte of the script open at `fd`, until end of file; errors name the script `name`.
private func readScript(fd: Int32, name: String) throws(EventScriptError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            bytes += chunk[0..<count]
        } else if count == 0 {
            return bytes
        } else if errno != EINTR {
            throw EventScriptError(file: name, line: nil, location: "", expected: "a readable event script",
                                   found: String(cString: strerror(errno)))
        }
    }
}
