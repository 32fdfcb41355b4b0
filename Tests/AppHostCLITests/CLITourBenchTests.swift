import Foundation
import Testing
import BuiltProducts
import SubscriberHost
import SubscriberKit

/// The CLI row's tour (`subscriber-bench --tour-script`, and `--only cli`): the shipped tour's launch
/// once, its cycle repeated, its last line once; played with a copy of the manifest whose `delayMs`
/// options are 0 and whose libraries resolve as the original's do. No figure is asserted.
@Suite("subscriber-bench: the CLI row's tour")
struct CLITourBenchTests {
    /// A relative `path` entry, a `library` found through a relative search path, `delayMs` in a
    /// plugin's options and in one subscriber's, and options without it.
    static let manifest = """
        {"app": {"name": "Tour", "bundleIdentifier": "com.example.tour"},
         "pluginSearchPaths": ["libs"],
         "plugins": [
           {"path": "plugins/libFetcher.so", "options": {"fetchResult": "newData", "delayMs": 20, "hosts": ["a.example"]}},
           {"library": "Router", "subscribers": ["RouterA", "RouterB"], "options": {"scheme": "news"},
            "subscriberOptions": {"RouterB": {"delayMs": 5, "sampling": 0.5}}}
         ]}
        """

    /// Four event lines (launch, launch, one cycle line, last) and a comment, which is not an event.
    static let tour = """
        {"event": "willFinishLaunching"}
        {"event": "didFinishLaunching"}
        # the cycle
        {"event": "didBecomeActive"}
        {"event": "willTerminate"}

        """

    /// A folder with the manifest, `events/tour.jsonl` holding `tour` (none when nil) and libs/libRouter.so.
    static func folder(tour: String?) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write("manifest.json", manifest)
        for folder in ["events", "libs", "plugins"] {
            try FileManager.default.createDirectory(atPath: directory.path + "/" + folder, withIntermediateDirectories: true)
        }
        try directory.write("libs/libRouter.so", "")
        if let tour { try directory.write("events/tour.jsonl", tour) }
        return directory
    }

    static func writeTour(_ directory: TemporaryDirectory, repeats: Int) throws -> AppHostProcess.Result {
        try AppHostProcess.run(["--manifest", directory.path + "/manifest.json", "--tour-script", String(repeats),
                                directory.path + "/out"], program: BuiltProducts.file("subscriber-bench"))
    }

    @Test("--tour-script: the launch once, the cycle REPEATS times, the last line once")
    func expansion() throws {
        let directory = try Self.folder(tour: Self.tour)
        defer { directory.remove() }
        let result = try Self.writeTour(directory, repeats: 3)
        try #require(result.status == 0, "status \(result.status), stderr \(result.stderr)")
        #expect(result.stdout.hasPrefix("6 events: "), "\(result.stdout)")
        let script = try String(contentsOfFile: directory.path + "/out/tour.jsonl", encoding: .utf8)
        let events = script.split(separator: "\n").map { try? JSONValue(parsing: String($0))["event"]?.stringValue }
        #expect(events == ["willFinishLaunching", "didFinishLaunching", "didBecomeActive", "didBecomeActive",
                           "didBecomeActive", "willTerminate"])
    }

    @Test("--tour-script: the manifest's copy has delayMs 0 where set, other options as written, the same libraries")
    func manifestCopy() throws {
        let directory = try Self.folder(tour: Self.tour)
        defer { directory.remove() }
        let result = try Self.writeTour(directory, repeats: 1)
        try #require(result.status == 0, "status \(result.status), stderr \(result.stderr)")
        let copyPath = directory.path + "/out/manifest.json"
        let copy = try String(contentsOfFile: copyPath, encoding: .utf8).parsedJSON()
        let plugins = copy["plugins"]?.arrayValue ?? []
        try #require(plugins.count == 2, "\(copy)")
        #expect(plugins[0]["options"] == ["fetchResult": "newData", "delayMs": 0, "hosts": ["a.example"]])
        #expect(plugins[1]["options"] == ["scheme": "news"])
        #expect(plugins[1]["subscriberOptions"] == ["RouterB": ["delayMs": 0, "sampling": 0.5]])
        #expect(try copy["app"] == Self.manifest.parsedJSON()["app"])

        // Written in another folder, the copy's entries find the files the original's find.
        let original = try Manifest(contentsOfFile: directory.path + "/manifest.json")
        let copied = try Manifest(contentsOfFile: copyPath)
        let before = PluginLocator(manifest: original, executableDirectory: nil)
        let after = PluginLocator(manifest: copied, executableDirectory: nil)
        for (written, rewritten) in zip(original.plugins, copied.plugins) {
            #expect(try after.locate(rewritten.source) == before.locate(written.source), "\(written.source.description)")
        }
        #expect(try before.locate(original.plugins[0].source) == directory.path + "/plugins/libFetcher.so")
        #expect(try before.locate(original.plugins[1].source) == directory.path + "/libs/libRouter.so")
    }

    @Test("--tour-script: no tour beside the manifest, or too few lines for a cycle: one line, exit 1")
    func badTours() throws {
        let missing = try Self.folder(tour: nil)
        defer { missing.remove() }
        var result = try Self.writeTour(missing, repeats: 2)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(missing.path + "/events/tour.jsonl: no such file"), "\(result.stderr)")

        let short = try Self.folder(tour: "{\"event\": \"didBecomeActive\"}\n{\"event\": \"willResignActive\"}\n"
                                      + "{\"event\": \"willTerminate\"}\n")
        defer { short.remove() }
        result = try Self.writeTour(short, repeats: 2)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("3 event lines; expected at least 4"), "\(result.stderr)")
    }

    @Test("--quick --only cli --json: cli.tour with the shipped tour's events, both clocks, and its target")
    func tourInReport() async throws {
        let bench = BuiltProducts.file("subscriber-bench")
        let result = try await PluginMemoryTests.onOwnThread {
            try AppHostProcess.run(["--quick", "--only", "cli", "--repetitions", "1", "--no-instructions", "--json",
                                    "--manifest", AppHostProcess.manifest("news.json")], program: bench)
        }
        try #require(result.status == 0, "subscriber-bench: status \(result.status), stderr \(result.stderr)")
        let report = try result.stdout.parsedJSON()
        let tour = try #require(report["cli"]?["tour"], "no cli.tour in \(report["cli"] ?? .null)")
        #expect(tour["measured"] == true)
        // Two launch lines, the cycle ×200, the last line (6,003 with today's 33 lines).
        let lines = try String(contentsOfFile: AppHostProcess.manifest("events/tour.jsonl"), encoding: .utf8)
            .split(separator: "\n").count
        #expect(tour["events"]?.intValue == 2 + (lines - 3) * 200 + 1, "\(tour["events"] ?? .null), tour of \(lines) lines")
        for key in ["cpuEventsPerSecond", "cpuEventsPerSecondAfterStartup", "wallEventsPerSecond",
                    "wallEventsPerSecondAfterStartup"] {
            #expect(tour[key]?["median"]?.doubleValue.map { $0.isFinite && $0 > 0 } == true, "\(key): \(tour[key] ?? .null)")
        }
        #expect(tour["instructionsPerEvent"] == .null, "not counted with --no-instructions")
        let targets = (report["targets"]?.arrayValue ?? []).filter { $0["target"]?.stringValue?.contains("shipped tour") == true }
        #expect(targets.count == 1 && targets.allSatisfy { $0["met"]?.boolValue != nil }, "\(targets)")
    }
}
