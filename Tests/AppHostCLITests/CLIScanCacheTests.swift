import Foundation
import Testing
import SubscriberKit
@testable import SubscriberHost

/// `apphost list` inspects plugins in a child process, through the scan cache: a plugin that crashes
/// or hangs there is blacklisted, shown as such, and refused by a run until its file changes.
@Suite("CLI: list in a child, the scan cache, the blacklist", .serialized)
struct CLIScanCacheTests {
    /// A folder for one test: a manifest, plugin copies, and a scan cache kept across its runs.
    struct Place {
        let directory: TemporaryDirectory
        var cacheHome: String { directory.path + "/cache" }
        var cacheFile: String { cacheHome + "/apphost/scan-cache.json" }
        var marker: String { directory.path + "/inspections" }
        var environment: [String: String] { ["XDG_CACHE_HOME": cacheHome, "ADH_SCAN_MARKER": marker] }

        init() throws {
            directory = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory.path + "/plugins", withIntermediateDirectories: true)
        }

        /// Copies the built `lib<name>.so` to `plugins/<file>` (replacing what is there).
        func install(_ name: String, as file: String) throws {
            let target = directory.path + "/plugins/" + file
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: AppHostProcess.plugin(name), toPath: target)
        }

        /// Runs `apphost` with the place's cache and marker.
        func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> AppHostProcess.Result {
            try AppHostProcess.run(arguments + ["--plugin-dir", AppHostProcess.buildDirectory],
                                   environment: environment.merging(extra) { $1 })
        }

        /// How many processes ran CountsScans' entry symbol.
        var inspections: Int {
            ((try? String(contentsOfFile: marker, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
    }

    @Test("a plugin crashing in its entry: list survives and shows it blacklisted, a run refuses it, a changed file is inspected again")
    func crashInEntry() throws {
        let place = try Place()
        defer { place.directory.remove() }
        try place.install("CrashesInEntry", as: "libVendor.so")
        let manifest = try place.directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"path": "plugins/libVendor.so"}, {"library": "Greeter"}]}
            """)

        let list = try place.run(["list", "--manifest", manifest])
        #expect(list.signal == nil && list.status == 1, "a required plugin fails: \(list.stderr)")
        #expect(list.stdout.contains("2 plugins: 1 loaded, 1 failed"))
        #expect(list.stdout.contains("✗ plugins[0]  path \"plugins/libVendor.so\"  blacklisted"))
        #expect(list.stdout.contains("      blacklisted  its scan crashed with SIGSEGV while being loaded"))
        #expect(list.stdout.contains("✓ plugins[1]  library \"Greeter\""))

        let json = try place.run(["list", "--json", "--manifest", manifest])
        #expect(json.status == 1)
        let plugins = try #require(try json.stdout.parsedJSON()["plugins"]?.arrayValue)
        #expect(plugins.map { $0["status"] } == ["blacklisted", "loaded"])
        #expect(plugins[0]["blacklisted"]?["reason"]?.stringValue?.hasPrefix("crashed with SIGSEGV") == true)
        #expect(plugins[0]["error"]?["check"] == 4)
        #expect(plugins[0]["scanCache"] == true, "the second listing knows the file: no child runs it again")

        // A run refuses it at load, in one line, before running any of its code.
        let run = try place.run(["--manifest", manifest])
        #expect(run.signal == nil && run.status == 2)
        #expect(run.stderrLines.count == 1)
        let line = try #require(run.stderrLines.first)
        #expect(line.hasPrefix("apphost: \(manifest): plugins[0]: plugin \"\(place.directory.path)/plugins/libVendor.so\": expected "))
        #expect(line.contains("found that its scan crashed with SIGSEGV while being loaded"))
        #expect(line.contains("; refused until the file changes (remembered in \(place.cacheFile))"))

        // The same bytes with another modification time: another file to the cache, inspected again.
        let path = place.directory.path + "/plugins/libVendor.so"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: path)
        let touched = try place.run(["list", "--json", "--manifest", manifest])
        let again = try #require(try touched.stdout.parsedJSON()["plugins"]?.arrayValue)
        #expect(again[0]["status"] == "blacklisted" && again[0]["scanCache"] == false)

        // New content at the path: inspected again, listed, and loaded by a run.
        try place.install("CountsScans", as: "libVendor.so")
        let fixed = try place.run(["list", "--manifest", manifest])
        #expect(fixed.status == 0, "stderr: \(fixed.stderr)")
        #expect(fixed.stdout.contains("✓ plugins[0]  path \"plugins/libVendor.so\""))
        #expect(place.inspections == 1)
        let loads = try place.run(["--manifest", manifest])
        #expect(loads.status == 0, "stderr: \(loads.stderr)")
    }

    @Test("an optional plugin whose inspection crashed is skipped by a run and reported, as any optional failure")
    func optionalBlacklisted() throws {
        let place = try Place()
        defer { place.directory.remove() }
        let manifest = try place.directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"library": "CrashesInEntry", "optional": true}, {"library": "Greeter"}]}
            """)
        let list = try place.run(["list", "--manifest", manifest])
        #expect(list.status == 0, "an optional failure: \(list.stderr)")
        #expect(list.stdout.contains("blacklisted  optional (a run skips it)"))
        let run = try place.run(["--manifest", manifest])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("skipped (optional)") && run.stdout.contains("refused until the file changes"))
    }

    @Test("an isolated entry of a blacklisted file is refused too, before its child is started")
    func isolatedBlacklisted() throws {
        let place = try Place()
        defer { place.directory.remove() }
        let manifest = try place.directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"library": "Greeter"}, {"library": "CrashesInEntry", "isolation": "process"}]}
            """)
        let list = try place.run(["list", "--manifest", manifest])
        #expect(list.status == 1 && list.stdout.contains("✗ plugins[1]  library \"CrashesInEntry\"  blacklisted"))
        let run = try place.run(["--manifest", manifest])
        #expect(run.signal == nil && run.status == 2)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix("apphost: \(manifest): plugins[1]: plugin \"") && run.stderr.contains("refused until the file changes"))
    }

    @Test("a plugin whose create hangs: the child is stopped after its budget of silence, the file is remembered as hung, the others listed")
    func hangInCreate() throws {
        let place = try Place()
        defer { place.directory.remove() }
        let manifest = try place.directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"library": "HangsInCreate"}, {"library": "CountsScans"}]}
            """)
        let list = try place.run(["list", "--json", "--manifest", manifest], environment: ["APPHOST_SCAN_BUDGET_MS": "3000"])
        #expect(list.signal == nil && list.status == 1)
        let plugins = try #require(try list.stdout.parsedJSON()["plugins"]?.arrayValue)
        #expect(plugins.map { $0["status"] } == ["blacklisted", "loaded"])
        let reason = plugins[0]["blacklisted"]?["reason"]?.stringValue ?? ""
        #expect(reason.hasPrefix("hung") && reason.contains("(create, destroy)"), "\(reason)")
        #expect(place.inspections == 1, "the scanner restarted for the file after the hung one")
    }

    @Test("a cache hit starts no child: an unchanged file with the same options is not inspected again; new options are")
    func cacheHit() throws {
        let place = try Place()
        defer { place.directory.remove() }
        let manifest = try place.directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [{"library": "CountsScans"}]}
            """)
        let first = try place.run(["list", "--json", "--manifest", manifest])
        #expect(first.status == 0 && first.stderr.isEmpty, "stderr: \(first.stderr)")
        #expect(try first.stdout.parsedJSON()["plugins"]?.arrayValue?.first?["scanCache"] == false)
        #expect(place.inspections == 1)
        let second = try place.run(["list", "--json", "--manifest", manifest])
        #expect(second.status == 0 && second.stderr.isEmpty)
        let plugin = try #require(try second.stdout.parsedJSON()["plugins"]?.arrayValue?.first)
        #expect(plugin["scanCache"] == true && plugin["status"] == "loaded" && plugin["id"] == "dev.appdelegatehost.fixture.counts-scans")
        #expect(place.inspections == 1, "no process ran the plugin's code for the second listing")

        let options = try place.directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [{"library": "CountsScans", "options": {"k": 1}}]}
            """)
        let third = try place.run(["list", "--manifest", options])
        #expect(third.status == 0)
        #expect(place.inspections == 2, "subscribers made with other options are made again")
    }

    @Test("a corrupt cache is discarded with one warning and made anew; a leftover temporary file is ignored")
    func corruptCache() throws {
        let place = try Place()
        defer { place.directory.remove() }
        let manifest = try place.directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [{"library": "CountsScans"}]}
            """)
        let folder = place.cacheHome + "/apphost"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "{\"version\": 1, \"entries\": [".write(toFile: place.cacheFile, atomically: false, encoding: .utf8)
        try "half a cache".write(toFile: folder + "/.scan-cache.json.4242.tmp", atomically: false, encoding: .utf8)

        let first = try place.run(["list", "--manifest", manifest])
        #expect(first.status == 0)
        #expect(first.stderrLines.count == 1)
        #expect(first.stderrLines.first?.hasPrefix("apphost: warning: scan cache \(place.cacheFile): expected JSON, found ") == true)
        #expect(first.stderr.contains("; discarded (it is made anew)"))
        let rebuilt = try String(contentsOfFile: place.cacheFile, encoding: .utf8)
        #expect(try JSONValue(parsing: rebuilt)["entries"]?.arrayValue?.count == 1)

        let second = try place.run(["list", "--json", "--manifest", manifest])
        #expect(second.status == 0 && second.stderr.isEmpty, "stderr: \(second.stderr)")
        #expect(try second.stdout.parsedJSON()["plugins"]?.arrayValue?.first?["scanCache"] == true)
        #expect(place.inspections == 1)
    }

    @Test("a cache folder that cannot be made is a warning, not an error: the listing is complete")
    func unwritableCache() throws {
        let place = try Place()
        defer { place.directory.remove() }
        let manifest = try place.directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [{"library": "Greeter"}]}
            """)
        let notAFolder = try place.directory.write("file", "")
        let list = try place.run(["list", "--manifest", manifest], environment: ["XDG_CACHE_HOME": notAFolder])
        #expect(list.status == 0)
        #expect(list.stdout.contains("✓ plugins[0]  library \"Greeter\""))
        #expect(list.stderrLines.count == 1)
        #expect(list.stderrLines.first?.hasPrefix("apphost: warning: scan cache \(notAFolder)/apphost: expected a folder it can make and write") == true)
    }
}

