import Foundation
import Testing
import BuiltProducts
import GeneratedPlugin
@testable import SubscriberHost
import SubscriberKit

/// Plugins of other packages link the SDK as one shared library, `libSubscriberKit.so`, which the
/// host provides: one copy of the SDK's code and one export registry for all of them. Each plugin
/// still makes its own subscriber types under its own id, a plugin built against another SDK
/// generation does not load, and a host without the library says so. (That every event reaches a
/// shared-SDK plugin's methods is `GeneratedPluginTests`' work, run both ways.)
@MainActor
@Suite("The shared plugin SDK: libSubscriberKit.so provided by the host", .serialized)
struct SharedSDKTests {
    /// A plugin whose one subscriber logs the file its image was loaded from. Every copy exports the
    /// same id and subscriber name: only the image tells them apart.
    nonisolated static let copySource = """
    import Foundation
    import Glibc
    import SubscriberKit

    /// The file of this plugin's image (loaded as /proc/self/fd/N: resolved to the file).
    func imageFile() -> String {
        var info = Dl_info()
        guard dladdr(#dsohandle, &info) != 0, let name = info.dli_fname, let real = realpath(name, nil) else {
            return "unknown"
        }
        defer { free(real) }
        return URL(fileURLWithPath: String(cString: real)).lastPathComponent
    }

    final class Same: InstantiableSubscriber, DidBecomeActiveSubscriber {
        let context: SubscriberContext
        init(context: SubscriberContext) { self.context = context }
        func applicationDidBecomeActive(_ application: Application) { context.log(imageFile()) }
    }

    @_cdecl("adh_plugin_entry")
    public func pluginEntry() -> UnsafeRawPointer {
        SubscriberPlugin.export(id: "dev.appdelegatehost.tests.same", name: "Same", version: "1.0",
                                subscribers: [Same.self])
    }
    """

    /// Compiles `source` against the shared SDK into `folder`/lib`module`.so.
    nonisolated static func compile(_ source: String, module: String, in folder: TestDirectory) throws -> String {
        let file = URL(fileURLWithPath: folder.file(module + ".swift"))
        try Data(source.utf8).write(to: file)
        return try GeneratedPlugin.compilePlugin(sources: [file], module: module, into: URL(fileURLWithPath: folder.path),
                                                 sdk: .sharedLibrary, extraArguments: ["-Xcc", "-D_GNU_SOURCE"])  // dladdr
    }

    @Test("20 copies of one shared-SDK plugin, one id and subscriber name: each copy's create makes its own image's type")
    func eachImageMakesItsOwnTypes() async throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let compiled = try await Self.offMain { try Self.compile(Self.copySource, module: "SameCopy", in: folder) }
        // More copies than an image has create slots (16), so no slot is shared between images either.
        let copies = try (0..<20).map { try folder.copy(compiled, to: "libSame-\($0).so") }

