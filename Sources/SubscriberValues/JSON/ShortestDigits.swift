/// Swift's `description` of a Double with a fraction, in decimal notation (`0.1`, `1795812336.244834`),
/// written into bytes with no String made: what the serializer writes for a number in a log call's
/// attributes, and what the host's check of those attributes holds a number's text against.
///
/// `description` writes the shortest digits that read back as the Double and, among as many
/// digits, the ones closest to it; decimal notation for a number with a fraction of at least
/// 0.0001. Here, for `x = M × 2^-k` (M the significand with its hidden bit, 1 ≤ k ≤ 66: a fraction,
/// at least 2^-14), every figure is an integer in units of 2^-(k+2) (below 2^126, so 128-bit
/// arithmetic is exact): x is 4M, its rounding interval runs from 4M − 2 (4M − 1 at a power of
/// two, whose gap below is half) to 4M + 2, and the texts of n digits after the point are the
/// multiples of 2^(k+2) / 10^n. The shortest text is the fewest digits after the point for which
/// such a multiple lies inside the interval (that holds for every n from there on), and of those
/// the one nearest x. Where `description` would have to decide something this does not tell — an
/// end of the interval exactly on a text's grid (whether that text reads back depends on
/// rounding to even), two texts equally near, an exponent — nothing is written, and the caller
/// asks `description` (rare: for instance a number near 2^50 ending in .25).
package enum ShortestDigits {
    /// `x` as integers in units of 2^-(k+2), for x = M × 2^-k with 1 ≤ k ≤ 66 (normal, below 2^52).
    struct Interval {
        /// 4M: x.
        let center: UInt128
        /// Half the gap to the next Double below: 2, or 1 at a power of two.
        let below: UInt128
        /// k + 2.
        let shift: Int
        /// 2^(k+2) − 1, and 2^(k+1).
        let mask: UInt128, half: UInt128

        /// Nil for a Double outside 2^-14 ..< 2^52 in magnitude, subnormal or not finite.
        @inline(__always)
        init?(magnitude x: Double) {
            guard x.isNormal else { return nil }
            let k = 52 &- Int(x.exponent)
            guard k >= 1, k <= 66 else { return nil }
            center = UInt128(x.significandBitPattern | 1 << 52) &<< 2
            below = x.significandBitPattern == 0 ? 1 : 2
            shift = k &+ 2
            mask = (UInt128(1) &<< shift) &- 1
            half = UInt128(1) &<< (shift &- 1)
        }

        /// The lowest and highest texts of n digits after the point (as integers: text × 10^n)
        /// strictly inside the interval, `tens` being 10^n (lowest > highest: none); nil when an end
        /// of the interval is itself such a text.
        @inline(__always)
        func inside(_ tens: UInt128) -> (lowest: UInt128, highest: UInt128)? {
            let low = (center &- below) &* tens, high = (center &+ 2) &* tens
            guard low & mask != 0, high & mask != 0 else { return nil }
            return ((low &>> shift) &+ 1, high &>> shift)
        }

        /// The text of n digits after the point nearest x (as an integer), `tens` being 10^n; nil
        /// when two are equally near.
        @inline(__always)
        func nearest(_ tens: UInt128) -> UInt128? {
            let scaled = center &* tens
            let rest = scaled & mask
            guard rest != half else { return nil }
            return (scaled &>> shift) &+ (rest > half ? 1 : 0)
        }
    }

    /// 10^n, 0 ≤ n ≤ 22.
    @inline(__always)
    static func tens(_ n: Int) -> UInt128 {
        n <= 19 ? UInt128(power(n)) : UInt128(power(n &- 19)) &* UInt128(power(19))
    }

    /// 10^n, 0 ≤ n ≤ 19: a switch, which the compiler makes a table of constants (an array would
    /// be a global initialized once, checked at every use).
    @inline(__always)
    static func power(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// "00" to "99", two bytes each.
    private static let pairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// The bytes ``write(_:into:)`` needs (it writes at most 24: a sign, 17 digits, a point, four zeros; the rest is its scratch).
    package static let maximumLength = 64

    /// Writes `x.description` into `buffer` (``maximumLength`` bytes at least) when `x` has a
    /// fraction and its description is in decimal notation, and returns how many bytes; 0 when
    /// `x` is not such a number or its digits are not told here (the caller asks `description`).
    package static func write(_ x: Double, into buffer: UnsafeMutablePointer<UInt8>) -> Int {
        guard let interval = Interval(magnitude: x.magnitude) else { return 0 }
        // A fraction: some of the significand's last k bits set (all of them below 1).
        let k = interval.shift &- 2
        guard k > 52 || (x.significandBitPattern | 1 << 52) & (1 &<< UInt64(k) &- 1) != 0 else { return 0 }
        // A grid finer than the Double's gap (10^n > 2^k) holds a text inside its interval, or the
        // next one does (the interval at a power of two is three quarters of a gap); then fewer
        // digits while a text of fewer is inside.
        var n = ((interval.shift &- 2) &* 1233) &>> 12 &+ 1
        guard var found = interval.inside(tens(n)) else { return 0 }
        if found.lowest > found.highest {
            n &+= 1
            guard let finer = interval.inside(tens(n)), finer.lowest <= finer.highest else { return 0 }
            found = finer
        } else {
            while n > 1 {
                guard let shorter = interval.inside(tens(n &- 1)) else { return 0 }
                guard shorter.lowest <= shorter.highest else { break }
                n &-= 1
                found = shorter
            }
        }
        let scale = tens(n)
        guard let digits = interval.nearest(scale), digits >= found.lowest, digits <= found.highest,
              digits < UInt128(power(17)), n <= 4 || digits >= UInt128(power(n &- 4))  // at least 0.0001: smaller ones have an exponent
        else { return 0 }
        var value = UInt64(truncatingIfNeeded: digits)
        guard value % 10 != 0 else { return 0 }
        // The digits from the last, two at a time, backwards from the buffer's end (then moved to
        // its start): the n after the point, the point, the whole part ("0" for none).
        let pairs = Self.pairs.utf8Start
        var end = maximumLength
        @inline(__always) func pair() {
            let at = Int(truncatingIfNeeded: value % 100) &* 2
            value /= 100
            end &-= 2
            buffer[end] = pairs[at]
            buffer[end &+ 1] = pairs[at &+ 1]
        }
        var remaining = n
        while remaining >= 2 {
            pair()
            remaining &-= 2
        }
        if remaining == 1 {
            end &-= 1
            buffer[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        }
        end &-= 1
        buffer[end] = UInt8(ascii: ".")
        while value >= 100 { pair() }
        if value >= 10 {
            pair()
        } else {
            end &-= 1
            buffer[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
        }
        var start = 0
        if x.sign == .minus {
            buffer[0] = UInt8(ascii: "-")
            start = 1
        }
        let count = maximumLength &- end
        (buffer + start).update(from: buffer + end, count: count)
        return start &+ count
    }

    /// Whether `mantissa` / 10^`fractionDigits` (digits as written, 1 ≤ `fractionDigits` ≤ 20, at
    /// most 17 significant, no trailing zero, at least 0.0001) is exactly what ``write(_:into:)``
    /// writes for the Double it reads as: inside that Double's interval, no text of one digit
    /// fewer inside it, and the nearest of its own length. False when that is not told here (the
    /// caller reads the text and writes it again).
    static func isShortest(mantissa: UInt64, fractionDigits n: Int) -> Bool {
        let scale = tens(n)
        // The Double it reads as, or one beside it (a mantissa past 2^53 is rounded once before
        // the division): the interval says which way to go.
        var x = Double(mantissa) / exactPowersOfTen[n]
        for _ in 0..<3 {
            guard let interval = Interval(magnitude: x), let here = interval.inside(scale) else { return false }
            let text = UInt128(mantissa)
            if text < here.lowest {
                x = x.nextDown
            } else if text > here.highest {
                x = x.nextUp
            } else {
                guard let shorter = interval.inside(tens(n &- 1)), shorter.lowest > shorter.highest else { return false }
                return interval.nearest(scale) == text
            }
        }
        return false
    }
}
