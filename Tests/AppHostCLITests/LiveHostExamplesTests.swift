import Foundation
import Glibc
import Testing
import SubscriberKit
import SubscriberEventModel

/// The examples docs/live-host.md ships: the systemd unit's keys, `systemd-analyze verify` where
/// installed, and the `.desktop` file's Exec line run for real with `%u` substituted.
@Suite("docs/examples: the systemd unit and the URL-scheme handler")
struct LiveHostExamplesTests {
    static let examples = AppHostProcess.packageRoot + "/docs/examples/"
    /// Where the examples say the app is installed, and the command.
    static let installedRoot = "/opt/news/"
    static let installedAppHost = "/usr/local/bin/apphost"

    /// `[Section] key=value` pairs of an INI-style file (systemd, desktop entries), comments left out.
    static func keys(_ path: String) throws -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var section = ""
        for raw in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") { section = String(line.dropFirst().dropLast()); continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            sections[section, default: [:]][String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return sections
    }

    /// An installed path as this checkout has it.
    static func local(_ argument: String) -> String {
        if argument == installedAppHost { return AppHostProcess.executable }
        return argument.replacingOccurrences(of: installedRoot, with: AppHostProcess.packageRoot + "/")
    }

    @Test("the unit is Type=notify, runs apphost run, with WatchdogSec= and MemoryPressureWatch=")
    func unitKeys() throws {
        let service = try #require(try Self.keys(Self.examples + "news.service")["Service"])
        #expect(service["Type"] == "notify")
        #expect(service["NotifyAccess"] == "main")
        #expect(service["WatchdogSec"] == "30s")
        #expect(service["MemoryPressureWatch"] == "auto")
        #expect(service["KillSignal"] == "SIGTERM")
        #expect(service["KillMode"] == "mixed", "SIGTERM to the host alone: it ends its isolated plugins' children itself")
        let exec = try #require(service["ExecStart"]).split(separator: " ").map(String.init)
        #expect(Array(exec.prefix(4)) == [Self.installedAppHost, "run", "--manifest", Self.installedRoot + "manifests/news.json"])
        // The command line is one apphost accepts: its manifest exists here and it parses (--help stops before loading).
        #expect(FileManager.default.fileExists(atPath: Self.local(exec[3])))
        let parsed = try AppHostProcess.run(exec.dropFirst().map(Self.local) + ["--help"])
        #expect(parsed.status == 0, "\(parsed.stderr)")
    }

    @Test("docs/live-host.md shows the examples as shipped: every line of its ini blocks is a line of the file")
    func pageMatchesFiles() throws {
        let page = try String(contentsOfFile: AppHostProcess.packageRoot + "/docs/live-host.md", encoding: .utf8)
        let blocks = page.components(separatedBy: "```ini\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        #expect(blocks.count == 2)
        let files = try ["news.service", "news-url-handler.desktop"].map {
            Set(try String(contentsOfFile: Self.examples + $0, encoding: .utf8).split(separator: "\n").map(String.init))
        }
        for (block, lines) in zip(blocks, files) {
            for line in block.split(separator: "\n") {
                #expect(lines.contains(String(line)), "docs/live-host.md: '\(line)' is not in the shipped example")
            }
        }
    }

    @Test("systemd-analyze verify accepts the unit (where installed)")
    func unitVerifies() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            print("skipped: systemd-analyze is not installed")
            return
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The unit as installed here: the built apphost and this checkout's manifest.
        let text = try String(contentsOfFile: Self.examples + "news.service", encoding: .utf8)
            .replacingOccurrences(of: Self.installedAppHost, with: AppHostProcess.executable)
            .replacingOccurrences(of: Self.installedRoot, with: AppHostProcess.packageRoot + "/")
        let unit = try directory.write("news.service", text)
        let result = AppHostProcess.runInShell(#"systemd-analyze verify "$0" >"$1" 2>&1"#, [unit, directory.path + "/out"])
        let output = try String(contentsOfFile: directory.path + "/out", encoding: .utf8)
        #expect(result.status == 0, "\(output)")
        // systemd before 254 does not know MemoryPressureWatch= and says so; nothing else may be said.
        let complaints = output.split(separator: "\n").filter { !$0.contains("Unknown key 'MemoryPressureWatch'") }
        #expect(complaints.isEmpty, "\(complaints)")
    }

    @Test("the .desktop file handles x-scheme-handler/news; its Exec line, run for real, cold-launches then opens in the running host")
    func desktopExecRuns() throws {
        let entry = try #require(try Self.keys(Self.examples + "news-url-handler.desktop")["Desktop Entry"])
        #expect(entry["Type"] == "Application")
        #expect(entry["MimeType"]?.split(separator: ";").contains("x-scheme-handler/news") == true)
        let exec = try #require(entry["Exec"]).split(separator: " ").map(String.init)
        #expect(exec.first == Self.installedAppHost && exec.last == "%u" && exec.dropFirst().first == "open")
        func command(_ url: String) -> [String] { exec.dropFirst().map { $0 == "%u" ? url : Self.local($0) } }

        // No host runs: the Exec line becomes the host, launched with the URL.
        let host = try LiveHostChild(command("news://article/11"))
        defer { host.cleanUp() }
        #expect(host.notify.messages(until: "READY=1") != nil, "\(host.stderr)")
        // A second click: the URL goes to the running host.
        let second = try AppHostProcess.run(command("news://article/12"), environment: host.environment)
        #expect(second.status == 0, "\(second.stderr)")
        let reply = try #require(try second.stdoutLines.first?.parsedJSON())
        #expect(reply["event"] == "openURL" && reply["result"] == true)
        host.signal(SIGTERM)
        #expect(host.waitForExit() == 0)
        #expect(host.stdout.contains("news://article/11"))
        #expect(host.stdout.contains("openURL news://article/12"))
    }
}
