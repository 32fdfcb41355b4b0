#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One JSON object read straight from its bytes, its members found but not built: what an event
/// script line is (`{"event": "openURL", "url": "news://article/7"}`). A ``JSONObjectReader`` over
/// it (``JSONObjectReader/init(flat:path:)``) hands a member that is a plain string out as a
/// `String` made from its bytes and builds any other member's `JSONValue` only when it is read, so
/// reading a line whose arguments the event's shape knows builds no `JSONValue` tree.
///
/// A fast path, never a second grammar: ``init(scanning:)`` accepts only what `JSONValue(parsing:)`
/// accepts, giving the same members — anything else (escapes or non-ASCII in a key, a control
/// character, a duplicate key, deep nesting, text after the object) is nil, and the caller parses
/// the line the ordinary way, which says what is wrong and where. A member that is not a plain
/// string is checked by the parser when it is built; one that does not parse makes the reader
/// ``JSONObjectReader/isIntact`` false.
package struct FlatJSONObject: Sendable {
    /// One member: where its key's and its value's bytes are in ``bytes``.
    struct Member: Sendable {
        /// The key, without its quotes.
        var key: Range<Int>
        /// The value: a plain string's characters without its quotes; any other value's JSON text.
        var value: Range<Int>
        /// Whether the value is a string of printable ASCII characters with nothing escaped.
        var plain: Bool
    }

    /// The object's text.
    private(set) var bytes: ArraySlice<UInt8>
    /// Its members, in order.
    private(set) var members: [Member] = []

    /// The most members a flat object has: a line with more is parsed the ordinary way (duplicate
    /// keys are found by comparing each key with those before it).
    static let memberLimit = 32
    /// The deepest nesting a member's value may have here (the parser allows 512 in all, the
    /// object's own level included).
    static let depthLimit = 500

    /// The object `bytes` hold (whitespace around it allowed), or nil when they hold anything
    /// else, or anything this fast path leaves to the parser.
    package init?(scanning bytes: ArraySlice<UInt8>) {
        self.init()
        guard rescan(bytes) else { return nil }
    }

    /// An object of no bytes and no members, to ``rescan(_:)`` line after line.
    init() { bytes = [] }

    /// Scans `bytes` as ``init(scanning:)`` does, into this object's member list: its storage
    /// (at most ``memberLimit`` members) is reused from one line to the next. False, with no
    /// members, where ``init(scanning:)`` is nil.
    mutating func rescan(_ bytes: ArraySlice<UInt8>) -> Bool {
        self.bytes = bytes
        if !members.isEmpty { members.removeAll(keepingCapacity: true) }
        let scanned = bytes.withUnsafeBufferPointer { buffer -> Bool in
            var scanner = Scanner(bytes: buffer, base: bytes.startIndex)
            return scanner.object(into: &members)
        }
        if !scanned, !members.isEmpty { members.removeAll(keepingCapacity: true) }
        return scanned
    }

    /// The member named `key`, or nil.
    func member(_ key: String) -> Member? { index(of: key).map { members[$0] } }

    /// The position of the member named `key`, or nil. The keys of `key`'s length only are
    /// compared, with `memcmp` on the key's own bytes (no copy of it, no closure per member:
    /// about 130 instructions a key read that way).
    func index(of key: String) -> Int? {
        let count = key.utf8.count
        for position in members.indices where members[position].key.count == count {
            if self.key(at: members[position].key.lowerBound, is: key, count: count) { return position }
        }
        return nil
    }

    /// The position of the member named `key`, looked for first at `place` (where lines usually
    /// have it: a script line's `"event"` first), then among all; no `String` handled (about 60
    /// instructions where ``index(of:)`` with a `String` took about 130).
    func index(of key: StaticString, place: Int) -> Int? {
        let count = key.utf8CodeUnitCount
        if place < members.count, members[place].key.count == count,
           self.key(at: members[place].key.lowerBound, equals: key.utf8Start, count: count) {
            return place
        }
        for position in members.indices where position != place && members[position].key.count == count {
            if self.key(at: members[position].key.lowerBound, equals: key.utf8Start, count: count) { return position }
        }
        return nil
    }

    /// Whether the `count` bytes from `start` are `key`'s (`count` bytes).
    private func key(at start: Int, is key: String, count: Int) -> Bool {
        guard count > 0 else { return true }
        let equal = key.utf8.withContiguousStorageIfAvailable { self.key(at: start, equals: $0.baseAddress!, count: count) }
        return equal ?? bytes[start..<(start + count)].elementsEqual(key.utf8)
    }

    /// Whether the `count` bytes from `start` are the `count` bytes at `other`.
    private func key(at start: Int, equals other: UnsafePointer<UInt8>, count: Int) -> Bool {
        count == 0 || bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + (start - bytes.startIndex), other, count) == 0 }
    }

    /// Whether a member is named `key` or `other`: the members' keys of their lengths compared
    /// with their bytes, in one pass (no `String` made, nothing marked as read).
    package func hasKey(_ key: StaticString, or other: StaticString) -> Bool {
        let count = key.utf8CodeUnitCount, otherCount = other.utf8CodeUnitCount
        for member in members {
            let start = member.key.lowerBound, length = member.key.count
            if length == count, self.key(at: start, equals: key.utf8Start, count: count) { return true }
            if length == otherCount, self.key(at: start, equals: other.utf8Start, count: otherCount) { return true }
        }
        return false
    }

    /// Whether a member is named `key` (``hasKey(_:or:)`` with one key).
    package func hasKey(_ key: StaticString) -> Bool { hasKey(key, or: key) }

    /// The text of `range`, as a String.
    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// The text of `range` (a plain string's), as a String: the one `recent` kept for the same
    /// bytes when it has one.
    func string(_ range: Range<Int>, recent: inout RecentStrings) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            let start = range.lowerBound - bytes.startIndex
            return recent.string(UnsafeBufferPointer(rebasing: buffer[start..<(start + range.count)]))
        }
    }

    /// `member`'s value: a plain string as it is; anything else parsed (nil when it does not parse).
    func value(_ member: Member) -> JSONValue? {
        if member.plain { return .string(string(member.value)) }
        // An object of plain strings (`openURL`'s options) is read from its bytes like the line
        // around it: the parser cost about 8,000 instructions for one such object.
        if bytes[member.value.lowerBound] == UInt8(ascii: "{"), let nested = FlatJSONObject(scanning: bytes[member.value]),
           nested.members.allSatisfy(\.plain), let object = nested.object {
            return .object(object)
        }
        return try? JSONValue(parsing: bytes[member.value])
    }

    /// Every member, built: the object the parser would have made.
    var object: JSONObject? {
        var built: [(key: String, value: JSONValue)] = []
        for member in members {
            guard let value = value(member) else { return nil }
            built.append((key: string(member.key), value: value))
        }
        return JSONObject(uniqueMembers: built)
    }

    /// Finds the members of one object in UTF-8 bytes. What ``object(into:)`` calls is marked to
    /// be inlined into it (all but ``skipContainer()``, for the rare array or object), so that the
    /// scanner stays in registers: `key()` and `end()` are; `value()`, large, is still called.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        /// The index in the slice of `bytes[0]`.
        let base: Int
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, base: Int) {
            self.bytes = bytes
            self.base = base
        }

        @inline(__always)
        func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }

        /// The index of the first byte from `start` that a plain string does not hold as it is (`"`,
        /// `\`, a control character, DEL or above), or `bytes.count`: found eight bytes at a time (the
        /// first such byte of a word is told exactly by ``JSONWord``), the last few one by one. A key
        /// or a plain string ends at a `"` found here; byte by byte this cost about 10 instructions a byte.
        @inline(__always)
        func firstNotPlain(from start: Int) -> Int {
            var i = start
            while i + 8 <= bytes.count {
                let word = JSONWord.load(bytes.baseAddress! + i)
                let found = JSONWord.escaped(word) | JSONWord.atOrAboveDEL(word)
                if found != 0 { return i + found.trailingZeroBitCount >> 3 }
                i += 8
            }
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x20 || b >= 0x7F || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return i }
                i += 1
            }
            return i
        }

        @inline(__always)
        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        /// Appends the object's members to `members` (empty); false when the bytes are not one
        /// this fast path reads.
        mutating func object(into members: inout [Member]) -> Bool {
            skipWhitespace()
            guard byte(index) == UInt8(ascii: "{") else { return false }
            index += 1
            skipWhitespace()
            if byte(index) == UInt8(ascii: "}") {
                index += 1
                return end()
            }
            if members.capacity < 4 { members.reserveCapacity(4) }
            while true {
                guard members.count < FlatJSONObject.memberLimit, let key = key() else { return false }
                if key.isEmpty && members.contains(where: { $0.key.isEmpty }) { return false }
                for member in members where member.key.count == key.count && key.count > 0 {
                    if memcmp(bytes.baseAddress! + member.key.lowerBound - base, bytes.baseAddress! + key.lowerBound - base, key.count) == 0 {
                        return false  // a duplicate key: the parser names it
                    }
                }
                skipWhitespace()
                guard byte(index) == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
                guard let (value, plain) = value() else { return false }
                members.append(Member(key: key, value: value, plain: plain))
                skipWhitespace()
                switch byte(index) {
                case UInt8(ascii: ","):
                    index += 1
                    skipWhitespace()
                case UInt8(ascii: "}"):
                    index += 1
                    return end()
                default:
                    return false
                }
            }
        }

        /// Whether only whitespace follows.
        @inline(__always)
        mutating func end() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        /// A key of printable ASCII with nothing escaped, without its quotes.
        @inline(__always)
        mutating func key() -> Range<Int>? {
            guard byte(index) == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            let end = firstNotPlain(from: start)
            guard byte(end) == UInt8(ascii: "\"") else { return nil }
            index = end + 1
            return (start + base)..<(end + base)
        }

        /// A value: a plain string's characters, or any other value's text (checked by the parser
        /// when it is built), with whether it is a plain string.
        @inline(__always)
        mutating func value() -> (Range<Int>, Bool)? {
            let start = index
            switch byte(index) {
            case UInt8(ascii: "\""):
                // Up to the first byte that is not a plain character (a plain string's closing quote,
                // usually), then byte by byte.
                var i = firstNotPlain(from: index + 1)
                var plain = true
                while i < bytes.count {
                    let b = bytes[i]
                    if b == UInt8(ascii: "\"") {
                        index = i + 1
                        return plain ? ((start + 1 + base)..<(i + base), true) : ((start + base)..<(index + base), false)
                    }
                    if b < 0x20 { return nil }
                    if b == UInt8(ascii: "\\") {
                        plain = false
                        i += 2
                        continue
                    }
                    if b >= 0x7F { plain = false }
                    i += 1
                }
                return nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard skipContainer() else { return nil }
            default:
                // A number or a literal: up to the next delimiter.
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: break
                    default:
                        index += 1
                        continue
                    }
                    break
                }
                guard index > start else { return nil }
            }
            return ((start + base)..<(index + base), false)
        }

        /// Moves past the array or object at `index` (strings inside skipped whole, escapes and
        /// all); false when it does not close, or nests too deep.
        mutating func skipContainer() -> Bool {
            var depth = 0
            var i = index
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    guard depth <= FlatJSONObject.depthLimit else { return false }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index = i + 1
                        return true
                    }
                case UInt8(ascii: "\""):
                    i += 1
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                        i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                    }
                default:
                    break
                }
                i += 1
            }
            return false
        }
    }
}

