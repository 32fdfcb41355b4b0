import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The README's "write your first plugin" examples are real files of this package, built by
/// `swift build` like every plugin. These tests keep the README's text and those files identical,
/// and load the built plugins to check they do what the README says.
@MainActor
@Suite("README: the plugin examples compile as written and work")
struct ReadmeExampleTests {
    static let root = FilePaths.directory(of: FilePaths.directory(of: FilePaths.directory(of: #filePath)))

    /// The fenced code block that follows `<!-- file: PATH -->` in README.md.
    static func readmeBlock(for path: String) throws -> String {
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        let marker = "<!-- file: \(path) -->"
        let after = try #require(readme.range(of: marker)).upperBound
        let fenceStart = try #require(readme.range(of: "```", range: after..<readme.endIndex))
        let codeStart = try #require(readme.range(of: "\n", range: fenceStart.upperBound..<readme.endIndex)).upperBound
        let codeEnd = try #require(readme.range(of: "\n```", range: codeStart..<readme.endIndex)).lowerBound
        return String(readme[codeStart..<codeEnd])
    }

    @Test(arguments: ["Plugins/Greeter/Greeter.swift", "Plugins/GreeterC/greeter.c"])
    func readmeShowsTheFileVerbatim(_ path: String) throws {
        let file = try String(contentsOfFile: Self.root + "/" + path, encoding: .utf8)
        #expect(try Self.readmeBlock(for: path) + "\n" == file)
    }

    @Test func theExamplesLoadAndGreet() throws {
        let directory = try TestDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("greeters.json", """
            {"app": {"name": "News", "bundleIdentifier": "com.example.news"},
             "plugins": [{"library": "Greeter"}, {"library": "GreeterC"}]}
            """)
        let host = try PluginHost(manifestAt: manifest,
                                  options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
        _ = host.dispatcher.didBecomeActive()
        #expect(host.log.recorded.map { "\($0.subscriber): \($0.message)" } == [
            "Greeter: Hello from News!", "GreeterC: Hello from C!",
        ])
        #expect(host.dispatcher.openURL(URL(string: "greeter://hi")!).result == true)
        #expect(host.dispatcher.responderNames(for: .openURL) == ["Greeter"])
    }
}
