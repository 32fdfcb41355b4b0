import Testing
import SubscriberKit
@testable import SubscriberHost

/// The host never trusts what a child writes: every malformed payload reads as one line saying what
/// was expected and found (the connection then ends the child as crashed).
@Suite("Isolation: the wire")
struct IsolationWireTests {
    @Test("a message round-trips: its type byte, then a JSON object")
    func roundTrip() throws {
        let payload = IsolationWire.payload(.reply, ["seq": 7, "answers": []])
        let (type, object) = try IsolationWire.read(payload[...])
        #expect(type == .reply)
        #expect(object["seq"]?.intValue == 7)
    }

    @Test("malformed payloads are refused with what was expected and found",
          arguments: [([], "found an empty frame"), ([99, 123, 125], "found the unknown type 99"),
                      ([11] + Array("{\"seq\":".utf8), "in JSON, found JSON that does not read"),
                      ([11] + Array("[1,2]".utf8), "as a JSON object, found an array")] as [([UInt8], String)])
    func malformed(payload: [UInt8], found: String) {
        #expect {
            try IsolationWire.read(payload[...])
        } throws: { error in
            "\(error)".hasPrefix("expected") && "\(error)".contains(found)
        }
    }

    @Test("an index from the child is checked against what the host gave", arguments: [-1, 2, 1_000_000_000])
    func indexOutOfRange(index: Int) {
        #expect(throws: IsolationWireError.self) {
            try IsolationWire.index(["s": .number(Double(index))], "s", below: 2, in: .completion)
        }
        #expect(throws: IsolationWireError.self) { try IsolationWire.index(["s": "0"], "s", below: 2, in: .completion) }
        #expect((try? IsolationWire.index(["s": 1], "s", below: 2, in: .completion)) == 1)
    }

    @Test("an event without arguments goes compact (29 bytes and 2 per subscriber) and reads as its JSON form")
    func compactEvent() throws {
        let event: JSONObject = ["seq": 41, "event": "didReceiveMemoryWarning", "arguments": [:], "state": 0,
                                 "deadline": 5_000_000_000, "subscribers": [2, 0, 65_535], "stopsAtFirstYes": true]
        let payload = IsolationWire.payload(.event, event)
        #expect(payload.first == IsolationWire.compactEvent)
        #expect(payload.count == 1 + 29 + 2 * 3)
        let (type, read) = try IsolationWire.read(payload[...])
        #expect(type == .event)
        #expect(read == event)
        // Without the flag, too.
        var plain = event
        plain["stopsAtFirstYes"] = nil
        #expect(try IsolationWire.read(IsolationWire.payload(.event, plain)[...]).1 == plain)
    }

    @Test("an event that does not fit the compact form stays JSON: arguments, a launch, an index past 16 bits",
          arguments: [("arguments", ["url": "https://example.com"] as JSONValue), ("launch", ["k": 1] as JSONValue),
                      ("subscribers", [70_000] as JSONValue), ("stopsAtFirstYes", false as JSONValue)])
    func jsonEvent(key: String, value: JSONValue) throws {
        var event: JSONObject = ["seq": 1, "event": "openURL", "arguments": [:], "state": 0, "deadline": 1, "subscribers": [0]]
        event[key] = value
        let payload = IsolationWire.payload(.event, event)
        #expect(payload.first == IsolationMessage.event.rawValue)
        #expect(try IsolationWire.read(payload[...]).1 == event)
    }

    @Test("a reply of no opinions and yes/no answers goes compact (11 bytes and 3 per answer) and reads as its JSON form")
    func compactReply() throws {
        let reply: JSONObject = ["seq": 9, "answers": [["s": 0, "k": "n"], ["s": 3, "k": "a", "v": true],
                                                       ["s": 1, "k": "a", "v": false]]]
        let payload = IsolationWire.payload(.reply, reply)
        #expect(payload.first == IsolationWire.compactReply)
        #expect(payload.count == 1 + 10 + 3 * 3)
        let (type, read) = try IsolationWire.read(payload[...])
        #expect(type == .reply)
        #expect(read == reply)
    }

    @Test("a reply that does not fit the compact form stays JSON: reports, a value, a pending completion",
          arguments: [["seq": 1, "answers": [["s": 0, "k": "n"]], "r": []],
                      ["seq": 1, "answers": [["s": 0, "k": "a", "v": "https://example.com"]]],
                      ["seq": 1, "answers": [["s": 0, "k": "p"]]],
                      ["seq": 1, "answers": [["s": 0, "k": "n", "r": []]]]] as [JSONObject])
    func jsonReply(reply: JSONObject) throws {
        let payload = IsolationWire.payload(.reply, reply)
        #expect(payload.first == IsolationMessage.reply.rawValue)
        #expect(try IsolationWire.read(payload[...]).1 == reply)
    }

    @Test("a compact message that does not read is refused in one line: short, too long, an unknown row or kind")
    func malformedCompact() {
        let event = IsolationWire.payload(.event, ["seq": 1, "event": "didBecomeActive", "arguments": [:], "state": 0,
                                                   "deadline": 1, "subscribers": [0, 1]])
        let reply = IsolationWire.payload(.reply, ["seq": 1, "answers": [["s": 0, "k": "n"]]])
        var badRow = event
        badRow[9] = 0xFF
        badRow[10] = 0xFF
        var badKind = reply
        badKind[badKind.count - 1] = 7
        let cases: [([UInt8], String)] = [
            (Array(event.dropLast()), "expected 2 more bytes in a compact event"),
            (event + [0], "expected the end of a compact event after 33 bytes, found 1 more"),
            (badRow, "expected a compact event's row below"),
            (Array(reply.dropLast(2)), "more bytes in a compact reply"),
            (badKind, "expected a compact reply's answer kind 0, 1 or 2, found 7"),
            ([IsolationWire.compactReply, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF], "more bytes in a compact reply"),
        ]
        for (payload, found) in cases {
            #expect {
                try IsolationWire.read(payload[...])
            } throws: { error in
                "\(error)".hasPrefix("expected") && "\(error)".contains(found)
            }
        }
    }
}
