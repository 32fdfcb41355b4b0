import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SubscriberConformance

/// The openURL and didBecomeActive handlers as the SDK declares them, with parameter types in `module`.
private func handlers(module: String) -> [ExpectedHandler] {
    [
        ExpectedHandler(event: "openURL", protocolName: "OpenURLSubscriber", selector: "application(_:open:options:)",
                        signature: "func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool?",
                        parameterTypes: ["\(module).Application", "Foundation.URL", "\(module).OpenURLOptions"],
                        returnType: "Swift.Optional<Swift.Bool>"),
        ExpectedHandler(event: "didBecomeActive", protocolName: "DidBecomeActiveSubscriber",
                        selector: "applicationDidBecomeActive(_:)",
                        signature: "func applicationDidBecomeActive(_ application: Application)",
                        parameterTypes: ["\(module).Application"], returnType: "()"),
    ]
}

/// Symbols read from ELF files: the real Greeter plugin, and malformed files that must give one line each.
@Suite("Symbol scan: ELF symbol tables")
struct ELFSymbolTableTests {
    @Test("libGreeter.so's .symtab holds Greeter's two handler methods and conformance descriptors")
    func greeterSymbols() throws {
        let symbols = try ELFSymbols.read(path: Built.plugin("Greeter"))
        #expect(symbols.table == ".symtab")
        #expect(symbols.functions.contains("adh_plugin_entry"))
        let methods = symbols.functions.compactMap(SwiftDemangler.demangle).compactMap { text -> DemangledMethod? in
            if case .method(let method) = DemangledSymbol(text) { method } else { nil }
        }
        let greeter = methods.filter { $0.typeName == "Greeter.Greeter" }
        #expect(Set(greeter.map(\.selector)).isSuperset(of: ["applicationDidBecomeActive(_:)", "application(_:open:options:)"]))
        let openURL = try #require(greeter.first { $0.selector == "application(_:open:options:)" })
        #expect(openURL.parameterTypes.map(SwiftTypeText.lenient) == ["Application", "URL", "OpenURLOptions"])
        #expect(SwiftTypeText.lenient(openURL.returnType) == "Bool?")
        // Conformance descriptors are data symbols, not functions.
        let conformances = symbols.objects.filter { $0.hasSuffix("Mc") }.compactMap(SwiftDemangler.demangle)
        #expect(conformances.contains { $0.hasPrefix("protocol conformance descriptor for ") })
        #expect(!symbols.functions.contains { $0.hasSuffix("Mc") && $0.hasPrefix("$s") })
    }

    @Test("the whole scan of libGreeter.so finds both handlers with the expected signatures")
    func greeterScan() throws {
        let scan = try PluginSymbolScan.scan(path: Built.plugin("Greeter"), expected: handlers(module: "SubscriberKit"))
        let greeter = scan.methods.filter { $0.typeName == "Greeter.Greeter" }
        #expect(Set(greeter.map(\.event)) == ["openURL", "didBecomeActive"])
        #expect(greeter.allSatisfy { $0.matchesExpected })
        // SubscriberKit's own classes (linked into every plugin) are not the author's business.
        #expect(!scan.methods.contains { $0.typeName.hasPrefix("SubscriberKit.") })
    }

    @Test("malformed files give one line naming the file, what, expected and found", arguments: MalformedELF.allCases)
    func malformed(_ kind: MalformedELF) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try kind.write(in: folder)
        let error = #expect(throws: ELFSymbolsError.self) { try ELFSymbols.read(path: path) }
        let line = try #require(error).description
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("plugin \"\(path)\": cannot read its symbols: \(kind.what)"))
        #expect(line.contains(": expected ") && line.contains(", found "))
        #expect(line.contains(kind.found), "\(line)")
    }
}

/// A file that is not a readable ELF64 shared object, and where the reader must notice.
enum MalformedELF: String, CaseIterable, CustomStringConvertible {
    case empty, notELF, shortHeader, truncated, sectionTableOffsetPastEnd, sectionTableOffsetOverflows, symbolTablePastEnd,
         symbolNameOutsideStrings, tooLarge, directory

