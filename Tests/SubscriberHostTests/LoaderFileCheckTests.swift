import Testing
import Foundation
@testable import SubscriberHost

/// The one line `loader` refuses `path` with, or nil when it loads. On the main actor, like loading.
@MainActor
func loadError(_ path: String, sha256: SHA256Digest? = nil, loader: PluginLoader = PluginLoader()) -> String? {
    do {
        _ = try loader.loadImage(at: path, sha256: sha256)
        return nil
    } catch {
        return error.description
    }
}


@MainActor
@Suite("Loader: checks 1-4 on files made for the purpose")
struct LoaderFileCheckTests {
    let guardPlugin = BuiltPlugins.path("ExtensionGuard")

    @Test("check 1: nothing at the path")
    func missing() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        #expect(loadError(folder.file("libNone.so"))
            == #"plugin "\#(folder.path)/libNone.so": expected a regular file, found nothing (No such file or directory)"#)
    }

    @Test("check 1: a folder")
    func folder() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let sub = try folder.subdirectory("libDir.so")
        #expect(loadError(sub.path) == #"plugin "\#(sub.path)": expected a regular file, found a directory"#)
    }

    @Test("check 1: a symlink to nothing")
    func danglingLink() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let link = try folder.symlink("libLink.so", to: folder.file("gone.so"))
        #expect(loadError(link)
            == #"plugin "\#(link)": expected a regular file, found a symbolic link to nothing (No such file or directory)"#)
    }

    @Test("check 1: a FIFO")
    func fifo() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let path = folder.file("libFifo.so")
        try #require(mkfifo(path, 0o644) == 0)
        #expect(loadError(path) == #"plugin "\#(path)": expected a regular file, found a special file (not a regular file)"#)
    }

    @Test("check 2: a file writable by group, by others, by both", arguments: [
        (0o775, "group"), (0o757, "others"), (0o777, "group and others"),
    ])
    func writableFile(mode: Int, who: String) throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let copy = try folder.copy(guardPlugin, to: "libGuard.so", mode: mode)
        let octal = "0" + String(mode, radix: 8)
        #expect(loadError(copy) == #"plugin "\#(copy)": expected a file not writable by group or others, found mode \#(octal) (writable by \#(who)); \#(chmodAdvice)"#)
        #expect(loadError(copy, loader: PluginLoader(allowWritable: true)) == nil)
    }

    @Test("check 2: a file in a folder writable by others")
    func writableFolder() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let copy = try folder.copy(guardPlugin, to: "libGuard.so")
        try folder.setMode(0o777)
        #expect(loadError(copy) == #"plugin "\#(copy)": expected its directory "\#(folder.path)" not writable by group or others, found mode 0777 (writable by group and others); \#(chmodAdvice)"#)
        #expect(loadError(copy, loader: PluginLoader(allowWritable: true)) == nil)
    }

    @Test("check 2 looks at the real file behind a symlink, and at its folder")
    func writableBehindLink() throws {
        let outer = try TestDirectory(), inner = try TestDirectory()
        defer { outer.remove(); inner.remove() }
        try inner.copy(guardPlugin, to: "libGuard.so", mode: 0o775)
        let link = try outer.symlink("libGuard.so", to: inner.file("libGuard.so"))
        #expect(loadError(link) == #"plugin "\#(link)": expected a file not writable by group or others, found mode 0775 (writable by group); \#(chmodAdvice)"#)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: inner.file("libGuard.so"))
        try inner.setMode(0o775)
        #expect(loadError(link) == #"plugin "\#(link)": expected its directory "\#(inner.path)" not writable by group or others, found mode 0775 (writable by group); \#(chmodAdvice)"#)
        try inner.setMode(0o755)
        #expect(loadError(link) == nil)
    }

    @Test("check 2 looks at the folder holding a symlink: whoever can write there can re-point the link")
    func linkInWritableFolder() throws {
        let outer = try TestDirectory(), inner = try TestDirectory()
        defer { outer.remove(); inner.remove() }
        try inner.copy(guardPlugin, to: "libGuard.so")
        let link = try outer.symlink("libGuard.so", to: inner.file("libGuard.so"))
        try outer.setMode(0o777)
        #expect(loadError(link) == #"plugin "\#(link)": expected its directory "\#(outer.path)" not writable by group or others, found mode 0777 (writable by group and others); \#(chmodAdvice)"#)
        #expect(loadError(link, loader: PluginLoader(allowWritable: true)) == nil)
        // The real file, named directly, lives in a safe folder.
        #expect(loadError(inner.file("libGuard.so")) == nil)
    }

    @Test("check 3: a pin that does not match; the right pin loads")
    func pin() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let copy = try folder.copy(guardPlugin, to: "libGuard.so")
        let actual = try SHA256.hash(fileAtPath: copy)
        let wrong = try #require(SHA256Digest(hex: String(repeating: "0", count: 64)))
        #expect(loadError(copy, sha256: wrong) == #"plugin "\#(copy)": SHA-256 does not match the manifest's pin: expected \#(wrong.hex), found \#(actual.hex)"#)
        #expect(loadError(copy, sha256: actual) == nil)
    }

    @Test("check 4, its header part: not an ELF file; an empty file", arguments: [
        (String(repeating: "not an ELF file. ", count: 8), "a file that is not ELF (136 bytes, starting 6e 6f 74 20)"),
        ("", "an empty file"), ("\u{7f}EL", "a file that is not ELF (3 bytes, starting 7f 45 4c)"),
    ])
    func notELF(content: String, found: String) throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let path = try folder.write("libText.so", content)
        #expect(loadError(path) == #"plugin "\#(path)": could not load library: expected an ELF shared object, found \#(found)"#)
    }

    @Test("cheapest first: a writable, wrongly pinned non-ELF fails check 2; read-only, the ELF header; an ELF file, the pin")
    func order() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let path = try folder.write("libText.so", String(repeating: "garbage ", count: 16), mode: 0o664)
        let wrong = try #require(SHA256Digest(hex: String(repeating: "a", count: 64)))
        #expect(loadError(path, sha256: wrong)?.contains("not writable by group or others") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(loadError(path, sha256: wrong)?.contains("expected an ELF shared object") == true)
        let copy = try folder.copy(guardPlugin, to: "libGuard.so")
        #expect(loadError(copy, sha256: wrong)?.contains("SHA-256 does not match") == true)
    }

    @Test("a file loaded before still gets checks 1-3 on every request")
    func cachedImageStillChecked() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let copy = try folder.copy(guardPlugin, to: "libGuard.so")
        let loader = PluginLoader()
        _ = try loader.loadImage(at: copy)
        let wrong = try #require(SHA256Digest(hex: String(repeating: "b", count: 64)))
        #expect(loadError(copy, sha256: wrong)?.contains("SHA-256 does not match") == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: copy)
        #expect(loadError(copy)?.contains("not writable by group or others") == true)
    }
}
