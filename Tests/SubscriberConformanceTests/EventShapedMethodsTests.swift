import Foundation
import Testing
import GeneratedPlugin
@testable import SubscriberConformance
@testable import SubscriberKit
@testable import SubscriberEventModel

@Suite("events.shaped-methods: event-shaped methods the SDK never calls")
struct EventShapedMethodsTests {
    @Test("the expected handler of a row: selector, parameter types and result read from its requirement")
    func derivationOfOneRow() {
        let openURL = ExpectedHandler(row: LifecycleEvent.openURL.row)
        #expect(openURL.event == "openURL")
        #expect(openURL.protocolName == "OpenURLSubscriber")
        #expect(openURL.selector == "application(_:open:options:)")
        #expect(openURL.parameterTypes == ["Application", "URL", "OpenURLOptions"])
        #expect(openURL.returnType == "Bool?")
        let watch = ExpectedHandler(row: LifecycleEvent.handleWatchKitExtensionRequest.row)
        #expect(watch.selector == "application(_:handleWatchKitExtensionRequest:reply:)")
        #expect(watch.parameterTypes == ["Application", "JSONObject", "CompletionHandler<JSONObject>"])
        let restoration = ExpectedHandler(row: LifecycleEvent.continueUserActivity.row)
        #expect(restoration.parameterTypes == ["Application", "UserActivity", "CompletionHandler<Array<String>>"])
        #expect(ExpectedHandler.demanglerSpelling("[[String: Int]]") == "Array<Dictionary<String, Int>>")
        #expect(watch.returnType == "()")
        #expect(ExpectedHandler.all.map(\.event) == LifecycleEvent.allCases.map(\.name))
    }