    var description: String { rawValue }

    /// The part the error names.
    var what: String {
        switch self {
        case .empty: "the ELF header"
        case .notELF, .shortHeader: "the ELF header"
        case .truncated: "the section header table"
        case .sectionTableOffsetPastEnd, .sectionTableOffsetOverflows: "section header 0"
        case .symbolTablePastEnd: ".symtab (section"
        case .symbolNameOutsideStrings: ".symtab symbol"
        case .tooLarge, .directory: "the file"
        }
    }

    /// Part of what the error says it found.
    var found: String {
        switch self {
        case .empty: "found an empty file"
        case .notELF: "found a file of 20 bytes starting 68 65 6c 6c"
        case .shortHeader: "expected 64 bytes, found a file of 20 bytes"
        case .truncated: "bytes at offset"
        case .sectionTableOffsetPastEnd: "64 bytes at offset 1099511627776"
        case .sectionTableOffsetOverflows: "64 bytes at offset 18446744073709551600"
        case .symbolTablePastEnd: "ending at"
        case .symbolNameOutsideStrings: "name offset 4294967295"
        case .tooLarge: "537919488 bytes"
        case .directory: "found a directory"
        }
    }

    /// Writes the file into `folder` and returns its path.
    func write(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("lib\(rawValue).so").path
        let real = try Data(contentsOf: URL(fileURLWithPath: Built.plugin("Greeter")))
        var bytes = [UInt8](real)
        switch self {
        case .empty: bytes = []
        case .notELF: bytes = Array("hello, not a plugin\n".utf8)
        case .shortHeader: bytes = Array(bytes.prefix(20))
        case .truncated: bytes = Array(bytes.prefix(64))
        case .sectionTableOffsetPastEnd:
            bytes = Array(bytes.prefix(64))
            Self.put(1 << 40, at: 40, in: &bytes)  // e_shoff
            Self.put(0, at: 60, in: &bytes, size: 2)  // e_shnum 0: the count is read from section 0
        case .sectionTableOffsetOverflows:
            bytes = Array(bytes.prefix(64))
            Self.put(UInt64.max - 15, at: 40, in: &bytes)
            Self.put(0, at: 60, in: &bytes, size: 2)
        case .symbolTablePastEnd:
            let symtab = try Self.sectionHeader(ofType: 2, in: bytes)
            Self.put(UInt64(bytes.count), at: symtab + 24, in: &bytes)  // sh_offset: at the very end
        case .symbolNameOutsideStrings:
            let symtab = try Self.sectionHeader(ofType: 2, in: bytes)
            let table = Int(Self.get(at: symtab + 24, in: bytes, size: 8))
            let entries = Int(Self.get(at: symtab + 32, in: bytes, size: 8)) / 24
            // Every defined function's st_name points far past the string table.
            for index in 0..<entries where bytes[table + index * 24 + 4] & 0xf == 2 {
                Self.put(UInt64(UInt32.max), at: table + index * 24, in: &bytes, size: 4)
            }
        case .tooLarge:
            // Sparse: 513 MiB that take no disk space, refused before a byte is read.
            try Data(bytes.prefix(64)).write(to: URL(fileURLWithPath: path))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: 513 << 20)
            try handle.close()
            return path
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            return path
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The offset of the first section header of `type`.
    static func sectionHeader(ofType type: UInt64, in bytes: [UInt8]) throws -> Int {
        let table = Int(get(at: 40, in: bytes, size: 8)), count = Int(get(at: 60, in: bytes, size: 2))
        let found = (0..<count).first { get(at: table + $0 * 64 + 4, in: bytes, size: 4) == type }
        return table + 64 * (try #require(found))
    }

    static func get(at offset: Int, in bytes: [UInt8], size: Int) -> UInt64 {
        (0..<size).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }

    static func put(_ value: UInt64, at offset: Int, in bytes: inout [UInt8], size: Int = 8) {
        for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}

/// The runtime's demangler.
@Suite("Symbol scan: demangling")
struct SwiftDemanglerTests {
    @Test("a method, a conformance descriptor and a getter demangle to the runtime's text")
    func knownNames() {
        #expect(SwiftDemangler.isAvailable)
        #expect(SwiftDemangler.demangle("$s7GreeterAAC26applicationDidBecomeActiveyy13SubscriberKit11ApplicationVF")
            == "Greeter.Greeter.applicationDidBecomeActive(SubscriberKit.Application) -> ()")
        #expect(SwiftDemangler.demangle("$s1M4GoodCAA17OpenURLSubscriberAAMc")
            == "protocol conformance descriptor for M.Good : M.OpenURLSubscriber in M")
        #expect(SwiftDemangler.demangle("$s13SubscriberKit11ApplicationV4nameSSvg")
            == "SubscriberKit.Application.name.getter : Swift.String")
    }

