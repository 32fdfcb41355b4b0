import Testing
@testable import SubscriberKit
@testable import SubscriberEventModel

/// The one rule for control characters and the one spelling people see them in.
@Suite("Control characters: one rule, one spelling")
struct ControlCharactersTests {
    @Test("C0, DEL and C1 are control characters; nothing else is")
    func theRule() {
        let controls = (0x00...0x1F).map { $0 } + [0x7F] + (0x80...0x9F).map { $0 }
        for value in controls { #expect(ControlCharacters.isControl(Unicode.Scalar(UInt32(value))!)) }
        for value: UInt32 in [0x20, 0x41, 0x5C, 0x7E, 0xA0, 0xA9, 0x2028, 0xFFFD, 0x1F600] {
            #expect(!ControlCharacters.isControl(Unicode.Scalar(value)!))
        }
    }

    @Test(#"\n \r \t \e, the others \u{…} in capitals; a backslash shows as itself"#)
    func theSpelling() {
        #expect(ControlCharacters.escaped("a\u{1B}[2J\nb\\\r\t\u{7}\u{0}\u{7F}\u{85}\u{9B}é")
                == #"a\e[2J\nb\\r\t\u{7}\u{0}\u{7F}\u{85}\u{9B}é"#)
        #expect(ControlCharacters.escaped("plain ½ text") == "plain ½ text")
    }

    @Test("a prefix stops before the escape that would pass the limit, and says it is cut")
    func prefix() {
        let cut = ControlCharacters.escapedPrefix("ab\u{1B}cd".unicodeScalars, limit: 3)
        #expect(cut.text == "ab" && !cut.complete)
        let whole = ControlCharacters.escapedPrefix("ab\u{1B}".unicodeScalars, limit: 4)
        #expect(whole.text == #"ab\e"# && whole.complete)
    }
}
