import Foundation
import Testing
import SubscriberHost
import SubscriberKit
@testable import AppHostCLI

/// A plugin summary of entry `index`, hosted as `isolation` says.
private func plugin(_ index: Int, _ name: String, swift: Bool = true, _ isolation: PluginIsolation = PluginIsolation()) -> PluginSummary {
    var summary = PluginSummary(index: index, source: "library \"\(name)\"", name: name, id: "dev.x.\(index)", version: "1.0",
                                abi: "1.1", swiftVersion: swift ? "6.3" : "", path: "/p/lib\(name).so", subscribers: [name])
    summary.isolation = isolation
    return summary
}

private let app = Application(name: "News", bundleIdentifier: "com.example.news", version: "1.0")

@Suite("apphost's header says how each plugin is hosted")
struct IsolationHeaderTests {
    @Test("each plugin's line says in process, process, or process and its group; the columns still line up")
    func humanHeader() {
        let summary = HostSummary(manifestFile: "m.json", app: app, plugins: [
            plugin(0, "Router"),
            plugin(1, "Analytics", swift: false, PluginIsolation(mode: .process, group: "acme")),
            plugin(2, "Fetcher", PluginIsolation(mode: .process)),
        ], dispatchOrder: ["Router", "Analytics", "Fetcher"])
        let renderer = HumanRenderer(style: .plain, subscriberNames: summary.dispatchOrder)
        #expect(renderer.header(summary) == """
            News 1.0 (com.example.news) · m.json
              plugins[0]  Router 1.0     Swift 6.3 · ABI 1.1 · in process    Router
              plugins[1]  Analytics 1.0  C · ABI 1.1 · process · group acme  Analytics
              plugins[2]  Fetcher 1.0    Swift 6.3 · ABI 1.1 · process       Fetcher
              order: Router → Analytics → Fetcher


            """)
    }

    @Test("a plugin in a child, whose descriptor the host never read: its file's name and how it is hosted")
    func isolatedWithoutDescriptor() {
        var isolated = PluginSummary(index: 1, source: "library \"Analytics\"", name: "libAnalytics.so", id: "", version: "",
                                     abi: "", swiftVersion: "", path: "/p/libAnalytics.so", subscribers: ["Analytics"])
        isolated.isolation = PluginIsolation(mode: .process, group: "acme")
        let summary = HostSummary(manifestFile: "m.json", app: app, plugins: [plugin(0, "Router"), isolated],
                                  dispatchOrder: ["Router", "Analytics"])
        #expect(HumanRenderer(style: .plain, subscriberNames: summary.dispatchOrder).header(summary) == """
            News 1.0 (com.example.news) · m.json
              plugins[0]  Router 1.0       Swift 6.3 · ABI 1.1 · in process  Router
              plugins[1]  libAnalytics.so  process · group acme              Analytics
              order: Router → Analytics


            """)
        let json = try? #require(summary.isolationHeaderJSON).parsedJSON()
        #expect(json?["plugins"]?.arrayValue?.last?["version"] == .null)
    }

    @Test("a group's name is escaped like every text from outside")
    func escapedGroup() {
        #expect(PluginIsolation(mode: .process, group: "a\u{1B}[2Jb").headerText == #"process · group a\e[2Jb"#)
    }

    @Test("--json: a header line only when a plugin runs in a child, every plugin with its isolation and group")
    func jsonHeader() throws {
        let inProcess = HostSummary(manifestFile: "m.json", app: app, plugins: [plugin(0, "Router")], dispatchOrder: ["Router"])
        #expect(inProcess.isolationHeaderJSON == nil)
        let isolated = HostSummary(manifestFile: "m.json", app: app, plugins: [
            plugin(0, "Router"), plugin(3, "Analytics", PluginIsolation(mode: .process, group: "acme")),
            plugin(4, "Fetcher", PluginIsolation(mode: .process)),
        ], dispatchOrder: ["Router", "Analytics", "Fetcher"])
        let line = try #require(isolated.isolationHeaderJSON)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
        let json = try line.parsedJSON()
        #expect(json == ["plugins": [
            ["plugin": "plugins[0]", "name": "Router", "version": "1.0", "subscribers": ["Router"], "isolation": "inProcess", "group": nil],
            ["plugin": "plugins[3]", "name": "Analytics", "version": "1.0", "subscribers": ["Analytics"], "isolation": "process",
             "group": "acme"],
            ["plugin": "plugins[4]", "name": "Fetcher", "version": "1.0", "subscribers": ["Fetcher"], "isolation": "process", "group": nil],
        ]])
    }
}

@Suite("apphost: the header of a run with an isolated plugin", .serialized)
struct IsolationHeaderRunTests {
    @Test("the manifest's isolation reaches the header: human, and the first --json line")
    func run() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "News", "bundleIdentifier": "com.example.news"},
             "plugins": [{"library": "DeepLinkRouter"},
                         {"library": "SessionAnalytics", "isolation": "process", "isolationGroup": "analytics"}]}
            """)
        let script = try directory.write("s.jsonl", #"{"event": "didFinishLaunching"}"# + "\n")
        let arguments = ["--manifest", manifest, "--events", script, "--plugin-dir", AppHostProcess.buildDirectory]
        let human = try AppHostProcess.run(arguments)
        #expect(human.status == 0, "stderr: \(human.stderr)")
        let lines = human.stdoutLines
        #expect(lines.contains { $0.hasPrefix("  plugins[0]") && $0.contains(" · in process ") && $0.hasSuffix("DeepLinkRouter") })
        // In its child: the host never read its descriptor, so the line names its file.
        #expect(lines.contains {
            $0.hasPrefix("  plugins[1]  libSessionAnalytics.so  process · group analytics ") && $0.hasSuffix("SessionAnalytics")
        }, "\(lines)")

        let json = try AppHostProcess.run(arguments + ["--json"])
        #expect(json.status == 0, "stderr: \(json.stderr)")
        #expect(json.stdoutLines.count == 2)  // the header, then the one event
        let header = try #require(json.stdoutLines.first).parsedJSON()
        let plugins = try #require(header["plugins"]?.arrayValue)
        #expect(plugins.map { $0["isolation"] } == ["inProcess", "process"])
        #expect(plugins.map { $0["group"] } == [.null, "analytics"])
        #expect(plugins.map { $0["name"] } == ["Deep Link Router", "libSessionAnalytics.so"])
        #expect(plugins.map { $0["version"] } == ["1.0.0", .null])
        #expect(plugins.map { $0["subscribers"] } == [["DeepLinkRouter"], ["SessionAnalytics"]])
        #expect(try #require(json.stdoutLines.last).parsedJSON()["event"] == "didFinishLaunching")
    }
}
