import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// `BadExtensionVTable` hands out a scene vtable the host cannot read (misaligned by default): the
/// host once trapped (SIGILL) reading it, and `apphost list` lost every other plugin's line with it.
@Suite("CLI: a plugin whose vtable cannot be read is refused in one line; list shows every plugin", .serialized)
struct CLIBadVTableTests {
    static let variants: [(variant: String, expected: String)] = [
        ("misaligned", "a struct at an address aligned to 8 bytes"),
        ("unreadable", "a struct whose struct_size can be read"),
        ("truncated", "the 120 bytes its struct_size (120) covers readable"),
    ]

    /// A manifest of Greeter, BadExtensionVTable (`variant`) and QuietHours, in a new folder.
    private func manifest(_ variant: String, in directory: TemporaryDirectory, optional: Bool = false) throws -> String {
        try directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"library": "Greeter"},
                         {"library": "BadExtensionVTable", "options": {"vtable": "\(variant)"}, "optional": \(optional)},
                         {"library": "QuietHours"}]}
            """)
    }

    private var badPath: String { AppHostProcess.plugin("BadExtensionVTable") }

    @Test("list: the bad plugin's line names plugin, subscriber, extension, expected and found; the others are listed",
          arguments: variants.map(\.variant))
    func list(_ variant: String) throws {
        let expected = try #require(Self.variants.first { $0.variant == variant }?.expected)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let arguments = ["list", "--manifest", try manifest(variant, in: directory), "--plugin-dir", AppHostProcess.buildDirectory]
        let run = try AppHostProcess.run(arguments)
        #expect(run.signal == nil && run.status == 1, "stderr: \(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.contains("3 plugins: 2 loaded, 1 failed"))
        #expect(run.stdout.contains("✓ plugins[0]  library \"Greeter\"") && run.stdout.contains("✓ plugins[2]  library \"QuietHours\""))
        #expect(run.stdout.contains(#"✗ plugins[1]  library "BadExtensionVTable""#))
        #expect(run.stdout.contains(#"check 9 failed: plugin "\#(badPath)": subscriber BadExtensionVTable: get_extension("adh.scene/1"): expected \#(expected), found "#),
                "\(run.stdout)")

        let json = try AppHostProcess.run(arguments + ["--json"])
        #expect(json.signal == nil && json.status == 1, "stderr: \(json.stderr)")
        let plugins = try #require(try json.stdout.parsedJSON()["plugins"]?.arrayValue)
        #expect(plugins.map { $0["status"] } == ["loaded", "failed", "loaded"])
        #expect(plugins[1]["error"]?["check"] == 9)
        #expect(plugins[1]["error"]?["message"]?.stringValue?.contains(#"get_extension("adh.scene/1"): expected \#(expected)"#) == true)
    }

    @Test("run: exit 2 before the first event, one line on stderr", arguments: variants.map(\.variant))
    func run(_ variant: String) throws {
        let expected = try #require(Self.variants.first { $0.variant == variant }?.expected)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try manifest(variant, in: directory)
        let run = try AppHostProcess.run(["--manifest", manifest, "--plugin-dir", AppHostProcess.buildDirectory])
        #expect(run.signal == nil && run.status == 2, "stderr: \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix(#"apphost: \#(manifest): plugins[1]: plugin "\#(badPath)": subscriber BadExtensionVTable: get_extension("adh.scene/1"): expected \#(expected), found "#),
                "\(run.stderr)")
    }

    @Test("run: optional, it is skipped with the same line and the others play the events")
    func optionalRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try AppHostProcess.run(["--manifest", try manifest("misaligned", in: directory, optional: true),
                                          "--plugin-dir", AppHostProcess.buildDirectory])
        #expect(run.signal == nil && run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains(#"subscriber BadExtensionVTable: get_extension("adh.scene/1"): expected a struct at an address aligned to 8 bytes"#),
                "\(run.stdout)")
        #expect(run.stdout.contains("Greeter") && run.stdout.contains("QuietHours"))
    }
}
