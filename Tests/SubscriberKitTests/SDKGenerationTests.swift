import Foundation
import Testing
@testable import SubscriberKit

/// A plugin that links the shared SDK runs only with a library of the generation it was built
/// against (`SubscriberPlugin.sdkGeneration`, carried in the names of the functions a plugin's code
/// calls). This is the reminder to raise it: it fails when the SDK's sources change.
@Suite("The SDK generation: considered at every change of the SDK's sources")
struct SDKGenerationTests {
    /// The generation, and the digest of the SDK's sources when it was last considered. (Generation 1
    /// took `swiftVersion:` into its export function before any release: no plugin outside this
    /// repository was built against the earlier form.)
    static let recorded = (generation: 1, digest: "c50ca3c65129cf50")

    /// The folders whose sources make the SDK a plugin links (the C header's structs included).
    static let folders = ["Sources/SubscriberKit", "Sources/SubscriberEventModel", "Sources/SubscriberValues",
                          "Sources/SubscriberABI/include"]

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the SDK's sources are those the recorded generation was considered for")
    func sourcesAsRecorded() throws {
        let digest = try Self.digestOfSources()
        #expect(SubscriberPlugin.sdkGeneration == Self.recorded.generation && digest == Self.recorded.digest, """
            The SDK's sources changed since generation \(Self.recorded.generation) was recorded (digest \
            \(Self.recorded.digest), now \(digest)). If a plugin's compiled code sees the change (a type's layout, \
            a function or an inlinable body plugins call), raise SubscriberPlugin.sdkGeneration and rename \
            _sdkGeneration<N>Export and _sdkGeneration<N>Create to the new number. Then record the generation \
            (\(SubscriberPlugin.sdkGeneration)) and this digest in SDKGenerationTests.recorded.
            """)
    }

    @Test("the functions a plugin's code calls carry the generation in their names")
    func generationInTheNames() throws {
        let file = Self.packageRoot.appendingPathComponent("Sources/SubscriberKit/Export/SubscriberPlugin.swift")
        let source = try String(contentsOf: file, encoding: .utf8)
        let generation = SubscriberPlugin.sdkGeneration
        for function in ["_sdkGeneration\(generation)Export(", "_sdkGeneration\(generation)Create("] {
            #expect(source.contains("static func " + function), "expected \(function)…) declared in \(file.path)")
        }
        #expect(source.firstMatch(of: /_sdkGeneration(\d+)/).map { Int($0.output.1) } == generation)
    }

    /// FNV-1a (64 bits) over each source file's path and bytes, in path order: a reminder, not a seal.
    static func digestOfSources() throws -> String {
        var paths: [String] = []
        for folder in folders {
            let base = packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: base.path])
            }
            for case let relative as String in walker where relative.hasSuffix(".swift") || relative.hasSuffix(".h")
                || relative.hasSuffix(".c") || relative.hasSuffix(".modulemap") {
                paths.append(folder + "/" + relative)
            }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for path in paths.sorted() {
            for byte in Array(path.utf8) + [0] + Array(try Data(contentsOf: packageRoot.appendingPathComponent(path))) {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }
}
