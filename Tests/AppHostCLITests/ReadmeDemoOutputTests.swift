import Foundation
import Testing

/// The README's sample of what the demo prints is what the demo prints: the block after
/// `<!-- output: apphost ARGUMENTS -->` is the start of that command's output (its last line `…`),
/// times aside (they differ from run to run).
@Suite("README: the demo's sample output is the demo's output")
struct ReadmeDemoOutputTests {
    static let marker = "<!-- output: apphost "

    /// Every marked output sample of README.md: the arguments and the sample's lines.
    static func samples() throws -> [(arguments: [String], lines: [String])] {
        let text = try String(contentsOfFile: AppHostProcess.packageRoot + "/README.md", encoding: .utf8)
        var samples: [(arguments: [String], lines: [String])] = []
        var searchStart = text.startIndex
        while let marker = text.range(of: marker, range: searchStart..<text.endIndex) {
            let markerEnd = try #require(text.range(of: " -->", range: marker.upperBound..<text.endIndex))
            let arguments = text[marker.upperBound..<markerEnd.lowerBound].split(separator: " ").map(String.init)
            let fence = try #require(text.range(of: "```\n", range: markerEnd.upperBound..<text.endIndex))
            let between = text[markerEnd.upperBound..<fence.lowerBound]
            #expect(between.allSatisfy { $0.isWhitespace }, "the sample must follow its marker")
            let end = try #require(text.range(of: "\n```", range: fence.upperBound..<text.endIndex))
            samples.append((arguments, text[fence.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)))
            searchStart = end.upperBound
        }
        return samples
    }

    /// `line` with every duration (`0.21 ms`, `15.33 ms`) and the spaces before it made one placeholder.
    static func withoutTimes(_ line: String) -> String {
        line.replacingOccurrences(of: #" +[0-9]+\.[0-9]{2} ms"#, with: " <ms>", options: .regularExpression)
    }

    @Test("the demo's sample in the README is the start of what `apphost --manifest manifests/news.json` prints")
    func demoSample() throws {
        let samples = try Self.samples()
        #expect(samples.map(\.arguments) == [["--manifest", "manifests/news.json"]], "the README marks the demo's sample")
        for sample in samples {
            #expect(sample.lines.last == "…", "a sample of the first lines ends with …")
            let shown = sample.lines.dropLast()
            #expect(shown.count >= 10)
            let run = try AppHostProcess.run(sample.arguments)
            #expect(run.status == 0)
            let printed = run.stdoutLines.prefix(shown.count)
            #expect(printed.map(Self.withoutTimes) == shown.map(Self.withoutTimes),
                    "README.md shows other lines than the demo prints; the demo prints:\n\(run.stdoutLines.prefix(shown.count + 4).joined(separator: "\n"))")
        }
    }
}
