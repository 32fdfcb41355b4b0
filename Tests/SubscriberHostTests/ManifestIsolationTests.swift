import SubscriberKit
import Testing
@testable import SubscriberHost

/// A manifest with `top` (members, or empty) at the top level and `entries` as its plugins.
private func manifest(_ top: String = "", _ entries: String...) -> String {
    let plugins = #""plugins": [\#(entries.joined(separator: ", "))]"#
    return withApp(top.isEmpty ? plugins : "\(top), \(plugins)")
}

/// The isolation of each entry of `text`.
private func isolations(_ text: String) throws -> [PluginIsolation] { try parseManifest(text).plugins.map(\.isolation) }

@Suite("Manifest: isolation, isolationGroup, callBudget, restart and limits")
struct ManifestIsolationTests {
    @Test("without any key, every entry is in process with the defaults: 2000 ms, 3 restarts in 300 s, no limits")
    func defaults() throws {
        let isolation = try #require(try isolations(manifest("", #"{"library": "A"}"#)).first)
        #expect(isolation == PluginIsolation())
        #expect(isolation.mode == .inProcess && isolation.group == nil)
        #expect(isolation.callBudgetMilliseconds == 2000)
        #expect(isolation.restart == .init(max: 3, withinSeconds: 300))
        #expect(isolation.limits == .init(memoryMiB: nil, cpuSeconds: nil, openFiles: nil))
    }