    @Test("names that are not Swift symbols, or too long, are not demangled")
    func notSwift() {
        #expect(SwiftDemangler.demangle("adh_plugin_entry") == nil)
        #expect(SwiftDemangler.demangle("$s") == nil)
        #expect(SwiftDemangler.demangle("$sNotAMangledName") == nil)  // the runtime hands it back unchanged
        #expect(SwiftDemangler.demangle("$s" + String(repeating: "1", count: SwiftDemangler.nameLengthLimit)) == nil)
    }
}

/// The matcher over demangled text: what is a handler, what is a near miss, what is not adopted.
@Suite("Symbol scan: event-shaped methods")
struct EventShapedMethodTests {
    static let expected = handlers(module: "SubscriberKit")

    /// Demangled symbols as a plugin `Plug` has them: four classes, a struct, derived symbols of every
    /// kind the scan must skip, and SubscriberKit's own base class.
    static let symbols = [
        "Plug.Good.__deallocating_deinit", "Plug.NearMiss.__deallocating_deinit",
        "Plug.Unadopted.__deallocating_deinit", "Plug.Outer.(Hidden in _A41C9ACF).__deallocating_deinit",
        "SubscriberKit.AppDelegateSubscriberBase.__deallocating_deinit",
        "protocol conformance descriptor for Plug.Good : SubscriberKit.OpenURLSubscriber in Plug",
        "protocol conformance descriptor for Plug.Good : SubscriberKit.DidBecomeActiveSubscriber in Plug",
        "protocol conformance descriptor for Plug.NearMiss : SubscriberKit.OpenURLSubscriber in Plug",
        "protocol conformance descriptor for Plug.Unadopted : Swift.CustomStringConvertible in Plug",
        "Plug.Good.application(_: SubscriberKit.Application, open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool?",
        "Plug.Good.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
        "Plug.NearMiss.application(_: SubscriberKit.Application, open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool",
        "Plug.NearMiss.applicationDidBecomeActive(Swift.String) -> ()",
        "Plug.Unadopted.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
        "Plug.Outer.(Hidden in _A41C9ACF).application(_: SubscriberKit.Application, open: Foundation.URL, options: SubscriberKit.OpenURLOptions) async -> Swift.Bool?",
        // A struct (no deinit) and SubscriberKit's own class: skipped.
        "Plug.Helper.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
        "SubscriberKit.AppDelegateSubscriberBase.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
        // Derived from methods, not methods: skipped.
        "protocol witness for SubscriberKit.OpenURLSubscriber.application(_: SubscriberKit.Application, open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool? in conformance Plug.Unadopted : SubscriberKit.OpenURLSubscriber in Plug",
        "dispatch thunk of Plug.Unadopted.application(_: SubscriberKit.Application, open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool",
        "method descriptor for Plug.Unadopted.application(_: SubscriberKit.Application, open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool",
        "closure #1 () -> () in Plug.Unadopted.applicationDidBecomeActive(Swift.Int) -> ()",
        "merged Plug.Unadopted.applicationDidBecomeActive(Swift.Int) -> ()",
        "static Plug.Unadopted.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
        "generic specialization <Swift.Int> of Plug.Unadopted.applicationDidBecomeActive(Swift.Int) -> ()",
        "Plug.Unadopted.applicationDidBecomeActive.getter : Swift.Int",
        "Plug.Unadopted.applicationDidBecomeActive<A>(A) -> ()",
    ]

