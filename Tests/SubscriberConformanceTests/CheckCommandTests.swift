import Foundation
import Testing
import SubscriberConformance
import SubscriberKit
import SubscriberEventModel
@testable import AppHostCLI

/// `apphost check` end to end: the real executable, its output and exit codes.
@Suite("apphost check")
struct CheckCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    func apphost(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Built.apphost)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                   errors: String(decoding: err, as: UTF8.self))
    }

    @Test("a passing plugin: exit 0, JSON on stdout, JUnit written")
    func passing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("report.xml").path
        let run = try apphost(["check", Built.plugin("ExtensionGuard"), "--json", "--junit", junit, "--seed", "7"])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let json = try JSONValue(parsing: run.output)
        #expect(json["seed"] == .string("7"))
        #expect(json["plugins"]?.arrayValue?.first?["checks"]?.arrayValue?.count == ConformanceKit.checks.count)
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"apphost check\" "
                              + "tests=\"\(ConformanceKit.checks.count)\" failures=\"0\""))
    }

    @Test("a Swift plugin: the table names the events it implements (Greeter: 2), and every check passes")
    func greeterImplementsTwoEvents() throws {
        let run = try apphost(["check", Built.plugin("Greeter"), "--seed", "7"])
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        let calls = LifecycleEvent.didBecomeActive.row.canonicalCalls.count + LifecycleEvent.openURL.row.canonicalCalls.count
        #expect(run.output.contains("Greeter: \(calls) calls over 2 responding events (didBecomeActive, openURL) returned"),
                "\(run.output)")
        #expect(run.output.contains("PASS  events.shaped-methods"), "\(run.output)")
    }

    @Test("event-shaped methods the SDK never calls: exit 1, the table names each and the signature expected")
    func nearMissMethods() throws {
        let run = try apphost(["check", Built.plugin("NearMissSubscriber"), "--only", "events.shaped-methods"])
        #expect(run.status == 1, "\(run.output)\(run.errors)")
        #expect(run.output.contains("FAIL  events.shaped-methods"), "\(run.output)")
        #expect(run.output.contains("NearMissSubscriber.application(_:open:options:) -> Bool is never called: openURL is "
                                    + "delivered to func application(_ application: Application, open url: URL, "
                                    + "options: OpenURLOptions) -> Bool? of OpenURLSubscriber"), "\(run.output)")
    }

    @Test("a failing check: exit 1 and the table names it")
    func failing() throws {
        let run = try apphost(["check", Built.plugin("UnknownNameNotNull"), "--only", "subscriber"])
        #expect(run.status == 1)
        #expect(run.output.contains("FAIL  subscriber.unknown-name"), "\(run.output)")
        #expect(run.output.contains("PASS  subscriber.create-destroy"))
        #expect(!run.output.contains("load.rtld-now"))
    }

    @Test("the kit cannot run: exit 2 with one line on stderr", arguments: [
        (["check", "--only", "nope", "x.so"], "--only: expected a check id or group"),
        (["check", "--only", "load.rtld-now", "--skip", "load", Built.plugin("ExtensionGuard")],
         "apphost check: --skip: expected at least one check left to run, found every check that --only chose skipped"),
        (["check", "/nonexistent/libX.so"], "PLUGIN.so '/nonexistent/libX.so': expected a plugin file, found nothing there"),
        (["check", "--timeout", "0", Built.plugin("ExtensionGuard")],
         "--timeout expects a whole number of milliseconds from 3000 to 600000 (a check may wait 2000 ms for a completion), found '0'"),
        (["check", "--timeout", "10", Built.plugin("ExtensionGuard")], "found '10'"),
        (["check", "--junit", "/tmp", Built.plugin("ExtensionGuard")], "--junit '/tmp': expected a file path, found a directory"),
        (["check", "--junit", "/nonexistent/folder/r.xml", Built.plugin("ExtensionGuard")],
         "--junit '/nonexistent/folder/r.xml': expected a file in an existing folder, found no folder '/nonexistent/folder'"),
        (["check", "--options", "{\"token\": ", Built.plugin("ExtensionGuard")], "--options: expected a JSON object, found invalid JSON: "),
        (["check", "--options", "[1]", Built.plugin("ExtensionGuard")], "--options: expected a JSON object, found an array"),
        (["check", "--options", "@/nonexistent/o.json", Built.plugin("ExtensionGuard")],
         "--options: expected a readable JSON file at '/nonexistent/o.json', found nothing there"),
        (["check", "--plugin-options", "libOther.so={}", Built.plugin("ExtensionGuard")],
         "--plugin-options expects PLUGIN.so=JSON|@FILE naming one of the PLUGIN.so arguments, found 'libOther.so={}'"),
        (["check", "--seed", "-1", "x.so"], "--seed expects a whole number"),
        (["check", "--completion-timeout", "0", Built.plugin("ExtensionGuard")],
         "--completion-timeout expects a whole number of milliseconds from 1 to 599000, found '0'"),
        (["check", "--completion-timeout", "599001", Built.plugin("ExtensionGuard")], "found '599001'"),
        (["check", "--completion-timeout", "3s", Built.plugin("ExtensionGuard")], "found '3s'"),
        (["check", "--completion-timeout", "5000", "--timeout", "5000", Built.plugin("ExtensionGuard")],
         "--timeout expects a whole number of milliseconds from 6000 to 600000 (a check may wait 5000 ms for a completion), found '5000'"),
        (["check"], "'check' needs at least one PLUGIN.so"),
    ])
    func cannotRun(arguments: [String], message: String) throws {
        let run = try apphost(arguments)
        #expect(run.status == 2)
        #expect(run.errors.contains(message), "\(run.errors)")
        // Found before any check ran: no report, and one line, as every command's usage errors.
        #expect(run.output.isEmpty)
        #expect(run.errors.split(separator: "\n").count == 1, "\(run.errors)")
    }

    @Test("--options and --plugin-options (inline or @FILE) reach the subscribers and change the verdict")
    func subscriberOptions() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("options.json").path
        try Data(#"{"token": "from a file"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let plugin = Built.plugin("RequiresOption")
        let base = ["check", plugin, "--only", "subscriber.create-destroy"]
        let without = try apphost(base)
        #expect(without.status == 1 && without.output.contains("create(\"RequiresOption\") returned NULL"), "\(without.output)")
        #expect(try apphost(base + ["--options", #"{"token": 1}"#]).status == 0)
        #expect(try apphost(base + ["--options", "@" + file]).status == 0)
        #expect(try apphost(base + ["--plugin-options", plugin + "=@" + file]).status == 0)
        #expect(try apphost(base + ["--options", #"{"token": 1}"#, "--plugin-options", plugin + "={}"]).status == 1)
    }

    @Test("--completion-timeout: the deadline the evidence names, in --help; without --timeout the check timeout grows to fit it")
    func completionTimeout() throws {
        let late = try apphost(["check", Built.plugin("CompletesLate"), "--only", "events.completion",
                                "--completion-timeout", "250", "--seed", "7"])
        #expect(late.status == 1, "\(late.output)\(late.errors)")
        #expect(late.output.contains("CompletesLate: didReceiveRemoteNotification #1: called after the deadline of 250 ms"),
                "\(late.output)")
        #expect(!late.output.contains("never called"), "\(late.output)")
        let help = try apphost(["check", "--help"])
        #expect(help.output.contains("--completion-timeout MS"), "\(help.output)")

        let plugin = Built.plugin("ExtensionGuard")
        let options = try CheckCommand.conformanceOptions(parse(["--completion-timeout", "30000", plugin], spec: CheckCommand.spec))
        #expect(options.completionDeadline == .seconds(30))
        #expect(options.checkTimeout == .seconds(31))
        let short = try CheckCommand.conformanceOptions(parse(["--completion-timeout", "3000", plugin], spec: CheckCommand.spec))
        #expect(short.completionDeadline == .seconds(3))
        #expect(short.checkTimeout == .seconds(10))
        let both = try CheckCommand.conformanceOptions(parse(["--completion-timeout", "3000", "--timeout", "4000", plugin],
                                                             spec: CheckCommand.spec))
        #expect(both.checkTimeout == .seconds(4))
    }

    @Test("--list-checks and --help need no plugin")
    func listing() throws {
        let list = try apphost(["check", "--list-checks"])
        #expect(list.status == 0)
        #expect(list.output.split(separator: "\n").count == ConformanceKit.checks.count)
        #expect(list.output.hasPrefix("load.rtld-now"))
        let help = try apphost(["check", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("Usage: apphost check [options] PLUGIN.so..."))
    }

    @Test("--junit naming a plugin, an @FILE options file or a link to either is refused before any check runs; the inputs stay as they were")
    func junitNeverReplacesAnInput() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plugin = folder.appendingPathComponent("g.so").path
        try FileManager.default.copyItem(atPath: Built.plugin("ExtensionGuard"), toPath: plugin)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: plugin)
        let options = folder.appendingPathComponent("o.json").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: options))
        let link = folder.appendingPathComponent("link.xml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "g.so")
        let pluginBytes = try Data(contentsOf: URL(fileURLWithPath: plugin))

        let cases: [(arguments: [String], found: String)] = [
            (["--junit", plugin, plugin], "found the plugin '\(plugin)'"),
            (["--junit", link, plugin], "found the plugin '\(plugin)'"),
            (["--options", "@" + options, "--junit", options, plugin], "found the --options file '\(options)'"),
            (["--plugin-options", "\(plugin)=@\(options)", "--junit", options, plugin],
             "found the --plugin-options \(plugin) file '\(options)'"),
        ]
        for (arguments, found) in cases {
            let run = try apphost(["check"] + arguments)
            #expect(run.status == 2, "\(arguments): \(run.output)\(run.errors)")
            #expect(run.errors.hasPrefix("apphost check: --junit '\(arguments[arguments.firstIndex(of: "--junit")! + 1])': "
                                         + "expected a file that is not an input of the run, \(found)\n"), "\(run.errors)")
            #expect(run.output.isEmpty, "no check ran: \(run.output)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: plugin)) == pluginBytes)
        #expect(try String(contentsOfFile: options, encoding: .utf8) == "{}")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "g.so")
    }

    @Test("the report is written through a fresh temporary file: a symlink planted at the old temporary name is not followed")
    func junitIgnoresPlantedSymlink() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        let report = folder.appendingPathComponent("report.xml").path
        // The name the command used to create with O_CREAT|O_TRUNC, following any link there.
        try FileManager.default.createSymbolicLink(atPath: report + ".tmp-\(getpid())", withDestinationPath: victim)

        #expect(CheckCommand.writeReport("<testsuites/>\n", to: report) == nil)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(try String(contentsOfFile: report, encoding: .utf8) == "<testsuites/>\n")
        // Nothing left behind but what was there and the report.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == ["report.xml", "report.xml.tmp-\(getpid())", "victim"])
    }
}
