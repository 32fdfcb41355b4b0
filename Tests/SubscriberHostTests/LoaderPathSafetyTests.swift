import Testing
import Foundation
@testable import SubscriberHost


/// Check 2 walks every folder from `/` to the file and every link of a symlink chain. The folders
/// here live in fresh `mkdtemp` folders under the system temp folder (itself sticky, like /tmp):
/// that they load at all proves the sticky-folder rule accepts an entry owned by the current user.
@MainActor
@Suite("Loader: check 2 covers every folder on the way and every link of a chain")
struct LoaderPathSafetyTests {
    let guardPlugin = BuiltPlugins.path("ExtensionGuard")

    @Test("a safe link to a link in a folder writable by others is refused, naming that folder and link")
    func linkChainThroughWritableFolder() throws {
        let safe = try TestDirectory(), open = try TestDirectory(), target = try TestDirectory()
        defer { safe.remove(); open.remove(); target.remove() }
        try target.copy(guardPlugin, to: "libGuard.so")
        let inner = try open.symlink("libInner.so", to: target.file("libGuard.so"))
        let outer = try safe.symlink("libGuard.so", to: inner)
        try open.setMode(0o777)
        #expect(loadError(outer) == #"plugin "\#(outer)": expected the directory "\#(open.path)" holding the link "\#(inner)" not writable by group or others, found mode 0777 (writable by group and others); \#(chmodAdvice)"#)
        #expect(loadError(outer, loader: PluginLoader(allowWritable: true)) == nil)
        try open.setMode(0o755)
        #expect(loadError(outer) == nil)
    }

    @Test("a folder writable by others anywhere on the way is refused: ww(0777)/sub(0755)/p.so")
    func writableFolderHigherUp() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let ww = try root.subdirectory("ww")
        let sub = try ww.subdirectory("sub")
        let plugin = try sub.copy(guardPlugin, to: "p.so")
        try ww.setMode(0o777)
        #expect(loadError(plugin) == #"plugin "\#(plugin)": expected the directory "\#(ww.path)" on the way to it not writable by group or others, found mode 0777 (writable by group and others); \#(chmodAdvice)"#)
        #expect(loadError(plugin, loader: PluginLoader(allowWritable: true)) == nil)
        try ww.setMode(0o775)
        #expect(loadError(plugin)?.contains(#"the directory "\#(ww.path)" on the way to it not writable by group or others, found mode 0775 (writable by group)"#) == true)
    }

    @Test("the folders on the way to a link's target are checked too, also for a relative target with ..")
    func writableFolderOnTheWayToTarget() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let links = try root.subdirectory("links")
        let ww = try root.subdirectory("ww")
        let sub = try ww.subdirectory("sub")
        try sub.copy(guardPlugin, to: "libGuard.so")
        let link = try links.symlink("libGuard.so", to: "../ww/./sub/libGuard.so")
        try ww.setMode(0o757)
        #expect(loadError(link) == #"plugin "\#(link)": expected the directory "\#(ww.path)" on the way to it not writable by group or others, found mode 0757 (writable by others); \#(chmodAdvice)"#)
        try ww.setMode(0o755)
        let image = try PluginLoader().loadImage(at: link)
        #expect(image.realPath == sub.file("libGuard.so"))
        #expect(image.path == link)
    }

    @Test("a writable folder left again with .. is not on the way: its .. cannot be replaced")
    func dotDotOutOfWritableFolder() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let ww = try root.subdirectory("ww")
        try root.copy(guardPlugin, to: "libGuard.so")
        try ww.setMode(0o777)
        // root/ww/../libGuard.so: the kernel reads "ww" in root (safe) and ".." in ww, which always
        // names ww's real parent whoever writes in ww; libGuard.so is then read in root again.
        #expect(loadError(ww.path + "/../libGuard.so") == nil)
        // Through a link in ww it is another story: the link can be re-pointed.
        try ww.symlink("up", to: "..")
        #expect(loadError(ww.path + "/up/libGuard.so")?.contains(#"expected the directory "\#(ww.path)" holding the link "\#(ww.path)/up""#) == true)
    }

    @Test("a sticky folder writable by others is safe for an entry owned by the current user")
    func stickyFolderOwnEntry() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let shared = try root.subdirectory("shared")
        let mine = try shared.subdirectory("mine")
        let plugin = try mine.copy(guardPlugin, to: "libGuard.so")
        try shared.setMode(0o1777)
        #expect(loadError(plugin) == nil)
        // Without the sticky bit anyone may rename "mine": refused.
        try shared.setMode(0o777)
        #expect(loadError(plugin)?.contains(#"expected the directory "\#(shared.path)" on the way to it not writable"#) == true)
    }

    @Test("a sticky folder writable by others is unsafe for an entry owned by another user",
          .enabled(if: getuid() == 0, "making a folder owned by another user needs root"))
    func stickyFolderForeignEntry() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let shared = try root.subdirectory("shared")
        let theirs = try shared.subdirectory("theirs")
        let plugin = try theirs.copy(guardPlugin, to: "libGuard.so")
        try shared.setMode(0o1777)
        try #require(chown(theirs.path, 65534, 65534) == 0)
        #expect(loadError(plugin) == #"plugin "\#(plugin)": expected the directory "\#(shared.path)" on the way to it not writable by group or others, or sticky with "theirs" in it owned by you or root, found mode 01777 (writable by group and others) with "theirs" owned by uid 65534; \#(chmodAdvice)"#)
        #expect(loadError(plugin, loader: PluginLoader(allowWritable: true)) == nil)
    }

    @Test("a plugin straight in a fresh mkdtemp folder loads; the system temp folder itself is sticky")
    func temporaryFolderLoads() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let copy = try folder.copy(guardPlugin, to: "libGuard.so")
        #expect(loadError(copy) == nil)
        var info = stat()
        try #require(stat(FilePaths.directory(of: folder.path), &info) == 0)
        if info.st_mode & 0o002 != 0 { #expect(info.st_mode & S_ISVTX != 0) }
    }

    @Test("one load examines a folder once: the next file in it reuses what was found; a new load looks again")
    func foldersExaminedOncePerLoad() throws {
        let root = try TestDirectory()
        defer { root.remove() }
        let folder = try root.subdirectory("plugins")
        let first = try folder.copy(guardPlugin, to: "libFirst.so")
        let second = try folder.copy(guardPlugin, to: "libSecond.so")
        let verified = VerifiedFolders()
        #expect(try SafePath(path: first).resolve(verified: verified).realPath == first)
        #expect(verified.info(of: folder.path) != nil && verified.info(of: root.path) != nil && verified.info(of: "/") != nil)
        // Only you (its owner) or root can make a folder reached safely unsafe: within the same load
        // the folder's mode as found is used, not examined again.
        try folder.setMode(0o777)
        #expect(try SafePath(path: second).resolve(verified: verified).realPath == second)
        // A new load examines every folder afresh.
        #expect(throws: PluginLoadError.self) { try SafePath(path: second).resolve(verified: VerifiedFolders()) }
        #expect(loadError(second)?.contains(#"expected its directory "\#(folder.path)" not writable"#) == true)
    }
}
