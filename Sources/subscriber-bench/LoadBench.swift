import Foundation
import BenchSubscribers
import SubscriberHost
import SubscriberKit

/// One row of the load table: N plugins loaded each way, in fresh processes.
struct LoadFigure: Sendable {
    var plugins: Int
    /// Milliseconds to load all N, per variant.
    var milliseconds: [LoadVariant: Stats]
    /// Resident kilobytes added per plugin, per variant.
    var kilobytesPerPlugin: [LoadVariant: Stats]
    /// The same for copies of libBenchSubscribersC.so (bare and create only), when that plugin was found.
    var cKilobytesPerPlugin: [LoadVariant: Stats] = [:]
    /// The same for copies of BenchSubscribers compiled against the shared SDK (``SharedSDKPlugin``;
    /// bare and create only), when it was compiled.
    var sharedKilobytesPerPlugin: [LoadVariant: Stats] = [:]

    /// `variant` / bare dlopen+dlsym, per repetition.
    func ratioToBare(_ variant: LoadVariant) -> Stats {
        ratio(milliseconds[variant]!, milliseconds[.bare]!)
    }
}

/// The load benchmark: N byte-identical copies of libBenchSubscribers.so under different names in a
/// private temporary folder (0755, files 0755), loaded through a generated manifest with
/// ``PluginHost`` (pins off and on) and by bare `dlopen` + `dlsym`. Every measurement runs in a
/// child process (this executable, `--load-child`), since no image is ever unloaded: each starts
/// with nothing loaded and the files warm in the page cache.
struct LoadBench {
    var pluginPath: String
    var repetitions: Int
    /// libBenchSubscribersC.so, for memory per C plugin (bare vs +entry+create); nil: not measured.
    var cPluginPath: String? = nil
    /// BenchSubscribers compiled against libSubscriberKit.so (``SharedSDKPlugin``), for memory per
    /// Swift plugin as other packages build it (bare vs +entry+create); nil: not measured.
    var sharedPluginPath: String? = nil

    func run(counts: [Int], progress: (String) -> Void) throws -> [LoadFigure] {
        let folder = try makeFolder(copies: counts.max() ?? 0)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cFolder = try cPluginPath.map { try makeFolder(copies: counts.max() ?? 0, of: $0) }
        defer { if let cFolder { try? FileManager.default.removeItem(atPath: cFolder) } }
        let sharedFolder = try sharedPluginPath.map { try makeFolder(copies: counts.max() ?? 0, of: $0) }
        defer { if let sharedFolder { try? FileManager.default.removeItem(atPath: sharedFolder) } }
        let pin = try SHA256.hash(fileAtPath: pluginPath).hex
        var figures: [LoadFigure] = []
        for count in counts {
            for variant in [LoadVariant.pinsOff, .pinsOn] {
                try writeManifest(folder: folder, count: count, variant: variant, pin: pin)
            }
            progress("load: \(count) plugins")
            // Warm-up: one unrecorded load of each kind.
            for variant in LoadVariant.allCases { _ = try child(variant, folder: folder, count: count) }
            var samples: [LoadVariant: [LoadSample]] = [:]
            for _ in 0..<repetitions {
                for variant in LoadVariant.allCases {
                    samples[variant, default: []].append(try child(variant, folder: folder, count: count))
                }
            }
            func kilobytes(_ samples: [LoadSample]) -> Stats {
                Stats(samples.map { Double($0.residentAfter - $0.residentBefore) / 1024 / Double(count) })
            }
            var figure = LoadFigure(
                plugins: count,
                milliseconds: samples.mapValues { Stats($0.map { Double($0.nanoseconds) / 1e6 }) },
                kilobytesPerPlugin: samples.mapValues(kilobytes))
            // Memory only (bare and create), with a warm-up of each.
            func memory(folder: String, c: Bool) throws -> [LoadVariant: Stats] {
                var memorySamples: [LoadVariant: [LoadSample]] = [:]
                for variant in [LoadVariant.bare, .create] { _ = try child(variant, folder: folder, count: count, c: c) }
                for _ in 0..<repetitions {
                    for variant in [LoadVariant.bare, .create] {
                        memorySamples[variant, default: []].append(try child(variant, folder: folder, count: count, c: c))
                    }
                }
                return memorySamples.mapValues(kilobytes)
            }
            if let sharedFolder {
                progress("load: \(count) Swift plugins over the shared SDK (memory)")
                figure.sharedKilobytesPerPlugin = try memory(folder: sharedFolder, c: false)
            }
            if let cFolder {
                progress("load: \(count) C plugins (memory)")
                figure.cKilobytesPerPlugin = try memory(folder: cFolder, c: true)
            }
            figures.append(figure)
        }
        return figures
    }

    /// A fresh private folder holding `copies` copies of the plugin, named by ``LoadFolder``.
    private func makeFolder(copies: Int, of plugin: String? = nil) throws -> String {
        let folder = try PrivateFolder.make(prefix: "subscriber-bench")
        // Check 2 refuses a folder or file writable by group or others: set both explicitly.
        chmod(folder, 0o755)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: plugin ?? pluginPath))
        for index in 0..<copies {
            let path = folder + "/" + LoadFolder.fileName(index)
            try bytes.write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        }
        return folder
    }

    private func writeManifest(folder: String, count: Int, variant: LoadVariant, pin: String) throws {
        let plugins: [JSONValue] = try (0..<count).map { index in
            var entry: JSONObject = [
                "path": .string(LoadFolder.fileName(index)),
                "subscribers": [.string(try LoadFolder.probeName(folder: folder, index: index))],
            ]
            if variant == .pinsOn { entry["sha256"] = .string(pin) }
            return .object(entry)
        }
        let manifest: JSONValue = [
            "app": ["name": "Bench", "bundleIdentifier": "dev.appdelegatehost.bench", "version": "1.0"],
            "plugins": .array(plugins),
        ]
        let path = folder + "/" + LoadFolder.manifestName(count: count, variant: variant)
        try Data(manifest.serializedBytes(pretty: true)).write(to: URL(fileURLWithPath: path))
    }

    /// Runs one measurement in a child process and reads its line.
    private func child(_ variant: LoadVariant, folder: String, count: Int, c: Bool = false) throws -> LoadSample {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MachineInfo.executablePath)
        process.arguments = ["--load-child", variant.rawValue, folder, String(count)] + (c ? ["c"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, let sample = LoadSample(line: text) else {
            throw BenchError("loading \(count) plugins (\(variant.label)) in a child process: exit status "
                             + "\(process.terminationStatus), output \"\(text)\"; expected a load sample")
        }
        return sample
    }
}

/// Fresh private folders in the temporary directory.
enum PrivateFolder {
    /// A new folder `<tmp>/<prefix>-XXXXXX` (mkdtemp: mode 0700, a name nobody else holds).
    static func make(prefix: String) throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/\(prefix)-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchError("mkdtemp in \(FileManager.default.temporaryDirectory.path): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
