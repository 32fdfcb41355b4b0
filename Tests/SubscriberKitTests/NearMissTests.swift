import Dispatch
import Foundation
import Testing
@testable import SubscriberKit
@testable import SubscriberEventModel

/// Type-checks a Swift file against the SubscriberKit module these tests were built with, with the
/// toolchain's `swiftc`, in a child process that may not run longer than `limit`.
private enum TypeCheck {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The build folder: the running test binary's own folder, whatever the configuration and scratch path.
    static let buildFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// The folder holding `SubscriberKit.swiftmodule` (`Modules/` in current SwiftPM, the build
    /// folder itself in older ones); nil when neither has it.
    static var moduleFolder: String? {
        [buildFolder.appendingPathComponent("Modules").path, buildFolder.path].first {
            FileManager.default.fileExists(atPath: $0 + "/SubscriberKit.swiftmodule")
        }
    }

    /// The `swiftc` on PATH, else the toolchain's usual place.
    static var swiftc: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let onPath = path.split(separator: ":").map { "\($0)/swiftc" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        return onPath ?? "/opt/swift/usr/bin/swiftc"
    }

    /// What `swiftc -typecheck` said about `file`.
    struct Outcome {
        var status: Int32
        var diagnostics: String
    }

    /// Why the type check could not be run.
    enum Failure: Error, CustomStringConvertible {
        case noModule(String)
        case timedOut(Duration)
        var description: String {
            switch self {
            case .noModule(let folder): "SubscriberKit.swiftmodule: expected in \(folder)/Modules or \(folder), found neither"
            case .timedOut(let limit): "swiftc -typecheck: expected to finish within \(limit), still running; stopped"
            }
        }
    }

    /// Runs `swiftc -typecheck` on `file`; stops it and throws after `limit`.
    static func run(_ file: URL, limit: Duration = .seconds(60)) throws -> Outcome {
        guard let modules = moduleFolder else { throw Failure.noModule(buildFolder.path) }
        let moduleMap = packageRoot.appendingPathComponent("Sources/SubscriberABI/include/module.modulemap").path
        // Diagnostics to a file, not a pipe: a child never blocks on a full pipe nobody reads yet.
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("near-miss-\(UUID().uuidString).txt")
        try Data().write(to: output)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = ["-typecheck", "-diagnostic-style", "llvm", "-I", modules,
                             "-Xcc", "-fmodule-map-file=\(moduleMap)", file.path]
        process.standardOutput = handle
        process.standardError = handle
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        let seconds = Double(limit.components.seconds)
        guard finished.wait(timeout: .now() + seconds) == .success else {
            kill(process.processIdentifier, SIGKILL)  // SIGTERM may be blocked: the child inherits a concurrency thread's mask
            _ = finished.wait(timeout: .now() + 5)
            throw Failure.timedOut(limit)
        }
        return Outcome(status: process.terminationStatus,
                       diagnostics: (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }
}

@Suite("Near misses: an event method with the wrong type is a compile error, not a silent non-handler")
struct NearMissTests {
    /// Tests/Fixtures/NearMiss/NearMissSubscriber.swift, which is in no target: Expo ports that
    /// answer `Bool` and a non-optional mask where the events answer `Bool?` and
    /// `InterfaceOrientationMask?`. Type-checking it takes about 0.2 s.
    @Test func theCompilerNamesTheProtocolAndTheCandidateWithTheWrongType() throws {
        let fixture = TypeCheck.packageRoot.appendingPathComponent("Tests/Fixtures/NearMiss/NearMissSubscriber.swift")
        let outcome = try TypeCheck.run(fixture)
        #expect(outcome.status != 0)
        let text = outcome.diagnostics
        // swiftc 6.3's words:
        // error: type 'ExpoLinking' does not conform to protocol 'OpenURLSubscriber'
        // note: candidate has non-matching type '(Application, URL, OpenURLOptions) -> Bool'
        // note: protocol requires function 'application(_:open:options:)' with type '(Application, URL, OpenURLOptions) -> Bool?'
        #expect(text.contains("error: type 'ExpoLinking' does not conform to protocol 'OpenURLSubscriber'"), "\(text)")
        #expect(text.contains("candidate has non-matching type '(Application, URL, OpenURLOptions) -> Bool'"), "\(text)")
        #expect(text.contains("with type '(Application, URL, OpenURLOptions) -> Bool?'"), "\(text)")
        #expect(text.contains(
            "error: type 'ExpoScreenOrientation' does not conform to protocol 'SupportedInterfaceOrientationsSubscriber'"),
            "\(text)")
        #expect(text.contains(
            "candidate has non-matching type '(Application, UserInterfaceIdiom) -> InterfaceOrientationMask'"), "\(text)")
        // Nothing else went wrong: the module was found and only the two conformances fail.
        let errors = text.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors.count == 2, "\(text)")
    }

    @Test func theSameFileWithTheEventsOptionalAnswersCompiles() throws {
        let fixture = TypeCheck.packageRoot.appendingPathComponent("Tests/Fixtures/NearMiss/NearMissSubscriber.swift")
        let source = try String(contentsOf: fixture, encoding: .utf8)
        let fixed = source.replacingOccurrences(of: ") -> Bool {", with: ") -> Bool? {")
            .replacingOccurrences(of: ") -> InterfaceOrientationMask {", with: ") -> InterfaceOrientationMask? {")
        #expect(fixed != source)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("near-miss-fixed-\(UUID().uuidString).swift")
        try fixed.write(to: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: copy) }
        let outcome = try TypeCheck.run(copy)
        #expect(outcome.status == 0, "\(outcome.diagnostics)")
    }
}

@Suite("Event rows: the Swift protocol and requirement each row names are the ones in SubscriberKit")
struct EventRowSwiftTextTests {
    /// One class per row adopting `swiftProtocol` with `swiftRequirement` as its only method: it
    /// compiles only when both strings are what the SDK declares (a requirement has no default).
    @Test func everyRowsProtocolAndRequirementCompileAsWritten() throws {
        var source = "import Foundation\nimport SubscriberKit\n"
        for (index, row) in EventTable.rows.enumerated() {
            source += """

                final class Row\(index): InstantiableSubscriber, \(row.swiftProtocol) {
                    init(context: SubscriberContext) {}
                    \(row.swiftRequirement) { fatalError() }
                }

                """
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("event-rows-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try TypeCheck.run(file)
        #expect(outcome.status == 0, "\(outcome.diagnostics)")
    }
}
