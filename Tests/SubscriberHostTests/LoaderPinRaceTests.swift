import Testing
import Foundation
import Synchronization
@testable import SubscriberHost

/// `renameat2(…, RENAME_EXCHANGE)`: swaps two names atomically. Looked up at run time because
/// Swift's Glibc module declares it only under _GNU_SOURCE.
private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
private let renameExchange: UInt32 = 2  // RENAME_EXCHANGE

/// What the swapping thread is told: which try's pair of names to swap (-1: none), and when to stop.
private final class SwapControl: Sendable {
    let current = Atomic<Int>(-1)
    let stop = Atomic<Bool>(false)
    let exchanges = Atomic<Int>(0)
    let finished = DispatchSemaphore(value: 0)
}

/// Compiles `source` into the shared library `name` in `folder` with the system C compiler; `flags`
/// go after the source file (libraries to link, linker options).
@discardableResult
func compileSharedLibrary(_ source: String, named name: String, in folder: TestDirectory,
                          flags: [String] = []) throws -> String {
    let sourcePath = try folder.write(name + ".c", source)
    let output = folder.file(name)
    let compiler = Process()
    compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    compiler.arguments = ["cc", "-shared", "-fPIC", "-o", output, sourcePath] + flags
    try compiler.run()
    compiler.waitUntilExit()
    guard compiler.terminationStatus == 0 else { throw TestSetupError("cc failed for \(sourcePath)") }
    return output
}

@MainActor
@Suite("Loader: the bytes hashed are the bytes loaded")
struct LoaderPinRaceTests {
    let guardPlugin = BuiltPlugins.path("ExtensionGuard")

    /// A good plugin and an evil library (its constructor writes a marker file) swap names in a loop
    /// on another thread while the main thread loads the good one's name with its pin. Hashing by
    /// path and then loading by path again let the evil file in (73 of 300 tries in the issue); the
    /// loader now hashes and loads one open descriptor. Every try uses fresh names: images are
    /// cached and never unloaded. Bounded: 200 tries, each loading a 40 KB plugin.
    ///
    /// The folder is writable by others and accepted (`allowWritable`), the case where the pin is
    /// all that protects the load. (With check 2 on, nobody but the owner could swap the names, and
    /// a swap under the check itself is refused as "the file changed while it was checked".)
    @Test("swapping the file between the pin check and dlopen never loads the other file")
    func pinCannotBeRaced() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let marker = folder.file("evil-constructor-ran")
        let evil = try compileSharedLibrary("""
            #include <fcntl.h>
            #include <unistd.h>
            __attribute__((constructor)) static void evil(void) {
                int fd = open("\(marker)", O_WRONLY | O_CREAT | O_APPEND, 0644);
                if (fd >= 0) { (void)write(fd, "x", 1); close(fd); }
            }
            """, named: "libEvil.so", in: folder)
        let goodBytes = try Data(contentsOf: URL(fileURLWithPath: guardPlugin))
        let evilBytes = try Data(contentsOf: URL(fileURLWithPath: evil))
        let pin = SHA256.hash(goodBytes)
        let rename = try #require(dlsym(dlopen(nil, RTLD_NOW), "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) })

        let tries = 200
        let names = (0..<tries).map { (folder.file("libPlugin\($0).so"), folder.file("libOther\($0).so")) }
        try folder.setMode(0o777)
        let loader = PluginLoader(allowWritable: true)
        let control = SwapControl()
        let swapper = Thread {
            while !control.stop.load(ordering: .acquiring) {
                let index = control.current.load(ordering: .acquiring)
                guard index >= 0 else { continue }
                if rename(AT_FDCWD, names[index].0, AT_FDCWD, names[index].1, renameExchange) == 0 {
                    control.exchanges.add(1, ordering: .relaxed)
                }
            }
            control.finished.signal()
        }
        swapper.start()
        defer {
            control.stop.store(true, ordering: .releasing)
            control.finished.wait()
        }

