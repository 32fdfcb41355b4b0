import Testing
import Foundation
@testable import SubscriberHost

private let chownAdvice = "give it to root or to you (chown) or allow writable plugins explicitly (apphost --allow-writable; HostOptions.allowWritable)"
private let nobody: uid_t = 65534

/// Check 2's ownership rule: the plugin file and every folder from `/` to it (and to every link's
/// target) are owned by the current effective user or root, whatever their mode: their owner could
/// rewrite or replace them between the hash and `dlopen`. Giving a file away needs root.
@MainActor
@Suite("Loader: check 2 refuses a file or folder on the way owned by another user")
struct LoaderOwnershipTests {
    let guardPlugin = BuiltPlugins.path("ExtensionGuard")

    @Test("a folder 0755 owned by another user is refused, naming it, its owner and the rule",
          .enabled(if: geteuid() == 0, "giving a folder to another user (chown) needs root"))
    func folderOwnedByAnotherUser() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let theirs = try root.subdirectory("theirs")
        let sub = try theirs.subdirectory("sub")
        let plugin = try sub.copy(guardPlugin, to: "libGuard.so", mode: 0o644)
        #expect(loadError(plugin) == nil)  // a copy loads while every folder is root's
        let unloaded = try sub.copy(guardPlugin, to: "libGuard2.so", mode: 0o644)
        try #require(chown(theirs.path, nobody, nobody) == 0)
        #expect(loadError(unloaded) == #"plugin "\#(unloaded)": expected the directory "\#(theirs.path)" owned by you (uid 0) or root, found owner uid 65534; \#(chownAdvice)"#)
        // A file already loaded is checked again when asked for again.
        #expect(loadError(plugin)?.contains(#"expected the directory "\#(theirs.path)" owned by you (uid 0) or root, found owner uid 65534"#) == true)
        #expect(loadError(unloaded, loader: PluginLoader(allowWritable: true)) == nil)
        try #require(chown(theirs.path, 0, 0) == 0)
        #expect(loadError(unloaded) == nil)
    }

    @Test("the plugin's own folder owned by another user is refused",
          .enabled(if: geteuid() == 0, "giving a folder to another user (chown) needs root"))
    func holdingFolderOwnedByAnotherUser() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let theirs = try root.subdirectory("theirs")
        let plugin = try theirs.copy(guardPlugin, to: "libGuard.so", mode: 0o644)
        try #require(chown(theirs.path, nobody, nobody) == 0)
        #expect(loadError(plugin) == #"plugin "\#(plugin)": expected the directory "\#(theirs.path)" owned by you (uid 0) or root, found owner uid 65534; \#(chownAdvice)"#)
    }

    @Test("a plugin file 0644 owned by another user is refused, naming the real file behind a link",
          .enabled(if: geteuid() == 0, "giving a file to another user (chown) needs root"))
    func fileOwnedByAnotherUser() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let plugin = try root.copy(guardPlugin, to: "libGuard.so", mode: 0o644)
        let link = try root.symlink("libLink.so", to: "libGuard.so")
        try #require(chown(plugin, nobody, nobody) == 0)
        #expect(loadError(plugin) == #"plugin "\#(plugin)": expected the file "\#(plugin)" owned by you (uid 0) or root, found owner uid 65534; \#(chownAdvice)"#)
        #expect(loadError(link) == #"plugin "\#(link)": expected the file "\#(plugin)" owned by you (uid 0) or root, found owner uid 65534; \#(chownAdvice)"#)
        #expect(loadError(plugin, loader: PluginLoader(allowWritable: true)) == nil)
    }

    @Test("a folder owned by another user on the way to an absolute link's target is refused",
          .enabled(if: geteuid() == 0, "giving a folder to another user (chown) needs root"))
    func folderOnTheWayToLinkTarget() throws {
        let links = try TestDirectory(), target = try TestDirectory()
        defer { links.remove(); target.remove() }
        let theirs = try target.subdirectory("theirs")
        try theirs.copy(guardPlugin, to: "libGuard.so", mode: 0o644)
        let link = try links.symlink("libGuard.so", to: theirs.file("libGuard.so"))
        try #require(chown(theirs.path, nobody, nobody) == 0)
        #expect(loadError(link) == #"plugin "\#(link)": expected the directory "\#(theirs.path)" owned by you (uid 0) or root, found owner uid 65534; \#(chownAdvice)"#)
    }

    @Test("a link owned by another user in a safe folder is fine: only who writes to its folder can change it",
          .enabled(if: geteuid() == 0, "giving a link to another user (lchown) needs root"))
    func linkOwnedByAnotherUser() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        try root.copy(guardPlugin, to: "libGuard.so", mode: 0o644)
        let link = try root.symlink("libLink.so", to: "libGuard.so")
        try #require(lchown(link, nobody, nobody) == 0)
        #expect(loadError(link) == nil)
    }

    @Test("files and folders owned by the current user (or root) load: fresh mkdtemp folders, 0644 and 0755 files")
    func ownFilesLoad() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let sub = try root.subdirectory("sub")
        for (name, mode) in [("libGuard644.so", 0o644), ("libGuard755.so", 0o755)] {
            let plugin = try sub.copy(guardPlugin, to: name, mode: mode)
            var info = stat()
            try #require(stat(plugin, &info) == 0)
            #expect(info.st_uid == geteuid())
            #expect(loadError(plugin) == nil)
        }
    }

    @Test("the plugins in this build's own folder load in place, every folder from / to them checked")
    func buildFolderLoads() throws {
        #expect(loadError(guardPlugin) == nil)
        let image = try PluginLoader().loadImage(at: guardPlugin)
        #expect(image.realPath == FilePaths.realPath(guardPlugin))
    }
}
