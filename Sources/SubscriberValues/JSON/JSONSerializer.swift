extension JSONValue {
    /// JSON text for this value.
    ///
    /// Compact by default (`{"a":1,"b":[true,null]}`); `pretty` indents by two spaces with one member or
    /// element per line. `sortedKeys` orders object members by key (Unicode scalar order) instead of as
    /// stored. Integral numbers print without a fraction (`1`, `-0`), others as the shortest text that
    /// reads back to the same Double; infinities and NaN, which JSON cannot express, print as `null`.
    /// Strings escape `"`, `\` and control characters and leave everything else as UTF-8.
    public func serialized(sortedKeys: Bool = false, pretty: Bool = false) -> String {
        String(decoding: serializedBytes(sortedKeys: sortedKeys, pretty: pretty), as: UTF8.self)
    }

    /// The UTF-8 bytes of ``serialized(sortedKeys:pretty:)``.
    package func serializedBytes(sortedKeys: Bool = false, pretty: Bool = false) -> [UInt8] {
        var writer = JSONWriter(sortedKeys: sortedKeys, pretty: pretty)
        writer.output.reserveCapacity(64)
        writer.write(self, depth: 0)
        return writer.output
    }

    /// Appends the bytes of ``serialized(sortedKeys:pretty:)`` (compact) to `bytes`.
    package func appendSerialized(to bytes: inout [UInt8]) {
        var writer = JSONWriter(sortedKeys: false, pretty: false)
        swap(&writer.output, &bytes)
        writer.write(self, depth: 0)
        swap(&writer.output, &bytes)
    }
}

/// Compact JSON text written straight into bytes, as ``JSONValue/serialized(sortedKeys:pretty:)``
/// writes it: what answer shapes write their typed values with (output's hot path).
package enum JSONText {
    /// `string` as a JSON string literal, escaped as the serializer escapes it.
    package static func appendString(_ string: String, to bytes: inout [UInt8]) {
        var writer = JSONWriter(sortedKeys: false, pretty: false)
        swap(&writer.output, &bytes)
        writer.writeString(string)
        swap(&writer.output, &bytes)
    }

    /// `["a","b"]`.
    /// An array, not any sequence: a generic one is not compiled per type across a module (a
    /// plugin's restoration list was written through the protocols' witnesses, about 1,500
    /// instructions a call); one writer for all of them.
    package static func appendStrings(_ strings: [String], to bytes: inout [UInt8]) {
        var writer = JSONWriter(sortedKeys: false, pretty: false)
        swap(&writer.output, &bytes)
        writer.output.append(0x5B)  // [
        strings.withUnsafeBufferPointer { strings in
            for index in strings.indices {
                if index > 0 { writer.output.append(0x2C) }  // ,
                writer.writeString(strings[index])
            }
        }
        writer.output.append(0x5D)  // ]
        swap(&writer.output, &bytes)
    }

    /// `true` or `false`.
    @inline(__always)
    package static func appendBool(_ flag: Bool, to bytes: inout [UInt8]) {
        append(flag ? "true" : "false", to: &bytes)
    }

    /// The literal `text`'s bytes.
    @inline(__always)
    package static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact serialization.
    public var description: String { serialized() }
}

extension JSONObject {
    /// JSON text for this object; see ``JSONValue/serialized(sortedKeys:pretty:)``.
    public func serialized(sortedKeys: Bool = false, pretty: Bool = false) -> String {
        JSONValue.object(self).serialized(sortedKeys: sortedKeys, pretty: pretty)
    }

    /// Appends the bytes of ``serialized(sortedKeys:pretty:)`` (compact) to `bytes`: what a plugin
    /// sends a logged event's attributes as, written into bytes it reuses. The members are written
    /// from here, a string, number, boolean or null value at once: the object is not wrapped in a
    /// value, and no member or value is copied out to be written (the generic path's enumeration and
    /// value copies were about a third of a small object's cost).
    package func appendSerialized(to bytes: inout [UInt8]) {
        var writer = JSONWriter(sortedKeys: false, pretty: false)
        swap(&writer.output, &bytes)
        writer.writeMembers(of: self)
        swap(&writer.output, &bytes)
    }
}

/// Writes JSON text as UTF-8 into `output`.
struct JSONWriter {
    let sortedKeys: Bool
    let pretty: Bool
    var output: [UInt8] = []

    init(sortedKeys: Bool, pretty: Bool) {
        self.sortedKeys = sortedKeys
        self.pretty = pretty
    }

    /// `string` as a JSON string literal, quotes included.
    static func quoted(_ string: String) -> String {
        var writer = JSONWriter(sortedKeys: false, pretty: false)
        writer.writeString(string)
        return String(decoding: writer.output, as: UTF8.self)
    }

    mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .number(let number):
            writeNumber(number)
        case .string(let string):
            writeString(string)
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(0x5B)  // [
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output.append(0x2C) }  // ,
                newline(depth: depth + 1)
                write(element, depth: depth + 1)
            }
            newline(depth: depth)
            output.append(0x5D)  // ]
        case .object(let object):
            if object.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            let members =
                sortedKeys
                ? object.members.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }
                : object.members
            output.append(0x7B)  // {
            for (offset, member) in members.enumerated() {
                if offset > 0 { output.append(0x2C) }  // ,
                newline(depth: depth + 1)
                writeString(member.key)
                output.append(0x3A)  // :
                if pretty { output.append(0x20) }
                write(member.value, depth: depth + 1)
            }
            newline(depth: depth)
            output.append(0x7D)  // }
        }
    }

    /// `object` compact, its members' plain values written here.
    mutating func writeMembers(of object: JSONObject) {
        guard !object.isEmpty else { return JSONText.append("{}", to: &output) }
        if appendFlat(object) { return }
        output.append(0x7B)  // {
        object.members.withUnsafeBufferPointer { members in
            for index in members.indices {
                if index > 0 { output.append(0x2C) }  // ,
                writeString(members[index].key)
                output.append(0x3A)  // :
                switch members[index].value {
                case .string(let string): writeString(string)
                case .number(let number): writeNumber(number)
                case .bool(let flag): JSONText.appendBool(flag, to: &output)
                case .null: JSONText.append("null", to: &output)
                case .array, .object: write(members[index].value, depth: 1)
                }
            }
        }
        output.append(0x7D)  // }
    }

    @inline(__always)
    mutating func newline(depth: Int) {
        guard pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(0x20, count: 2 * depth))
    }

    /// The bytes a flat object is written into on the stack at most (``appendFlat(_:)``).
    private static var flatLimit: Int { 512 }

    /// Appends `object` when it is flat — string, number, boolean and null values, no key or string
    /// with anything to escape, no number that needs its `description` — and its text fits in
    /// ``flatLimit`` bytes: written into a block on the stack, then appended at once (a logged
    /// event's attributes were appended piece by piece, each a generic append of about 70
    /// instructions, six or more an object). False, and nothing appended, for any other object.
    private mutating func appendFlat(_ object: JSONObject) -> Bool {
        // No local function and no variable captured by a closure: either made every access to
        // the offset a dynamic exclusivity check (about 20 a member).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.flatLimit) { block in
            let base = block.baseAddress!
            base[0] = 0x7B  // {
            let end = object.members.withUnsafeBufferPointer { members -> Int? in
                var at = 1
                for index in members.indices {
                    if index > 0 {
                        base[at] = 0x2C  // ,
                        at += 1
                    }
                    guard let afterKey = Self.putPlain(members[index].key, into: base, at: at) else { return nil }
                    base[afterKey] = 0x3A  // :
                    at = afterKey + 1
                    switch members[index].value {
                    case .string(let string):
                        guard let next = Self.putPlain(string, into: base, at: at) else { return nil }
                        at = next
                    case .number(let number):
                        guard at + ShortestDigits.maximumLength + 2 <= Self.flatLimit else { return nil }
                        let count = Self.write(number, into: base + at)
                        guard count > 0 else { return nil }
                        at += count
                    case .bool(let flag):
                        at = Self.put(flag ? "true" : "false", into: base, at: at)
                    case .null:
                        at = Self.put("null", into: base, at: at)
                    case .array, .object:
                        return nil
                    }
                }
                return at
            }
            guard let end else { return false }
            base[end] = 0x7D  // }
            output.append(contentsOf: UnsafeBufferPointer(start: base, count: end + 1))
            return true
        }
    }

    /// Writes `string` quoted at `at` in the flat block and returns where it ends; nil when it has
    /// anything to escape or leaves no room for what may follow it (a separator, a closing brace,
    /// a literal).
    @inline(__always)
    private static func putPlain(_ string: String, into base: UnsafeMutablePointer<UInt8>, at: Int) -> Int? {
        string.utf8.withContiguousStorageIfAvailable { utf8 -> Int? in
            let count = utf8.count
            guard at + count + 10 <= flatLimit else { return nil }
            if let source = utf8.baseAddress {
                guard !JSONWord.anyEscaped(source, count: count) else { return nil }
                (base + at + 1).update(from: source, count: count)
            }
            base[at] = 0x22  // "
            base[at + count + 1] = 0x22
            return at + count + 2
        } ?? nil
    }

    /// Writes `literal` (`true`, `false`, `null`: room was kept for it) at `at` and returns where it ends.
    @inline(__always)
    private static func put(_ literal: StaticString, into base: UnsafeMutablePointer<UInt8>, at: Int) -> Int {
        (base + at).update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return at + literal.utf8CodeUnitCount
    }

    mutating func writeNumber(_ number: Double) {
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDigits.maximumLength) { buffer in
            let count = Self.write(number, into: buffer.baseAddress!)
            if count > 0 { output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count])) }
            return count > 0
        }
        if written { return }
        // Swift prints the shortest digits that read back exactly, e.g. 0.1, 1e+20, 5e-324
        // (ASCII), without a trailing ".0". Copied as bytes: a Substring's UTF8View appended
        // through generic code cost about 1,200 instructions a number (log attributes' hot path).
        var text = number.description
        text.withUTF8 { utf8 in
            let count = utf8.count
            let whole = count >= 2 && utf8[count - 2] == UInt8(ascii: ".") && utf8[count - 1] == UInt8(ascii: "0")
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[0..<(whole ? count - 2 : count)]))
        }
    }

    /// Writes `number` as the serializer writes it into `buffer` (``ShortestDigits/maximumLength``
    /// bytes at least) and returns how many bytes; 0 for a number whose text is its `description`,
    /// which ``writeNumber(_:)`` asks for.
    static func write(_ number: Double, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        guard number.isFinite else {
            let null: StaticString = "null"
            buffer.update(from: null.utf8Start, count: null.utf8CodeUnitCount)
            return null.utf8CodeUnitCount
        }
        if number == 0 {
            guard number.sign == .minus else {
                buffer[0] = UInt8(ascii: "0")
                return 1
            }
            buffer[0] = UInt8(ascii: "-")
            buffer[1] = UInt8(ascii: "0")
            return 2
        }
        if number.magnitude < 1e16 && number.rounded(.towardZero) == number {
            return writeInteger(Int64(number), into: buffer)
        }
        // Swift's description in decimal notation (a number with a fraction of at least 0.0001),
        // written as bytes: the description allocated a String for 17 digits, about 770
        // instructions a number in a log call's attributes.
        return ShortestDigits.write(number, into: buffer)
    }

    /// Writes `value` in decimal digits, as `String(value)` writes it, into `buffer` (21 bytes at
    /// least) and returns how many bytes, with no string made.
    static func writeInteger(_ value: Int64, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        var magnitude = value.magnitude
        var digits = 0
        var rest = magnitude
        repeat {
            digits += 1
            rest /= 10
        } while rest > 0
        let sign = value < 0 ? 1 : 0
        if value < 0 { buffer[0] = 0x2D }  // -
        var at = sign + digits
        repeat {
            at -= 1
            buffer[at] = 0x30 &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return sign + digits
    }

    mutating func writeString(_ string: String) {
        // Most strings (keys, names) have nothing to escape: told eight bytes at a time, and
        // written with one append, quotes included (a short one through a buffer on the stack).
        let plain = string.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            let count = utf8.count
            if let base = utf8.baseAddress, JSONWord.anyEscaped(base, count: count) { return false }
            if count > 62 {
                output.append(0x22)
                output.append(contentsOf: utf8)
                output.append(0x22)
                return true
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { quoted in
                let start = quoted.baseAddress!
                start[0] = 0x22
                if let base = utf8.baseAddress { (start + 1).initialize(from: base, count: count) }
                start[count + 1] = 0x22
                output.append(contentsOf: UnsafeBufferPointer(start: start, count: count + 2))
            }
            return true
        } ?? false
        if plain { return }
        output.append(0x22)  // "
        var string = string
        string.withUTF8 { utf8 in
            var segmentStart = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b < 0x20 || b == 0x22 || b == 0x5C else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[segmentStart..<i]))
                segmentStart = i + 1
                output.append(0x5C)  // \
                switch b {
                case 0x22: output.append(0x22)  // \"
                case 0x5C: output.append(0x5C)  // \\
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: "u00".utf8)
                    output.append(hex[Int(b >> 4)])
                    output.append(hex[Int(b & 0xF)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[segmentStart..<utf8.count]))
        }
        output.append(0x22)  // "
    }
}

extension JSONValue {
    /// This value as people read it in one line, not as JSON: strings unquoted (but `""` for the empty
    /// one), `{key: value, …}`, `[a, b]`: `{articles: [101, 102]}`. Characters are left as they are;
    /// a terminal needs them escaped.
    package var readableText: String {
        switch self {
        case .null: "null"
        case .bool(let bool): bool ? "true" : "false"
        case .number: serialized()
        case .string(let string): string.isEmpty ? "\"\"" : string
        case .array(let elements): "[" + elements.map(\.readableText).joined(separator: ", ") + "]"
        case .object(let object): "{" + object.members.map { "\($0.key): \($0.value.readableText)" }.joined(separator: ", ") + "}"
        }
    }
}
