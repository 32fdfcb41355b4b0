import Foundation
import Testing
import SubscriberConformance

/// A plugin that closes every descriptor from 3 to 4095 while it loads (ClosesDescriptors): the kit's
/// channel is kept out of such a sweep's reach, the kit notices the sweep through descriptors it holds
/// where every sweep starts, and the same check fails the same way on every run.
@Suite("A plugin that closes the kit's descriptors")
struct ClosedDescriptorsTests {
    @Test("the same verdict on every run with one seed: load.rtld-now fails naming the sweep; the channel survives")
    func sameVerdictEveryRun() async throws {
        var seen: [[String]] = []
        var evidence: Set<String> = []
        for _ in 1...3 {
            let report = await ConformanceKit.run(plugins: [Built.plugin("ClosesDescriptors")], options: kitOptions())
            #expect(report.problem == nil, "\(report.problem ?? "")")
            let plugin = try #require(report.plugins.first)
            seen.append(plugin.failures.map(\.id))
            let found = try #require(plugin.result("load.rtld-now")?.verdict.evidence.found)
            evidence.insert(found)
            #expect(found.contains("closed descriptors it did not open during loading "), "\(found)")
            #expect(found.contains("fds 3 and 4 (a pipe the kit holds"), "\(found)")
            #expect(found.contains("the kit's private channel, kept at a high number, survived"), "\(found)")
            #expect(plugin.count(.skip) == ConformanceKit.checks.count - 1, "\(ConformanceKit.table(report))")
        }
        #expect(seen == Array(repeating: ["load.rtld-now"], count: 3))
        #expect(evidence.count == 1, "\(evidence)")
    }

    @Test("with a descriptor limit the sweep covers, the channel is lost: named, with the step, never 'exited with status 0'")
    func channelWithinTheSweep() throws {
        // A hard limit of 1,000 leaves the channel no number above 4095: the sweep closes it too.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"ulimit -n 1000 && exec "$0" "$@""#, Built.apphost, "check",
                             Built.plugin("ClosesDescriptors"), "--only", "load.rtld-now", "--seed", "7"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text)")
        #expect(text.contains("FAIL  load.rtld-now"), "\(text)")
        #expect(text.contains("closed the kit's private channel during loading "), "\(text)")
        #expect(text.contains("the kit's private channel (fd "), "\(text)")
        #expect(!text.contains("exited with status 0"), "\(text)")
    }
}
