import SubscriberHost
import Testing

@Suite("Duration in nanoseconds and milliseconds")
struct DurationUnitsTests {
    @Test func nanosecondsAreWholeAndSaturate() {
        #expect(Duration.zero.nanosecondsSaturating == 0)
        #expect(Duration.milliseconds(1.5).nanosecondsSaturating == 1_500_000)
        #expect(Duration.seconds(30).nanosecondsSaturating == 30_000_000_000)
        // A fraction of a nanosecond is dropped.
        #expect(Duration(secondsComponent: 2, attosecondsComponent: 1_999_999_999).nanosecondsSaturating
            == 2_000_000_001)
        // Negative: 0, whether below or above one second (components carry the sign on both parts).
        #expect(Duration.milliseconds(-500).nanosecondsSaturating == 0)
        #expect(Duration.milliseconds(-1500).nanosecondsSaturating == 0)
        // The largest that fits, and beyond.
        #expect(Duration.seconds(18_446_744_073).nanosecondsSaturating == 18_446_744_073_000_000_000)
        #expect(Duration.seconds(18_446_744_074).nanosecondsSaturating == .max)
        #expect(Duration.seconds(Int64.max).nanosecondsSaturating == .max)
    }

    @Test func millisecondsKeepTheirFractionAndSign() {
        #expect(Duration.zero.milliseconds == 0)
        #expect(Duration.microseconds(1_500).milliseconds == 1.5)
        #expect(Duration.seconds(2).milliseconds == 2_000)
        #expect(Duration.milliseconds(-1_500).milliseconds == -1_500)
        #expect(Duration.nanoseconds(40_000).milliseconds == 0.04)
    }
}
