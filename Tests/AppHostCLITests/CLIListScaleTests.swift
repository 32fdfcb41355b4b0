import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// `ManySubscribers`' subscriber `index`: "Many0042".
private func manyName(_ index: Int) -> String {
    let digits = String(index)
    return "Many" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// `apphost list` of 4,096 entries each naming one subscriber of a plugin that declares 4,096: the
/// declared names are listed once, at the first entry of the file, not 4,096 times (16 M names,
/// about 180 MB), and loading is linear.
@Suite("CLI: list grows with the manifest, not with entries × declared subscribers", .serialized)
struct CLIListScaleTests {
    static let count = 4096

    private func manifest(in directory: TemporaryDirectory) throws -> String {
        let entries = (0..<Self.count).map { #"{"library": "ManySubscribers", "subscribers": ["\#(manyName($0))"]}"# }
        return try directory.write("m.json", #"{"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [\#(entries.joined(separator: ", "))]}"#)
    }

    @Test("human: every entry's line; the declared names once, the later entries refer to the first")
    func human() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try AppHostProcess.run(["list", "--manifest", try manifest(in: directory), "--plugin-dir", AppHostProcess.buildDirectory])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("\(Self.count) plugins: \(Self.count) loaded, 0 failed"))
        let rows = run.stdoutLines.filter { $0.hasPrefix("      subscribers  ") }
        #expect(rows.count == Self.count)
        #expect(rows.first?.hasPrefix("      subscribers  Many0000 (declares Many0000, Many0001, ") == true)
        #expect(rows.first?.hasSuffix(", Many4095)") == true)
        #expect(rows.dropFirst().enumerated().allSatisfy { offset, row in
            row == "      subscribers  \(manyName(offset + 1)) (declares 4096 subscribers, listed at plugins[0])"
        })
        #expect(run.stdout.utf8.count < 4 << 20, "\(run.stdout.utf8.count) bytes")
    }

    @Test("JSON: declaredSubscribers at the first entry of the file, declaredSubscribersAt at the others")
    func json() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try AppHostProcess.run(["list", "--json", "--manifest", try manifest(in: directory),
                                          "--plugin-dir", AppHostProcess.buildDirectory])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let plugins = try #require(try run.stdout.parsedJSON()["plugins"]?.arrayValue)
        #expect(plugins.count == Self.count)
        #expect(plugins.first?["declaredSubscribers"]?.arrayValue?.count == Self.count)
        #expect(plugins.first?["declaredSubscribersAt"] == nil)
        #expect(plugins.dropFirst().allSatisfy { $0["declaredSubscribers"] == nil && $0["declaredSubscribersAt"] == 0 })
        #expect(plugins.enumerated().allSatisfy { index, plugin in plugin["subscribers"] == [.string(manyName(index))] })
    }
}