        let loader = PluginLoader(allowWritable: true)
        let sink = HostLogRecorder()
        for copy in copies {
            let image = try loader.loadImage(at: copy)
            #expect(image.descriptor.pointee.create != nil)
            let subscriber = try CSubscriber(creating: "Same", from: image.descriptor,
                                             context: sink.context(for: "Same", application: testApplication))
            defer { subscriber.destroy() }
            _ = await Solo(subscriber).deliver(.didBecomeActive)
            #expect(sink.drain().map(\.message) == [FilePaths.lastComponent(copy)],
                    "the subscriber made from \(copy) is that image's type")
        }
    }

    @Test("a plugin built against another SDK generation is refused at load, naming both generations")
    func anotherGenerationIsRefused() async throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        // What a plugin of generation 9 asks of the SDK: a symbol no generation-1 library defines.
        let later = "$s13SubscriberKit0A6PluginO21_sdkGeneration9Export5imageyyFZ"
        let source = """
        import SubscriberKit

        @_silgen_name("\(later)")
        func exportOfALaterGeneration()

        @_cdecl("adh_plugin_entry")
        public func pluginEntry() -> UnsafeRawPointer {
            exportOfALaterGeneration()
            return UnsafeRawPointer(bitPattern: 1)!
        }
        """
        let library = try await Self.offMain { try Self.compile(source, module: "LaterGeneration", in: folder) }
        #expect(SubscriberPlugin.sdkGeneration != 9)
        do {
            _ = try PluginLoader(allowWritable: true).loadImage(at: library)
            Issue.record("expected \(library) to be refused")
        } catch {
            let message = error.description
            #expect(message.contains("built against Swift plugin SDK generation 9"), "\(message)")
            #expect(message.contains("libSubscriberKit.so) is generation \(SubscriberPlugin.sdkGeneration)"), "\(message)")
            #expect(message.contains("rebuild the plugin against the host's SubscriberKit"), "\(message)")
            #expect(message.contains(later), "the dynamic linker's own words are kept: \(message)")
        }
    }

    @Test("dlopen's words about the SDK become the user's: missing, another generation, another build; others untouched")
    func explanations() throws {
        #expect(SharedSDK.load())  // this process's copy, as a plugin that needs it would have had loaded
        let loaded = try #require(SharedSDK.loaded())
        #expect(loaded.path.hasSuffix("/libSubscriberKit.so") && loaded.generation == SubscriberPlugin.sdkGeneration)
        let missing = SharedSDK.explain("libSubscriberKit.so: cannot open shared object file: No such file or directory")
        #expect(missing?.contains("it needs libSubscriberKit.so, the shared Swift plugin SDK, which the host provides") == true)
        let generation = SharedSDK.explain("/p/libX.so: undefined symbol: $s13SubscriberKit0A6PluginO21_sdkGeneration3CreateyyF")
        #expect(generation?.contains("built against Swift plugin SDK generation 3, and the libSubscriberKit.so this process loaded (\(loaded.path))") == true)
        let changed = SharedSDK.explain("/p/libX.so: undefined symbol: $s20SubscriberEventModel9SomethingV")
        #expect(changed?.contains("built against another Swift plugin SDK than the libSubscriberKit.so this process loaded") == true)
        #expect(SharedSDK.explain("/p/libX.so: undefined symbol: some_c_function") == nil)
        #expect(SharedSDK.explain("libOther.so: cannot open shared object file: No such file or directory") == nil)
        #expect(SharedSDK.explain("libSubscriberKit.so.1: cannot open shared object file: No such file or directory") == nil)
    }

    @Test("libSubscriberKit.so defines the functions of its own generation and names no other")
    func theLibraryCarriesItsGeneration() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: BuiltProducts.library("SubscriberKit")))
        let generation = SubscriberPlugin.sdkGeneration
        for function in ["_sdkGeneration\(generation)Export", "_sdkGeneration\(generation)Create"] {
            #expect(bytes.range(of: Data(function.utf8)) != nil, "expected \(function) in libSubscriberKit.so")
        }
        var named = Set<Int>()
        var rest = bytes[...]
        while let found = rest.range(of: Data("_sdkGeneration".utf8)) {
            let digits = rest[found.upperBound...].prefix { (0x30...0x39).contains($0) }
            if let number = Int(String(decoding: digits, as: UTF8.self)) { named.insert(number) }
            rest = rest[found.upperBound...]
        }
        #expect(named == [generation])
    }

    @Test("a host without libSubscriberKit.so, or with one that does not load, refuses a shared-SDK plugin in one line")
    func hostWithoutTheLibrary() async throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let library = try await Self.offMain { try Self.compile(Self.copySource, module: "Lonely", in: folder) }
        let host = try folder.subdirectory("bin")
        let apphost = try Self.copyExecutable(BuiltProducts.file("apphost"), to: host.file("apphost"))
        let manifest = try folder.write("manifest.json", """
            {"app": {"name": "Lonely", "bundleIdentifier": "com.example.lonely"}, "plugins": [{"path": "\(library)"}]}
            """)
        // A scan cache of its own: one that saw this plugin load under another host would answer for it.
        let cache = try folder.subdirectory("cache").path
        /// `list`'s one error line about the plugin, after its exit status.
        func listed() async throws -> (status: Int32, errors: [Substring], stdout: String) {
            let result = try await Self.offMain { try Self.run(apphost, ["list", "--manifest", manifest], cache: cache) }
            return (result.status, result.stdout.split(separator: "\n").filter { $0.contains("error ") }, result.stdout)
        }

        let none = try await listed()
        #expect(none.status != 0)
        #expect(none.errors.count == 1, "\(none.stdout)")
        #expect(none.errors.first.map { $0.contains("check 4 failed: plugin \"\(library)\"") && $0.contains("it needs libSubscriberKit.so")
                    && $0.contains("beside its executable: \(host.path)), found none") } == true, "\(none.stdout)")

        // A file of that name that is no library: found, and said so.
        try host.write("libSubscriberKit.so", "not a library\n", mode: 0o755)
        let broken = try await listed()
        #expect(broken.status != 0)
        #expect(broken.errors.count == 1, "\(broken.stdout)")
        #expect(broken.errors.first.map { $0.contains("found \(host.path)/libSubscriberKit.so, which did not load") } == true,
                "\(broken.stdout)")

        // The library itself beside that apphost: the plugin loads.
        try FileManager.default.removeItem(atPath: host.file("libSubscriberKit.so"))
        try host.copy(BuiltProducts.library("SubscriberKit"), to: "libSubscriberKit.so")
        let beside = try await Self.offMain { try Self.run(apphost, ["list", "--manifest", manifest], cache: cache) }
        #expect(beside.status == 0, "\(beside.stderr)")
        #expect(beside.stdout.contains("subscribers  Same"), "\(beside.stdout)")
    }

    @Test("a shared-SDK plugin in an isolated child: the child gets the host's library too, and each event reaches it")
    func inAnIsolatedChild() async throws {
        let folder = try TestDirectory()
        defer { folder.remove() }
        let library = try await Self.offMain { try Self.compile(Self.copySource, module: "Isolated", in: folder) }
        let manifest = try folder.write("manifest.json", """
            {"app": {"name": "Isolated", "bundleIdentifier": "com.example.isolated"}, "isolation": "process",
             "plugins": [{"path": "\(library)"}]}
            """)
        let script = try folder.write("events.jsonl", "{\"event\": \"didFinishLaunching\"}\n{\"event\": \"didBecomeActive\"}\n")
        let cache = try folder.subdirectory("cache").path
        let result = try await Self.offMain {
            try Self.run(BuiltProducts.file("apphost"), ["--manifest", manifest, "--events", script, "--json"], cache: cache)
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""isolation":"process""#), "\(result.stdout)")
        #expect(result.stdout.contains(#"{"event":"didBecomeActive","result":null,"answers":[{"subscriber":"Same","answer":null"#),
                "\(result.stdout)")
        #expect(result.stderr.contains("[Same] info: libIsolated.so"), "its log line names its own image: \(result.stderr)")
    }

    /// `program arguments`' exit status and output, with `XDG_CACHE_HOME` set to `cache`.
    nonisolated static func run(_ program: String, _ arguments: [String], cache: String) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        // Between another thread's fork and its child's exec, the child holds every descriptor of this
        // process open: an executable just copied can be busy (ETXTBSY) for that moment. Bounded tries.
        for attempt in 1... {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": cache]) { $1 }
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            do {
                try process.run()
            } catch where attempt < 100 && Self.isBusy(error) {
                usleep(20_000)
                continue
            }
            let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
        }
        fatalError("unreachable")
    }

    /// Whether running a program failed because its file was busy (ETXTBSY): Foundation's own error
    /// code with the system's underneath (as CI saw it), or the system's alone.
    nonisolated static func isBusy(_ error: any Error) -> Bool {
        let error = error as NSError
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        return [error, underlying].contains { $0?.domain == NSPOSIXErrorDomain && $0?.code == Int(ETXTBSY) }
    }

    /// Copies the executable `source` to `target` (mode 0755) through a close-on-exec descriptor, so
    /// that no child another test starts meanwhile keeps it open for writing (which makes running it
    /// fail with ETXTBSY).
    nonisolated static func copyExecutable(_ source: String, to target: String) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw TestSetupError("open \(target): errno \(errno)") }
        defer { close(fd) }
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = write(fd, buffer.baseAddress! + written, buffer.count - written)
                guard count > 0 else { throw TestSetupError("write \(target): errno \(errno)") }
                written += count
            }
        }
        return target
    }

    /// `body`'s result, run on a thread of its own (compiling and running processes block).
    nonisolated static func offMain<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
