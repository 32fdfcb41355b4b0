#if canImport(Glibc)
import Glibc
#endif
internal import HostDynamicLinker
import SubscriberKit
import Synchronization

/// The Swift plugin SDK as one shared library, `libSubscriberKit.so`: what a Swift plugin built in
/// another package links (SwiftPM's `SubscriberKit` product), so that a thousand plugins run one copy
/// of the SDK's code instead of a thousand. The host provides it, as an app provides the libraries
/// its plugins run on: from where the host finds its own libraries (beside its executable, as SwiftPM
/// builds and links it).
///
/// A plugin names it as `libSubscriberKit.so`, and is loaded from its open file (`/proc/self/fd/N`),
/// where `$ORIGIN` finds nothing. The dynamic linker looks for it where it looks for any library (a
/// copy there, such as one on `LD_LIBRARY_PATH`, is used as it is); when none is found the plugin's
/// `dlopen` fails naming it, and the host loads its own copy under that same name and tries again:
/// the dynamic linker then hands that copy to every plugin that needs it. Plugins that carry the SDK's
/// objects (this package's own) never need it. [any-thread]
package enum SharedSDK {
    /// The library's file name, as plugins' `DT_NEEDED` entries give it.
    package static let fileName = "libSubscriberKit.so"

    /// Where the host's copy was loaded from (nil: not loaded), and why the last try failed. A failure
    /// is not kept as an answer: a library installed since is found by the next plugin that needs it.
    private static let state = Mutex<(path: String?, failure: String?)>((nil, nil))

    /// Whether `dlerror` text is about this library: glibc writes the object's name, a colon and a
    /// space, then the message in the locale's language; the name is the one a plugin needs.
    package static func isNamed(in reason: String) -> Bool { reason.hasPrefix(fileName + ": ") }

    /// Loads the host's copy unless it is loaded: true when it is (a `dlopen` that failed for want of
    /// it is worth one more try).
    package static func load() -> Bool {
        state.withLock { state in
            if state.path != nil { return true }
            _ = dlerror()
            guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
                state.failure = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
                return false
            }
            state.path = adh_host_library_path(handle).map { String(cString: $0) } ?? fileName
            return true
        }
    }

    /// `dlopen(name, flags)` as a plugin is opened: when it fails naming this library, the host's copy
    /// is loaded and the plugin opened once more. The handle, or `dlerror`'s text.
    package static func open(_ name: String, flags: Int32) -> Result<UnsafeMutableRawPointer, Failure> {
        for attempt in 1...2 {
            _ = dlerror()
            if let handle = dlopen(name, flags) { return .success(handle) }
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            guard attempt == 1, isNamed(in: reason), load() else { return .failure(Failure(reason: reason)) }
        }
        fatalError("unreachable: the second attempt returns")
    }

    /// Why `dlopen` refused a file: its own words.
    package struct Failure: Error { package let reason: String }

    /// The `libSubscriberKit.so` this process has loaded, whoever loaded it: its path and generation
    /// (nil when none is loaded, or it does not say).
    package static func loaded() -> (path: String, generation: Int?)? {
        // The handle is kept, never given back with `dlclose`: a Swift image must never be closed (the
        // runtime keeps pointers into it), and one reference for the life of the process is all it takes.
        let handle = loadedHandle.withLock { kept -> UncheckedSendable<UnsafeMutableRawPointer>? in
            if kept == nil { kept = dlopen(fileName, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD).map(UncheckedSendable.init) }
            return kept
        }?.value
        guard let handle else { return nil }
        let path = adh_host_library_path(handle).map { String(cString: $0) } ?? fileName
        typealias GenerationFunction = @convention(c) () -> Int
        let generation = dlsym(handle, "adh_swift_sdk_generation").map { unsafeBitCast($0, to: GenerationFunction.self)() }
        return (path, generation)
    }

    /// The handle ``loaded()`` found, kept open for the life of the process.
    private static let loadedHandle = Mutex<UncheckedSendable<UnsafeMutableRawPointer>?>(nil)

    /// The reason a plugin that needs the shared SDK did not load, in the user's terms: `reason` is
    /// `dlerror` for a plugin whose `dlopen` failed; nil when the failure is not about the SDK (or
    /// `dlerror` speaks another language than English).
    package static func explain(_ reason: String) -> String? {
        if isNamed(in: reason) {
            return missing(reason)
        }
        guard let symbol = undefinedSDKSymbol(in: reason), let library = loaded() else { return nil }
        let generation = library.generation.map { "generation \($0)" } ?? "a generation it does not say"
        if let built = Self.generation(inSymbol: symbol), built != library.generation {
            return "it was built against Swift plugin SDK generation \(built), and the \(fileName) this process "
                + "loaded (\(library.path)) is \(generation): rebuild the plugin against the host's SubscriberKit (\(reason))"
        }
        return "it was built against another Swift plugin SDK than the \(fileName) this process loaded "
            + "(\(library.path), \(generation)): rebuild the plugin against the host's SubscriberKit (\(reason))"
    }

    /// Why the host has no copy to give, and where it looked.
    private static func missing(_ reason: String) -> String {
        let folder = FilePaths.executableDirectory()
        let beside = folder.map { $0 + "/" + fileName }
        let looked = "expected it where the host finds its libraries" + (folder.map { " (beside its executable: \($0))" } ?? "")
        let failure = state.withLock { $0.failure } ?? reason
        if let beside, FilePaths.isRegularFile(beside) {
            return "it needs \(fileName), the shared Swift plugin SDK, which the host provides: \(looked), found "
                + "\(beside), which did not load (\(failure))"
        }
        return "it needs \(fileName), the shared Swift plugin SDK, which the host provides: \(looked), found none "
            + "(\(failure)); in a clone of AppDelegateHost, `swift build --product SubscriberKit` builds it"
    }

    /// The undefined symbol `dlerror` names, when it is one of the SDK's modules' (Swift mangling:
    /// `$s` and the module name with its length).
    private static func undefinedSDKSymbol(in reason: String) -> Substring? {
        guard let marker = reason.firstRange(of: "undefined symbol: ") else { return nil }
        let symbol = reason[marker.upperBound...].prefix { $0 != " " && $0 != "," && $0 != "\n" }
        let modules = ["$s13SubscriberKit", "$s20SubscriberEventModel", "$s16SubscriberValues"]
        return modules.contains { symbol.hasPrefix($0) } ? symbol : nil
    }

    /// The generation in one of the generation-named functions' symbols (`_sdkGeneration7Export`).
    private static func generation(inSymbol symbol: Substring) -> Int? {
        guard let marker = symbol.firstRange(of: "_sdkGeneration") else { return nil }
        return Int(symbol[marker.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
}
