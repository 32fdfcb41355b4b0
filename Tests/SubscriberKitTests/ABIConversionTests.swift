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

    /// The enums' C values are written out by hand (their raw values are `package`, not a public
    /// `RawRepresentable`): each case is the header's constant, and reads back as itself.
    @Test func enumsCarryTheHeadersValues() {
        func check<E: CaseIterable & Equatable>(_ pairs: [(E, Int)], raw: (E) -> Int32, back: (Int32) -> E?) {
            #expect(pairs.count == E.allCases.count, "\(E.self): every case listed")
            for (value, constant) in pairs {
                #expect(Int(raw(value)) == constant, "\(E.self).\(value)")
                #expect(back(raw(value)) == value, "\(E.self).\(value) reads back")
            }
            #expect(back(99) == nil && back(-99) == nil)
        }
        check([(LogLevel.trace, ADH_LOG_TRACE), (.debug, ADH_LOG_DEBUG), (.info, ADH_LOG_INFO), (.notice, ADH_LOG_NOTICE),
               (.warning, ADH_LOG_WARNING), (.error, ADH_LOG_ERROR), (.critical, ADH_LOG_CRITICAL)],
              raw: \.rawValue, back: LogLevel.init(rawValue:))
        check([(ApplicationState.active, ADH_APPLICATION_ACTIVE), (.inactive, ADH_APPLICATION_INACTIVE),
               (.background, ADH_APPLICATION_BACKGROUND), (.notRunning, ADH_APPLICATION_NOT_RUNNING),
               (.terminated, ADH_APPLICATION_TERMINATED)],
              raw: \.rawValue, back: ApplicationState.init(rawValue:))
        check([(BackgroundFetchResult.newData, ADH_FETCH_NEW_DATA), (.noData, ADH_FETCH_NO_DATA), (.failed, ADH_FETCH_FAILED)],
              raw: \.rawValue, back: BackgroundFetchResult.init(rawValue:))
        check([(UserInterfaceIdiom.unspecified, ADH_IDIOM_UNSPECIFIED), (.phone, ADH_IDIOM_PHONE), (.pad, ADH_IDIOM_PAD),
               (.tv, ADH_IDIOM_TV), (.carPlay, ADH_IDIOM_CAR_PLAY), (.mac, ADH_IDIOM_MAC), (.vision, ADH_IDIOM_VISION)],
              raw: \.rawValue, back: UserInterfaceIdiom.init(rawValue:))
        check([(SceneState.unattached, ADH_SCENE_UNATTACHED), (.foregroundActive, ADH_SCENE_FOREGROUND_ACTIVE),
               (.foregroundInactive, ADH_SCENE_FOREGROUND_INACTIVE), (.background, ADH_SCENE_BACKGROUND)],
              raw: \.rawValue, back: SceneState.init(rawValue:))
        check([(InterfaceOrientation.unknown, ADH_INTERFACE_ORIENTATION_UNKNOWN), (.portrait, ADH_INTERFACE_ORIENTATION_PORTRAIT),
               (.portraitUpsideDown, ADH_INTERFACE_ORIENTATION_PORTRAIT_UPSIDE_DOWN),
               (.landscapeRight, ADH_INTERFACE_ORIENTATION_LANDSCAPE_RIGHT), (.landscapeLeft, ADH_INTERFACE_ORIENTATION_LANDSCAPE_LEFT)],
              raw: \.rawValue, back: InterfaceOrientation.init(rawValue:))
        for reason in BackgroundLaunchReason.allCases {
            #expect(BackgroundLaunchReason(rawValue: reason.rawValue) == reason)
        }
        #expect(BackgroundLaunchReason.allCases.map(\.rawValue) == ["location", "bluetooth", "fetch"])
        #expect(LogLevel.allCases == LogLevel.allCases.sorted(), "LogLevel orders as its C values")
    }

    /// A plugin reads the host's app info straight from its text when it is a flat object of plain
    /// strings (no JSON tree at `create`), and parses anything else: both ways, the same application.
    @Test(arguments: [
        (#"{"name":"News","bundleIdentifier":"com.example.news","version":"1.0"}"#, true),
        (#" { "version" : "2",\#n\#t"name" : "N" } "#, true),
        ("{}", true), (" { } ", true),
        (#"{"name":"Caf\u00e9","bundleIdentifier":"b","version":"1"}"#, false),
        (#"{"name":"Café","version":"1"}"#, false),
        (#"{"name":7,"version":"1"}"#, false),
        (#"{"name":"a","name":"b"}"#, false),
        (#"{"name":"a","other":"b"}"#, false),
        (#"{"name":"a",}"#, false), (#"{"name":"a" "version":"1"}"#, false), (#"{"name":"a"} x"#, false),
        ("[1]", false), (#"{"name":"x""#, false), (#"{"name":"x"#, false), ("", false), ("{", false),
    ])
    func appInfoReadFromItsTextAsParsed(_ text: String, flat: Bool) {
        let bytes = Array(text.utf8)
        let fields = bytes.withUnsafeBufferPointer { HostLink.flatStrings($0, ("name", "bundleIdentifier", "version")) }
        #expect((fields != nil) == flat, "\(text): read from its text")
        let parsed = bytes.withUnsafeBytes { try? JSONValue(parsing: $0) }?.objectValue.map { Application(infoJSON: $0) }
        if let fields {
            #expect(Application(name: fields.0 ?? "", bundleIdentifier: fields.1 ?? "", version: fields.2 ?? "") == parsed,
                    "\(text)")
        }
    }

    /// Options of `{}` (what a host gives a subscriber with none) are recognised without the parser.
    @Test func emptyOptionsAreRecognisedWithoutParsing() {
        for (text, empty) in [("{}", true), (" {\n} ", true), ("{{}}", false), ("{}}", false), ("{", false), ("", false),
                              (#"{"a":1}"#, false), ("[]", false)] {
            #expect(Array(text.utf8).withUnsafeBufferPointer(HostLink.isEmptyObject) == empty, "\(text)")
        }
    }
}
