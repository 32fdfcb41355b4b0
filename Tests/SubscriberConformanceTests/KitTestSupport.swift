import Foundation
import Testing
import BuiltProducts
import SubscriberConformance

/// The built products, beside the test binary (``BuiltProducts``); a missing one fails the test.
enum Built {
    /// The `apphost` executable, for the command's own tests.
    static var apphost: String { BuiltProducts.file("apphost") }

    /// `lib<name>.so`.
    static func plugin(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        BuiltProducts.library(name, sourceLocation: sourceLocation)
    }
}

/// Every plugin the package builds outside Plugins/Broken — the examples, the benchmark's, the
/// frozen-ABI fixture — all of which must pass `apphost check`. Read from the build folder (every
/// `lib*.so` beside the test binary, less those whose source folder is in Plugins/Broken), never
/// listed by hand: a plugin added to Package.swift is checked without an edit here.
enum ShippedPlugins {
    /// The package's root folder (this file is Tests/SubscriberConformanceTests/KitTestSupport.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The plugins' names (`lib<name>.so`), sorted: every library built but the broken fixtures and
    /// the plugin SDK itself (`libSubscriberKit.so`, the library Swift plugins of other packages link).
    static let names: [String] = {
        let broken = Set(folders(in: "Plugins/Broken")).union(["SubscriberKit"])
        let built = (try? FileManager.default.contentsOfDirectory(atPath: BuiltProducts.directory)) ?? []
        return built.filter { $0.hasPrefix("lib") && $0.hasSuffix(".so") }
            .map { String($0.dropFirst(3).dropLast(3)) }
            .filter { !broken.contains($0) }
            .sorted()
    }()

    /// The folders in `path` (relative to the package root), sorted.
    static func folders(in path: String) -> [String] {
        let url = packageRoot.appendingPathComponent(path)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return entries.filter { entry in
            var isFolder: ObjCBool = false
            return !entry.hasPrefix(".")
                && FileManager.default.fileExists(atPath: url.appendingPathComponent(entry).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }
}

/// What a C plugin skips: the checks that read Swift symbols (it has none).
let cPluginSkips = ["events.shaped-methods"]

/// Options for the tests: a fixed seed (reproducible fuzzing). The checks run in this test binary.
func kitOptions(_ change: (inout ConformanceOptions) -> Void = { _ in }) -> ConformanceOptions {
    var options = ConformanceOptions()
    options.seed = 20_240_601
    change(&options)
    return options
}

/// A fresh temporary folder (mode 0755), removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false,
                                            attributes: [.posixPermissions: 0o755])
    return url
}
