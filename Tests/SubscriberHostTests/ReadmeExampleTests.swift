import Foundation
import SubscriberKit
import Testing
@testable import SubscriberHost

/// The README's and the docs' code samples that show a whole file are real files of this repository,
/// built by `swift build` (the plugins of Plugins/) or by `.ci/example-package` (Examples/). These
/// tests keep each sample and its file identical, keep the docs self-contained, and load the README's
/// plugins to check they do what the README says.
@MainActor
@Suite("README and docs: code samples are the files, and the examples work")
struct ReadmeExampleTests {
    static let root = FilePaths.directory(of: FilePaths.directory(of: FilePaths.directory(of: #filePath)))

    /// README.md and every Markdown page under docs/, as paths relative to the root.
    static func documentationPages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs")
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// Every `<!-- file: PATH -->` marker of `page` with the fenced code block that follows it.
    static func markedSamples(in page: String) throws -> [(path: String, code: String)] {
        let text = try String(contentsOfFile: root + "/" + page, encoding: .utf8)
        var samples: [(path: String, code: String)] = []
        var searchStart = text.startIndex
        while let marker = text.range(of: "<!-- file: ", range: searchStart..<text.endIndex) {
            let markerEnd = try #require(text.range(of: " -->", range: marker.upperBound..<text.endIndex))
            let path = String(text[marker.upperBound..<markerEnd.lowerBound])
            let fenceStart = try #require(text.range(of: "```", range: markerEnd.upperBound..<text.endIndex))
            // The block must follow its marker directly: nothing but whitespace in between.
            let between = text[markerEnd.upperBound..<fenceStart.lowerBound]
            #expect(between.allSatisfy { $0.isWhitespace }, "\(page): the code block of \(path) does not follow its marker")
            let codeStart = try #require(text.range(of: "\n", range: fenceStart.upperBound..<text.endIndex)).upperBound
            let codeEnd = try #require(text.range(of: "\n```", range: codeStart..<text.endIndex)).lowerBound
            samples.append((path, String(text[codeStart..<codeEnd])))
            searchStart = codeEnd
        }
        return samples
    }

    /// The files that must be shown whole somewhere: the README's first plugins and the docs' examples.
    static let requiredSamples: Set<String> = [
        "Plugins/Greeter/Greeter.swift", "Plugins/GreeterC/greeter.c",
        "Examples/ThirdPartyPlugin/Package.swift",
        "Examples/ThirdPartyPlugin/manifest.json",
        "Examples/ThirdPartyPlugin/Sources/AcmeWelcome/AcmeWelcome.swift",
        "Examples/Embedding/EmbeddedNewsApp.swift",
        "Examples/ThirdPartyPlugin/Sources/AcmeNewsApp/AcmeNewsApp.swift",
        "Examples/ThirdPartyPlugin/Tests/AcmeWelcomeTests/AcmeWelcomeConformanceTests.swift",
        "Examples/CPlugin/acme_fetch.c", "Examples/CPlugin/manifest.json",
        "Plugins/QuietHours/QuietHours.c",
        "Plugins/SceneGreeter/SceneGreeter.swift", "Plugins/SceneGreeterC/scene_greeter.c",
        "Plugins/LinkRewriterC/link_rewriter.c",
    ]

    @Test func everyMarkedSampleIsItsFileVerbatim() throws {
        var shown: Set<String> = []
        for page in try Self.documentationPages() {
            for sample in try Self.markedSamples(in: page) {
                let file = try String(contentsOfFile: Self.root + "/" + sample.path, encoding: .utf8)
                #expect(sample.code + "\n" == file, "\(page) shows \(sample.path) differently from the file")
                shown.insert(sample.path)
            }
        }
        #expect(Self.requiredSamples.subtracting(shown).isEmpty,
                "not shown whole anywhere: \(Self.requiredSamples.subtracting(shown).sorted())")
    }

    /// `Examples/ThirdPartyPlugin/Package.swift` as an author writes it in a package of their own: the
    /// example reads AppDelegateHost's package identity from where the clone sits (it depends on it as
    /// `../..`); a plain package names it, `"AppDelegateHost"`, at `../AppDelegateHost`.
    static func plainPackage(_ example: String) throws -> String {
        var lines = example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeAll { $0 == "import Foundation" }
        let start = try #require(lines.firstIndex { $0.hasPrefix("/// AppDelegateHost, by path") })
        let end = try #require(lines.firstIndex { $0.contains(".standardized.lastPathComponent") })
        lines.removeSubrange(start...(end + 1))  // the identity's lines and the blank line after them
        return lines.joined(separator: "\n")
            .replacingOccurrences(of: ".package(path: appDelegateHostPath)", with: #".package(path: "../AppDelegateHost")"#)
            .replacingOccurrences(of: "package: appDelegateHost)", with: #"package: "AppDelegateHost")"#)
    }

    /// The plain `Package.swift` of "A plugin package of your own" is the example's, identity aside.
    @Test func thePlainPackageIsTheExamplesWithItsIdentityWrittenOut() throws {
        let marker = "<!-- plain: Examples/ThirdPartyPlugin/Package.swift -->"
        let text = try String(contentsOfFile: Self.root + "/docs/plugin-package.md", encoding: .utf8)
        let markerRange = try #require(text.range(of: marker), "docs/plugin-package.md: no plain Package.swift")
        let codeStart = try #require(text.range(of: "```swift\n", range: markerRange.upperBound..<text.endIndex))
        #expect(text[markerRange.upperBound..<codeStart.lowerBound].allSatisfy { $0.isWhitespace })
        let codeEnd = try #require(text.range(of: "\n```", range: codeStart.upperBound..<text.endIndex))
        let shown = String(text[codeStart.upperBound..<codeEnd.lowerBound]) + "\n"
        let example = try String(contentsOfFile: Self.root + "/Examples/ThirdPartyPlugin/Package.swift", encoding: .utf8)
        let plain = try Self.plainPackage(example)
        #expect(shown == plain, "docs/plugin-package.md's plain Package.swift differs from the example's; expected:\n\(plain)")
        #expect(!plain.contains("appDelegateHost") && !plain.contains("Context."), "only the identity differs")
    }

    /// The docs are the whole story: no page sends readers to a document outside the repository.
    @Test func theDocsNeverNameAnOutsideContract() throws {
        for page in try Self.documentationPages() {
            let text = try String(contentsOfFile: Self.root + "/" + page, encoding: .utf8)
            #expect(text.range(of: "spec", options: .caseInsensitive) == nil, "\(page) mentions \"spec\"")
        }
    }

    /// Every relative link of the docs (`](path)` or `](path#anchor)`) points at a file or folder.
    @Test func relativeLinksResolve() throws {
        for page in try Self.documentationPages() {
            let text = try String(contentsOfFile: Self.root + "/" + page, encoding: .utf8)
            let folder = FilePaths.directory(of: Self.root + "/" + page)
            var searchStart = text.startIndex
            while let open = text.range(of: "](", range: searchStart..<text.endIndex) {
                let close = try #require(text.range(of: ")", range: open.upperBound..<text.endIndex))
                searchStart = close.upperBound
                let target = String(text[open.upperBound..<close.lowerBound])
                guard !target.contains("://"), let path = target.split(separator: "#", omittingEmptySubsequences: false).first,
                      !path.isEmpty else { continue }
                #expect(FileManager.default.fileExists(atPath: folder + "/" + path), "\(page): broken link \(target)")
            }
        }
    }

    @Test func theExamplesLoadAndGreet() throws {
        let host = try PluginHost(manifestAt: Self.root + "/manifests/greeters.json",
                                  options: HostOptions(extraSearchDirectories: [BuiltPlugins.directory]))
        host.dispatcher.dispatchAtOnce(.didFinishLaunching())
        host.dispatcher.dispatchAtOnce(.didBecomeActive)
        #expect(host.log.recorded.map { "\($0.subscriber): \($0.message)" } == [
            "Greeter: Hello from Greeters!", "GreeterC: Hello from C!",
        ])
        #expect(host.dispatcher.dispatchAtOnce(.openURL(url: URL(string: "greeter://hi")!)).result == true)
        #expect(host.dispatcher.responderNames(for: .openURL) == ["Greeter"])
    }
}
