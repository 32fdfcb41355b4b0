import Testing
import SubscriberValues

@Suite("JSONWord: eight bytes of JSON text tested at once")
struct JSONWordTests {
    /// The high bit of the first byte of `bytes` for which `rule` holds (as loaded, little-endian); 0 for none.
    private static func expected(_ bytes: [UInt8], _ rule: (UInt8) -> Bool) -> UInt64 {
        bytes.firstIndex(where: rule).map { UInt64(0x80) << (8 * UInt64($0)) } ?? 0
    }

    /// What a word's test tells exactly: none, or the first byte found (its lowest set bit).
    private static func first(_ found: UInt64) -> UInt64 { found & (~found &+ 1) }

    @Test("every byte value at every place, beside every kind of neighbour: none found exactly when none is there, else the first one")
    func everyByteAtEveryPlace() {
        let escaped: (UInt8) -> Bool = { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
        let high: (UInt8) -> Bool = { $0 >= 0x7F }
        let control: (UInt8) -> Bool = { $0 < 0x20 }
        // Neighbours next to each boundary a borrow or a carry could cross: plain, the rule's own bytes, 0x7E/0x7F/0x80.
        for filler: UInt8 in [0x61, 0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC3, 0xFF] {
            for place in 0..<8 {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[place] = UInt8(value)
                    let word = bytes.withUnsafeBufferPointer { JSONWord.load($0.baseAddress!) }
                    let foundEscaped = Self.first(JSONWord.escaped(word)), foundHigh = Self.first(JSONWord.atOrAboveDEL(word))
                    #expect(foundEscaped == Self.expected(bytes, escaped), "\(bytes)")
                    #expect(foundHigh == Self.expected(bytes, high), "\(bytes)")
                    let foundControl = Self.first(JSONWord.control(word))
                    #expect(foundControl == Self.expected(bytes, control), "\(bytes)")
                    if foundEscaped != Self.expected(bytes, escaped) || foundHigh != Self.expected(bytes, high)
                        || foundControl != Self.expected(bytes, control) { return }
                }
            }
        }
    }
}
