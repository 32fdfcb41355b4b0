import Foundation
import SubscriberABI
import Testing
@testable import SubscriberKit
@testable import SubscriberEventModel

@Suite("ABI conversions shared by both sides")
struct ABIConversionTests {
    @Test func readCoveredCopiesOnlyWhatStructSizeCovers() {
        var full = adh_open_url(struct_size: 0, serial: 77, url: ABIBytes.emptyString,
                                source_application: ABIBytes.emptyString, annotation_json: .absent, open_in_place: 1,
                                event_attribution_json: .absent)
        let urlEnd = MemoryLayout<adh_open_url>.offset(of: \.url)! + MemoryLayout<adh_string>.size
        full.struct_size = UInt32(urlEnd)
        let older = ABI.readCovered(&full)
        #expect(older.serial == 77 && older.url.data != nil)
        #expect(older.source_application.isAbsent && older.open_in_place == 0)

        // A field only partly covered is not read at all (never half a pointer).
        full.struct_size = 12
        #expect(ABI.readCovered(&full).serial == 0)
        // A newer writer's larger struct: only our fields are read.
        full.struct_size = UInt32.max
        #expect(ABI.readCovered(&full).open_in_place == 1)
    }

    @Test func tristatesAndMasks() {
        #expect([nil, false, true].map(ABI.tristate) == [-1, 0, 1])
        #expect([-1, 0, 1, 2, -7].map(ABI.bool(fromTristate:)) == [nil, false, true, nil, nil])
        #expect([-1, 0, 1, 2].map(ABI.isValidTristate) == [true, true, true, false])
        #expect(ABI.orientationAnswer(nil) == -1)
        #expect(ABI.orientationAnswer(.landscape) == 24)
        #expect(ABI.orientationMask(fromAnswer: 24) == .landscape)
        #expect(ABI.orientationMask(fromAnswer: -5) == nil)
        #expect(ABI.orientationMask(fromAnswer: 1 << 33) == nil)
        #expect(ABI.orientationMask(fromAnswer: 0) == [])
    }

    @Test(arguments: [
        LaunchInvocation.deepLink(URL(string: "https://example.com/a?b=c")!),
        .urlScheme(URL(string: "news://x")!), .notification(["aps": ["alert": "Hi"], "n": 1.5]),
        .shortcut("com.example.search"), .background(.location), .background(.bluetooth), .background(.fetch),
        .appIconClick, .unknown,
    ])
    func invocationsRoundTrip(_ invocation: LaunchInvocation) {
        let kind = ABI.invocationKind(invocation)
        let back = withABIString(ABI.invocationDetail(invocation)) { ABI.invocation(kind: kind, detail: $0) }
        #expect(back == invocation)
    }

    @Test func nonsenseInvocationsReadAsUnknown() {
        let cases: [(Int, String?)] = [(ADH_INVOCATION_DEEP_LINK, nil), (ADH_INVOCATION_DEEP_LINK, "no scheme"),
                                       (ADH_INVOCATION_NOTIFICATION, "[1]"), (ADH_INVOCATION_BACKGROUND, "wifi"),
                                       (99, "x")]
        for (kind, detail) in cases {
            let invocation = withABIString(detail) { ABI.invocation(kind: adh_invocation_kind(kind), detail: $0) }
            #expect(invocation == .unknown, "kind \(kind) detail \(detail ?? "NULL")")
        }
    }

    @Test func stringsKeepAbsentApartFromEmptyAndRepairBadUTF8() {
        #expect(withABIString(nil) { $0.string } == nil)
        #expect(withABIString("") { $0.data != nil && $0.length == 0 })
        let bytes = ABIBytes([0x61, 0xff, 0x62])
        #expect(bytes.string.string == "a\u{FFFD}b")
        #expect(String(cString: bytes.cString) == "a\u{FFFD}b")
    }

    @Test func errorsRoundTrip() {
        let error = LifecycleError(domain: "d", code: -42, message: "m é")
        #expect(error.withABIError { LifecycleError(abi: $0) } == error)
    }
}