/// The scan cache as a type: where it is, its bounds, and what it refuses to read.
@Suite("ScanCache: place, bounds, format")
struct ScanCacheTests {
    private func record(_ number: Int) -> ScanRecord {
        ScanRecord(key: ScanRecord.Key(path: "/p/lib\(number).so", size: Int64(number), modified: "1.000000000",
                                       sha256: String(repeating: "a", count: 64)),
                   descriptor: ScanRecord.Descriptor(name: "P\(number)", id: "p.\(number)", version: "1", vendor: "",
                                                     abi: "1.1", swiftVersion: "", subscribers: ["S\(number)"]))
    }

    @Test("XDG_CACHE_HOME first, then HOME/.cache; relative values are ignored")
    func place() {
        #expect(ScanCache.standard(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.directory == "/x/apphost")
        #expect(ScanCache.standard(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"])?.directory == "/h/.cache/apphost")
        #expect(ScanCache.standard(environment: [:]) == nil)
    }

    @Test("at most entryLimit records are kept, the newest; a written cache reads back the same")
    func bounds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = ScanCache(directory: directory.path + "/c")
        let records = (0..<(ScanCache.entryLimit + 10)).map(record)
        #expect(cache.write(records) == nil)
        let read = cache.read()
        #expect(read.warning == nil)
        #expect(read.records.count == ScanCache.entryLimit)
        #expect(read.records.first == record(10) && read.records.last == records.last)
    }

    /// A copy of libGreeterC.so in `directory`, and a cache there that says its scan failed for `reason` (on "then").
    @MainActor
    private func blacklistedCopy(in directory: TemporaryDirectory, reason: String) throws -> (path: String, cache: ScanCache) {
        let path = directory.path + "/libGreeterCopy.so"
        try FileManager.default.copyItem(atPath: AppHostProcess.plugin("GreeterC"), toPath: path)
        let cache = ScanCache(directory: directory.path + "/cache")
        let key = try PluginLoader().examine(at: path)
        #expect(cache.write([ScanRecord(key: key, failure: .init(reason: reason, date: "then"))]) == nil)
        return (path, cache)
    }

    @Test("the loader refuses exactly the blacklisted file, given the cache; without one, or once the file changes, it loads")
    @MainActor
    func loaderRefusal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, cache) = try blacklistedCopy(in: directory, reason: "crashed with SIGSEGV")

        #expect(throws: PluginLoadError.blacklisted(path: path, reason: "crashed with SIGSEGV", date: "then", cache: cache.file)) {
            try PluginLoader(scanCache: cache).loadImage(at: path)
        }
        // A new modification time: another file to the cache.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 2_000_000)], ofItemAtPath: path)
        #expect(try PluginLoader(scanCache: cache).loadImage(at: path).id == "com.example.greeter-c")
    }

    @Test("the blacklist looks for a failure before parsing: written caches with and without one, every escape that could spell it")
    func failuresFoundBeforeParsing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = ScanCache(directory: directory.path)
        func bytes() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: cache.file))) }
        #expect(cache.write((0..<50).map(record)) == nil)
        #expect(!ScanCache.mayHoldFailures(try bytes()))
        var failed = record(50)
        failed.failure = .init(reason: "hung", date: "then")
        #expect(cache.write((0..<50).map(record) + [failed]) == nil)
        #expect(ScanCache.mayHoldFailures(try bytes()))
        // A value spelled like the key only costs a parse.
        for text in [#"{"failure":1}"#, #"{"fail\u0075re":1}"#, #"{"a":"\\","failure":1}"#, #"{"\u0066ailure":1}"#,
                     #"{"a":"failure"}"#] {
            #expect(ScanCache.mayHoldFailures(Array(text.utf8)), "\(text)")
        }
        for text in [#"{"failures":1}"#, #"{"a":"\"failure\""}"#, #"{"reason":"\n"}"#, "", "\\", "u"] {
            #expect(!ScanCache.mayHoldFailures(Array(text.utf8)), "\(text)")
        }
    }

    @Test("a failure whose key a hand-edited cache spells with an escape still blacklists the file")
    @MainActor
    func escapedFailureKey() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (path, cache) = try blacklistedCopy(in: directory, reason: "hung")
        let written = try String(contentsOfFile: cache.file, encoding: .utf8)
        #expect(written.contains("\"failure\""))
        try written.replacingOccurrences(of: "\"failure\"", with: #""fail\u0075re""#)
            .write(toFile: cache.file, atomically: false, encoding: .utf8)
        #expect(throws: PluginLoadError.blacklisted(path: path, reason: "hung", date: "then", cache: cache.file)) {
            try PluginLoader(scanCache: cache).loadImage(at: path)
        }
    }

    @Test("a cache over the byte limit is discarded with a warning")
    func oversized() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cache = ScanCache(directory: directory.path)
        let handle = try #require(FileHandle(forWritingAtPath: try directory.write(ScanCache.fileName, "")))
        try handle.truncate(atOffset: UInt64(ScanCache.byteLimit + 1))
        try handle.close()
        let read = cache.read()
        #expect(read.records.isEmpty)
        #expect(read.warning == "scan cache \(cache.file): expected at most \(ScanCache.byteLimit) bytes, found \(ScanCache.byteLimit + 1) bytes; discarded (it is made anew)")
    }
}