    @Test("every key on an entry reads into the entry's isolation")
    func everyKeyOnAnEntry() throws {
        let isolation = try isolations(manifest("", #"""
            {"library": "A", "isolation": "process", "isolationGroup": "acme", "callBudget": 500,
             "restart": {"max": 5, "withinSeconds": 60}, "limits": {"memoryMiB": 512, "cpuSeconds": 30, "openFiles": 64}}
            """#, #"{"library": "B", "isolation": "inProcess"}"#))
        #expect(isolation[0] == PluginIsolation(mode: .process, group: "acme", callBudgetMilliseconds: 500,
                                                restart: .init(max: 5, withinSeconds: 60),
                                                limits: .init(memoryMiB: 512, cpuSeconds: 30, openFiles: 64)))
        #expect(isolation[1] == PluginIsolation())
    }

    @Test("the top level's keys are every entry's default; an entry's own key wins, key by key")
    func topLevelDefaults() throws {
        let isolation = try isolations(manifest(#"""
            "isolation": "process", "isolationGroup": "all", "callBudget": 800,
            "restart": {"max": 1, "withinSeconds": 10}, "limits": {"openFiles": 128}
            """#,
            #"{"library": "A"}"#,
            #"{"library": "B", "isolationGroup": "b", "callBudget": 100}"#,
            #"{"library": "C", "isolation": "inProcess"}"#,
            #"{"library": "D", "isolationGroup": null}"#))
        let shared = PluginIsolation(mode: .process, group: "all", callBudgetMilliseconds: 800,
                                     restart: .init(max: 1, withinSeconds: 10), limits: .init(openFiles: 128))
        #expect(isolation[0] == shared)
        var b = shared
        b.group = "b"
        b.callBudgetMilliseconds = 100
        #expect(isolation[1] == b)
        // In process: no group; the budget and limits it inherits are never used.
        #expect(isolation[2].mode == .inProcess && isolation[2].group == nil)
        // null: a child of its own, whatever the top level's group.
        var d = shared
        d.group = nil
        #expect(isolation[3] == d)
    }

    @Test("restart and limits merge field by field: an entry's field wins, the others come from the top level")
    func perFieldMerge() throws {
        let isolation = try isolations(manifest(#""isolation": "process", "restart": {"max": 7}, "limits": {"memoryMiB": 256, "openFiles": 32}"#,
                                                #"{"library": "A", "restart": {"withinSeconds": 20}, "limits": {"memoryMiB": 1024, "cpuSeconds": 5}}"#,
                                                #"{"library": "B", "restart": {}, "limits": {}}"#))
        #expect(isolation[0].restart == .init(max: 7, withinSeconds: 20))
        #expect(isolation[0].limits == .init(memoryMiB: 1024, cpuSeconds: 5, openFiles: 32))
        #expect(isolation[1].restart == .init(max: 7, withinSeconds: 300))
        #expect(isolation[1].limits == .init(memoryMiB: 256, openFiles: 32))
    }

    @Test("the ends of each range are accepted")
    func rangeEnds() throws {
        let low = try isolations(manifest("", #"""
            {"library": "A", "isolation": "process", "isolationGroup": "g", "callBudget": 1, "restart": {"max": 0, "withinSeconds": 1},
             "limits": {"memoryMiB": 16, "cpuSeconds": 1, "openFiles": 16}}
            """#))[0]
        #expect(low.callBudgetMilliseconds == 1 && low.restart == .init(max: 0, withinSeconds: 1))
        #expect(low.limits == .init(memoryMiB: 16, cpuSeconds: 1, openFiles: 16))
        let long = String(repeating: "g", count: IsolationKeys.maximumGroupLength)
        let high = try isolations(manifest("", #"""
            {"library": "A", "isolation": "process", "isolationGroup": "\#(long)", "callBudget": 600000,
             "restart": {"max": 100, "withinSeconds": 86400}, "limits": {"memoryMiB": 1048576, "cpuSeconds": 86400, "openFiles": 1048576}}
            """#))[0]
        #expect(high.group == long && high.callBudgetMilliseconds == 600_000 && high.restart == .init(max: 100, withinSeconds: 86_400))
        #expect(high.limits == .init(memoryMiB: 1_048_576, cpuSeconds: 86_400, openFiles: 1_048_576))
    }

    @Test("plugins of one group that agree load; a manifest built in code is checked the same way")
    func groupsThatAgree() throws {
        let read = try parseManifest(manifest(#""isolation": "process", "limits": {"memoryMiB": 256}"#,
                                              #"{"library": "A", "isolationGroup": "g"}"#,
                                              #"{"library": "B", "isolationGroup": "g", "limits": {"memoryMiB": 256}}"#,
                                              #"{"library": "C", "isolationGroup": "h", "callBudget": 5}"#))
        try read.checkIsolationGroups()
        var built = Manifest(file: "code", directory: "/apps", app: Application(name: "N", bundleIdentifier: "n", version: "1"),
                             plugins: [ManifestPlugin(index: 0, source: .library("A")), ManifestPlugin(index: 1, source: .library("B"))])
        built.plugins[0].isolation = PluginIsolation(mode: .process, group: "g")
        built.plugins[1].isolation = PluginIsolation(mode: .process, group: "g", callBudgetMilliseconds: 10)
        #expect(throws: ManifestError(file: "code", location: "plugins[1].callBudget",
                                      expected: #"the callBudget of group "g" (plugins[0]: 2000; a group is one child)"#, found: "10")) {
            try built.checkIsolationGroups()
        }
        // In process, a group means nothing and is not compared.
        built.plugins[1].isolation.mode = .inProcess
        try built.checkIsolationGroups()
    }

    /// Where to write a bad value: on an entry, and at the top level.
    private static func both(_ member: String, _ key: String, _ rest: String) -> [BadManifest] {
        // The entry is in a child (but for its own bad isolation), so that every other key may stand on it.
        let entry = key == "isolation" ? #"{"library": "A", \#(member)}"# : #"{"library": "A", "isolation": "process", \#(member)}"#
        return [BadManifest(manifest("", entry), "m.json: plugins[0].\(key): \(rest)"),
         BadManifest(manifest(member, #"{"library": "A"}"#), "m.json: \(key): \(rest)")]
    }

    static let groupName = #"a group name (1 to 64 bytes) or null (a child of its own)"#

    static let badValues: [BadManifest] =
        both(#""isolation": "child""#, "isolation", #"expected "inProcess" or "process", found the string "child""#)
        + both(#""isolation": true"#, "isolation", #"expected "inProcess" or "process", found true"#)
        + both(#""isolationGroup": """#, "isolationGroup", "expected \(groupName), found an empty string")
        + both(#""isolationGroup": 7"#, "isolationGroup", "expected \(groupName), found the number 7")
        + both(#""isolationGroup": "\#(String(repeating: "x", count: 65))""#, "isolationGroup",
               "expected \(groupName), found \"\(String(repeating: "x", count: 65))\" (65 bytes)")
        + both(#""isolationGroup": "a\u001bb""#, "isolationGroup", #"expected a group name without control characters, found "a\u001bb""#)
        + both(#""callBudget": 0"#, "callBudget", "expected a whole number of milliseconds from 1 to 600000, found the number 0")
        + both(#""callBudget": 600001"#, "callBudget", "expected a whole number of milliseconds from 1 to 600000, found the number 600001")
        + both(#""callBudget": 2.5"#, "callBudget", "expected a whole number of milliseconds from 1 to 600000, found the number 2.5")
        + both(#""callBudget": "2000""#, "callBudget", #"expected a whole number of milliseconds from 1 to 600000, found the string "2000""#)
        + both(#""restart": 3"#, "restart", "expected an object, found the number 3")
        + both(#""restart": {"max": -1}"#, "restart.max", "expected a whole number of restarts from 0 to 100, found the number -1")
        + both(#""restart": {"max": 101}"#, "restart.max", "expected a whole number of restarts from 0 to 100, found the number 101")
        + both(#""restart": {"withinSeconds": 0}"#, "restart.withinSeconds",
               "expected a whole number of seconds from 1 to 86400, found the number 0")
        + both(#""restart": {"withinSeconds": null}"#, "restart.withinSeconds",
               "expected a whole number of seconds from 1 to 86400, found null")
        + both(#""restart": {"max": 1, "within": 5}"#, "restart.within",
               "expected one of the known keys (max, withinSeconds), found an unknown key")
        + both(#""limits": []"#, "limits", "expected an object, found an array")
        + both(#""limits": {"memoryMiB": 15}"#, "limits.memoryMiB", "expected a whole number of MiB from 16 to 1048576, found the number 15")
        + both(#""limits": {"memoryMiB": 1048577}"#, "limits.memoryMiB",
               "expected a whole number of MiB from 16 to 1048576, found the number 1048577")
        + both(#""limits": {"cpuSeconds": 0}"#, "limits.cpuSeconds", "expected a whole number of seconds from 1 to 86400, found the number 0")
        + both(#""limits": {"cpuSeconds": 86401}"#, "limits.cpuSeconds",
               "expected a whole number of seconds from 1 to 86400, found the number 86401")
        + both(#""limits": {"openFiles": 8}"#, "limits.openFiles", "expected a whole number of files from 16 to 1048576, found the number 8")
        + both(#""limits": {"openFiles": false}"#, "limits.openFiles", "expected a whole number of files from 16 to 1048576, found false")
        + both(#""limits": {"memory": 64}"#, "limits.memory",
               "expected one of the known keys (cpuSeconds, memoryMiB, openFiles), found an unknown key")

    @Test("a bad value is one line naming the file, the key path, what was expected and what was found", arguments: badValues)
    func badValue(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }

    static let inProcessWithChildKeys: [BadManifest] = [
        BadManifest(manifest("", #"{"library": "A", "isolationGroup": "g"}"#),
                    #"m.json: plugins[0].isolationGroup: expected "isolation": "process" on this entry or at the top level (isolationGroup applies to a plugin in a child process), found a plugin hosted in process"#),
        BadManifest(manifest(#""isolation": "process""#, #"{"library": "A"}"#, #"{"library": "B", "isolation": "inProcess", "callBudget": 10}"#),
                    #"m.json: plugins[1].callBudget: expected "isolation": "process" on this entry or at the top level (callBudget applies to a plugin in a child process), found a plugin hosted in process"#),
        BadManifest(manifest("", #"{"library": "A", "restart": {"max": 1}}"#),
                    #"m.json: plugins[0].restart: expected "isolation": "process" on this entry or at the top level (restart applies to a plugin in a child process), found a plugin hosted in process"#),
        BadManifest(manifest("", #"{"library": "A", "isolation": "inProcess", "limits": {}}"#),
                    #"m.json: plugins[0].limits: expected "isolation": "process" on this entry or at the top level (limits applies to a plugin in a child process), found a plugin hosted in process"#),
    ]

    @Test("an entry hosted in process that writes a key only a child uses is refused (it would mean nothing)",
          arguments: inProcessWithChildKeys)
    func childKeysInProcess(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }

    static let groupsThatDisagree: [BadManifest] = [
        BadManifest(manifest(#""isolation": "process", "isolationGroup": "all""#,
                             #"{"library": "A"}"#, #"{"library": "B"}"#, #"{"library": "C", "callBudget": 100}"#),
                    #"m.json: plugins[2].callBudget: expected the callBudget of group "all" (plugins[0]: 2000; a group is one child), found 100"#),
        BadManifest(manifest(#""isolation": "process""#,
                             #"{"library": "A", "isolationGroup": "g", "restart": {"max": 1}}"#, #"{"library": "B", "isolationGroup": "g"}"#),
                    #"m.json: plugins[1].restart: expected the restart of group "g" (plugins[0]: {"max": 1, "withinSeconds": 300}; a group is one child), found {"max": 3, "withinSeconds": 300}"#),
        BadManifest(manifest(#""isolation": "process", "limits": {"openFiles": 64}"#,
                             #"{"library": "A", "isolationGroup": "g"}"#, #"{"library": "B", "isolationGroup": "h"}"#,
                             #"{"library": "C", "isolationGroup": "g", "limits": {"memoryMiB": 128}}"#),
                    #"m.json: plugins[2].limits: expected the limits of group "g" (plugins[0]: {"openFiles": 64}; a group is one child), found {"memoryMiB": 128, "openFiles": 64}"#),
    ]

    @Test("plugins of one group (one child) that disagree on callBudget, restart or limits are refused at the later entry",
          arguments: groupsThatDisagree)
    func groupDisagreement(bad: BadManifest) { #expect(manifestError(bad.text) == bad.error) }

    @Test("PluginHost(manifest:) keeps each entry's isolation")
    @MainActor
    func hostCarriesIt() throws {
        let (host, _) = try loadHost(manifest: manifest(#""callBudget": 750, "limits": {"openFiles": 64}"#,
                                                        #"{"library": "DeepLinkRouter", "isolation": "inProcess"}"#))
        defer { _ = host.shutDown() }
        #expect(host.manifest.plugins[0].isolation
                == PluginIsolation(mode: .inProcess, callBudgetMilliseconds: 750, limits: .init(openFiles: 64)))
        #expect(host.plugins.plugins.first?.entry.isolation == host.manifest.plugins[0].isolation)
    }
}
