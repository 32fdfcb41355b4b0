/// For "did you mean" hints, here and in the command line (`suggestion(for:among:)`): one
/// implementation.
///
/// The optimal-string-alignment distance between `a` and `b`: the fewest single-character
/// insertions, deletions, substitutions and swaps of adjacent characters turning one into the other.
/// With `limit`, only the cells within `limit` of the diagonal are computed (a distance past it
/// needs none of the others) and any distance past it is `limit + 1`: linear in the strings' length,
/// so a hint for a megabyte of input costs little more than reading it.
package func editDistance(_ a: String, _ b: String, atMost limit: Int = .max) -> Int {
    let a = Array(a), b = Array(b)
    let (n, m) = (a.count, b.count)
    let band = min(limit, max(n, m))
    let past = band + 1  // what any distance beyond the band reads as
    if abs(n - m) > band { return past }
    if n == 0 { return m }
    if m == 0 { return n }
    var previous2 = [Int](repeating: past, count: m + 1)
    var previous = [Int](repeating: past, count: m + 1)
    var current = [Int](repeating: past, count: m + 1)
    for j in 0...min(m, band) { previous[j] = j }
    for i in 1...n {
        let low = max(1, i - band), high = min(m, i + band)
        current[0] = i <= band ? i : past
        if low > 1 { current[low - 1] = past }
        var rowLeast = current[0]
        for j in low...high {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, previous2[j - 2] + 1)
            }
            current[j] = min(value, past)
            rowLeast = min(rowLeast, current[j])
        }
        if high < m { current[high + 1] = past }
        if rowLeast >= past { return past }
        (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[m]
}
