extension Duration {
    /// The whole nanoseconds in this duration (a fraction is dropped), clamped to 0 … `UInt64.max`:
    /// a negative duration gives 0, one beyond about 584 years gives `UInt64.max`. Never traps.
    package var nanosecondsSaturating: UInt64 {
        let (seconds, attoseconds) = components
        // Int128 holds every Duration in attoseconds (|seconds| × 10^18 < 2^127): nothing overflows.
        let total = Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
        return UInt64(clamping: total / 1_000_000_000)
    }

    /// This duration in milliseconds, with its fraction (negative stays negative); for output.
    package var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
