import Foundation
import SubscriberABI
import Testing
@testable import SubscriberKit
@testable import SubscriberEventModel

/// An encoded payload keeps its strings in its own block while they fit, and a string that does not
/// fit in bytes of its own: both read the same.
@Suite("Payload storage: strings in the payload's block, or their own bytes when they do not fit")
struct PayloadStorageTests {
    /// The strings `make` stores, read back from the payload it builds.
    private func stored(_ make: @escaping (inout PayloadStorage) -> [adh_string]) -> [String?] {
        var texts: [adh_string] = []
        let payload = EncodedPayload<adh_string> { storage in
            texts = make(&storage)
            return .absent
        }
        return withExtendedLifetime(payload) { texts.map(\.string) }
    }

    @Test("short strings, one too long for the block, then short ones again: each reads as given, NUL-terminated")
    func blockAndOverflowAgree() {
        let long = String(repeating: "x", count: PayloadStorage.room + 10)
        let texts = ["news://article/1", long, "", "com.apple.mobilesafari", String(repeating: "é", count: 100)]
        var terminated = true
        let read = stored { storage in
            let strings = texts.map { storage.string($0) }
            terminated = strings.allSatisfy { $0.data![$0.length] == 0 }
            return strings
        }
        #expect(read == texts)
        #expect(terminated)
    }

    @Test("the block fills up: the strings after it get bytes of their own, and every one reads as given")
    func fillingTheBlock() {
        let texts = (0..<40).map { "https://news.example.com/article/\($0)" }  // 40 × ~36 bytes: more than the room
        #expect(texts.reduce(0) { $0 + $1.utf8.count + 1 } > PayloadStorage.room)
        #expect(stored { storage in texts.map { storage.string($0) } } == texts)
    }

    @Test("nil is absent (NULL), the empty string is a non-NULL empty string; raw bytes and JSON likewise")
    func absentAndEmpty() {
        var pointers: [Bool] = []
        let read = stored { storage in
            let strings = [storage.string(nil), storage.string(""), storage.raw([]), storage.raw(nil), storage.json(nil)]
            pointers = strings.map { $0.data != nil }
            return strings
        }
        #expect(pointers == [false, true, true, false, false])
        #expect(read == [nil, "", "", nil, nil])
    }

    @Test("JSON: an empty object is written as serializing it writes it; any other value as serialized")
    func json() {
        let values: [JSONValue] = [.object([:]), .object(["articleID": 42, "tags": ["a", "b"]]), .array([]), .null,
                                   .object(["big": .string(String(repeating: "y", count: PayloadStorage.room))])]
        let read = stored { storage in values.map { storage.json($0) } }
        #expect(read == values.map { String(decoding: $0.serializedBytes(), as: UTF8.self) })
    }

    @Test("a user activity encoded and decoded: the same, whether its strings fit in the block or not")
    func userActivityBothWays() throws {
        let long = URL(string: "https://news.example.com/" + String(repeating: "a", count: PayloadStorage.room))!
        for activity in [UserActivity(activityType: UserActivity.browsingWeb, webpageURL: URL(string: "https://news.example.com/article/42")),
                         UserActivity(activityType: "com.example.news.reading", userInfo: ["articleID": 42]),
                         UserActivity(activityType: UserActivity.browsingWeb, webpageURL: long, userInfo: [:])] {
            let encoded = UserActivityArguments.encode(activity, EncodingContext(serial: 9, launchInvocation: nil))
            var problems: [String] = []
            #expect(UserActivityArguments.decode(encoded.pointer, problems: &problems) == activity)
            #expect(problems.isEmpty)
            #expect(encoded.pointer.pointee.serial == 9)
        }
    }
}
