#if canImport(Glibc)
import Glibc
#endif
import SubscriberHost

/// `dlopen` of a plugin file as the host does it: a plugin that links the shared Swift plugin SDK
/// (`libSubscriberKit.so`, as plugins of other packages do) gets the host's copy — when `dlopen`
/// fails naming that library, ``SharedSDK`` loads it (from where this executable finds its own
/// libraries) and the plugin is opened once more. No `LD_LIBRARY_PATH`.
enum PluginOpen {
    /// The handle of `path`, or one line saying why not.
    static func open(_ path: String, flags: Int32 = RTLD_NOW | RTLD_LOCAL) throws(BenchError) -> UnsafeMutableRawPointer {
        switch SharedSDK.open(path, flags: flags) {
        case .success(let handle): return handle
        case .failure(let failure): throw BenchError("dlopen \(path): " + (SharedSDK.explain(failure.reason) ?? failure.reason))
        }
    }

    /// `path`'s handle and its `adh_plugin_entry` symbol, or one line saying why not.
    static func entry(of path: String) throws(BenchError) -> (handle: UnsafeMutableRawPointer, entry: UnsafeMutableRawPointer) {
        let handle = try open(path)
        guard let symbol = dlsym(handle, "adh_plugin_entry") else {
            throw BenchError("\(path): expected an adh_plugin_entry symbol, found none")
        }
        return (handle, symbol)
    }
}
