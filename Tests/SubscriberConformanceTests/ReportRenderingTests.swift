import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import SubscriberKit
import SubscriberEventModel
import SubscriberConformance

/// The renderers on a synthetic report whose evidence holds every character that needs escaping.
@Suite("Report renderers")
struct ReportRenderingTests {
    static let nasty = "a <tag> & \"quotes\" 'single' \u{1}\u{7}\ttab\nline ]]> \u{FFFE} é😀"

    static let report: ConformanceReport = {
        let results = [
            CheckResult(id: "load.rtld-now", summary: "loads", verdict: .pass(expected: "loads", found: "loaded"),
                        duration: .milliseconds(12)),
            CheckResult(id: "events.fuzz", summary: "fuzz", verdict: .fail(expected: "no crash", found: nasty),
                        duration: .milliseconds(40)),
            CheckResult(id: "events.budget", summary: "budget", verdict: .warn(expected: "fast", found: "slowish"),
                        duration: .milliseconds(3)),
            CheckResult(id: "events.completion", summary: "completion",
                        verdict: .skip(expected: "once", found: "needs events.canonical, which failed"), duration: .zero),
        ]
        let identity = PluginIdentity(id: "com.example.<odd>&", name: "Odd \"Plugin\"", version: "1.0", subscribers: ["A", "B"])
        return ConformanceReport(plugins: [PluginReport(path: "/tmp/lib<Odd>.so", identity: identity, results: results,
                                                        duration: .milliseconds(55))],
                                 seed: UInt64.max, duration: .milliseconds(60))
    }()

    @Test("JSON parses back with every field, the evidence intact and the seed exact")
    func json() throws {
        let value = try JSONValue(parsing: ConformanceKit.json(Self.report))
        #expect(value["seed"] == .string("18446744073709551615"))
        #expect(value["passed"] == .bool(false))
        #expect(value["exitCode"] == .number(1))
        #expect(value["counts"] == .object(["pass": 1, "warn": 1, "fail": 1, "skip": 1]))
        let plugin = try #require(value["plugins"]?.arrayValue?.first)
        #expect(plugin["id"] == .string("com.example.<odd>&"))
        #expect(plugin["subscribers"] == .array(["A", "B"]))
        let checks = try #require(plugin["checks"]?.arrayValue)
        #expect(checks.map { $0["id"]?.stringValue } == ["load.rtld-now", "events.fuzz", "events.budget", "events.completion"])
        #expect(checks[1]["status"] == .string("fail"))
        #expect(checks[1]["found"] == .string(Self.nasty))
        #expect(checks[1]["durationMs"] == .number(40))
    }

    @Test("a kit problem appears in JSON and as a JUnit error")
    func problem() throws {
        let report = ConformanceReport(plugins: [], seed: 1, duration: .zero, problem: "no apphost <here>")
        #expect(try JSONValue(parsing: ConformanceKit.json(report))["problem"] == .string("no apphost <here>"))
        #expect(ConformanceKit.junit(report).contains("<error message=\"no apphost &lt;here&gt;\" type=\"setup\"/>"))
        #expect(report.exitCode == 2)
    }

    @Test("the table has one row per check, the expectation under failures and warnings, and the counts")
    func table() {
        let table = ConformanceKit.table(Self.report)
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("/tmp/lib<Odd>.so  (com.example.<odd>& 1.0") == true)
        #expect(lines.contains { $0.hasPrefix("  PASS  load.rtld-now") && $0.hasSuffix("loaded") })
        #expect(lines.contains { $0.hasPrefix("  SKIP  events.completion") && $0.hasSuffix("which failed") })
        #expect(lines.filter { $0.contains("expected: ") }.count == 2)
        #expect(table.contains("1 passed, 1 failed, 1 warned, 1 skipped"))
        #expect(table.contains("(seed 18446744073709551615)"))
    }

    @Test("the table escapes every outside text: the plugin's path, its names, the evidence")
    func tableEscapesOutsideText() throws {
        let identity = PluginIdentity(id: "com.example.\u{9B}2J", name: "Odd\u{7}", version: "1.0\r", subscribers: ["A"])
        let result = CheckResult(id: "load.rtld-now", summary: "loads",
                                 verdict: .fail(expected: "a \u{1B}]0;title\u{7} b", found: Self.nasty), duration: .zero)
        let report = ConformanceReport(plugins: [PluginReport(path: "/tmp/x/lib\u{1B}[2Jx.so", identity: identity,
                                                              results: [result], duration: .zero)],
                                       seed: 1, duration: .zero)
        let table = ConformanceKit.table(report)
        // No control character reaches the terminal but the table's own line breaks.
        #expect(!table.unicodeScalars.contains { ControlCharacters.isControl($0) && $0 != "\n" })
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.first == #"/tmp/x/lib\e[2Jx.so  (com.example.\u{9B}2J 1.0\r, "Odd\u{7}")"#)
        // A line break in the evidence continues it on the next line, indented under it: never a row.
        let row = try #require(lines.firstIndex { $0.hasPrefix("  FAIL  load.rtld-now") })
        #expect(lines[row].hasSuffix(#"\u{1}\u{7}\ttab"#), "\(lines[row])")
        #expect(lines[row + 1] == String(repeating: " ", count: 8 + "load.rtld-now".count + 2 + 12) + "line ]]> \u{FFFE} é😀",
                "\(lines[row + 1])")
        #expect(lines.contains { $0.hasSuffix(#"expected: a \e]0;title\u{7} b"#) })
        let problem = ConformanceReport(plugins: [], seed: 1, duration: .zero, problem: "no file /tmp/\u{1B}[2J")
        #expect(ConformanceKit.table(problem) == "conformance kit could not run: no file /tmp/\\e[2J\n")
    }

    #if canImport(FoundationXML)
    @Test("JUnit XML is well-formed, counts add up, and the evidence survives escaping")
    func junit() throws {
        let xml = ConformanceKit.junit(Self.report)
        let document = try XMLDocument(xmlString: xml, options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        let suite = try #require(root.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "name")?.stringValue == "/tmp/lib<Odd>.so")
        let cases = suite.elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["load.rtld-now", "events.fuzz", "events.budget", "events.completion"])
        #expect(cases.allSatisfy { $0.attribute(forName: "classname")?.stringValue == "com.example.<odd>&" })
        #expect(cases[1].attribute(forName: "time")?.stringValue == "0.040")

        let failure = try #require(cases[1].elements(forName: "failure").first)
        // Controls XML cannot carry become U+FFFD; everything else comes back as written.
        let readable = Self.nasty.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}")
            .replacingOccurrences(of: "\u{7}", with: "\u{FFFD}").replacingOccurrences(of: "\u{FFFE}", with: "\u{FFFD}")
        #expect(failure.stringValue == "expected: no crash\nfound: \(readable)")
        // The message is the evidence's first line; the body has all of it.
        #expect(failure.attribute(forName: "message")?.stringValue == String(readable.prefix { $0 != "\n" }))
        #expect(cases[0].elements(forName: "system-out").first?.stringValue == "loaded")
        #expect(cases[2].elements(forName: "system-out").first?.stringValue?.hasPrefix("warning: slowish") == true)
        #expect(cases[3].elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue
                == "needs events.canonical, which failed")
    }
    #endif
}
