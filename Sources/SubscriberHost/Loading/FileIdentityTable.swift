/// Values by file identity, in the order added: how ``PluginLoader`` keeps the images loaded in
/// this process.
///
/// A small open-addressing table over arrays rather than a dictionary keyed by ``FileIdentity``: a
/// dictionary's type is built by name at its first use, and checking `FileIdentity: Hashable` then
/// scans every loaded image's conformances (366,000 instructions at every start, as the first image
/// has just been loaded). Arrays, and this type, have no requirements to check. One probe sequence
/// per lookup; the slots grow by doubling, kept at most half full. Bounded by what is added: the
/// loader adds each image once, after looking it up, and images are never unloaded.
struct FileIdentityTable<Value> {
    /// The values in the order added, and the identity of each (same positions).
    private(set) var values: [Value] = []
    private var identities: [FileIdentity] = []
    /// Position in `values` + 1 for each used slot, 0 for a free one; a power of two long.
    private var slots = [Int32](repeating: 0, count: 16)

    /// The value added for `identity`, if any.
    subscript(identity: FileIdentity) -> Value? {
        var slot = Self.firstSlot(identity, count: slots.count)
        while slots[slot] != 0 {
            let position = Int(slots[slot]) - 1
            if identities[position] == identity { return values[position] }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Adds `value` for `identity`, which the table must not hold yet.
    mutating func insert(_ value: Value, for identity: FileIdentity) {
        assert(self[identity] == nil, "FileIdentityTable: \(identity) inserted twice (a second entry would never be found)")
        if (values.count + 1) * 2 > slots.count { grow() }
        values.append(value)
        identities.append(identity)
        place(values.count - 1)
    }

    private mutating func grow() {
        slots = [Int32](repeating: 0, count: slots.count * 2)
        for position in identities.indices { place(position) }
    }

    private mutating func place(_ position: Int) {
        var slot = Self.firstSlot(identities[position], count: slots.count)
        while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = Int32(position + 1)
    }

    /// Where `identity`'s probe starts among `count` slots (a power of two): the inode and device
    /// mixed by a multiply (Fibonacci hashing), so that consecutive inodes spread.
    private static func firstSlot(_ identity: FileIdentity, count: Int) -> Int {
        let mixed = (identity.inode ^ (identity.device &* 0xD6E8_FEB8_6659_FD93)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & (count - 1)
    }
}
