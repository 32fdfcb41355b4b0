#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SubscriberHost

/// A library not found where SwiftPM builds says to build the plugins first, wherever the build folder
/// is: under `.build`, or where `swift build --scratch-path` put it. Decided by the locator, which
/// knows the folders it searched.
@Suite("library not found: the build-first hint")
struct BuildFolderHintTests {
    /// The end of the error line that names `command`.
    static func hint(_ command: String) -> String { "found it in none (build the plugins first: \(command))" }

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

    @Test("a folder outside .build with description.json and ModuleCache/ or Modules/ gets the hint, naming its scratch folder and configuration")
    func scratchPathFolder() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let plain = try root.subdirectory("lib").path
        for (folder, configuration, option) in [("ModuleCache", "debug", ""), ("Modules", "release", " -c release")] {
            let scratch = "\(root.path)/scratch-\(folder)"
            let built = try madeLikeSwiftPM(in: root, "scratch-\(folder)/x86_64-unknown-linux-gnu/\(configuration)", with: folder)
            let error = try #require(notFound(in: [plain, built]))
            #expect(error == .libraryNotFound(library: "Missing", fileName: "libMissing.so", searched: [plain, built],
                                              build: SwiftPMBuild(release: configuration == "release", scratchPath: scratch)))
            #expect(error.description.hasSuffix(Self.hint("swift build\(option) --scratch-path \(scratch)")), "\(folder)")
        }
        // The link SwiftPM makes beside the triple's folder, in a scratch folder whose name looks
        // like a triple: the link's folder is the scratch folder; the triple's real one is dropped.
        let real = try madeLikeSwiftPM(in: root, "x86_64-my-build/x86_64-unknown-linux-gnu/release", with: "Modules")
        let link = root.path + "/x86_64-my-build/release"
        #expect(symlink(real, link) == 0)
        for folder in [link, real, link + "/"] {
            #expect(notFound(in: [folder])?.description.hasSuffix(Self.hint("swift build -c release --scratch-path \(root.path)/x86_64-my-build")) == true,
                    "\(folder)")
        }
        // A scratch folder inside a package's .build: named, not taken for the package's own.
        let nested = try madeLikeSwiftPM(in: root, ".build/ci/x86_64-unknown-linux-gnu/debug", with: "ModuleCache")
        #expect(notFound(in: [nested])?.description.hasSuffix(Self.hint("swift build --scratch-path \(root.path)/.build/ci")) == true)
        // The package's own, made: the plain command.
        let own = try madeLikeSwiftPM(in: root, "pkg/.build/x86_64-unknown-linux-gnu/release", with: "Modules")
        #expect(notFound(in: [own])?.description.hasSuffix(Self.hint("swift build -c release")) == true)
        // A folder a shell would split: quoted, so the command can be pasted.
        let spaced = try madeLikeSwiftPM(in: root, "sp ace/it's/x86_64-unknown-linux-gnu/debug", with: "Modules")
        #expect(notFound(in: [spaced])?.description.hasSuffix(Self.hint(#"swift build --scratch-path '\#(root.path)/sp ace/it'\''s'"#)) == true)
        // A folder SwiftPM made whose name is no configuration: the plain command.
        let odd = try madeLikeSwiftPM(in: root, "odd", with: "Modules")
        #expect(notFound(in: [odd])?.description.hasSuffix(Self.hint("swift build")) == true)
    }

    @Test("a plain folder, or description.json without ModuleCache/ or Modules/ beside it, gets no hint")
    func plainFolder() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let plain = try root.subdirectory("lib").path
        let almost = try root.subdirectory("almost/release")
        try almost.write("description.json", "{}")
        _ = try almost.subdirectory("Other")
        let error = try #require(notFound(in: [plain, almost.path]))
        #expect(error == .libraryNotFound(library: "Missing", fileName: "libMissing.so", searched: [plain, almost.path]))
        #expect(error.description.hasSuffix("found it in none"))
    }

    @Test("a folder under .build gets the hint by its path alone, whether or not it exists: swift build, with -c release for a release build's")
    func dotBuildPath() throws {
        let cases = [
            ("/x/.build/debug", "swift build"), ("/x/.build", "swift build"), ("/x/.build/release", "swift build -c release"),
            ("/x/.build/x86_64-unknown-linux-gnu/release", "swift build -c release"), ("/x/.build/aarch64-unknown-linux-gnu/debug/", "swift build"),
        ]
        for (folder, command) in cases {
            let error = try #require(notFound(in: ["/lib", folder]))
            #expect(error.description.hasSuffix(Self.hint(command)), "\(folder)")
        }
        // The first build folder searched is the one named.
        #expect(notFound(in: ["/a/.build/release", "/b/.build/debug"])?.description.hasSuffix(Self.hint("swift build -c release")) == true)
    }
}
