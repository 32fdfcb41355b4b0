import Testing
@testable import SubscriberHost

/// A library not found where SwiftPM builds says to build the plugins first, wherever the build folder
/// is: under `.build`, or where `swift build --scratch-path` put it. Decided by the locator, which
/// knows the folders it searched.
@Suite("library not found: the build-first hint")
struct BuildFolderHintTests {
    static let hint = "found it in none (build the plugins first: swift build)"

    /// The error the locator throws for a library in none of `directories`.
    func notFound(in directories: [String]) -> PluginLoadError? {
        do throws(PluginLoadError) {
            _ = try PluginLocator(baseDirectory: "/", searchDirectories: directories).locate(.library("Missing"))
            return nil
        } catch {
            return error
        }
    }

    /// A folder holding what SwiftPM writes into its build folders: `description.json` and `folder`.
    func madeLikeSwiftPM(in root: TestDirectory, _ name: String, with folder: String) throws -> String {
        let made = try root.subdirectory(name)
        try made.write("description.json", "{}")
        _ = try made.subdirectory(folder)
        return made.path
    }

    @Test("a folder outside .build with description.json and ModuleCache/ (a debug build's) or Modules/ gets the hint")
    func scratchPathFolder() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let plain = try root.subdirectory("lib").path
        for folder in ["ModuleCache", "Modules"] {
            let scratch = try madeLikeSwiftPM(in: root, "scratch-\(folder)/x86_64-unknown-linux-gnu/debug", with: folder)
            let error = try #require(notFound(in: [plain, scratch]))
            #expect(error == .libraryNotFound(library: "Missing", fileName: "libMissing.so", searched: [plain, scratch],
                                              buildFolderSearched: true))
            #expect(error.description.hasSuffix(Self.hint), "\(folder)")
        }
    }

    @Test("a plain folder, or description.json without ModuleCache/ or Modules/ beside it, gets no hint")
    func plainFolder() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let plain = try root.subdirectory("lib").path
        let almost = try root.subdirectory("almost")
        try almost.write("description.json", "{}")
        _ = try almost.subdirectory("Other")
        let error = try #require(notFound(in: [plain, almost.path]))
        #expect(error == .libraryNotFound(library: "Missing", fileName: "libMissing.so", searched: [plain, almost.path]))
        #expect(error.description.hasSuffix("found it in none"))
    }

    @Test("a folder under .build gets the hint by its path alone, whether or not it exists")
    func dotBuildPath() throws {
        let error = try #require(notFound(in: ["/x/.build/debug"]))
        #expect(error.description.hasSuffix(Self.hint))
    }
}
