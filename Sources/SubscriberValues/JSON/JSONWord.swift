/// Eight bytes of JSON text tested at once, for the fast paths that write or read strings (the CLI's
/// JSON lines and terminal lines, the script reader, the SDK's writer). Each function returns 0 exactly when no byte of the word is one
/// it looks for; otherwise its lowest set bit is the high bit of the first such byte (in memory
/// order). Bits above that one may be set by a borrow or a carry: only "none" and "the first" are
/// exact (`JSONWordTests` holds both against the byte rule, every byte value at every place).
package enum JSONWord {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    package static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The bytes a JSON string must escape: below 0x20, `"` and `\`.
    @inlinable @inline(__always)
    package static func escaped(_ word: UInt64) -> UInt64 {
        // Below 0x20: x - 0x20 borrows into its high bit while x's is clear. `"` or `\`: zero once
        // xored with it, and zero - 1 borrows likewise.
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        return (((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
    }

    /// The control bytes, below 0x20 (what a terminal line escapes, with ``atOrAboveDEL(_:)``).
    @inlinable @inline(__always)
    package static func control(_ word: UInt64) -> UInt64 {
        // x - 0x20 borrows into its high bit while x's is clear.
        (word &- ones &* 0x20) & ~word & highs
    }

    /// The bytes at or above 0x7F (DEL and every byte of a multi-byte character).
    @inlinable @inline(__always)
    package static func atOrAboveDEL(_ word: UInt64) -> UInt64 {
        // The high bit set, or x + 1 reaching it from below.
        ((((word & ~highs) &+ ones) & highs) | word) & highs
    }

    /// The eight bytes at `pointer`, as one word (unaligned).
    @inlinable @inline(__always)
    package static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self)
    }

    /// Whether any of the `count` bytes at `base` is one a JSON string escapes (``escaped(_:)``): eight
    /// at a time, the last few as the last eight (some looked at twice). The one test the writers of
    /// JSON strings share (the SDK's writer, the CLI's lines).
    @inlinable @inline(__always)
    package static func anyEscaped(_ base: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count >= 8 else {
            for index in 0..<count where base[index] < 0x20 || base[index] == 0x22 || base[index] == 0x5C { return true }
            return false
        }
        var index = 0
        while index + 8 <= count {
            if escaped(load(base + index)) != 0 { return true }
            index += 8
        }
        return index < count && escaped(load(base + count - 8)) != 0
    }
}
