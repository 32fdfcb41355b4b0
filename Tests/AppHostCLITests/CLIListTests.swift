import Foundation
import Testing
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// `apphost list` run as a subprocess.
@Suite("CLI: list", .serialized)
struct CLIListTests {
    @Test("human list: every plugin with its subscribers, ABI, Swift version and path")
    func human() throws {
        let run = try AppHostProcess.run(["list", "--manifest", AppHostProcess.manifest("news.json")])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.contains("7 plugins: 7 loaded, 0 failed"))
        for name in ["AppLifecycleDelegate", "SessionAnalytics", "DeepLinkRouter", "NotificationFetcher",
                     "OrientationLock", "ExtensionGuard"] {
            #expect(run.stdout.contains("lib\(name).so"), "no path for \(name)")
            #expect(run.stdout.contains("      subscribers  \(name)"), "no subscribers row for \(name)")
        }
        #expect(run.stdout.contains("✓ plugins[2]  library \"DeepLinkRouter\"  priority 10"))
        let abi = "\(ABI.major).\(ABI.minor)"
        #expect(run.stdout.contains("      built for    ABI \(abi) · Swift \(SubscriberPlugin.swiftCompilerVersion)"))
        #expect(run.stdout.contains("      built for    ABI \(abi) · C"))
        #expect(run.stdout.components(separatedBy: "      loaded in    ").count == 8, "a load time per plugin")
        #expect(!run.stdout.contains("\u{1B}["))
    }

    @Test("list --json: one document with every entry's verdict")
    func json() throws {
        let run = try AppHostProcess.run(["list", "--json", "--manifest", AppHostProcess.manifest("expo-style.json")])
        #expect(run.status == 0, "stderr: \(run.stderr)")  // the only failure is optional
        let document = try run.stdout.parsedJSON()
        #expect(document["app"]?["name"] == "Expo Reproduction")
        #expect(document["ok"] == true && document["loaded"] == 3 && document["failed"] == 1)
        let plugins = try #require(document["plugins"]?.arrayValue)
        #expect(plugins.map { $0["status"] } == ["loaded", "loaded", "loaded", "failed"])
        #expect(plugins[0]["subscribers"] == ["NotificationFetcher"])
        #expect(plugins[0]["abi"] == .string("\(ABI.major).\(ABI.minor)") && plugins[0]["swiftVersion"] == .string(SubscriberPlugin.swiftCompilerVersion))
        #expect(plugins[0]["path"]?.stringValue?.hasSuffix("/libNotificationFetcher.so") == true)
        #expect(plugins[0]["loadMs"]?.doubleValue.map { $0 > 0 } == true)
        #expect(plugins[3]["source"] == ["library": "MissingAnalyticsPlugin"] && plugins[3]["optional"] == true)
        #expect(plugins[3]["error"]?["check"] == 1)
        #expect(plugins[3]["error"]?["message"]?.stringValue?.contains("expected libMissingAnalyticsPlugin.so") == true)
    }

    @Test("a failing required plugin is listed with its check, the entries after it too, and exit 1")
    func requiredFailureIsShownNotFatal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"library": "BrokenABIMajor"}, {"library": "BrokenNoEntry", "optional": true},
                         {"library": "SessionAnalytics"}, {"library": "SessionAnalytics"}]}
            """)
        let arguments = ["list", "--manifest", manifest, "--plugin-dir", AppHostProcess.buildDirectory]
        let run = try AppHostProcess.run(arguments)
        #expect(run.status == 1)
        #expect(run.stdout.contains("4 plugins: 1 loaded, 3 failed"))
        #expect(run.stdout.contains("check 6 failed: plugin \"") && run.stdout.contains("ABI mismatch: expected ABI \(ABI.major).x (the host's), found \(ABI.major + 1)."))
        #expect(run.stdout.contains("optional (a run skips it)") && run.stdout.contains("is not a subscriber plugin"))
        #expect(run.stdout.contains("✓ plugins[2]  library \"SessionAnalytics\""))
        #expect(run.stdout.contains("check 10 failed:"))  // the same subscriber twice

        let json = try AppHostProcess.run(arguments + ["--json"])
        #expect(json.status == 1)
        let document = try json.stdout.parsedJSON()
        #expect(document["ok"] == false)
        #expect(document["plugins"]?.arrayValue?.map { $0["error"]?["check"] ?? .null } == [6, 5, .null, 10])
    }

    @Test("a plugin built for ABI 1.0 is listed as 1.0 beside plugins of the current ABI, in text and JSON")
    func abiVersions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("m.json", """
            {"app": {"name": "A", "bundleIdentifier": "a"},
             "plugins": [{"library": "LegacyABI10"}, {"library": "QuietHours"}, {"library": "Greeter"}]}
            """)
        let arguments = ["list", "--manifest", manifest, "--plugin-dir", AppHostProcess.buildDirectory]
        let current = "\(ABI.major).\(ABI.minor)"
        let run = try AppHostProcess.run(arguments)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("3 plugins: 3 loaded, 0 failed"))
        // Each entry's "built for" row, in manifest order.
        let builtFor = run.stdoutLines.filter { $0.hasPrefix("      built for    ") }
        #expect(builtFor == [
            "      built for    ABI 1.0 · C",
            "      built for    ABI \(current) · C",
            "      built for    ABI \(current) · Swift \(SubscriberPlugin.swiftCompilerVersion)",
        ])

        let json = try AppHostProcess.run(arguments + ["--json"])
        #expect(json.status == 0, "stderr: \(json.stderr)")
        let plugins = try #require(try json.stdout.parsedJSON()["plugins"]?.arrayValue)
        #expect(plugins.map { $0["subscribers"] } == [["LegacyABI10"], ["QuietHours"], ["Greeter"]])
        #expect(plugins.map { $0["abi"] } == ["1.0", .string(current), .string(current)])
    }

    @Test("list with a bad manifest: exit 2, the key path on stderr")
    func badManifest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = try directory.write("bad.json", #"{"app": {"name": "A", "bundleIdentifier": "a"}, "plugins": [{"libary": "X"}]}"#)
        let run = try AppHostProcess.run(["list", "--manifest", manifest])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.hasPrefix("apphost: \(manifest): plugins[0]"))
    }
}
