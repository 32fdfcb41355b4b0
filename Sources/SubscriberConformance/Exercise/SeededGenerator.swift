/// SplitMix64: a small, fast, seedable generator. The same seed gives the same sequence on every
/// machine and every run, which is what makes a fuzz failure reproducible with `--seed`.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator seeded with `seed`.
    init(seed: UInt64) { state = seed }

    /// A generator for the stream named `name` under `seed`: streams do not depend on which other
    /// streams exist or in which order they run.
    init(seed: UInt64, stream name: String) {
        // FNV-1a of the name; Swift's Hasher is randomised per process, so it cannot be used here.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        state = seed ^ hash
    }

    mutating func next() -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
