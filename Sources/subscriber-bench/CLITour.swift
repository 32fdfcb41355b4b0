import AppHostCLI
import Foundation
import SubscriberHost
import SubscriberKit

/// The shipped tour (`events/tour.jsonl` beside the manifest) as the CLI row plays it: issue 24's
/// CLI targets are on it, and its events (launch with options, completions, scenes) cost more than
/// ``CLIScript``'s cycle. Its first two event lines (the launch) once, the lines between them and
/// the last (the cycle) ``repeats`` times, its last line once: 2 + 30 × 200 + 1 = 6,003 events today.
struct TourScript: Equatable {
    /// The launch: the first two event lines.
    var launch: [String]
    /// Every event line between the launch and the last.
    var cycle: [String]
    /// The last event line (willTerminate in the shipped tour).
    var last: String

    /// How many times the cycle is played (about 6,000 events with the shipped tour).
    static let repeats = 200
    /// Event lines before the cycle.
    static let launchLines = 2

    /// The tour's file for the manifest in `manifestDirectory`.
    static func path(besideManifestIn manifestDirectory: String) -> String {
        manifestDirectory + "/events/tour.jsonl"
    }

    /// The event lines of `text` (blank and comment lines dropped by EventScript's own rule), split
    /// into launch, cycle and last; `file` names it in the error when there are too few for a cycle.
    init(text: String, file: String) throws(BenchError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter(EventScript.isEventLine)
        let least = Self.launchLines + 2
        guard lines.count >= least else {
            throw BenchError("\(file): \(lines.count) event lines; expected at least \(least) "
                             + "(\(Self.launchLines) of launch, a cycle of one or more, a last line)")
        }
        launch = Array(lines.prefix(Self.launchLines))
        cycle = Array(lines.dropFirst(Self.launchLines).dropLast())
        last = lines[lines.count - 1]
    }

    /// The tour in the file at `path`, or why it cannot be played (one line).
    static func read(from path: String) throws(BenchError) -> TourScript {
        guard FileManager.default.fileExists(atPath: path) else {
            throw BenchError("\(path): no such file; expected the shipped tour beside the manifest (events/tour.jsonl)")
        }
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw BenchError("\(path): unreadable as UTF-8 text (\(error)); expected the tour's JSON lines")
        }
        return try TourScript(text: text, file: path)
    }

    /// Events in the script with the cycle played `repeats` times.
    func events(repeats: Int) -> Int { launch.count + cycle.count * repeats + 1 }

    /// The script with the cycle played `repeats` times, newline-terminated.
    func text(repeats: Int) -> String {
        let lines = launch + Array(repeating: cycle, count: repeats).joined() + [last]
        return lines.map { $0 + "\n" }.joined()
    }

    /// "lines 1–2 once, 3–32 ×200, 33 once" (event lines), for the report.
    func shape(repeats: Int) -> String {
        let cycleEnd = launch.count + cycle.count
        return "event lines 1–\(launch.count) once, \(launch.count + 1)–\(cycleEnd) ×\(repeats), \(cycleEnd + 1) once"
    }
}

/// The manifest the tour is played with: a copy of the bench's manifest in its private folder.
enum TourManifest {
    /// `manifest` (the document of a manifest read from `directory`, absolute) with every plugin's
    /// `delayMs` option set to 0 where it is set, in `options` and in each `subscriberOptions` entry
    /// (NotificationFetcher completes only after it: the row would measure sleeping), and every
    /// relative `path` and `pluginSearchPaths` entry made absolute against `directory`, so the copy,
    /// wherever it is written, loads the same libraries (`library` entries, found in the search
    /// directories and then beside the running apphost, are kept as written).
    static func rewritten(_ manifest: JSONValue, directory: String) throws(BenchError) -> JSONValue {
        guard var root = manifest.objectValue else {
            throw BenchError("manifest in \(directory): expected a JSON object, found \(manifest.shapeDescription)")
        }
        func absolute(_ value: JSONValue) -> JSONValue {
            guard let path = value.stringValue, !path.hasPrefix("/") else { return value }
            return .string(directory + "/" + path)
        }
        func withoutDelay(_ value: JSONValue) -> JSONValue {
            guard var options = value.objectValue, options["delayMs"] != nil else { return value }
            options["delayMs"] = .number(0)
            return .object(options)
        }
        if let searchPaths = root["pluginSearchPaths"]?.arrayValue {
            root["pluginSearchPaths"] = .array(searchPaths.map(absolute))
        }
        if let plugins = root["plugins"]?.arrayValue {
            root["plugins"] = .array(plugins.map { plugin in
                guard var entry = plugin.objectValue else { return plugin }
                if let path = entry["path"] { entry["path"] = absolute(path) }
                if let options = entry["options"] { entry["options"] = withoutDelay(options) }
                if var perSubscriber = entry["subscriberOptions"]?.objectValue {
                    for name in perSubscriber.keys { perSubscriber[name] = perSubscriber[name].map(withoutDelay) }
                    entry["subscriberOptions"] = .object(perSubscriber)
                }
                return .object(entry)
            })
        }
        return .object(root)
    }

