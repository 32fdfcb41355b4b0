import Foundation
import Testing
import SubscriberHost
@testable import AppHostCLI

/// Error lines cut long values: a value quoted from outside keeps at most 200 characters and says
/// how long it was, however many times the line names it (one helper, ``ErrorLine``).
@Suite("apphost: long values in error lines are cut")
struct CLILongValueTests {
    static let longName = String(repeating: "A", count: 1_500)
    static let cutNote = "… (1,500 bytes)"

    func manifest(in directory: TemporaryDirectory, optional: Bool) throws -> String {
        try directory.write("m.json", """
            {"app": {"name": "Long", "bundleIdentifier": "dev.example.long", "version": "1"},
             "plugins": [{"library": "\(Self.longName)", "optional": \(optional)}]}
            """)
    }

    @Test("a 1.5 KB library name that is not found: one line, the name cut each time it appears, exit 2")
    func libraryNotFound() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let run = try AppHostProcess.run(["--manifest", try manifest(in: directory, optional: false)])
        #expect(run.status == 2)
        let line = try #require(run.stderrLines.first)
        #expect(run.stderrLines.count == 1)
        #expect(!line.contains(Self.longName), "the whole name is echoed")
        // The library name, then its file name libAAA….so, each cut with its own length.
        #expect(line.contains(Self.cutNote) && line.contains("… (1,506 bytes)"), "\(line.prefix(300))")
        #expect(line.count < 1_000)
        // The one folder searched is apphost's: the build folder, under .build or wherever --scratch-path put it.
        // (swift build, with --scratch-path when the suite was built with one.)
        #expect(line.contains("found it in none (build the plugins first: swift build") && line.hasSuffix(")"), "\(line.suffix(200))")
    }

    @Test("the same name on an optional plugin: the skipped line of the header, --json's stderr line and list's row are cut too")
    func skippedAndListed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let optional = try manifest(in: directory, optional: true)
        for arguments in [["--manifest", optional, "--events", "/dev/null"], ["--manifest", optional, "--events", "/dev/null", "--json"],
                          ["list", "--manifest", try manifest(in: directory, optional: false)]] {
            let run = try AppHostProcess.run(arguments)
            let lines = (run.stdoutLines + run.stderrLines).filter { $0.contains("AAAA") }
            #expect(!lines.isEmpty, "\(arguments)")
            for line in lines {
                #expect(!line.contains(Self.longName) && line.count < 1_000, "\(arguments): \(line.count) characters")
            }
        }
    }

    @Test("command-line values: an unknown option or a bad number is quoted cut")
    func commandLineValues() throws {
        for arguments in [["--manifest", "m.json", "--deadline", Self.longName], ["--" + Self.longName],
                          ["list", "--manifest", "m.json", Self.longName]] {
            let run = try AppHostProcess.run(arguments)
            #expect(run.status == 2)
            let line = try #require(run.stderrLines.first)
            #expect(!line.contains(Self.longName) && line.contains("bytes)"), "\(line.prefix(120))")
        }
    }

    @Test("ErrorLine.cut cuts every value and path a load error carries")
    func cutLoadErrors() {
        let long = Self.longName
        let errors: [PluginLoadError] = [
            .libraryNotFound(library: long, fileName: "lib\(long).so", searched: [long]),
            .malformedDescriptor(path: long, field: long, expected: long, found: long),
            .unknownSubscriber(path: "/p", name: long, declared: Array(repeating: long, count: 30)),
            .createFailed(path: "/p", name: long, reason: long),
            .duplicateSubscriber(path: "/p", name: long, provider: long),
            .swiftVersionMismatch(path: "/p", host: "6.3", plugin: long),
        ]
        for error in errors {
            let line = ErrorLine.cut(error).description
            #expect(!line.contains(long))
            #expect(line.count < 7_000, "\(line.count)")
        }
        #expect(ErrorLine.value(long) == String(repeating: "A", count: 200) + Self.cutNote)
    }
}