/// Strings made from plain bytes (printable ASCII), kept to be handed out again: an event script
/// repeats its values (an activity type, an extension point, a source application), and one met
/// before is shared (a retain), where making it from its bytes and freeing it with its call cost
/// about 450 instructions. Only strings of more than 15 bytes are kept: shorter ones are held in
/// the `String` itself, made as cheaply as a kept one is found. One slot per hash of the bytes,
/// holding the last string of that hash.
struct RecentStrings: Sendable {
    private var slots: [String] = []
    private static let slotCount = 32

    /// `bytes` as a String: the one kept for them, or one made (and kept).
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = bytes.count
        guard count > 15, let base = bytes.baseAddress else { return String(decoding: bytes, as: UTF8.self) }
        let slot = (count &+ Int(base[count - 1]) &* 7 &+ Int(base[count / 2]) &* 13) & (Self.slotCount - 1)
        if slots.isEmpty { slots = Array(repeating: "", count: Self.slotCount) }
        if slots[slot].utf8.count == count,
           slots[slot].utf8.withContiguousStorageIfAvailable({ memcmp($0.baseAddress!, base, count) == 0 }) == true {
            return slots[slot]
        }
        let made = String(decoding: bytes, as: UTF8.self)
        slots[slot] = made
        return made
    }
}