        var loaded = 0, refused = 0
        for index in 0..<tries {
            try goodBytes.write(to: URL(fileURLWithPath: names[index].0))
            try evilBytes.write(to: URL(fileURLWithPath: names[index].1))
            control.current.store(index, ordering: .releasing)
            do {
                let image = try loader.loadImage(at: names[index].0, sha256: pin)
                #expect(image.id == "dev.appdelegatehost.extension-guard")
                loaded += 1
            } catch {
                guard case .checksumMismatch = error else {
                    Issue.record("try \(index): expected the good plugin or a pin mismatch, found: \(error)")
                    continue
                }
                refused += 1
            }
            control.current.store(-1, ordering: .releasing)
        }
        #expect(!FileManager.default.fileExists(atPath: marker), "the evil library's constructor ran")
        #expect(loaded + refused == tries)
        #expect(control.exchanges.load(ordering: .relaxed) > 0, "the names were never swapped: nothing was raced")
    }

    /// Hashing 2 GiB would take minutes in a debug build; the header check reads 64 bytes. The file is
    /// sparse: it takes no disk space.
    @Test("a 2 GiB file that is not ELF, pinned, is refused by its header before it is hashed")
    func hugeNonELFRefusedBeforeHashing() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let path = try folder.write("libHuge.so", "garbage, not a shared object")
        try #require(truncate(path, 2 << 30) == 0)
        let pin = try #require(SHA256Digest(hex: String(repeating: "c", count: 64)))
        #expect(loadError(path, sha256: pin)
            == #"plugin "\#(path)": could not load library: expected an ELF shared object, found a file that is not ELF (2147483648 bytes, starting 67 61 72 62)"#)
    }

    @Test("ELF files the host cannot load are refused by their header", arguments: [
        (4, 1, "a 32-bit ELF file"),              // EI_CLASS = ELFCLASS32
        (5, 2, "an ELF file of the other byte order"),  // EI_DATA = ELFDATA2MSB
        (16, 2, "an ELF executable (not position-independent)"),  // e_type = ET_EXEC
        (16, 1, "an ELF relocatable object (a .o file, not linked)"),  // e_type = ET_REL
        (18, 183, "a shared object for AArch64, not for this host's x86-64"),  // e_machine = EM_AARCH64
    ])
    func foreignELF(offset: Int, value: UInt8, found: String) throws {
        #if arch(x86_64)
        let folder = try TestDirectory()
        defer { folder.remove() }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: guardPlugin))
        bytes[offset] = value
        let path = folder.file("libPatched.so")
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(loadError(path) == #"plugin "\#(path)": could not load library: expected an ELF shared object, found \#(found)"#)
        #endif
    }

    @Test("dlopen errors name the file, not /proc/self/fd/N")
    func dlopenErrorNamesFile() {
        #expect(PluginFile.replacing("/proc/self/fd/5", with: "/p/libA.so", in: "/proc/self/fd/5: undefined symbol: x")
            == "/p/libA.so: undefined symbol: x")
        #expect(PluginFile.replacing("/proc/self/fd/5", with: "/p/libA.so", in: "/proc/self/fd/57 and /proc/self/fd/5")
            == "/proc/self/fd/57 and /p/libA.so")
    }

    /// The dynamic linker answers a dlopen of a name it loaded before with the library it has: had
    /// the loader closed /proc/self/fd/N after loading, the next file opened as N would get the
    /// first one's library.
    @Test("two plugins loaded one after the other each get their own library")
    func descriptorNumbersNeverReused() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let first = try PluginLoader().loadImage(at: folder.copy(guardPlugin, to: "libFirst.so"))
        let second = try PluginLoader().loadImage(at: folder.copy(BuiltPlugins.path("GreeterC"), to: "libSecond.so"))
        #expect(first.id == "dev.appdelegatehost.extension-guard")
        #expect(second.id == "com.example.greeter-c")
        #expect(first.handle != second.handle)
    }

    /// Loaded from its descriptor, a plugin's $ORIGIN is /proc/self/fd, not its folder: a library it
    /// needs beside it is not found. The error says why instead of leaving a puzzle.
    @Test("a library needed beside the plugin through $ORIGIN: the error explains")
    func originDependency() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        try compileSharedLibrary("int adh_test_dependency(void) { return 42; }", named: "libAdhDependency.so", in: folder)
        let plugin = try compileSharedLibrary(
            "int adh_test_dependency(void); int adh_test_call(void) { return adh_test_dependency(); }",
            named: "libNeedsDependency.so", in: folder, flags: ["-L", folder.path, "-lAdhDependency", "-Wl,-rpath,$ORIGIN"])
        #expect(loadError(plugin) == #"plugin "\#(plugin)": could not load library: libAdhDependency.so: cannot open shared object file: No such file or directory (libAdhDependency.so is beside the plugin, but a plugin is loaded from its open file, where $ORIGIN does not reach: link that library statically, or install it where the system finds libraries)"#)
    }

    @Test("the same file loaded under two names, and again after a rename, is one image")
    func cacheByFileIdentity() throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let copy = try folder.copy(guardPlugin, to: "libGuardA.so")
        let first = try PluginLoader().loadImage(at: copy)
        try FileManager.default.moveItem(atPath: copy, toPath: folder.file("libGuardB.so"))
        #expect(try PluginLoader().loadImage(at: folder.file("libGuardB.so")) === first)
        // A new file at the old name is another image.
        try folder.copy(guardPlugin, to: "libGuardA.so")
        #expect(try PluginLoader().loadImage(at: copy) !== first)
    }
}
