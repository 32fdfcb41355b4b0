import SubscriberABI

extension adh_string {
    /// The absent string (`data == NULL`), which differs from the empty string.
    public static var absent: adh_string { adh_string(data: nil, length: 0) }

    /// Whether this is the absent string (`data == NULL`).
    public var isAbsent: Bool { data == nil }

    /// The bytes, borrowed like the string itself; empty when absent.
    public var bytes: UnsafeBufferPointer<UInt8> {
        guard let data else { return UnsafeBufferPointer(start: nil, count: 0) }
        // UInt8 and CChar may alias each other (signed/unsigned variants of one type).
        return UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// The text as a copied Swift string; nil when absent. Invalid UTF-8 is repaired (U+FFFD), so
    /// hostile bytes never trap.
    public var string: String? {
        guard data != nil else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension adh_bytes {
    /// The bytes, borrowed like the value itself; empty when `data == NULL`.
    public var buffer: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: data, count: data == nil ? 0 : length)
    }
}

/// Calls `body` with `string` as a borrowed `adh_string` (absent when `string` is nil).
public func withABIString<R>(_ string: String?, _ body: (adh_string) throws -> R) rethrows -> R {
    guard var string else { return try body(.absent) }
    return try string.withUTF8 { utf8 in
        // An empty Swift string may have no storage; the contract wants a non-NULL pointer for "".
        guard let base = utf8.baseAddress else { return try body(ABIBytes.emptyString) }
        let chars = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        return try body(adh_string(data: chars, length: utf8.count))
    }
}
