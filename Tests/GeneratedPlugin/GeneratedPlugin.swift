import Dispatch
import Foundation
import Glibc
import SubscriberKit
import SubscriberEventModel
import BuiltProducts

/// A plugin written from the event table and compiled at test time: one Swift subscriber type
/// adopting every event protocol of every family, with each protocol's requirement as the table
/// writes it. What the table says about the Swift side (protocol names, requirements) and the C side
/// (entries, families) is checked together, for every event, with nothing kept by hand: an event
/// added to the table is in this plugin at once.
///
/// Every method tells which event it is: it logs its event's wire name, and answers (or completes
/// with) ``answer(of:)``, a value made from its event's index and name wherever the answer's type
/// allows. So a row wired to another event's method — its entry installed with another event's, or
/// its C slot read for another — logs and answers that other event's, and a test sees it.
public enum GeneratedPlugin {
    /// The Swift source: the subscriber type and its entry symbol.
    public static var source: String {
        let rows = EventTable.rows
        let protocols = rows.map(\.swiftProtocol).joined(separator: ", ")
        let methods = rows.map { row in
            "    " + row.swiftRequirement + " {\n" + body(of: row) + "    }"
        }.joined(separator: "\n")
        return """
        import Foundation
        import SubscriberKit

        final class EveryEvent: InstantiableSubscriber, \(protocols) {
            let context: SubscriberContext
            init(context: SubscriberContext) { self.context = context }
        \(methods)
        }

        @_cdecl("adh_plugin_entry")
        public func pluginEntry() -> UnsafeRawPointer {
            SubscriberPlugin.export(id: "dev.appdelegatehost.tests.every-event", name: "Every event", version: "1.0",
                                    subscribers: [EveryEvent.self])
        }

        """
    }

    /// What `row`'s method answers, as Swift source and as the value it makes: returned at once (an
    /// immediate answer, or the `Bool?` beside a restoration handler), or handed to its completion.
    /// Made from the row's index and name, so that two events' answers differ where the type allows.
    struct Answer {
        var source: String
        var value: any Sendable
    }

    /// The answer of type `type` (the requirement's text: `Bool`, `BackgroundFetchResult`, …) for `row`.
    static func answer(ofType type: String, for row: EventRow) -> Answer? {
        let index = row.index, name = row.name
        switch type {
        case "Bool":
            return Answer(source: "\(index % 2 == 0)", value: index % 2 == 0)
        case "String":
            return Answer(source: "\"\(name)\"", value: name)
        case "InterfaceOrientationMask":
            let mask = InterfaceOrientationMask(rawValue: UInt32(2 + 4 * (index % 4)))  // portrait and one more
            return Answer(source: "([\(mask.names.map { "." + $0 }.joined(separator: ", "))] as InterfaceOrientationMask)", value: mask)
        case "UserActivity":
            return Answer(source: "UserActivity(activityType: \"\(name)\")", value: UserActivity(activityType: name))
        case "BackgroundFetchResult":
            let result = BackgroundFetchResult.allCases[index % BackgroundFetchResult.allCases.count]
            return Answer(source: "BackgroundFetchResult.\(result)", value: result)
        case "Void":
            return Answer(source: "()", value: ())
        case "JSONObject":
            return Answer(source: "[\"event\": .string(\"\(name)\"), \"index\": .number(\(index))]",
                          value: ["event": .string(name), "index": .number(Double(index))] as JSONObject)
        case "NotificationPresentationOptions":
            let options: NotificationPresentationOptions = index % 2 == 0 ? [.banner, .sound] : [.list, .badge]
            return Answer(source: "([\(options.names.map { "." + $0 }.joined(separator: ", "))] as NotificationPresentationOptions)",
                          value: options)
        case "[String]":
            return Answer(source: "[\"\(name)\", \"\(index)\"]", value: [name, "\(index)"])
        default:
            return nil
        }
    }

    /// What `row`'s generated method answers at once (nil: nothing, or no answer to make), and what it
    /// hands its completion handler (nil: it has none).
    package static func answers(of row: EventRow) -> (immediate: (any Sendable)?, completion: (any Sendable)?) {
        let (returned, completed) = answerTypes(of: row.swiftRequirement)
        let immediate: (any Sendable)? = row.timing == .restoration ? true : returned.flatMap { answer(ofType: $0, for: row)?.value }
        return (immediate, completed.flatMap { answer(ofType: $0, for: row)?.value })
    }

