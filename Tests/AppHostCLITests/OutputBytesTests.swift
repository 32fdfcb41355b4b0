import Testing
@testable import AppHostCLI

/// The bytes an event's JSON line is written into, kept for the run: the room stays for the next
/// line, but a huge line's room is given back, so that one such line does not hold it for the run.
@Suite("OutputBytes: a line's bytes written in place, the room kept within a bound")
struct OutputBytesTests {
    @Test("appends of every kind read back in order; a huge line's room is given back after it, a small one's kept")
    func roomKeptWithinABound() {
        var line = OutputBytes(capacity: 16)
        line.append("{\"a\":")
        line.append(UInt8(ascii: "1"))
        line.append([UInt8]("}\n".utf8))
        #expect(String(decoding: line.bytes, as: UTF8.self) == "{\"a\":1}\n")

        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 3 * OutputBytes.keptRoom)
        line.removeAll()
        line.append(huge)
        #expect(line.count == huge.count && line.capacity >= huge.count)
        #expect(Array(line.bytes) == huge)
        line.removeAll()
        #expect(line.count == 0 && line.capacity == OutputBytes.keptRoom)

        line.append("small")
        let room = line.capacity
        line.removeAll()
        #expect(line.capacity == room)
        line.append("again")
        #expect(String(decoding: line.bytes, as: UTF8.self) == "again")
    }
}
