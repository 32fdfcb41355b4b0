import Testing
@testable import AppHostCLI

@Suite("Terminal text")
struct TerminalTextTests {
    @Test("C0 controls, DEL and C1 controls are escaped; everything else shows as itself")
    func escapes() {
        #expect(TerminalText.escaped("\u{1B}[2Jtitle\r\u{7}\n\t\u{0}\u{7F}\u{85}\u{9B}x") == #"\e[2Jtitle\r\u{7}\n\t\u{0}\u{7F}\u{85}\u{9B}x"#)
        #expect(TerminalText.escaped("DeepLinkRouter → article/42 · ü 日本") == "DeepLinkRouter → article/42 · ü 日本")
        #expect(TerminalText.escaped("\u{FFFD}") == "\u{FFFD}")
    }

    @Test("a long value keeps its first characters and says how long it was")
    func longValue() {
        let value = String(repeating: "a", count: 15 * 1024 * 1024)
        let shown = TerminalText.escaped(value)
        #expect(shown == String(repeating: "a", count: TerminalText.valueLimit) + "… (15,728,640 bytes)")
        #expect(TerminalText.escaped(String(repeating: "b", count: TerminalText.valueLimit)) == String(repeating: "b", count: TerminalText.valueLimit))
        // Escapes count toward the limit: the cut never splits one.
        let escapes = TerminalText.escaped(String(repeating: "\u{1B}", count: 150))
        #expect(escapes == String(repeating: #"\e"#, count: 100) + "… (150 bytes)")
    }

    @Test("a line stays one line: newlines escaped; a very long one keeps its start and its end")
    func lines() {
        #expect(TerminalText.line("a\nb\r\nc") == #"a\nb\r\nc"#)
        let line = "x.json: " + String(repeating: "k", count: 100_000) + ": expected a key, found an unknown key"
        let shown = TerminalText.line(line)
        #expect(shown.count < TerminalText.lineLimit + 100)
        #expect(shown.hasPrefix("x.json: kkk"))
        #expect(shown.contains("… (100,046 bytes) …"))
        #expect(shown.hasSuffix("kkk: expected a key, found an unknown key"))
        #expect(!shown.contains("\n"))
    }
}