    /// The type a requirement returns (without its `?`) and the value type of its completion handler.
    static func answerTypes(of requirement: String) -> (returned: String?, completed: String?) {
        let returned = requirement.firstMatch(of: /\ -> (.+?)\??$/).map { String($0.output.1) }
        let completed = requirement.firstMatch(of: /: CompletionHandler<(.+)>[),]/).map { String($0.output.1) }
        return (returned, completed)
    }

    /// A body for `row`'s requirement: logs the event's wire name, completes its handler with
    /// ``answer(ofType:for:)``, returns that answer.
    static func body(of row: EventRow) -> String {
        var lines = "        context.log(\"\(row.name)\")\n"
        let (returned, completed) = answerTypes(of: row.swiftRequirement)
        if let completed, let handler = row.swiftRequirement.firstMatch(of: /(\w+): CompletionHandler</)?.output.1 {
            lines += "        \(handler)(\(answer(ofType: completed, for: row)?.source ?? "()"))\n"
        }
        if row.timing == .restoration {
            lines += "        return true\n"  // true: its restoration list counts (one from a false responder is reported)
        } else if let returned {
            lines += "        return \(answer(ofType: returned, for: row)?.source ?? "nil")\n"
        }
        return lines
    }

    /// The build folder of the running tests: modules and object files.
    static let buildFolder = URL(fileURLWithPath: BuiltProducts.directory)
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The plugin library, compiled once per test process (every test target runs in one) into a
    /// temporary folder; what the compiler said when it does not compile. The compiler is waited for
    /// on a thread of its own, never on the main actor: a compile takes minutes on a busy machine, and
    /// the other suites' main-actor work (completions meeting wall-clock deadlines) must go on meanwhile.
    /// `sdk`: the plugin carries the SDK's objects, or links the shared `libSubscriberKit.so`.
    public static func library(sdk: SDKLinking = .objects) async throws -> String {
        switch sdk {
        case .objects: try await everyEvent.value
        case .sharedLibrary: try await everyEventShared.value
        }
    }

    private static let everyEvent = Task<String, any Error> { try await buildOnOwnThread(.objects, folder: "every-event") }
    private static let everyEventShared = Task<String, any Error> {
        try await buildOnOwnThread(.sharedLibrary, folder: "every-event-shared")
    }

    private static func buildOnOwnThread(_ sdk: SDKLinking, folder name: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid())")
                    try? FileManager.default.removeItem(at: folder)
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    return try build(in: folder, sdk: sdk)
                })
            }.start()
        }
    }

    /// Compiles ``source`` into a plugin library with the SDK as `sdk` says; the path, or what the
    /// compiler said.
    static func build(in folder: URL, sdk: SDKLinking) throws -> String {
        let file = folder.appendingPathComponent("EveryEvent.swift")
        try Data(source.utf8).write(to: file)
        return try compilePlugin(sources: [file], module: "EveryEvent", into: folder, sdk: sdk)
    }

    /// How a compiled plugin gets the SDK.
    public enum SDKLinking: Sendable {
        /// It carries SubscriberKit's objects, as this package's own plugin products do.
        case objects
        /// It links this build's `libSubscriberKit.so`, as a plugin product of another package does.
        case sharedLibrary
    }

    /// Compiles the Swift plugin of `sources` (a plugin's own files, importing SubscriberKit) into
    /// `folder`/lib`module`.so, with the SDK as `sdk` says, as SwiftPM would build a plugin product;
    /// the path, or what the compiler said. For a plugin this package does not build (the docs'
    /// outside example), without building a second package. `extraArguments` go to swiftc.
    public static func compilePlugin(sources: [URL], module: String, into folder: URL, sdk: SDKLinking = .objects,
                                     extraArguments: [String] = []) throws -> String {
        let library = folder.appendingPathComponent("lib\(module).so").path
        // The objects of the current sources of SubscriberKit and the modules under it, as the build's own
        // file maps list them (a folder may still hold objects of sources since removed).
        var objects: [String] = []
        for linked in ["SubscriberValues", "SubscriberEventModel", "SubscriberKit"] where sdk == .objects {
            let map = try Data(contentsOf: buildFolder.appendingPathComponent("\(linked).build/output-file-map.json"))
            guard let entries = try JSONSerialization.jsonObject(with: map) as? [String: [String: String]] else {
                throw Failure("\(linked).build/output-file-map.json: expected an object of objects, found something else")
            }
            objects += entries.values.compactMap { $0["object"] }.sorted()
        }
        let modules = buildFolder.appendingPathComponent("Modules").path
        let moduleMap = packageRoot.appendingPathComponent("Sources/SubscriberABI/include/module.modulemap").path
        let log = folder.appendingPathComponent("swiftc-\(module).txt")
        try Data().write(to: log)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = ["-emit-library", "-parse-as-library", "-module-name", module, "-o", library, "-I", modules,
                             "-Xcc", "-fmodule-map-file=\(moduleMap)"] + extraArguments + sources.map(\.path) + objects
            + (sdk == .sharedLibrary ? ["-L", buildFolder.path, "-lSubscriberKit"] : [])
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
            throw Failure("swiftc: expected \(module) to compile, found exit status \(process.terminationStatus): "
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
