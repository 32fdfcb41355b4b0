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
/// where `$ORIGIN` finds nothing; so when `dlopen` says that library is missing, the host loads its
/// own copy once, under that same name, and the dynamic linker hands it to every plugin that needs it.
/// Plugins that carry the SDK's objects (this package's own) never need it. [main-thread]
package enum SharedSDK {
    /// The library's file name, as plugins' `DT_NEEDED` entries give it.
    package static let fileName = "libSubscriberKit.so"

    /// The generation this host's SDK is (`SubscriberPlugin.sdkGeneration`): a plugin built against
    /// another one does not load.
    static var generation: Int { SubscriberPlugin.sdkGeneration }

    /// Where the loaded library came from (nil: not loaded yet), or why it could not be loaded.
    private static let state = Mutex<Result<String, Failure>?>(nil)

    package struct Failure: Error { package let reason: String }

    /// Whether `dlerror` text says the library missing was this one.
    package static func isMissing(in reason: String) -> Bool {
        reason.hasPrefix(fileName + ": cannot open shared object file")
    }

    /// Loads the host's copy (once); its path, or why not.
    package static func load() -> Result<String, Failure> {
        state.withLock { state in
            if let state { return state }
            _ = dlerror()
            let result: Result<String, Failure>
            if let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) {
                result = .success(adh_host_library_path(handle).map { String(cString: $0) } ?? fileName)
            } else {
                let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
                result = .failure(Failure(reason: reason))
            }
            state = result
            return result
        }
    }

    /// The reason a plugin that needs the shared SDK did not load, in the user's terms: `reason` is
    /// `dlerror` for a plugin whose `dlopen` failed; nil when the failure is not about the SDK.
    package static func explain(_ reason: String) -> String? {
        if isMissing(in: reason) {
            let beside = FilePaths.executableDirectory().map { " (beside its executable: \($0))" } ?? ""
            let found: String
            if case .failure(let failure)? = state.withLock({ $0 }) { found = failure.reason } else { found = reason }
            return "it needs \(fileName), the shared Swift plugin SDK, which the host provides: expected it where "
                + "the host finds its libraries\(beside), found none (\(found))"
        }
        guard let symbol = undefinedSDKSymbol(in: reason) else { return nil }
        let library = (try? state.withLock({ $0 })?.get()) ?? fileName
        if let built = generation(inSymbol: symbol), built != generation {
            return "it was built against Swift plugin SDK generation \(built), and this host's \(library) is "
                + "generation \(generation): rebuild the plugin against the host's SubscriberKit (\(reason))"
        }
        return "it was built against another Swift plugin SDK than this host's \(library) (generation "
            + "\(generation)): rebuild the plugin against the host's SubscriberKit (\(reason))"
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
