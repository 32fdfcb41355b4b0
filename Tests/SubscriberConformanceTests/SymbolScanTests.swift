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
        #expect(SwiftDemangler.demangle("$s" + String(repeating: "1", count: DemangleBudget.nameLengthLimit)) == nil)
    }
}

/// The matcher over demangled text: what is a handler, what is a near miss, what is not adopted.
@Suite("Symbol scan: event-shaped methods")
struct EventShapedMethodTests {
    static let expected = handlers(module: "SubscriberKit")

    /// Demangled symbols as a plugin `Plug` has them: four subscriber classes, a helper class that is
    /// no subscriber, a struct, derived symbols of every kind the scan must skip, and SubscriberKit's
    /// own base class.
    static let symbols = [
        "Plug.Good.__deallocating_deinit", "Plug.NearMiss.__deallocating_deinit",
        "Plug.Unadopted.__deallocating_deinit", "Plug.Outer.(Hidden in _A41C9ACF).__deallocating_deinit",
        "Plug.Router.__deallocating_deinit",
        "SubscriberKit.AppDelegateSubscriberBase.__deallocating_deinit",
        "protocol conformance descriptor for Plug.Good : SubscriberKit.AppDelegateSubscriber in Plug",
        "protocol conformance descriptor for Plug.Good : SubscriberKit.OpenURLSubscriber in Plug",
        "protocol conformance descriptor for Plug.Good : SubscriberKit.DidBecomeActiveSubscriber in Plug",
        "protocol conformance descriptor for Plug.NearMiss : SubscriberKit.AppDelegateSubscriber in Plug",
        "protocol conformance descriptor for Plug.NearMiss : SubscriberKit.OpenURLSubscriber in Plug",
        "protocol conformance descriptor for Plug.Unadopted : SubscriberKit.AppDelegateSubscriber in Plug",
        "protocol conformance descriptor for Plug.Unadopted : Swift.CustomStringConvertible in Plug",
        "protocol conformance descriptor for Plug.Outer.(Hidden in _A41C9ACF) : SubscriberKit.AppDelegateSubscriber in Plug",
        // A helper class, no subscriber: its handler-shaped methods are found but never judged.
        "Plug.Router.application(_: SubscriberKit.Application, open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool",
        "Plug.Router.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
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
            "Plug.Router openURL false", "Plug.Router didBecomeActive true",
            "Plug.Good openURL true", "Plug.Good didBecomeActive true",
            "Plug.NearMiss openURL false", "Plug.NearMiss didBecomeActive false",
            "Plug.Unadopted didBecomeActive true",
            "Plug.Outer.(Hidden in _A41C9ACF) openURL false",
        ])
        #expect(scan.methods[2].selector == "application(_:open:options:)")
        #expect(scan.methods[2].demangledSignature == Self.symbols.first { $0.hasPrefix("Plug.Good.application(") })
    }

    @Test("conformances by qualified or unqualified type name, protocol names unqualified")
    func conformances() {
        let scan = EventShapedMethods(demangled: Self.symbols, expected: Self.expected)
        #expect(scan.conformances(ofType: "Plug.Good") == ["AppDelegateSubscriber", "OpenURLSubscriber", "DidBecomeActiveSubscriber"])
        #expect(scan.conformances(ofType: "NearMiss") == ["AppDelegateSubscriber", "OpenURLSubscriber"])
        #expect(scan.conformances(ofType: "Plug.Unadopted") == ["AppDelegateSubscriber", "CustomStringConvertible"])
        #expect(scan.conformances(ofType: "Plug.Nobody").isEmpty)
        #expect(scan.eventRoot(of: "Plug.Good") == "Plug.Good")
        #expect(scan.eventRoot(of: "Plug.Router") == nil, "a class that declares no subscriber protocol is none")
    }

    /// A subscriber base class and its subclasses, as a plugin has them (the superclass is the runtime's
    /// knowledge, given to the scan).
    static let lineage = [
        "Plug.Base.__deallocating_deinit", "Plug.Child.__deallocating_deinit", "Plug.Late.__deallocating_deinit",
        "Plug.Later.__deallocating_deinit",
        "protocol conformance descriptor for Plug.Base : SubscriberKit.AppDelegateSubscriber in Plug",
        "protocol conformance descriptor for Plug.Base : SubscriberKit.DidBecomeActiveSubscriber in Plug",
        "protocol conformance descriptor for Plug.Late : SubscriberKit.OpenURLSubscriber in Plug",
        "Plug.Base.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
        "Plug.Child.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
        "Plug.Late.application(_: SubscriberKit.Application, open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool?",
        "Plug.Later.application(_: SubscriberKit.Application, open: FoundationEssentials.URL, options: SubscriberKit.OpenURLOptions) -> Swift.Bool?",
    ]
    static let parents = ["Plug.Child": "Plug.Base", "Plug.Late": "Plug.Base", "Plug.Later": "Plug.Late",
                          "Plug.Loop": "Plug.Loop"]

    @Test("a subclass's events are fixed where its superclass declared the subscriber protocol: an override counts, an added protocol does not")
    func inherited() {
        let scan = EventShapedMethods(demangled: Self.lineage, expected: Self.expected, superclass: { Self.parents[$0] })
        #expect(scan.conformances(ofType: "Plug.Late") == ["OpenURLSubscriber", "AppDelegateSubscriber", "DidBecomeActiveSubscriber"])
        #expect(scan.eventRoot(of: "Plug.Later") == "Plug.Base")
        #expect(scan.lineage(of: "Plug.Loop") == ["Plug.Loop"], "a cycle ends")
        #expect(scan.findings().map(\.description) == [
            "Late.application(_:open:options:) is never called: Late adopts OpenURLSubscriber, but its events were fixed "
                + "at its superclass Base, which declares the subscriber protocol and does not adopt OpenURLSubscriber. "
                + "Fix: adopt OpenURLSubscriber on Base",
            "Later.application(_:open:options:) is never called: its events were fixed at its superclass Base, which "
                + "declares the subscriber protocol and does not adopt OpenURLSubscriber. Fix: adopt OpenURLSubscriber on Base",
        ])
        // Without the superclasses, the subclasses are not known to be subscribers: not judged, not guessed at.
        let alone = EventShapedMethods(demangled: Self.lineage, expected: Self.expected)
        #expect(alone.findings().isEmpty)
    }

    @Test("findings: near misses and not-adopted handlers of subscribers, each once, each one line with its fix; helpers and exact adopted methods none")
    func findings() {
        let scan = EventShapedMethods(demangled: Self.symbols, expected: Self.expected)
        let openURL = "func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? of OpenURLSubscriber"
        #expect(scan.findings().map(\.description) == [
            "NearMiss.application(_:open:options:) -> Bool is never called: openURL is delivered to \(openURL). "
                + "Fix: declare it exactly so",
            "NearMiss.applicationDidBecomeActive(_: String) is never called: didBecomeActive is delivered to "
                + "func applicationDidBecomeActive(_ application: Application) of DidBecomeActiveSubscriber. "
                + "Fix: declare it exactly so, and adopt DidBecomeActiveSubscriber on NearMiss",
            "Unadopted.applicationDidBecomeActive(_:) is never called: Unadopted does not adopt DidBecomeActiveSubscriber. "
                + "Fix: add DidBecomeActiveSubscriber to Unadopted's conformances",
            "Outer.Hidden.application(_:open:options:) async -> Bool? is never called: openURL is delivered to \(openURL). "
                + "Fix: declare it exactly so, and adopt OpenURLSubscriber on Outer.Hidden",
        ])
        #expect(scan.findings().map(\.reason) == [
            .nearMiss(root: "Plug.NearMiss", adopted: true), .nearMiss(root: "Plug.NearMiss", adopted: false), .notAdopted,
            .nearMiss(root: "Plug.Outer.(Hidden in _A41C9ACF)", adopted: false),
        ])
        #expect(scan.findings().allSatisfy { !$0.description.contains("\n") })
    }

    @Test("an adopted protocol whose handler is not among the symbols (an optimised build) is named")
    func handlersNotInSymbols() {
        let symbols = [
            "Plug.Inlined.__deallocating_deinit",
            "protocol conformance descriptor for Plug.Inlined : SubscriberKit.AppDelegateSubscriber in Plug",
            "protocol conformance descriptor for Plug.Inlined : SubscriberKit.OpenURLSubscriber in Plug",
            "protocol conformance descriptor for Plug.Inlined : SubscriberKit.DidBecomeActiveSubscriber in Plug",
            "Plug.Inlined.applicationDidBecomeActive(SubscriberKit.Application) -> ()",
        ]
        let scan = EventShapedMethods(demangled: symbols, expected: Self.expected)
        #expect(scan.handlersNotInSymbols().map { "\($0.typeName) \($0.expected.event)" } == ["Plug.Inlined openURL"])
        // Where every adopted handler has its symbol (on the class or a superclass), nothing is missing.
        let lineage = EventShapedMethods(demangled: Self.lineage, expected: Self.expected, superclass: { Self.parents[$0] })
        #expect(lineage.handlersNotInSymbols().isEmpty, "\(lineage.handlersNotInSymbols().map(\.typeName))")
        let verdict = EventShapedMethodsCheck.verdict(scan, optimised: false, expected: "e")
        #expect(verdict.status == .warn)
        #expect(verdict.evidence.found == "cannot see every method: Inlined adopts OpenURLSubscriber, but no "
                + "Inlined.application(_:open:options:) is among the file's symbols (inlined or removed)\n"
                + EventShapedMethodsCheck.debugBuildAdvice)
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

    /// A plugin's source for swiftc: its own subscriber protocols (as SubscriberKit's: every event
    /// protocol refines AppDelegateSubscriber), subscribers with near misses, a missing adoption and a
    /// late adoption in a subclass, and a helper class that is no subscriber. `access` is "public " (a
    /// library's API: the optimiser keeps it) or "" (internal, as a plugin's classes are).
    static func fixtureSource(access: String) -> String {
        """
        import Foundation
        public struct Application {}
        public struct OpenURLOptions {}
        public protocol AppDelegateSubscriber: AnyObject {}
        public protocol OpenURLSubscriber: AppDelegateSubscriber {
            func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool?
        }
        public protocol DidBecomeActiveSubscriber: AppDelegateSubscriber { func applicationDidBecomeActive(_ application: Application) }
        \(access)final class Good: OpenURLSubscriber, DidBecomeActiveSubscriber {
            \(access)func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { nil }
            \(access)func applicationDidBecomeActive(_ application: Application) {}
        }
        \(access)final class NearMiss: AppDelegateSubscriber {
            \(access)func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool { true }
        }
        \(access)final class Unadopted: AppDelegateSubscriber { \(access)func applicationDidBecomeActive(_ application: Application) {} }
        \(access)final class Helper {
            \(access)func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool { true }
            \(access)func applicationDidBecomeActive(_ application: Application) {}
        }
        \(access)struct NotAClass { \(access)func applicationDidBecomeActive(_ application: Application) {} }
        open class Base: DidBecomeActiveSubscriber {
            public init() {}
            open func applicationDidBecomeActive(_ application: Application) {}
        }
        \(access)final class Sub: Base { \(access)override func applicationDidBecomeActive(_ application: Application) {} }
        \(access)final class LateAdopter: Base, OpenURLSubscriber {
            \(access)func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? { true }
        }
        public func makeAll() -> [AnyObject] { [Good(), NearMiss(), Unadopted(), Helper(), Sub(), LateAdopter()] }
        """
    }

    /// Compiles `source` into lib`name`.so in `folder` with swiftc and `flags`.
    static func compile(_ source: String, name: String, in folder: URL, flags: [String] = []) throws -> String {
        let file = folder.appendingPathComponent("\(name).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let library = folder.appendingPathComponent("lib\(name).so").path
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["swiftc", "-emit-library", "-module-name", "Fixture", file.path, "-o", library] + flags
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0, "swiftc failed")
        return library
    }

    static let fixtureNearMiss = "NearMiss.application(_:open:options:) -> Bool is never called: openURL is delivered to "
        + "func application(_ application: Application, open url: URL, options: OpenURLOptions) -> Bool? of OpenURLSubscriber. "
        + "Fix: declare it exactly so, and adopt OpenURLSubscriber on NearMiss"
    static let fixtureUnadopted = "Unadopted.applicationDidBecomeActive(_:) is never called: Unadopted does not adopt "
        + "DidBecomeActiveSubscriber. Fix: add DidBecomeActiveSubscriber to Unadopted's conformances"

    /// A plugin compiled by the test with swiftc: the matcher on what the real compiler and demangler
    /// produce, through the whole scan (ELF, demangling, matching).
    @Test("a plugin compiled with near misses, a missing adoption and a late one gets exactly those findings; its helper none")
    func compiledPlugin() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try Self.compile(Self.fixtureSource(access: "public "), name: "Fixture", in: folder)

        let symbols = try ELFSymbols.read(path: library)
        #expect(symbols.neededLibraries.contains(EventShapedMethodsCheck.ononeSupport), "\(symbols.neededLibraries)")
        let scan = PluginSymbolScan.scan(symbols, expected: handlers(module: "Fixture"))
        #expect(scan.conformances(ofType: "Fixture.Good") == ["AppDelegateSubscriber", "OpenURLSubscriber", "DidBecomeActiveSubscriber"])
        #expect(scan.methods.count == 9)
        #expect(Set(scan.methods.map(\.typeName)) == ["Fixture.Good", "Fixture.NearMiss", "Fixture.Unadopted", "Fixture.Helper",
                                                       "Fixture.Base", "Fixture.Sub", "Fixture.LateAdopter"])
        #expect(scan.unread.isEmpty, "\(scan.unread)")
        // From symbols alone, the subclasses are not known to be subscribers: not judged (Sub's override
        // is fine, LateAdopter's adoption is not, and neither is guessed at).
        #expect(scan.findings().map(\.description).sorted() == [Self.fixtureNearMiss, Self.fixtureUnadopted])

        // With the plugin loaded, the runtime names their superclass: Sub's override is called, LateAdopter's
        // openURL is not (its events were fixed at Base).
        try #require(dlopen(library, RTLD_NOW | RTLD_LOCAL) != nil, "dlopen failed")
        #expect(PluginSymbolScan.runtimeSuperclass(ofMangledClass: "7Fixture3SubC") == "Fixture.Base")
        let loaded = try PluginSymbolScan.scan(path: library, expected: handlers(module: "Fixture"), pluginIsLoaded: true)
        let late = "LateAdopter.application(_:open:options:) is never called: LateAdopter adopts OpenURLSubscriber, but "
            + "its events were fixed at its superclass Base, which declares the subscriber protocol and does not adopt "
            + "OpenURLSubscriber. Fix: adopt OpenURLSubscriber on Base"
        #expect(loaded.findings().map(\.description).sorted() == [late, Self.fixtureNearMiss, Self.fixtureUnadopted])
        let verdict = EventShapedMethodsCheck.verdict(loaded, optimised: false, expected: "e")
        #expect(verdict.status == .fail)
        #expect(verdict.evidence.found.split(separator: "\n").map(String.init)
                == loaded.findings().map(\.description), "one line per method, nothing else")
    }

    @Test("the same plugin built with -O, classes internal as a plugin's are: the check warns that it cannot see, never passes")
    func optimisedPlugin() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try Self.compile(Self.fixtureSource(access: ""), name: "Fixture", in: folder, flags: ["-O"])
        let symbols = try ELFSymbols.read(path: library)
        #expect(!symbols.neededLibraries.contains(EventShapedMethodsCheck.ononeSupport), "\(symbols.neededLibraries)")
        let scan = PluginSymbolScan.scan(symbols, expected: handlers(module: "Fixture"))
        // Whatever the optimiser kept or removed, the check says it cannot see everything.
        let verdict = EventShapedMethodsCheck.verdict(scan, optimised: true, expected: "e")
        #expect(verdict.status != .pass, "\(verdict)")
        #expect(verdict.evidence.found.contains("cannot see every method: an optimised build (it does not link "
                                                + "libswiftSwiftOnoneSupport.so)"), "\(verdict.evidence.found)")
        #expect(verdict.evidence.found.hasSuffix(EventShapedMethodsCheck.debugBuildAdvice))
    }
}
