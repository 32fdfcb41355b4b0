import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel

/// The default scenario and every event script shipped in manifests/events/ are legal for the
/// application's state machine: played with `--json`, no event is refused (no report of kind
/// "stateViolation") and the run exits 0. The scripts are read from the folder, so a script added
/// there is checked with no edit here. A script is played with manifests/news.json, unless its first
/// line names its manifest: `# manifest: scenes.json` (a file of manifests/).
@Suite("CLI: the shipped scenario and scripts break no state rule", .serialized)
struct CLIShippedScriptsStateTests {
    /// Every `.jsonl` file in manifests/events/, sorted.
    static var scripts: [String] {
        let folder = AppHostProcess.packageRoot + "/manifests/events"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { folder + "/" + $0 }
    }

    /// The manifest `script` is played with: the one its first line names (`# manifest: NAME`), else news.json.
    static func manifest(for script: String) throws -> String {
        let first = try String(contentsOfFile: script, encoding: .utf8).prefix { $0 != "\n" }
        let hint = "# manifest: "
        return first.hasPrefix(hint) ? String(first.dropFirst(hint.count)).trimmingCharacters(in: .whitespaces) : "news.json"
    }

    /// Runs `apphost --manifest MANIFEST --json` with `extra` arguments and checks it: exit 0, one
    /// object per line, none with a stateViolation report; returns the events played, in order.
    @discardableResult
    func expectLegal(_ extra: [String], manifest: String = "news.json", sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let run = try AppHostProcess.run(["--manifest", AppHostProcess.manifest(manifest), "--json"] + extra)
        #expect(run.status == 0, "\(extra): stderr: \(run.stderr)", sourceLocation: sourceLocation)
        var events: [String] = []
        for line in run.stdoutLines {
            let object = try line.parsedJSON()
            let reports = try #require(object["reports"]?.arrayValue, "\(line)", sourceLocation: sourceLocation)
            let violations = reports.filter { $0["kind"] == "stateViolation" }
            #expect(violations.isEmpty, "\(extra): \(violations.map { $0.serialized() })", sourceLocation: sourceLocation)
            events.append(object["event"]?.stringValue ?? "(after the last event)")
        }
        #expect(!run.stdout.contains("stateViolation"), sourceLocation: sourceLocation)
        return events
    }

    @Test("the default scenario (news.json, no --events)")
    func defaultScenario() throws {
        let events = try expectLegal([])
        // It plays something, from a launch on.
        #expect(events.first == "willFinishLaunching" || events.first == "didFinishLaunching")
        #expect(events.count > 2)
    }

    @Test("every script in manifests/events/", arguments: scripts)
    func shippedScript(_ script: String) throws {
        let events = try expectLegal(["--events", script], manifest: try Self.manifest(for: script))
        let scripted = try String(contentsOfFile: script, encoding: .utf8).split(separator: "\n")
            .map { $0.drop { $0.isWhitespace } }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("//") }  // comments (docs/cli.md)
            .map { try String($0).parsedJSON()["event"]?.stringValue ?? "?" }
        // Every scripted event was played (a request may add a supportedInterfaceOrientations in between).
        #expect(events.filter { $0 != "supportedInterfaceOrientations" }
                    == scripted.filter { $0 != "supportedInterfaceOrientations" })
    }

    @Test("the folder has scripts to check; each names an existing manifest, news.json or its own")
    func scriptsExist() throws {
        #expect(!Self.scripts.isEmpty)
        for script in Self.scripts {
            let manifest = try Self.manifest(for: script)
            #expect(FileManager.default.fileExists(atPath: AppHostProcess.manifest(manifest)), "\(script): \(manifest)")
        }
        #expect(try Self.scripts.map(Self.manifest(for:)).contains("scenes.json"), "the scene demo is played with its manifest")
    }

    @Test("a script that breaks the machine shows it: the refused event's line has one stateViolation, and the run fails")
    func violationShows() throws {
        // Guards the checks above against passing vacuously: this is what they look for.
        let run = try AppHostProcess.run(["--manifest", AppHostProcess.manifest("news.json"), "--json", "--events", "-"],
                                         stdin: #"{"event": "didBecomeActive"}"# + "\n" + #"{"event": "didFinishLaunching"}"# + "\n")
        #expect(run.status == 1, "stderr: \(run.stderr)")
        let objects = try run.stdoutLines.map { try $0.parsedJSON() }
        #expect(objects.map { $0["event"]?.stringValue ?? "?" } == ["didBecomeActive", "didFinishLaunching"])
        let reports = objects.first?["reports"]?.arrayValue ?? []
        #expect(reports.count == 1)
        #expect(reports.first?["kind"] == "stateViolation")
        #expect(reports.first?["state"] == "notRunning")
        #expect(objects.first?["answers"] == [])
        #expect(objects.last?["reports"] == [])
    }
}
