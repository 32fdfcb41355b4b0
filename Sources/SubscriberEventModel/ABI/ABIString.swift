import SubscriberABI
import SubscriberValues

/// Why a string or byte buffer handed over the boundary cannot be read: a length past
/// ``ABI/maximumStringLength`` (`(size_t)-1` among them), or NULL data with a non-zero length.
/// Reading such a value would trap (a negative count) or read unmapped memory; the receiver reads it
/// as invalid and reports this instead.
package struct ABIStringProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The length the other side passed, as the unsigned `size_t` it is.
    package let length: UInt
    /// Whether `data` was non-NULL.
    package let hasData: Bool

    /// "expected a string of at most 64 MiB with data, found length 18446744073709551615".
    package var description: String {
        "expected a string of at most \(ABI.maximumStringLength >> 20) MiB with data, found length \(length)"
            + (hasData ? "" : " and NULL data")
    }

    /// The problem of a buffer at `data` of `length` bytes, or nil when it can be read. The one check
    /// every `adh_string` and `adh_bytes` read goes through.
    @inline(__always)
    package static func of(data: UnsafeRawPointer?, length: Int) -> ABIStringProblem? {
        // size_t arrives as Int: (size_t)-1 is -1, so compare unsigned.
        let unsigned = UInt(bitPattern: length)
        if unsigned <= UInt(ABI.maximumStringLength) && (data != nil || unsigned == 0) { return nil }
        return ABIStringProblem(length: unsigned, hasData: data != nil)
    }
}

extension ABI {
    /// The longest single string or byte buffer either side accepts over the boundary: 64 MiB.
    package static let maximumStringLength = 64 << 20
}

extension adh_string {
    /// The absent string (`data == NULL`), which differs from the empty string.
    package static var absent: adh_string { adh_string(data: nil, length: 0) }

    /// Whether this is the absent string (`data == NULL`).
    package var isAbsent: Bool { data == nil }

    /// Why this string cannot be read (see ``ABIStringProblem``), or nil when it can.
    package var problem: ABIStringProblem? { ABIStringProblem.of(data: data, length: length) }

    /// The bytes, borrowed like the string itself; nil when absent; throws when the string cannot be
    /// read (too long, or NULL data with a length).
    package func checkedBytes() throws(ABIStringProblem) -> UnsafeBufferPointer<UInt8>? {
        if let problem { throw problem }
        guard let data else { return nil }
        // UInt8 and CChar may alias each other (signed/unsigned variants of one type).
        return UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// The text as a copied Swift string; nil when absent; throws when the string cannot be read.
    /// Invalid UTF-8 is repaired (U+FFFD), so hostile bytes never trap.
    package func checkedString() throws(ABIStringProblem) -> String? {
        try checkedBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes, borrowed like the string itself; empty when absent or unreadable (use
    /// ``checkedBytes()`` to tell, and report, the latter).
    package var bytes: UnsafeBufferPointer<UInt8> {
        ((try? checkedBytes()) ?? nil) ?? UnsafeBufferPointer(start: nil, count: 0)
    }

    /// The text as a copied Swift string; nil when absent or unreadable (use ``checkedString()`` to
    /// tell, and report, the latter). Invalid UTF-8 is repaired (U+FFFD), so hostile bytes never trap.
    package var string: String? {
        (try? checkedString()) ?? nil
    }
}

extension adh_bytes {
    /// Why these bytes cannot be read (see ``ABIStringProblem``), or nil when they can.
    package var problem: ABIStringProblem? { ABIStringProblem.of(data: data.map(UnsafeRawPointer.init), length: length) }

    /// The bytes, borrowed like the value itself; empty when `data == NULL`; throws when they cannot
    /// be read (too long, or NULL data with a length).
    package func checkedBuffer() throws(ABIStringProblem) -> UnsafeBufferPointer<UInt8> {
        if let problem { throw problem }
        return UnsafeBufferPointer(start: data, count: data == nil ? 0 : length)
    }

    /// The bytes, borrowed like the value itself; empty when `data == NULL` or unreadable (use
    /// ``checkedBuffer()`` to tell, and report, the latter).
    package var buffer: UnsafeBufferPointer<UInt8> {
        (try? checkedBuffer()) ?? UnsafeBufferPointer(start: nil, count: 0)
    }
}

/// Calls `body` with `string` as a borrowed `adh_string` (absent when `string` is nil).
package func withABIString<R>(_ string: String?, _ body: (adh_string) throws -> R) rethrows -> R {
    guard var string else { return try body(.absent) }
    return try string.withUTF8 { utf8 in
        // An empty Swift string may have no storage; the contract wants a non-NULL pointer for "".
        guard let base = utf8.baseAddress else { return try body(ABIBytes.emptyString) }
        let chars = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        return try body(adh_string(data: chars, length: utf8.count))
    }
}