    /// The absolute folder of the manifest at `path`, read and checked as the host reads it.
    static func directory(of path: String) throws(BenchError) -> String {
        do { return try Manifest(contentsOfFile: path).directory } catch { throw BenchError("\(error)") }
    }

    /// Writes the copy of the manifest at `manifestPath` to `copyPath` and reads it back as the host
    /// would (a copy the host refuses is said here, not as a failed run).
    static func write(from manifestPath: String, to copyPath: String) throws(BenchError) {
        let manifestDirectory = try directory(of: manifestPath)
        let document: JSONValue
        do {
            document = try JSONValue(parsing: String(contentsOfFile: manifestPath, encoding: .utf8))
        } catch {
            throw BenchError("\(manifestPath): \(error); expected the manifest the host just read")
        }
        do {
            try Data(rewritten(document, directory: manifestDirectory).serialized(pretty: true).utf8)
                .write(to: URL(fileURLWithPath: copyPath))
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("writing \(copyPath): \(error)")
        }
        do { _ = try Manifest(contentsOfFile: copyPath) } catch {
            throw BenchError("the tour's copy of \(manifestPath): \(error)")
        }
    }

    /// `--tour-script REPEATS FOLDER`: the tour's script and manifest copy written to `folder`
    /// (`tour.jsonl`, `manifest.json`), to play or count by hand. Returns the script's events.
    static func writeFiles(manifestPath: String, repeats: Int, folder: String) throws(BenchError) -> Int {
        let manifestDirectory = try directory(of: manifestPath)
        let tour = try TourScript.read(from: TourScript.path(besideManifestIn: manifestDirectory))
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(tour.text(repeats: repeats).utf8).write(to: URL(fileURLWithPath: folder + "/tour.jsonl"))
        } catch {
            throw BenchError("writing \(folder)/tour.jsonl: \(error)")
        }
        try write(from: manifestPath, to: folder + "/manifest.json")
        return tour.events(repeats: repeats)
    }
}

/// The tour's figures in the CLI row: `apphost --json` playing ``TourScript`` (the cycle
/// ``TourScript/repeats`` times) with ``TourManifest``'s copy, from spawn to exit.
struct TourFigure: Sendable {
    /// One clock's figures.
    struct Times: Sendable {
        /// Nanoseconds per event of the whole run (start, load, play, exit), per repetition.
        var whole: Stats
        /// Nanoseconds per event without start-up: (the tour's run − an empty script's run, the same
        /// manifest, the same repetition) / events.
        var afterStartup: Stats
        /// Milliseconds of the empty script's run with the tour's manifest.
        var startupMilliseconds: Stats

        /// Events per second of the whole run.
        var eventsPerSecond: Stats { whole.perSecond }
        /// Events per second once start-up is taken off.
        var eventsPerSecondAfterStartup: Stats { afterStartup.perSecond }
    }

    /// Events in the script.
    var events: Int
    /// Which tour lines the script repeats (``TourScript/shape(repeats:)``).
    var shape: String
    /// The figures by each clock.
    var times: [CLIClock: Times]
    /// Instructions per event by callgrind (the tour's script − an empty script, over the events);
    /// nil when they were not counted.
    var instructionsPerEvent: Double? = nil

    /// The whole run's CPU events/s against ``CLITargets/eventsPerSecond`` (the target is on
    /// the whole run; the figure after start-up is shown beside it).
    var meetsEventsPerSecond: Bool { times[.cpu]!.eventsPerSecond.median >= CLITargets.eventsPerSecond }
}

/// Issue 24's targets for `apphost --json`, on the cycle and on the tour.
enum CLITargets {
    /// CPU (user+sys) events per second of a whole run, at least.
    static let eventsPerSecond = 150_000.0
    /// Instructions per event by callgrind, at most.
    static let instructionsPerEvent = 20_000.0
}