    /// The reference: a plugin written from the table (one type adopting every event protocol, each
    /// method exactly as its requirement says, which the compiler checks), its symbols read back.
    @Test("every row's derived handler matches the compiler's symbol of a method satisfying its requirement")
    @MainActor
    func derivationMatchesEveryRow() async throws {
        let scan = try PluginSymbolScan.scan(path: await GeneratedPlugin.library(), expected: ExpectedHandler.all)
        let methods = scan.methods.filter { $0.typeName.hasSuffix(".EveryEvent") }
        #expect(methods.map(\.event).sorted() == LifecycleEvent.allCases.map(\.name).sorted())
        for method in methods {
            #expect(method.matchesExpected, "\(method.event): \(method.demangledSignature)")
        }
        #expect(!scan.findings().contains { $0.method.typeName.hasSuffix(".EveryEvent") },
                "\(scan.findings().map(\.description))")
    }

    @Test("fails on NearMissSubscriber: one line per method never called, each once, with its fix; its helper class is not judged")
    func failsOnNearMiss() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("NearMissSubscriber")], options: kitOptions())
        let result = try #require(report.plugins.first?.result("events.shaped-methods"))
        #expect(result.status == .fail, "\(ConformanceKit.table(report))")
        let lines = result.verdict.evidence.found.split(separator: "\n").map(String.init)
        let openURL = LifecycleEvent.openURL.row.swiftRequirement
        let orientations = LifecycleEvent.supportedInterfaceOrientations.row.swiftRequirement
        #expect(Set(lines) == [
            "NearMissSubscriber.application(_:open:options:) -> Bool is never called: openURL is delivered to "
                + "\(openURL) of OpenURLSubscriber. Fix: declare it exactly so, and adopt OpenURLSubscriber on NearMissSubscriber",
            "LegacyOrientationLock.application(_:supportedInterfaceOrientationsFor:) -> InterfaceOrientationMask is never "
                + "called: supportedInterfaceOrientations is delivered to \(orientations) of "
                + "SupportedInterfaceOrientationsSubscriber. Fix: declare it exactly so, and adopt "
                + "SupportedInterfaceOrientationsSubscriber on LegacyOrientationLock",
            "LegacyOrientationLock.applicationWillResignActive(_:) is never called: LegacyOrientationLock does not adopt "
                + "WillResignActiveSubscriber. Fix: add WillResignActiveSubscriber to LegacyOrientationLock's conformances",
            // A subclass that adds an event protocol: adopted and exact in the symbols, yet never called.
            "LateAdopter.application(_:open:options:) is never called: LateAdopter adopts OpenURLSubscriber, but its events "
                + "were fixed at its superclass ParentSubscriber, which declares the subscriber protocol and does not adopt "
                + "OpenURLSubscriber. Fix: adopt OpenURLSubscriber on ParentSubscriber",
        ], "\(lines)")
        // Each finding once (no second report with another reason), and nothing about the helper class.
        #expect(lines.count == 4, "\(lines)")
        #expect(!lines.contains { $0.contains("DeepLinkParser") }, "\(lines)")
        // The handlers it does adopt are fine, and nothing else of the plugin fails.
        #expect(!lines.contains { $0.contains("applicationDidBecomeActive") || $0.contains("applicationDidEnterBackground") })
        #expect(report.failures.map(\.result.id) == ["events.shaped-methods"], "\(ConformanceKit.table(report))")
        #expect(report.exitCode == 1)
    }

    @Test("passes on the Swift example plugins, counting their handlers", arguments: ["Greeter", "AppLifecycleDelegate",
          "SessionAnalytics", "DeepLinkRouter", "NotificationFetcher", "OrientationLock"])
    func passesOnSwiftExamples(plugin: String) async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin(plugin)],
                                              options: kitOptions { $0.only = ["events.shaped-methods"] })
        let result = try #require(report.plugins.first?.result("events.shaped-methods"))
        #expect(result.status == .pass, "\(ConformanceKit.table(report))")
        #expect(result.verdict.evidence.found.hasSuffix(" all adopted"), "\(result.verdict.evidence.found)")
        if plugin == "Greeter" { #expect(result.verdict.evidence.found == "2 event methods, all adopted") }
    }

    @Test("warns on a stripped Swift plugin, never passes or skips: its classes' methods are not in .dynsym")
    func warnsOnStrippedPlugins() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stripped = folder.appendingPathComponent("libNearMissSubscriber.so").path
        let strip = try Process.run(URL(fileURLWithPath: "/usr/bin/strip"),
                                    arguments: ["--strip-all", "-o", stripped, Built.plugin("NearMissSubscriber")])
        strip.waitUntilExit()
        try #require(strip.terminationStatus == 0)
        let report = await ConformanceKit.run(plugins: [stripped], options: kitOptions { $0.only = ["events.shaped-methods"] })
        let result = try #require(report.plugins.first?.result("events.shaped-methods"))
        #expect(result.status == .warn, "\(ConformanceKit.table(report))")
        #expect(result.verdict.evidence.found == "cannot see the plugin's methods: a stripped file (no .symtab, only "
                + ".dynsym) keeps none of its classes' methods; " + EventShapedMethodsCheck.debugBuildAdvice)
        #expect(report.exitCode == 0)
    }

    @Test("a 280-byte name that would demangle to gigabytes is named as unread (cut by the demangling budget, not demangled); the rest of the file is checked")
    func exponentialName() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A copy of libGreeter.so with one local function symbol's name (.symtab, unused when loading) replaced.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Built.plugin("Greeter"))))
        let hostile = nestedGenericName(depth: 28)
        try plantFunctionName(hostile, in: &bytes)
        let plugin = folder.appendingPathComponent("libGreeter.so").path
        try Data(bytes).write(to: URL(fileURLWithPath: plugin))
        let report = await ConformanceKit.run(plugins: [plugin], options: kitOptions { $0.only = ["events.shaped-methods"] })
        let result = try #require(report.plugins.first?.result("events.shaped-methods"))
        #expect(result.status == .warn, "\(ConformanceKit.table(report))")
        let lines = result.verdict.evidence.found.split(separator: "\n").map(String.init)
        #expect(lines.first == "cannot see every method: 1 symbol not read within the demangling budget (the others were):",
                "\(lines)")
        #expect(lines.count == 2 && lines[1].hasPrefix("  '\(hostile.prefix(96))…' (280 bytes): its demangled text could reach "),
                "\(lines)")
    }

    @Test("skips a C plugin: it has no Swift methods")
    func skipsCPlugins() async throws {
        let report = await ConformanceKit.run(plugins: [Built.plugin("ExtensionGuard")],
                                              options: kitOptions { $0.only = ["events.shaped-methods"] })
        let result = try #require(report.plugins.first?.result("events.shaped-methods"))
        #expect(result.status == .skip)
        #expect(result.verdict.evidence.found == "a C plugin (swift_version \"\"): no Swift methods to read")
    }
}

/// Replaces, in the ELF file `bytes`, the name of its longest-named defined function in .symtab (a local
/// symbol's name, which loading never reads) with `name`, NUL-terminated in place.
func plantFunctionName(_ name: String, in bytes: inout [UInt8]) throws {
    let symtab = try MalformedELF.sectionHeader(ofType: 2, in: bytes)
    let table = Int(MalformedELF.get(at: symtab + 24, in: bytes, size: 8))
    let size = Int(MalformedELF.get(at: symtab + 32, in: bytes, size: 8))
    let link = Int(MalformedELF.get(at: symtab + 40, in: bytes, size: 4))
    let strtab = Int(MalformedELF.get(at: 40, in: bytes, size: 8)) + 64 * link
    let strings = Int(MalformedELF.get(at: strtab + 24, in: bytes, size: 8))
    var best: (offset: Int, length: Int)?
    for entry in stride(from: table, to: table + size, by: 24)
    where bytes[entry + 4] & 0xf == 2 && MalformedELF.get(at: entry + 6, in: bytes, size: 2) != 0 {
        let start = strings + Int(MalformedELF.get(at: entry, in: bytes, size: 4))
        guard let end = bytes[start...].firstIndex(of: 0) else { continue }
        if bytes[start] == UInt8(ascii: "$"), end - start >= name.utf8.count, end - start > best?.length ?? 0 {
            best = (start, end - start)
        }
    }
    let target = try #require(best, "no function name of at least \(name.utf8.count) bytes to replace")
    for (index, byte) in name.utf8.enumerated() { bytes[target.offset + index] = byte }
    bytes[target.offset + name.utf8.count] = 0
}