    @Test("exact methods match, near misses do not; derived symbols, structs and SubscriberKit are skipped")
    func methods() {
        let scan = EventShapedMethods(demangled: Self.symbols, expected: Self.expected)
        let found = scan.methods.map { "\($0.typeName) \($0.event) \($0.matchesExpected)" }
        #expect(found == [
            "Plug.Good openURL true", "Plug.Good didBecomeActive true",
            "Plug.NearMiss openURL false", "Plug.NearMiss didBecomeActive false",
            "Plug.Unadopted didBecomeActive true",
            "Plug.Outer.(Hidden in _A41C9ACF) openURL false",
        ])
        #expect(scan.methods[0].selector == "application(_:open:options:)")
        #expect(scan.methods[0].demangledSignature == Self.symbols[9])
    }

    @Test("conformances by qualified or unqualified type name, protocol names unqualified")
    func conformances() {
        let scan = EventShapedMethods(demangled: Self.symbols, expected: Self.expected)
        #expect(scan.conformances(ofType: "Plug.Good") == ["OpenURLSubscriber", "DidBecomeActiveSubscriber"])
        #expect(scan.conformances(ofType: "NearMiss") == ["OpenURLSubscriber"])
        #expect(scan.conformances(ofType: "Plug.Unadopted") == ["CustomStringConvertible"])
        #expect(scan.conformances(ofType: "Plug.Nobody").isEmpty)
    }

    @Test("a superclass's conformances count when the caller knows the superclass, and a cycle ends")
    func inherited() {
        let inherits = EventShapedMethods(demangled: Self.symbols, expected: Self.expected, superclass: {
            ["Plug.Unadopted": "Plug.Middle", "Plug.Middle": "Plug.Good", "Plug.NearMiss": "Plug.NearMiss"][$0]
        })
        #expect(inherits.conformances(ofType: "Plug.Unadopted")
            == ["CustomStringConvertible", "OpenURLSubscriber", "DidBecomeActiveSubscriber"])
        #expect(inherits.conformances(ofType: "NearMiss") == ["OpenURLSubscriber"])
        #expect(!inherits.findings().contains { $0.reason == .notAdopted })
    }

    @Test("findings: near misses and not-adopted handlers, each one line; conforming exact methods none")
    func findings() {
        let scan = EventShapedMethods(demangled: Self.symbols, expected: Self.expected)
        let openURL = "func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? of OpenURLSubscriber"
        #expect(scan.findings().map(\.description) == [
            "NearMiss.application(_:open:options:) -> Bool is never called: openURL is delivered to \(openURL)",
            "NearMiss.applicationDidBecomeActive(_: String) is never called: didBecomeActive is delivered to "
                + "func applicationDidBecomeActive(_ application: Application) of DidBecomeActiveSubscriber",
            "Unadopted.applicationDidBecomeActive(_:) is never called: Unadopted does not adopt DidBecomeActiveSubscriber",
            "Outer.Hidden.application(_:open:options:) async -> Bool? is never called: openURL is delivered to \(openURL)",
        ])
        #expect(scan.findings().map(\.reason) == [.nearMiss, .nearMiss, .notAdopted, .nearMiss])
    }

    @Test("types compare by last component: Optional<Bool> is Bool?, Void is (), Foundation.URL is FoundationEssentials.URL")
    func lenientTypes() {
        #expect(SwiftTypeText.sameType("Swift.Optional<Swift.Bool>", "Swift.Bool?"))
        #expect(SwiftTypeText.sameType("Foundation.URL", "FoundationEssentials.URL"))
        #expect(SwiftTypeText.sameType("Swift.Void", "()"))
        #expect(SwiftTypeText.sameType("Swift.Optional<(Swift.Int) -> ()>", "((Swift.Int) -> ())?"))
        #expect(SwiftTypeText.sameType("__owned SubscriberKit.Application", "SubscriberKit.Application"))
        #expect(!SwiftTypeText.sameType("Swift.Bool", "Swift.Bool?"))
        #expect(!SwiftTypeText.sameType("[Swift.String]", "Swift.String"))
        #expect(SwiftTypeText.effects(ofDeclaration: "func f(_ a: (Int) -> Void) async throws -> Bool?") == "async throws")
    }

    /// A plugin compiled by the test with swiftc: the matcher on what the real compiler and demangler
    /// produce, through the whole scan (ELF, demangling, matching).
    @Test("a plugin compiled with near misses and a missing conformance gets exactly those findings")
    func compiledPlugin() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("Fixture.swift")
        try """
        import Foundation
        public struct Application {}
        public struct OpenURLOptions {}
        public protocol OpenURLSubscriber: AnyObject {
            func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool?
        }
        public protocol DidBecomeActiveSubscriber: AnyObject { func applicationDidBecomeActive(_ application: Application) }
        public final class Good: OpenURLSubscriber, DidBecomeActiveSubscriber {
            public func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { nil }
            public func applicationDidBecomeActive(_ application: Application) {}
        }
        public final class NearMiss {
            public func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool { true }
        }
        public final class Unadopted { public func applicationDidBecomeActive(_ application: Application) {} }
        public struct NotAClass { public func applicationDidBecomeActive(_ application: Application) {} }
        open class Base: DidBecomeActiveSubscriber {
            public init() {}
            open func applicationDidBecomeActive(_ application: Application) {}
        }
        public final class Sub: Base { public override func applicationDidBecomeActive(_ application: Application) {} }
        """.write(to: source, atomically: true, encoding: .utf8)
        let library = folder.appendingPathComponent("libFixture.so").path
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["swiftc", "-emit-library", "-module-name", "Fixture", source.path, "-o", library]
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0, "swiftc failed")

        let scan = try PluginSymbolScan.scan(path: library, expected: handlers(module: "Fixture"))
        #expect(scan.conformances(ofType: "Fixture.Good") == ["OpenURLSubscriber", "DidBecomeActiveSubscriber"])
        #expect(scan.methods.count == 6)
        #expect(Set(scan.methods.map(\.typeName))
            == ["Fixture.Good", "Fixture.NearMiss", "Fixture.Unadopted", "Fixture.Base", "Fixture.Sub"])
        let nearMiss = "NearMiss.application(_:open:options:) -> Bool is never called: openURL is delivered to "
            + "func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? of OpenURLSubscriber"
        let unadopted = "Unadopted.applicationDidBecomeActive(_:) is never called: Unadopted does not adopt DidBecomeActiveSubscriber"
        // From symbols alone, Sub's inherited conformance is invisible.
        let sub = "Sub.applicationDidBecomeActive(_:) is never called: Sub does not adopt DidBecomeActiveSubscriber"
        #expect(Set(scan.findings().map(\.description)) == [nearMiss, unadopted, sub])

        // With the plugin loaded, the runtime names Sub's superclass, and Base's conformance counts.
        try #require(dlopen(library, RTLD_NOW | RTLD_LOCAL) != nil, "dlopen failed")
        #expect(PluginSymbolScan.runtimeSuperclass(ofMangledClass: "7Fixture3SubC") == "Fixture.Base")
        let loaded = try PluginSymbolScan.scan(path: library, expected: handlers(module: "Fixture"), pluginIsLoaded: true)
        #expect(Set(loaded.findings().map(\.description)) == [nearMiss, unadopted])
    }
}
