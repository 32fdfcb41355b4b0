#if canImport(Glibc)
import Glibc
#endif
import Testing
import SubscriberKit
@testable import SubscriberHost

@Suite("Manifest: files, syntax, plugin locations")
struct ManifestFileTests {
    @Test("a missing manifest file is one clear line")
    func missingFile() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let path = folder.file("nope.json")
        #expect(throws: ManifestError(file: path, location: "", expected: "a readable manifest file", found: "nothing at that path")) {
            try Manifest(contentsOfFile: path)
        }
        #expect(ManifestError(file: path, location: "", expected: "a readable manifest file", found: "nothing at that path").description
            == "\(path): expected a readable manifest file, found nothing at that path")
    }

    @Test("a folder is not a manifest")
    func folderAsManifest() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        do {
            _ = try Manifest(contentsOfFile: folder.path)
            Issue.record("a folder was read as a manifest")
        } catch {
            #expect(error.description == "\(folder.path): expected a readable manifest file, found a directory")
        }
    }

    @Test("a manifest past 16 MiB: the line names the bound and the size, and the file is not read")
    func tooLarge() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let path = folder.path + "/big.json"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0 && ftruncate(fd, 16 * 1024 * 1024 + 1) == 0)  // sparse: nothing written
        _ = close(fd)
        do {
            _ = try Manifest(contentsOfFile: path)
            Issue.record("a manifest past the bound was read")
        } catch {
            #expect(error.description == "\(path): expected a readable manifest file of at most 16 MiB, found a file of 16777217 bytes")
        }
    }

    @Test("a file's folder becomes the manifest's directory")
    func directoryOfFile() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let path = try folder.write("app.json", withApp(#""pluginSearchPaths": ["lib"]"#))
        let manifest = try Manifest(contentsOfFile: path)
        #expect(manifest.file == path)
        #expect(manifest.directory == folder.path)
        #expect(manifest.pluginSearchDirectories == [folder.path + "/lib"])
    }

    @Test("JSON syntax errors carry line and column")
    func syntaxError() {
        #expect(manifestError("{\n  \"app\": ,\n}") == "m.json: line 2, column 10: expected a value after ':', found ','")
    }

    @Test("manifest bytes parse as the JSON parser's byte entry parses them")
    func bytesParseAsParser() {
        for text in ["", " ", "{", "[1]", "{\"app\": 1", "\u{FEFF}{}", "{\"a\":\"\u{1}\"}", withApp()] {
            let expected: String? = switch Result(catching: { () throws(JSONParseError) in try JSONValue(parsing: Array(text.utf8)) }) {
            case .success: nil
            case .failure(let error): "m.json: \(error)"
            }
            if let expected { #expect(manifestError(text) == expected) } else { #expect(!(manifestError(text) ?? "").contains("line ")) }
        }
    }

    @Test("a key written twice is a syntax error, not a silent override")
    func duplicateKey() {
        let text = withApp().dropLast() + #", "app": {"name": "B", "bundleIdentifier": "b"}}"#
        #expect(manifestError(String(text)) == #"m.json: line 1, column 67: expected a unique key, found duplicate key "app""#)
    }

    // MARK: plugin locations

    @Test("path entries are relative to the manifest's folder; absolute ones are kept")
    func pathEntries() throws {
        let locator = PluginLocator(baseDirectory: "/apps/news", searchDirectories: [])
        #expect(try locator.locate(.path("plugins/libA.so")) == "/apps/news/plugins/libA.so")
        #expect(try locator.locate(.path("./libA.so")) == "/apps/news/libA.so")
        #expect(try locator.locate(.path("/opt/libA.so")) == "/opt/libA.so")
    }

    @Test("relative paths join their folder with one slash, leading ./ dropped")
    func resolveJoins() {
        #expect(FilePaths.resolve("a/b.so", against: "/apps") == "/apps/a/b.so")
        #expect(FilePaths.resolve("a/b.so", against: "/apps/") == "/apps/a/b.so")
        #expect(FilePaths.resolve("././b.so", against: "/") == "/b.so")
        #expect(FilePaths.resolve("./", against: "/apps") == "/apps" && FilePaths.resolve(".", against: "/apps") == "/apps")
        #expect(FilePaths.resolve("/abs/b.so", against: "/apps") == "/abs/b.so")
        #expect(FilePaths.resolve("é/./ü.so", against: "/ä") == "/ä/é/./ü.so")
    }

    @Test("library entries search pluginSearchPaths, then extra folders, then the executable's folder")
    func searchOrder() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let manifestPath = try root.write("app.json", withApp(#""pluginSearchPaths": ["first", "second"]"#))
        let manifest = try Manifest(contentsOfFile: manifestPath)
        let first = try root.subdirectory("first"), second = try root.subdirectory("second")
        let extra = try root.subdirectory("extra"), beside = try root.subdirectory("beside")
        let locator = PluginLocator(manifest: manifest, extraDirectories: [extra.path], executableDirectory: beside.path)
        #expect(locator.searchDirectories == [first.path, second.path, extra.path, beside.path])

        try beside.write("libA.so", "")
        #expect(try locator.locate(.library("A")) == beside.file("libA.so"))
        try extra.write("libA.so", "")
        #expect(try locator.locate(.library("A")) == extra.file("libA.so"))
        try second.write("libA.so", "")
        #expect(try locator.locate(.library("A")) == second.file("libA.so"))
        try first.write("libA.so", "")
        #expect(try locator.locate(.library("A")) == first.file("libA.so"))
    }

    @Test("a folder named like the library is not the library")
    func folderIsSkipped() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        _ = try root.subdirectory("a/libA.so")
        let b = try root.subdirectory("b")
        try b.write("libA.so", "")
        let locator = PluginLocator(baseDirectory: root.path, searchDirectories: [root.file("a"), b.path])
        #expect(try locator.locate(.library("A")) == b.file("libA.so"))
    }

    @Test("a library found nowhere names every folder searched, in order")
    func libraryNotFound() throws {
        let locator = PluginLocator(baseDirectory: "/apps/news", searchDirectories: ["/apps/news/lib", "/opt/plugins", "/apps/news/lib"])
        #expect(throws: PluginLoadError.libraryNotFound(library: "Nope", fileName: "libNope.so",
                                                         searched: ["/apps/news/lib", "/opt/plugins"])) {
            try locator.locate(.library("Nope"))
        }
        let error = PluginLoadError.libraryNotFound(library: "Nope", fileName: "libNope.so", searched: ["/apps/news/lib", "/opt/plugins"])
        #expect(error.description == #"plugin library "Nope": expected libNope.so in one of /apps/news/lib, /opt/plugins, found it in none"#)
        #expect(error.check == 1)
    }

    @Test("by default the running executable's folder is searched last, and nothing else is added")
    func executableFolderByDefault() throws {
        let manifest = try parseManifest(withApp(#""pluginSearchPaths": ["lib"]"#))
        let locator = PluginLocator(manifest: manifest, extraDirectories: ["/opt/extra"])
        let exe = try #require(FilePaths.realPath("/proc/self/exe"))
        #expect(locator.searchDirectories == ["/apps/news/lib", "/opt/extra", FilePaths.directory(of: exe)])
    }
}
