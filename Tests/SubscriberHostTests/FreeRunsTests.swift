import Testing
@testable import SubscriberDelivery

/// The completion-token table's forgotten runs by length agree with a dictionary keyed by length.
@Suite("Completion tokens: forgotten runs by length")
struct FreeRunsTests {
    @Test("20,000 appends and takes, short lengths and lengths past the indexed ones: every answer agrees with a [length: bases] dictionary")
    func agreesWithDictionary() {
        var runs = FreeRuns()
        var model: [Int: [Int]] = [:]
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {  // xorshift: the same sequence every run
            seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17
            return Int(seed % UInt64(bound))
        }
        let lengths = [0, 1, 2, 3, 7, 100, FreeRuns.indexedLengths - 1, FreeRuns.indexedLengths, FreeRuns.indexedLengths + 5, 70_000]
        for step in 0..<20_000 {
            let length = lengths[next(lengths.count)]
            if next(3) == 0 {
                let expected = model[length]?.popLast()
                #expect(runs.popLast(length: length) == expected, "step \(step): take of length \(length)")
            } else {
                runs.append(step, length: length)
                model[length, default: []].append(step)
            }
            let count = lengths[next(lengths.count)]
            let held = model.filter { !$0.value.isEmpty }.keys
            let answer = runs.lengths(over: count)
            #expect(answer.shortestLonger == held.filter { $0 > count }.min(), "step \(step): shortest longer than \(count)")
            #expect(answer.longest == (held.max() ?? 0), "step \(step): longest")
        }
    }
}
