import Dispatch
import Foundation
import Testing
@testable import SubscriberHost
import SubscriberKit
import BuiltProducts

/// A plugin written from the event table and compiled at test time: one Swift subscriber type
/// adopting every event protocol of every family, with each protocol's requirement as the table
/// writes it. What the table says about the Swift side (protocol names, requirements) and the C side
/// (entries, families) is checked together, for every event, with nothing kept by hand: an event
/// added to the table is in this plugin at once.
@MainActor
enum GeneratedPlugin {
    /// The Swift source: the subscriber type and its entry symbol.
    static var source: String {
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

    /// Compiles ``source`` into a plugin library linked with SubscriberKit's own objects; the path,
    /// or what the compiler said.
    static func build(in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("EveryEvent.swift")
        try Data(source.utf8).write(to: file)
        let library = folder.appendingPathComponent("libEveryEvent.so").path
        // The objects of SubscriberKit's current sources, as the build's own file map lists them (the
        // folder may still hold objects of sources since removed).
        let map = try Data(contentsOf: buildFolder.appendingPathComponent("SubscriberKit.build/output-file-map.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: map) as? [String: [String: String]])
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
            process.terminate()
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

@MainActor
@Suite("A plugin generated from the table: every event, every family, through the SDK and the host")
struct GeneratedPluginTests {
    @Test func aSubscriberAdoptingEveryProtocolRespondsToEveryEventThroughTheCABI() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("every-event-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try GeneratedPlugin.build(in: folder)

        let image = try PluginLoader(allowWritable: true).loadImage(at: library)
        let sink = HostLogRecorder()
        let subscriber = try CSubscriber(creating: "EveryEvent", from: image.descriptor,
                                         context: sink.context(for: "EveryEvent", application: testApplication))
        defer { subscriber.destroy() }
        #expect(subscriber.speaksExtensions)
        // Every entry of every family is set: the witnesses, the vtables and get_extension agree.
        #expect(subscriber.respondingEvents == LifecycleEvent.allCases)

        // Each entry, called with its row's canonical input, reaches the subscriber's method and
        // comes back with what it answered: no opinion, or a declined completion.
        let solo = Solo(subscriber)
        for row in EventTable.rows {
            for call in row.canonicalCalls {
                let outcome = await solo.deliver(call)
                switch row.timing {
                case .notification:
                    #expect(outcome.answerNames == ["EveryEvent"], "\(row.name) was called")
                case .immediate, .restoration:
                    #expect(outcome.answers.count == 1 && outcome.answers[0].answer == nil, "\(row.name): no opinion")
                case .completion:
                    #expect(outcome.answers.isEmpty, "\(row.name): declined, so no answer row")
                }
                #expect(outcome.reports.isEmpty, "\(row.name): \(outcome.reports)")
            }
        }
        #expect(sink.drain().filter { $0.level >= .warning }.isEmpty)
    }
}
