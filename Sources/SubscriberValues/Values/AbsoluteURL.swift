import Foundation
import Synchronization

/// An absolute URL (one with a scheme) as the host carries it: the text an event script gave, when
/// that text is certainly what `URL(string:)` accepts and gives back unchanged (``isCertainlyAbsoluteURL(_:)``),
/// or else the `URL` parsed from it. The `URL` of a kept text is made only when someone asks for it
/// (``url``: an in-process Swift subscriber, a URL hook); the C payload and the output take
/// ``absoluteString``, which for a kept text is the text itself. Parsing every script line's URL
/// cost about 7,500 instructions a line, and the URL was turned back into text twice.
package struct AbsoluteURL: Sendable, Hashable {
    private enum Storage: Sendable {
        /// Text ``isCertainlyAbsoluteURL(_:)`` accepted: `URL(string: text)!.absoluteString == text`.
        case text(KeptText)
        case url(URL)
    }

    /// A kept text and its `URL`, made the first time someone asks and kept: every in-process
    /// subscriber and URL hook of an event reads the one URL (one parse, not one per reader).
    private final class KeptText: Sendable {
        let text: String
        private let parsed = Mutex<URL?>(nil)

        init(_ text: String) { self.text = text }

        var hasMadeURL: Bool { parsed.withLock { $0 != nil } }

        var url: URL {
            parsed.withLock { parsed in
                if let parsed { return parsed }
                let url = URL(string: text)!  // checked: URL(string:) accepts it
                parsed = url
                return url
            }
        }
    }
    private let storage: Storage

    /// `url`, as it is.
    package init(_ url: URL) { storage = .url(url) }

    /// `text` as an absolute URL: kept as text when ``isCertainlyAbsoluteURL(_:)`` says so, parsed
    /// by `URL(string:)` otherwise; nil when that refuses it or finds no scheme.
    package init?(_ text: String) {
        var text = text
        let certain = text.withUTF8 { Self.isCertainlyAbsoluteURL(UnsafeRawBufferPointer($0)) }
        if certain {
            storage = .text(KeptText(text))
        } else {
            guard let url = URL(string: text), url.scheme != nil else { return nil }
            storage = .url(url)
        }
    }

    /// Text the caller checked with ``isCertainlyAbsoluteURL(_:)``.
    private init(certainText text: String) { storage = .text(KeptText(text)) }

    /// The absolute URL whose text is `bytes` (UTF-8), or nil when it is not one (as ``init(_:)-(String)``).
    package init?(bytes: ArraySlice<UInt8>) {
        let certain = bytes.withUnsafeBytes { Self.isCertainlyAbsoluteURL($0) }
        let text = String(decoding: bytes, as: UTF8.self)
        if certain { self.init(certainText: text) } else { self.init(text) }
    }

    /// The `URL` (made now from a kept text).
    package var url: URL {
        switch storage {
        case .text(let kept): kept.url
        case .url(let url): url
        }
    }

    /// The URL's `absoluteString`: the kept text itself.
    package var absoluteString: String {
        switch storage {
        case .text(let kept): kept.text
        case .url(let url): url.absoluteString
        }
    }

    /// Whether a kept text's `URL` has been made (a parsed URL's always has): for tests.
    package var hasMadeURL: Bool {
        switch storage {
        case .text(let kept): kept.hasMadeURL
        case .url: true
        }
    }

    /// Whether the text is kept (not parsed): for tests.
    package var isKeptAsText: Bool {
        if case .text = storage { return true }
        return false
    }

    /// Equal when the URLs are: two parsed URLs as `URL` compares them, a kept text with another
    /// URL by their absolute strings (a kept text's `URL` has no base, and its relative string is
    /// the text).
    package static func == (a: AbsoluteURL, b: AbsoluteURL) -> Bool {
        switch (a.storage, b.storage) {
        case (.url(let x), .url(let y)): x == y
        case (.text(let x), .text(let y)): x.text == y.text
        case (.text(let kept), .url(let url)), (.url(let url), .text(let kept)):
            url.baseURL == nil && url.relativeString == kept.text
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch storage {
        case .text(let kept): hasher.combine(kept.text)
        case .url(let url): hasher.combine(url.baseURL == nil ? url.relativeString : url.absoluteString)
        }
    }

    /// Whether `bytes` (UTF-8) are certainly an absolute URL that `URL(string:)` accepts and gives
    /// back unchanged (`absoluteString` equal to them), told by a byte scan: a scheme (a letter,
    /// then letters, digits, `+`, `-`, `.`) and `:`; then either `//`, a host of letters, digits,
    /// `-`, `.`, `_`, `~` (at least one), an optional port of 1 to 5 digits up to 65535, and a path
    /// starting with `/` or nothing; or a path not starting with `/`; then an optional query
    /// (`?`) and fragment (`#`). Path, query and fragment hold only RFC 3986 characters (unreserved,
    /// sub-delims, `:`, `@`, `/`, and `?` after the path) and `%` followed by two hex digits.
    /// False for anything else (userinfo, IP literals, spaces, non-ASCII, …): the caller then asks
    /// `URL(string:)`, so a false here changes nothing but the cost.
    package static func isCertainlyAbsoluteURL(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var i = 0
        // The scheme.
        guard count > 0, isLetter(bytes[0]) else { return false }
        i = 1
        while i < count, isSchemeByte(bytes[i]) { i += 1 }
        guard i < count, bytes[i] == UInt8(ascii: ":") else { return false }
        i += 1
        if i + 1 < count, bytes[i] == UInt8(ascii: "/"), bytes[i + 1] == UInt8(ascii: "/") {
            // The authority: a host, and a port.
            i += 2
            let hostStart = i
            while i < count, isHostByte(bytes[i]) { i += 1 }
            guard i > hostStart else { return false }
            if i < count, bytes[i] == UInt8(ascii: ":") {
                i += 1
                let portStart = i
                var port = 0
                while i < count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9"), i - portStart < 5 {
                    port = port * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                    i += 1
                }
                guard i > portStart, port <= 65535 else { return false }
            }
            guard i == count || bytes[i] == UInt8(ascii: "/") || bytes[i] == UInt8(ascii: "?")
                    || bytes[i] == UInt8(ascii: "#") else { return false }
        } else if i < count, bytes[i] == UInt8(ascii: "/") {
            return false  // `scheme:/path`: left to URL(string:)
        }
        // The path, the query, the fragment.
        var inFragment = false
        while i < count {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                guard i + 2 < count, isHexDigit(bytes[i + 1]), isHexDigit(bytes[i + 2]) else { return false }
                i += 3
                continue
            }
            if b == UInt8(ascii: "#") {
                guard !inFragment else { return false }
                inFragment = true
            } else if !isPathByte(b) {
                return false
            }
            i += 1
        }
        return true
    }

    @inline(__always) private static func isLetter(_ b: UInt8) -> Bool {
        (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
    }

    // The classes of ASCII bytes as bit masks (bit b of `low` for byte b < 64, of `high` for
    // 64 + b): one shift and test a byte, no table to load.

    @inline(__always) private static func isIn(_ b: UInt8, low: UInt64, high: UInt64) -> Bool {
        b < 64 ? (low >> UInt64(b)) & 1 != 0 : b < 128 && (high >> UInt64(b &- 64)) & 1 != 0
    }

    /// A letter, a digit, `+`, `-` or `.`.
    @inline(__always) private static func isSchemeByte(_ b: UInt8) -> Bool {
        isIn(b, low: 0x03FF_6800_0000_0000, high: 0x07FF_FFFE_07FF_FFFE)
    }

    /// A letter, a digit, `-`, `.`, `_` or `~`.
    @inline(__always) private static func isHostByte(_ b: UInt8) -> Bool {
        isIn(b, low: 0x03FF_6000_0000_0000, high: 0x47FF_FFFE_87FF_FFFE)
    }

    /// An RFC 3986 `pchar` but `%` (unreserved, sub-delims, `:`, `@`), `/` or `?`.
    @inline(__always) private static func isPathByte(_ b: UInt8) -> Bool {
        isIn(b, low: 0xAFFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF)
    }

    @inline(__always) private static func isHexDigit(_ b: UInt8) -> Bool {
        isIn(b, low: 0x03FF_0000_0000_0000, high: 0x0000_007E_0000_007E)
    }
}

extension JSONObjectReader {
    /// Member `key` as an absolute URL (``AbsoluteURL``: a plain string of a line's bytes checked
    /// there, its text kept when certain); nil when absent; the error of ``url(_:)`` when it is not one.
    package mutating func absoluteURL(_ key: String) throws(JSONShapeError) -> AbsoluteURL? {
        if let bytes = plainStringBytes(key) {
            guard let url = AbsoluteURL(bytes: bytes) else {
                throw mismatch(key, "an absolute URL", .string(String(decoding: bytes, as: UTF8.self)))
            }
            return url
        }
        guard let string = try string(key) else { return nil }
        guard let url = AbsoluteURL(string) else { throw mismatch(key, "an absolute URL", .string(string)) }
        return url
    }
}
