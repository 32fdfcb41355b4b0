import Foundation
import SubscriberHost

/// The report as JUnit XML, the format CI systems (GitHub Actions reporters, GitLab, Jenkins) read:
/// one `<testsuite>` per plugin, one `<testcase>` per check. A failure carries the evidence; a
/// skip its reason; a pass or warning its findings as `<system-out>` (JUnit has no "warning").
enum JUnitRenderer {
    static func render(_ report: ConformanceReport) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let tests = report.plugins.reduce(0) { $0 + $1.results.count }
        xml += "<testsuites name=\"apphost check\" tests=\"\(tests)\" failures=\"\(report.count(.fail))\" errors=\"\(report.problem == nil ? 0 : 1)\" "
            + "skipped=\"\(report.count(.skip))\" time=\"\(seconds(report.duration))\">\n"
        if let problem = report.problem {
            xml += "  <testsuite name=\"conformance kit\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
            xml += "    <testcase name=\"kit\" classname=\"apphost.check\">\n"
            xml += "      <error message=\"\(XMLText.escape(problem))\" type=\"setup\"/>\n    </testcase>\n  </testsuite>\n"
        }
        for plugin in report.plugins {
            let classname = plugin.identity?.id ?? URL(fileURLWithPath: plugin.path).deletingPathExtension().lastPathComponent
            xml += "  <testsuite name=\"\(XMLText.escape(plugin.path))\" tests=\"\(plugin.results.count)\" "
                + "failures=\"\(plugin.count(.fail))\" errors=\"0\" skipped=\"\(plugin.count(.skip))\" time=\"\(seconds(plugin.duration))\">\n"
            xml += "    <properties>\n"
            xml += "      <property name=\"seed\" value=\"\(report.seed)\"/>\n"
            if let identity = plugin.identity {
                xml += "      <property name=\"id\" value=\"\(XMLText.escape(identity.id))\"/>\n"
                xml += "      <property name=\"version\" value=\"\(XMLText.escape(identity.version))\"/>\n"
            }
            xml += "    </properties>\n"
            for result in plugin.results {
                xml += testcase(result, classname: classname)
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func testcase(_ result: CheckResult, classname: String) -> String {
        let evidence = result.verdict.evidence
        var xml = "    <testcase name=\"\(XMLText.escape(result.id))\" classname=\"\(XMLText.escape(classname))\" "
            + "time=\"\(seconds(result.duration))\">\n"
        switch result.status {
        case .fail:
            // The message is the first finding; the body has them all, one per line.
            let first = evidence.found.prefix { $0 != "\n" }.prefix(500)
            xml += "      <failure message=\"\(XMLText.escape(String(first)))\" type=\"\(XMLText.escape(result.id))\">"
                + XMLText.escape("expected: \(evidence.expected)\nfound: \(evidence.found)") + "</failure>\n"
        case .skip:
            xml += "      <skipped message=\"\(XMLText.escape(evidence.found))\"/>\n"
        case .warn:
            xml += "      <system-out>" + XMLText.escape("warning: \(evidence.found)\nexpected: \(evidence.expected)") + "</system-out>\n"
        case .pass:
            xml += "      <system-out>" + XMLText.escape(evidence.found) + "</system-out>\n"
        }
        return xml + "    </testcase>\n"
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", duration.milliseconds / 1_000)
    }
}

/// Escaping for XML 1.0 text and attribute values.
enum XMLText {
    /// `text` with the five markup characters escaped, and the characters XML 1.0 forbids even as
    /// references (C0 controls other than tab, newline and return; U+FFFE, U+FFFF) replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            // Tab, newline and return as references, so that attribute values keep them too.
            case "\t": escaped += "&#9;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                escaped.unicodeScalars.append("\u{FFFD}")
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
