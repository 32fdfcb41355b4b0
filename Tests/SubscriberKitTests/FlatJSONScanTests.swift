import Testing

@testable import SubscriberValues

/// The scan of a script line's members, eight bytes at a time, held against the parser at every
/// length and every place of a byte that ends or breaks a plain string; the strings a line reader
/// keeps for the lines to come; an idiom's name matched from its bytes.
@Suite("Flat JSON objects: the scan, the strings kept, names matched from bytes")
struct FlatJSONScanTests {
    /// Bytes that end a plain string or make it not plain, and plain ones beside them.
    static let probes: [[UInt8]] = [[0x22], [0x5C, 0x22], [0x5C, 0x6E], [0x1F], [0x00], [0x7F], [0xC3, 0xA9], [0x7E], [0x20], [0x41]]

    /// A value or key of `length` plain bytes with `probe` at `place` (nil: none).
    static func text(length: Int, probe: [UInt8]?, at place: Int) -> [UInt8] {
        var bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        if let probe { bytes.insert(contentsOf: probe, at: min(place, length)) }
        return bytes
    }

    @Test("a string value with any probe at any place, among words of eight bytes: the members the parser finds, plain only when it has nothing escaped and only printable ASCII")
    func valuesAtEveryPlace() throws {
        for length in 0...34 {
            for probe in [nil] + Self.probes {
                for place in Set([0, 1, 6, 7, 8, 9, 15, 16, 17, length].filter { $0 <= length }) {
                    let value = Self.text(length: length, probe: probe, at: place)
                    for (prefix, suffix) in [(#"{"k":""#, #""}"#), (#"{"event": "x", "k": ""#, #"", "z": 1}  "#)] {
                        let line = Array(prefix.utf8) + value + Array(suffix.utf8)
                        let parsed = try? JSONValue(parsing: ArraySlice(line))
                        guard let flat = FlatJSONObject(scanning: ArraySlice(line)) else {
                            // Left to the parser: only what it refuses, or a string it reads with a control character.
                            #expect(parsed == nil || value.contains { $0 < 0x20 }, "\(line)")
                            continue
                        }
                        #expect(flat.object.map(JSONValue.object) == parsed, "\(line)")
                        let member = try #require(flat.members.first { flat.string($0.key) == "k" })
                        let plain = value.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
                        #expect(member.plain == plain, "\(line)")
                    }
                }
            }
        }
    }

    @Test("a key with any probe at any place: read when plain (as the parser reads it), else left to the parser")
    func keysAtEveryPlace() throws {
        for length in 0...34 {
            for probe in [nil] + Self.probes {
                for place in Set([0, 1, 7, 8, 9, 16, length].filter { $0 <= length }) {
                    let key = Self.text(length: length, probe: probe, at: place)
                    let line = Array(#"{"event": "x", ""#.utf8) + key + Array(#"": "v"}"#.utf8)
                    let parsed = try? JSONValue(parsing: ArraySlice(line))
                    let plain = key.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
                    let flat = FlatJSONObject(scanning: ArraySlice(line))
                    if plain {
                        #expect(flat?.object.map(JSONValue.object) == parsed && parsed != nil, "\(line)")
                    } else {
                        #expect(flat == nil, "\(line)")
                    }
                }
            }
        }
    }

    @Test("an idiom's name matched from its bytes as from a String, every name and near misses")
    func idiomFromBytes() {
        let names = UserInterfaceIdiom.allCases.map(\.name)
        let nearMisses = names.map({ $0.uppercased() }) + names.map({ $0 + "s" }) + names.map({ String($0.dropLast()) }) + ["", "iPad"]
        for name in names + nearMisses {
            #expect(UserInterfaceIdiom(name: ArraySlice(name.utf8)) == UserInterfaceIdiom(name: name), "\(name)")
        }
    }

    @Test("strings kept from line to line: the same bytes give the same string, other bytes of the same slot their own, at every length")
    func recentStrings() {
        var recent = RecentStrings()
        var texts: [[UInt8]] = []
        for length in [0, 1, 15, 16, 17, 29, 64] {
            for last in [UInt8(ascii: "a"), UInt8(ascii: "b")] {
                texts.append(Self.text(length: length, probe: nil, at: 0) + [last])
                // Same length, last and middle bytes as another: the same slot.
                var other = Self.text(length: length, probe: nil, at: 0) + [last]
                if !other.isEmpty { other[0] = UInt8(ascii: "Z") }
                texts.append(other)
            }
        }
        for _ in 0..<3 {
            for text in texts + texts.reversed() {
                let made = text.withUnsafeBufferPointer { recent.string($0) }
                #expect(Array(made.utf8) == text)
            }
        }
    }
}
