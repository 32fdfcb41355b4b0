import Dispatch
import Foundation
import Glibc
import SubscriberKit
import BuiltProducts

/// A plugin written from the event table and compiled at test time: one Swift subscriber type
/// adopting every event protocol of every family, with each protocol's requirement as the table
/// writes it. What the table says about the Swift side (protocol names, requirements) and the C side
/// (entries, families) is checked together, for every event, with nothing kept by hand: an event
/// added to the table is in this plugin at once.
public enum GeneratedPlugin {
    /// The Swift source: the subscriber type and its entry symbol.
    @MainActor
    public static var source: String {
        let rows = EventTable.rows
        let protocols = rows.map(\.swiftProtocol).joined(separator: ", ")
        let methods = rows.map { row in
            "    " + row.swiftRequirement + " {\n" + body(of: row.swiftRequirement) + "    }"
        }.joined(separator: "\n")
        return """
        import Foundation
        import SubscriberKit

        final class EveryEvent: InstantiableSubscriber, \(protocols) {
            init(context: SubscriberContext) {}
        \(methods)
        }

        @_cdecl("adh_plugin_entry")
        public func pluginEntry() -> UnsafeRawPointer {
            SubscriberPlugin.export(id: "dev.appdelegatehost.tests.every-event", name: "Every event", version: "1.0",
                                    subscribers: [EveryEvent.self])
        }

        """
    }

    /// A body for `requirement`: completion handlers declined, no opinion returned.
    static func body(of requirement: String) -> String {
        var lines = ""
        for match in requirement.matches(of: /(\w+): CompletionHandler</) { lines += "        \(match.output.1).decline()\n" }
        if requirement.contains(" -> ") { lines += "        return nil\n" }
        return lines
    }

    /// The build folder of the running tests: modules and object files.
    static let buildFolder = URL(fileURLWithPath: BuiltProducts.directory)
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The plugin library, compiled once per test process (every test target runs in one) into a
    /// temporary folder; what the compiler said when it does not compile.
    @MainActor
    public static func library() throws -> String {
        if let built { return try built.get() }
        let result = Result { () throws -> String in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("every-event-\(getpid())")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try build(in: folder)
        }
        built = result
        return try result.get()
    }

    @MainActor private static var built: Result<String, any Error>?

    /// Compiles ``source`` into a plugin library linked with SubscriberKit's own objects; the path,
    /// or what the compiler said.
    @MainActor
    static func build(in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("EveryEvent.swift")
        try Data(source.utf8).write(to: file)
        let library = folder.appendingPathComponent("libEveryEvent.so").path
        // The objects of SubscriberKit's current sources, as the build's own file map lists them (the
        // folder may still hold objects of sources since removed).
        let map = try Data(contentsOf: buildFolder.appendingPathComponent("SubscriberKit.build/output-file-map.json"))
        guard let entries = try JSONSerialization.jsonObject(with: map) as? [String: [String: String]] else {
            throw Failure("SubscriberKit.build/output-file-map.json: expected an object of objects, found something else")
        }
        let objects = entries.values.compactMap { $0["object"] }.sorted()
        let modules = buildFolder.appendingPathComponent("Modules").path
        let moduleMap = packageRoot.appendingPathComponent("Sources/SubscriberABI/include/module.modulemap").path
        let log = folder.appendingPathComponent("swiftc.txt")
        try Data().write(to: log)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = ["-emit-library", "-parse-as-library", "-module-name", "EveryEvent", "-o", library, "-I", modules,
                             "-Xcc", "-fmodule-map-file=\(moduleMap)", file.path] + objects
        process.standardOutput = handle
        process.standardError = handle
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        guard finished.wait(timeout: .now() + 180) == .success else {
            kill(process.processIdentifier, SIGKILL)  // SIGTERM may be blocked: the child inherits a concurrency thread's mask
            throw Failure("swiftc: expected to finish within 180 s, still running; stopped")
        }
        guard process.terminationStatus == 0 else {
            throw Failure("swiftc: expected the generated plugin to compile, found exit status \(process.terminationStatus): "
                          + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""))
        }
        return library
    }

    static var swiftc: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "/opt/swift/usr/bin/swiftc"
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
