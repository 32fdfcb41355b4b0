import Foundation

/// BenchSubscribers built as a plugin of another package is built: its source compiled at benchmark
/// time by the toolchain's `swiftc` against this build's `libSubscriberKit.so` (the SDK linked, not
/// carried: `DT_NEEDED libSubscriberKit.so`), into a private temporary folder. This package's own
/// `libBenchSubscribers.so` carries the SDK's objects (SwiftPM links a package's own targets
/// statically), so the memory a Swift plugin of another package costs is measured on this copy.
struct SharedSDKPlugin: Sendable {
    /// The compiled library, or why there is none (one line).
    var library: Result<String, BenchError>
    /// The folder it was compiled into (removed by ``remove()``).
    var folder: String?

    /// The library's path, when it was compiled.
    var path: String? { try? library.get() }

    /// Why there is no library, when there is none.
    var failure: String? {
        if case .failure(let error) = library { return error.description }
        return nil
    }

    /// How it was built, for the report.
    static var howBuilt: String {
        "BenchSubscribers.swift compiled at run time by swiftc (\(optimization)) against this build's libSubscriberKit.so"
    }

    #if DEBUG
    static let optimization = "-Onone"
    #else
    static let optimization = "-O -wmo"  // as SwiftPM builds a release product (whole module: no dynamic exclusivity checks it can prove away)
    #endif

    /// Compiles `Plugins/BenchSubscribers/BenchSubscribers.swift` (found from this source file's
    /// path) against the modules and `libSubscriberKit.so` in `buildDirectory` (this executable's folder).
    static func compile(buildDirectory: String) -> SharedSDKPlugin {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = root.appendingPathComponent("Plugins/BenchSubscribers/BenchSubscribers.swift").path
        let moduleMap = root.appendingPathComponent("Sources/SubscriberABI/include/module.modulemap").path
        let sdk = buildDirectory + "/libSubscriberKit.so"
        for (what, path) in [("the plugin's source", source), ("SubscriberABI's module map", moduleMap),
                             ("the shared SDK", sdk), ("the modules folder", buildDirectory + "/Modules")]
        where !FileManager.default.fileExists(atPath: path) {
            return SharedSDKPlugin(library: .failure(BenchError(
                "not measured: \(what) expected at \(path), found nothing (the benchmark runs from its package's build folder)")))
        }
        guard let swiftc = findSwiftc() else {
            return SharedSDKPlugin(library: .failure(BenchError(
                "not measured: swiftc expected on the PATH (\(ProcessInfo.processInfo.environment["PATH"] ?? "unset")), found none")))
        }
        let folder: String
        do { folder = try PrivateFolder.make(prefix: "subscriber-bench-sdk") } catch {
            return SharedSDKPlugin(library: .failure(BenchError("not measured: \(error)")))
        }
        let library = folder + "/libBenchSubscribersShared.so"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = optimization.split(separator: " ").map(String.init) + ["-emit-library", "-parse-as-library", "-module-name", "BenchSubscribers",
                             "-o", library, "-I", buildDirectory + "/Modules", "-Xcc", "-fmodule-map-file=\(moduleMap)",
                             "-Xcc", "-D_GNU_SOURCE", source, "-L", buildDirectory, "-lSubscriberKit"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch {
            return SharedSDKPlugin(library: .failure(BenchError("not measured: running \(swiftc): \(error)")), folder: folder)
        }
        // A compiler that never finishes must not hang the benchmark: stopped after 300 s (its output
        // then ends, and the row says why it was not measured).
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 300, execute: watchdog)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        if process.terminationReason == .uncaughtSignal {
            return SharedSDKPlugin(library: .failure(BenchError(
                "not measured: swiftc expected to compile \(source) within 300 s, stopped by signal \(process.terminationStatus)")),
                folder: folder)
        }
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: library) else {
            let said = text.split(separator: "\n").first { $0.contains("error") } ?? text.split(separator: "\n").first ?? ""
            return SharedSDKPlugin(library: .failure(BenchError(
                "not measured: swiftc expected to compile \(source), found exit status \(process.terminationStatus): \(said)")),
                folder: folder)
        }
        chmod(library, 0o755)
        return SharedSDKPlugin(library: .success(library), folder: folder)
    }

    /// The first executable `swiftc` on the PATH.
    static func findSwiftc() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Removes the folder it was compiled into.
    func remove() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }
}
