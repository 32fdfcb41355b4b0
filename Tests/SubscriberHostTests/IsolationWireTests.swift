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
}
